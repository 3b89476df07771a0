//! Test harness: a scripted upstream (a real HTTP server replaying queued replies and
//! recording what it received) and a gateway started in-process on 127.0.0.1:0.
#![allow(dead_code, clippy::unwrap_used)]

use std::collections::VecDeque;
use std::path::PathBuf;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use axum::body::Body;
use axum::extract::State;
use axum::http::{HeaderMap, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use axum::Router;
use bytes::Bytes;
use jsonheal_gateway::config::Config;
use jsonheal_gateway::store::{SqliteStore, Store};
use jsonheal_gateway::AppState;
use serde_json::{json, Value};
use tokio::net::TcpListener;
use tokio::sync::oneshot;

/// One scripted upstream reply.
pub enum Reply {
    /// A JSON body with a status and extra headers.
    Json(u16, Value, Vec<(&'static str, &'static str)>),
    /// A body of any content type.
    Raw(u16, &'static str, String),
    /// An SSE stream: each string is sent as its own body chunk.
    Sse(Vec<String>),
    /// An SSE stream that breaks (connection error) after these chunks.
    SseBroken(Vec<String>),
    /// Headers, then the body fails: the connection is cut mid-response.
    Reset,
    /// Wait, then answer.
    Delay(Duration, Box<Reply>),
}

#[derive(Clone, Default)]
pub struct Script {
    replies: Arc<Mutex<VecDeque<Reply>>>,
    received: Arc<Mutex<Vec<(HeaderMap, Value)>>>,
}

pub struct Upstream {
    pub url: String,
    script: Script,
    _shutdown: oneshot::Sender<()>,
}

impl Upstream {
    pub fn push(&self, r: Reply) {
        self.script.replies.lock().unwrap().push_back(r);
    }

    /// The request bodies received so far.
    pub fn bodies(&self) -> Vec<Value> {
        self.script
            .received
            .lock()
            .unwrap()
            .iter()
            .map(|(_, b)| b.clone())
            .collect()
    }

    pub fn headers(&self, i: usize) -> HeaderMap {
        self.script.received.lock().unwrap()[i].0.clone()
    }

    pub fn calls(&self) -> usize {
        self.script.received.lock().unwrap().len()
    }
}

fn respond(reply: Reply) -> std::pin::Pin<Box<dyn std::future::Future<Output = Response> + Send>> {
    Box::pin(async move {
        match reply {
            Reply::Json(status, body, headers) => {
                let mut r = (
                    StatusCode::from_u16(status).unwrap(),
                    [("content-type", "application/json")],
                    body.to_string(),
                )
                    .into_response();
                for (k, v) in headers {
                    r.headers_mut().insert(k, v.parse().unwrap());
                }
                r
            }
            Reply::Raw(status, ct, body) => (
                StatusCode::from_u16(status).unwrap(),
                [("content-type", ct)],
                body,
            )
                .into_response(),
            Reply::Sse(chunks) => sse(chunks, false),
            Reply::SseBroken(chunks) => sse(chunks, true),
            Reply::Reset => {
                let stream = futures_util::stream::iter(vec![
                    Ok::<Bytes, std::io::Error>(Bytes::from_static(b"{\"id\": \"x\", ")),
                    Err(std::io::Error::other("cut")),
                ]);
                (
                    [("content-type", "application/json")],
                    Body::from_stream(stream),
                )
                    .into_response()
            }
            Reply::Delay(d, inner) => {
                tokio::time::sleep(d).await;
                respond(*inner).await
            }
        }
    })
}

fn sse(chunks: Vec<String>, broken: bool) -> Response {
    let stream = futures_util::stream::unfold(
        (chunks.into_iter(), broken),
        |(mut it, broken)| async move {
            match it.next() {
                Some(c) => {
                    tokio::time::sleep(Duration::from_millis(5)).await;
                    Some((Ok::<Bytes, std::io::Error>(Bytes::from(c)), (it, broken)))
                }
                None if broken => {
                    // Let the chunks before reach the client before the connection is cut.
                    tokio::time::sleep(Duration::from_millis(100)).await;
                    Some((
                        Err(std::io::Error::other("cut")),
                        (Vec::new().into_iter(), false),
                    ))
                }
                None => None,
            }
        },
    );
    (
        [("content-type", "text/event-stream")],
        Body::from_stream(stream),
    )
        .into_response()
}

async fn chat(State(script): State<Script>, headers: HeaderMap, body: Bytes) -> Response {
    let value: Value = serde_json::from_slice(&body).unwrap_or(Value::Null);
    script.received.lock().unwrap().push((headers, value));
    let reply = script.replies.lock().unwrap().pop_front();
    match reply {
        Some(r) => respond(r).await,
        None => (StatusCode::INTERNAL_SERVER_ERROR, "no scripted reply left").into_response(),
    }
}

async fn models() -> Response {
    axum::Json(json!({"object": "list", "data": [{"id": "stub-model", "object": "model"}]}))
        .into_response()
}

pub async fn upstream() -> Upstream {
    let script = Script::default();
    let app = Router::new()
        .route("/v1/chat/completions", post(chat))
        .route("/v1/models", get(models))
        .with_state(script.clone());
    let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    let (tx, rx) = oneshot::channel::<()>();
    tokio::spawn(async move {
        let _ = axum::serve(listener, app)
            .with_graceful_shutdown(async {
                let _ = rx.await;
            })
            .await;
    });
    Upstream {
        url: format!("http://{addr}/v1"),
        script,
        _shutdown: tx,
    }
}

/// A port nothing listens on.
pub async fn dead_url() -> String {
    let l = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let addr = l.local_addr().unwrap();
    drop(l);
    format!("http://{addr}/v1")
}

static COUNTER: AtomicU64 = AtomicU64::new(0);

pub struct TempDir(pub PathBuf);

impl TempDir {
    pub fn new() -> TempDir {
        let n = COUNTER.fetch_add(1, Ordering::Relaxed);
        let nanos = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .unwrap()
            .as_nanos();
        let p =
            std::env::temp_dir().join(format!("jsonheal-gw-{}-{n}-{nanos}", std::process::id()));
        std::fs::create_dir_all(&p).unwrap();
        TempDir(p)
    }
}

impl Drop for TempDir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

pub struct Gateway {
    pub url: String,
    pub store: Arc<SqliteStore>,
    pub key: String,
    pub client: reqwest::Client,
    shutdown: Option<oneshot::Sender<()>>,
    handle: Option<tokio::task::JoinHandle<anyhow::Result<()>>>,
    _dir: TempDir,
}

impl Gateway {
    pub fn post(&self, body: &Value) -> reqwest::RequestBuilder {
        self.client
            .post(format!("{}/v1/chat/completions", self.url))
            .bearer_auth(&self.key)
            .json(body)
    }

    pub fn get(&self, path: &str) -> reqwest::RequestBuilder {
        self.client
            .get(format!("{}{path}", self.url))
            .bearer_auth(&self.key)
    }

    /// Stop the server and wait for it to finish.
    pub async fn stop(mut self) {
        if let Some(tx) = self.shutdown.take() {
            let _ = tx.send(());
        }
        if let Some(h) = self.handle.take() {
            tokio::time::timeout(Duration::from_secs(60), h)
                .await
                .expect("the gateway stops")
                .expect("the task ends")
                .expect("the server ends cleanly");
        }
    }
}

/// Start a gateway in front of `upstream_url` with an account `test` (auto-heal off).
pub async fn gateway(upstream_url: &str, tweak: impl FnOnce(&mut Config)) -> Gateway {
    let dir = TempDir::new();
    let mut config = Config::with_upstream(upstream_url);
    config.database = dir.0.join("gw.db").display().to_string();
    config.keepalive = Duration::from_secs(3600);
    tweak(&mut config);
    let store = Arc::new(SqliteStore::open(&config.database).unwrap());
    let (_, key) = store.create_account("test", false, 3).unwrap();
    // The listener the server binds itself (backlog and all).
    let listener = jsonheal_gateway::bind(config.listen, config.backlog).unwrap();
    let addr = listener.local_addr().unwrap();
    let (state, writer) = AppState::new(config, Arc::clone(&store) as Arc<dyn Store>).unwrap();
    let (tx, rx) = oneshot::channel::<()>();
    let handle = tokio::spawn(jsonheal_gateway::serve_listener(
        listener,
        state,
        writer,
        async {
            let _ = rx.await;
        },
    ));
    Gateway {
        url: format!("http://{addr}"),
        store,
        key: key.0,
        client: reqwest::Client::builder()
            .timeout(Duration::from_secs(60))
            .build()
            .unwrap(),
        shutdown: Some(tx),
        handle: Some(handle),
        _dir: dir,
    }
}

/// A chat completion body as an OpenAI-compatible upstream sends it.
pub fn completion(content: &str, finish_reason: &str, usage: (u64, u64)) -> Value {
    json!({
        "id": "chatcmpl-up1",
        "object": "chat.completion",
        "created": 1700000000,
        "model": "stub-model",
        "choices": [{"index": 0, "message": {"role": "assistant", "content": content},
                     "logprobs": null, "finish_reason": finish_reason}],
        "usage": {"prompt_tokens": usage.0, "completion_tokens": usage.1,
                  "total_tokens": usage.0 + usage.1}
    })
}

pub fn ok(content: &str) -> Reply {
    Reply::Json(200, completion(content, "stop", (10, 5)), vec![])
}

pub fn person_schema() -> Value {
    json!({
        "type": "object",
        "properties": {"name": {"type": "string"}, "age": {"type": "integer"}},
        "required": ["name", "age"],
        "additionalProperties": false
    })
}

/// An SSE event line for a chunk.
pub fn event(v: &Value) -> String {
    format!("data: {v}\n\n")
}

/// Read a body and split it into SSE `data:` payloads (comments dropped).
pub fn data_lines(body: &str) -> Vec<String> {
    body.split("\n\n")
        .filter_map(|e| e.strip_prefix("data: "))
        .map(str::to_owned)
        .collect()
}

/// Whether `python3` can import the `openai` package. With `CI` set a missing package is a
/// failure (panics); otherwise the caller skips, and this says so loudly.
pub fn python_openai_available(test: &str) -> bool {
    let ok = std::process::Command::new("python3")
        .args(["-c", "import openai"])
        .output()
        .is_ok_and(|o| o.status.success());
    if !ok {
        if std::env::var_os("CI").is_some() {
            panic!(
                "CI is set but `python3 -c 'import openai'` fails: install it (pip install openai)"
            );
        }
        eprintln!(
            "\n*** SKIPPED {test}: python3 cannot import `openai` (pip install openai) ***\n"
        );
    }
    ok
}

/// A request that heals against `schema`.
pub fn heal_request(schema: Value) -> Value {
    json!({
        "model": "stub-model",
        "messages": [{"role": "user", "content": "Who wrote the first program?"}],
        "response_schema": schema
    })
}

/// An SSE event of a `chat.completion.chunk` (id `c1`, model `m`) with these `choices`.
pub fn chunk_event(choices: Value) -> String {
    event(
        &json!({"id": "c1", "object": "chat.completion.chunk", "created": 1, "model": "m",
        "choices": choices}),
    )
}
