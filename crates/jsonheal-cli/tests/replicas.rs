//! Two real `jsonheal serve` processes (replicas) on one PostgreSQL database, in front of a
//! scripted upstream, managed with `jsonheal accounts` as a user would: any replica serves
//! any account, key changes reach both at once, tool-call records and limits are shared, and
//! starting both together migrates the database once.
#![allow(clippy::unwrap_used)]

mod common;

#[path = "../../jsonheal-gateway/tests/pg/mod.rs"]
mod pg;

use std::io::{BufRead, BufReader};
use std::process::{Child, Command, Stdio};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use axum::routing::{get, post};
use axum::{Json, Router};
use serde_json::{json, Value};

use common::command as jsonheal;

/// `jsonheal accounts --db URL ARGS`: its stdout, or a panic with its stderr.
fn accounts(db: &str, args: &[&str]) -> String {
    let out = jsonheal()
        .args(["accounts", "--db", db])
        .args(args)
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "accounts {args:?}: {stderr}");
    String::from_utf8(out.stdout).unwrap()
}

/// An upstream that answers every chat completion with a tool call whose arguments need
/// repair, costing 10 tokens.
async fn upstream() -> String {
    let app = Router::new()
        .route(
            "/v1/chat/completions",
            post(|| async {
                Json(json!({
                    "id": "chatcmpl-t", "object": "chat.completion", "created": 1,
                    "model": "stub-model",
                    "choices": [{"index": 0, "message": {"role": "assistant", "content": null,
                        "tool_calls": [{"id": "call_1", "type": "function",
                            "function": {"name": "read_file",
                                         "arguments": "{path: 'a.txt',}"}}]},
                        "finish_reason": "tool_calls"}],
                    "usage": {"prompt_tokens": 6, "completion_tokens": 4, "total_tokens": 10}
                }))
            }),
        )
        .route(
            "/v1/models",
            get(|| async { Json(json!({"object": "list", "data": []})) }),
        );
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    tokio::spawn(async move { axum::serve(listener, app).await });
    format!("http://{addr}/v1")
}

/// A running `jsonheal serve`; killed when dropped (a test that fails leaves no process).
struct Replica {
    child: Child,
    url: String,
    log: Arc<Mutex<Vec<String>>>,
}

impl Replica {
    /// Start one; its address is read from its log by [`Replica::ready`].
    fn spawn(upstream: &str, db: &str) -> Child {
        jsonheal()
            .args([
                "serve",
                "--upstream",
                upstream,
                "--listen",
                "127.0.0.1:0",
                "--db",
                db,
            ])
            .stdout(Stdio::null())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap()
    }

    /// Wait for `child` to log its address, then keep draining its log.
    fn ready(mut child: Child) -> Replica {
        let mut lines = BufReader::new(child.stderr.take().unwrap()).lines();
        let started = Instant::now();
        let mut seen = Vec::new();
        let addr = loop {
            let Some(Ok(line)) = lines.next() else {
                panic!("the replica exited before listening: {seen:#?}");
            };
            if let Some(rest) = line.split("addr=").nth(1) {
                break rest.split_whitespace().next().unwrap().to_owned();
            }
            seen.push(line);
            assert!(
                started.elapsed() < Duration::from_secs(60),
                "no address logged: {seen:#?}"
            );
        };
        let log = Arc::new(Mutex::new(seen));
        let sink = Arc::clone(&log);
        std::thread::spawn(move || {
            for line in lines.map_while(Result::ok) {
                sink.lock().unwrap().push(line);
            }
        });
        Replica {
            child,
            url: format!("http://{addr}"),
            log,
        }
    }

    /// Stop with SIGTERM (the request log is flushed) and wait.
    fn stop(mut self) {
        let status = Command::new("kill")
            .args(["-TERM", &self.child.id().to_string()])
            .status()
            .unwrap();
        assert!(status.success());
        let exit = self.child.wait().unwrap();
        assert!(exit.success(), "{exit:?}: {:#?}", self.log.lock().unwrap());
    }
}

impl Drop for Replica {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// Two replicas started at the same moment on a fresh database.
struct Cluster {
    db: pg::TestDb,
    replicas: [Replica; 2],
    client: reqwest::Client,
}

impl Cluster {
    async fn start() -> Option<Cluster> {
        let db = pg::TestDb::create()?;
        let up = upstream().await;
        // Both processes start before either is waited for: they migrate concurrently.
        let (a, b) = (Replica::spawn(&up, &db.url), Replica::spawn(&up, &db.url));
        let replicas = [Replica::ready(a), Replica::ready(b)];
        Some(Cluster {
            db,
            replicas,
            client: reqwest::Client::builder()
                .timeout(Duration::from_secs(60))
                .build()
                .unwrap(),
        })
    }

    /// A chat completion with a tool, through replica `i`.
    async fn chat(&self, i: usize, key: &str) -> reqwest::Response {
        self.client
            .post(format!("{}/v1/chat/completions", self.replicas[i].url))
            .bearer_auth(key)
            .json(&json!({
                "model": "stub-model",
                "messages": [{"role": "user", "content": "read a.txt"}],
                "tools": [{"type": "function", "function": {"name": "read_file",
                    "parameters": {"type": "object",
                                   "properties": {"path": {"type": "string"}},
                                   "required": ["path"]}}}]
            }))
            .send()
            .await
            .unwrap()
    }

    async fn get(&self, i: usize, key: &str, path: &str) -> reqwest::Response {
        self.client
            .get(format!("{}{path}", self.replicas[i].url))
            .bearer_auth(key)
            .send()
            .await
            .unwrap()
    }

    /// Wait until the replicas' request logs hold `n` lines (they write in batches).
    fn wait_for_requests(&self, n: usize) {
        let deadline = Instant::now() + Duration::from_secs(30);
        loop {
            let count = self.db.query("SELECT COUNT(*) FROM requests");
            if count == [n.to_string()] {
                return;
            }
            assert!(
                Instant::now() < deadline,
                "{count:?} request lines, not {n}"
            );
            std::thread::sleep(Duration::from_millis(20));
        }
    }
}

fn account(db: &str, name: &str) -> String {
    accounts(db, &["create", name]).trim().to_owned()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn starting_together_migrates_once_and_any_replica_serves_any_account() {
    let Some(c) = Cluster::start().await else {
        return;
    };
    let versions =
        c.db.query("SELECT version FROM schema_migrations ORDER BY version");
    // Each migration applied once, in order: 1, 2, … (a second run would repeat a number).
    let expected: Vec<String> = (1..=versions.len()).map(|v| v.to_string()).collect();
    assert!(!versions.is_empty(), "migrations applied");
    assert_eq!(versions, expected, "each migration applied once");

    // Created while both run: both serve it at once.
    let key = account(&c.db.url, "acme");
    for i in 0..2 {
        let r = c.chat(i, &key).await;
        assert_eq!(r.status(), 200, "replica {i}");
    }
    // Rotated: the old key is refused by both, the new one served by both.
    let new_key = accounts(&c.db.url, &["rotate-key", "acme"])
        .trim()
        .to_owned();
    for i in 0..2 {
        let r = c.chat(i, &key).await;
        assert_eq!(r.status(), 401, "replica {i}");
        let body: Value = r.json().await.unwrap();
        assert_eq!(body["error"]["code"], "invalid_api_key");
        assert_eq!(c.chat(i, &new_key).await.status(), 200, "replica {i}");
    }
    // Deleted: refused by both.
    accounts(&c.db.url, &["delete", "acme"]);
    for i in 0..2 {
        assert_eq!(c.chat(i, &new_key).await.status(), 401, "replica {i}");
    }
    for r in c.replicas {
        r.stop();
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn tool_calls_recorded_by_one_replica_are_replayed_by_the_other() {
    let Some(c) = Cluster::start().await else {
        return;
    };
    let key = account(&c.db.url, "acme");
    let r = c.chat(0, &key).await;
    assert_eq!(r.status(), 200);
    let body: Value = r.json().await.unwrap();
    assert_eq!(
        body["choices"][0]["message"]["tool_calls"][0]["function"]["arguments"],
        r#"{"path":"a.txt"}"#
    );
    let list: Value = c.get(1, &key, "/v1/tool_calls").await.json().await.unwrap();
    let records = list["data"].as_array().unwrap();
    assert_eq!(records.len(), 1, "{list}");
    assert_eq!(records[0]["raw_arguments"], "{path: 'a.txt',}");
    assert_eq!(records[0]["input"], json!({"path": "a.txt"}));
    let id = records[0]["id"].as_i64().unwrap();
    let one = c.get(1, &key, &format!("/v1/tool_calls/{id}")).await;
    assert_eq!(one.status(), 200);
    // Another account sees none of it, on either replica.
    let other = account(&c.db.url, "other");
    for i in 0..2 {
        let list: Value = c
            .get(i, &other, "/v1/tool_calls")
            .await
            .json()
            .await
            .unwrap();
        assert_eq!(list["data"], json!([]));
        let r = c.get(i, &other, &format!("/v1/tool_calls/{id}")).await;
        assert_eq!(r.status(), 404);
    }
    for r in c.replicas {
        r.stop();
    }
}

fn assert_rate_limited(status: u16, headers: &reqwest::header::HeaderMap, body: &Value) {
    assert_eq!(status, 429, "{body}");
    let retry: u64 = headers["retry-after"].to_str().unwrap().parse().unwrap();
    assert!(retry >= 1, "{retry}");
    assert_eq!(body["error"]["code"], "rate_limit_exceeded", "{body}");
    assert!(body["error"]["message"].as_str().unwrap().contains("limit"));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn limits_hold_across_both_replicas_and_usage_is_shared() {
    let Some(c) = Cluster::start().await else {
        return;
    };
    let key = account(&c.db.url, "acme");
    // Off by default: more requests than the limit below, spread over both.
    for i in 0..6 {
        assert_eq!(c.chat(i % 2, &key).await.status(), 200);
    }
    let set = accounts(&c.db.url, &["set", "acme", "--rpm", "4"]);
    assert!(set.contains("rpm: 4"), "{set}");
    for i in 0..4 {
        assert_eq!(c.chat(i % 2, &key).await.status(), 200, "request {i}");
    }
    for i in 0..2 {
        let r = c.chat(i, &key).await;
        let (status, headers) = (r.status().as_u16(), r.headers().clone());
        let body: Value = r.json().await.unwrap();
        assert_rate_limited(status, &headers, &body);
        assert_eq!(body["error"]["type"], "requests");
    }
    // Another account is not limited by acme's rate.
    let other = account(&c.db.url, "other");
    assert_eq!(c.chat(0, &other).await.status(), 200);

    // Tokens per day: 10 recorded requests of 10 tokens are 100; the limit is 100.
    accounts(
        &c.db.url,
        &["set", "acme", "--rpm", "off", "--tokens-per-day", "100"],
    );
    c.wait_for_requests(11);
    for i in 0..2 {
        let r = c.chat(i, &key).await;
        let (status, headers) = (r.status().as_u16(), r.headers().clone());
        let body: Value = r.json().await.unwrap();
        assert_rate_limited(status, &headers, &body);
        assert_eq!(body["error"]["type"], "tokens");
    }
    accounts(&c.db.url, &["set", "acme", "--tokens-per-day", "off"]);
    assert_eq!(c.chat(1, &key).await.status(), 200);

    for r in c.replicas {
        r.stop();
    }
    // Usage, from the shared log: 11 admitted requests of acme (refusals are not usage).
    let usage = accounts(&c.db.url, &["usage", "acme", "--json"]);
    let rows: Vec<Value> = usage
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(rows.len(), 1, "{usage}");
    let u = &rows[0];
    assert_eq!(u["model"], "stub-model");
    assert_eq!(u["requests"], 11);
    assert_eq!(u["errors"], 0);
    assert_eq!(
        u["repaired"], 11,
        "each tool call's arguments were repaired"
    );
    assert_eq!(
        (
            &u["prompt_tokens"],
            &u["completion_tokens"],
            &u["total_tokens"]
        ),
        (&json!(66), &json!(44), &json!(110))
    );
    let text = accounts(&c.db.url, &["usage", "acme", "--since", "1h"]);
    assert!(text.contains("tokens today (UTC): 110"), "{text}");
    let later = accounts(
        &c.db.url,
        &["usage", "acme", "--since", "2999-01-01", "--json"],
    );
    assert!(later.trim().is_empty(), "{later}");
}
