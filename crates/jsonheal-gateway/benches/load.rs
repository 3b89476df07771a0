//! Load benchmark: the gateway's overhead over an upstream that answers instantly.
//!
//! Everything runs in this process on loopback: an instant stub upstream, the gateway (auth
//! on, SQLite request log) in front of it, and a load generator. For each mode it measures
//! the latency of sequential requests (p50/p99) and the throughput with 16 concurrent
//! clients; the gateway's overhead is its latency minus the direct-to-stub latency measured
//! in the same run.
//!
//! ```text
//! cargo bench -p jsonheal-gateway --bench load
//! JSONHEAL_LOAD_REQUESTS=5000 cargo bench -p jsonheal-gateway --bench load
//! # on PostgreSQL (an existing, preferably empty, database):
//! JSONHEAL_LOAD_DATABASE=postgres://postgres@127.0.0.1:5432/load cargo bench -p jsonheal-gateway --bench load
//! ```
#![allow(clippy::unwrap_used)]

use std::sync::Arc;
use std::time::{Duration, Instant};

use axum::routing::post;
use axum::Router;
use bytes::Bytes;
use jsonheal_gateway::config::Config;
use jsonheal_gateway::store;
use jsonheal_gateway::AppState;
use serde_json::{json, Map, Value};
use tokio::net::TcpListener;

const CONCURRENCY: usize = 16;
/// No phase runs longer than this, whatever the request count.
const PHASE_LIMIT: Duration = Duration::from_secs(15);

fn schema_and_reply() -> (Value, String) {
    let mut props = Map::new();
    let mut value = Map::new();
    for i in 0..30 {
        let name = format!("field_{i:02}");
        let (schema, v) = match i % 5 {
            0 => (
                json!({"type": "string"}),
                json!(format!(
                    "value number {i}: a sentence of descriptive text, long enough to make \
                     the reply the size of a real structured answer from a language model"
                )),
            ),
            1 => (json!({"type": "integer"}), json!(i * 1000 + 7)),
            2 => (json!({"type": "number"}), json!(i as f64 * 1.25)),
            3 => (json!({"type": "boolean"}), json!(i % 2 == 0)),
            _ => (
                json!({"type": "array", "items": {"type": "string"}}),
                json!([
                    "alpha",
                    "beta",
                    "gamma",
                    "delta",
                    "epsilon",
                    "zeta",
                    "eta",
                    "theta",
                    format!("item-{i}")
                ]),
            ),
        };
        props.insert(name.clone(), schema);
        value.insert(name, v);
    }
    let required: Vec<String> = props.keys().cloned().collect();
    let schema = json!({"type": "object", "properties": props, "required": required,
        "additionalProperties": false});
    // A realistic broken reply: prose, a fence, a trailing comma.
    let pretty = serde_json::to_string_pretty(&Value::Object(value)).unwrap();
    let broken = format!(
        "{},\n}}",
        pretty.trim_end().trim_end_matches('}').trim_end()
    );
    let reply = format!("Here is the JSON you asked for:\n```json\n{broken}\n```\n");
    (schema, reply)
}

fn completion(content: &str) -> Bytes {
    Bytes::from(
        json!({
            "id": "chatcmpl-load", "object": "chat.completion", "created": 1700000000,
            "model": "stub-model",
            "choices": [{"index": 0, "message": {"role": "assistant", "content": content},
                         "finish_reason": "stop"}],
            "usage": {"prompt_tokens": 100, "completion_tokens": 600, "total_tokens": 700}
        })
        .to_string(),
    )
}

async fn start_stub(body: Bytes) -> String {
    let app = Router::new().route(
        "/v1/chat/completions",
        post(move || {
            let body = body.clone();
            async move { ([("content-type", "application/json")], body) }
        }),
    );
    let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    tokio::spawn(async move { axum::serve(listener, app).await });
    format!("http://{addr}/v1")
}

struct Phase {
    name: &'static str,
    url: String,
    key: Option<String>,
    body: Bytes,
}

fn percentile(sorted: &[Duration], p: f64) -> Duration {
    if sorted.is_empty() {
        return Duration::ZERO;
    }
    let i = ((sorted.len() as f64 - 1.0) * p).round() as usize;
    sorted[i.min(sorted.len() - 1)]
}

async fn one(client: &reqwest::Client, phase: &Phase) -> Duration {
    let started = Instant::now();
    let mut req = client
        .post(&phase.url)
        .header("content-type", "application/json")
        .body(phase.body.clone());
    if let Some(k) = &phase.key {
        req = req.bearer_auth(k);
    }
    let resp = req.send().await.unwrap();
    let status = resp.status();
    let _ = resp.bytes().await.unwrap();
    assert!(status.is_success(), "{}: status {status}", phase.name);
    started.elapsed()
}

/// Sequential latencies of every phase, interleaved request by request so that every mode
/// sees the same machine noise (each sorted).
async fn sequential(client: &reqwest::Client, phases: &[Phase], n: usize) -> Vec<Vec<Duration>> {
    for _ in 0..n / 10 {
        for p in phases {
            one(client, p).await;
        }
    }
    let deadline = Instant::now() + PHASE_LIMIT * phases.len() as u32;
    let mut lat = vec![Vec::with_capacity(n); phases.len()];
    for _ in 0..n {
        for (i, p) in phases.iter().enumerate() {
            lat[i].push(one(client, p).await);
        }
        if Instant::now() > deadline {
            break;
        }
    }
    for l in &mut lat {
        l.sort();
    }
    lat
}

/// Requests per second with `CONCURRENCY` clients.
async fn throughput(client: &reqwest::Client, phase: Arc<Phase>, n: usize) -> f64 {
    let started = Instant::now();
    let deadline = started + PHASE_LIMIT;
    let per_worker = n / CONCURRENCY;
    let mut tasks = Vec::new();
    for _ in 0..CONCURRENCY {
        let client = client.clone();
        let phase = Arc::clone(&phase);
        tasks.push(tokio::spawn(async move {
            let mut done = 0usize;
            for _ in 0..per_worker {
                one(&client, &phase).await;
                done += 1;
                if Instant::now() > deadline {
                    break;
                }
            }
            done
        }));
    }
    let mut total = 0;
    for t in tasks {
        total += t.await.unwrap();
    }
    total as f64 / started.elapsed().as_secs_f64()
}

fn us(d: Duration) -> f64 {
    d.as_secs_f64() * 1e6
}

async fn run() {
    let n: usize = std::env::var("JSONHEAL_LOAD_REQUESTS")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(3000);
    let (schema, reply) = schema_and_reply();
    let stub = start_stub(completion(&reply)).await;

    let dir = std::env::temp_dir().join(format!("jsonheal-load-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let mut config = Config::with_upstream(&stub);
    config.database = std::env::var("JSONHEAL_LOAD_DATABASE")
        .unwrap_or_else(|_| dir.join("load.db").display().to_string());
    println!("database: {}", store::redact_url(&config.database));
    // Off the runtime: a PostgreSQL store connects and migrates over the network.
    let ((state, writer), key) = tokio::task::spawn_blocking(move || {
        let store = store::open(&config.database).unwrap();
        let name = format!("load-{}", std::process::id());
        let (_, key) = store.create_account(&name, false, 3).unwrap();
        (AppState::new(config, store).unwrap(), key)
    })
    .await
    .unwrap();
    let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
    let gw = format!(
        "http://{}/v1/chat/completions",
        listener.local_addr().unwrap()
    );
    let (stop_tx, stop_rx) = tokio::sync::oneshot::channel::<()>();
    let server = tokio::spawn(jsonheal_gateway::serve_listener(
        listener,
        state,
        writer,
        async {
            let _ = stop_rx.await;
        },
    ));

    let plain = Bytes::from(
        json!({"model": "stub-model", "messages": [{"role": "user", "content": "hi"}]}).to_string(),
    );
    let healed = Bytes::from(
        json!({"model": "stub-model", "messages": [{"role": "user", "content": "hi"}],
               "response_schema": schema})
        .to_string(),
    );
    let client = reqwest::Client::builder()
        .pool_max_idle_per_host(64)
        .build()
        .unwrap();

    // Check the healed mode really heals before timing it.
    let check = client
        .post(&gw)
        .bearer_auth(&key.0)
        .header("content-type", "application/json")
        .body(healed.clone())
        .send()
        .await
        .unwrap();
    assert_eq!(check.status(), 200);
    assert_eq!(check.headers()["x-jsonheal-repaired"], "true");
    let compiled = jsonheal_gateway::healing::CompiledSchema::compile(&schema).unwrap();
    let started = Instant::now();
    for _ in 0..200 {
        jsonheal_gateway::healing::heal(&reply, &compiled).unwrap();
    }
    println!(
        "heal alone (extract, repair, coerce, validate): {:.0} µs per reply",
        us(started.elapsed()) / 200.0
    );
    println!(
        "reply {} bytes, schema 30 properties; {n} sequential requests per mode (interleaved), then {n} \
         with {CONCURRENCY} concurrent clients",
        reply.len()
    );

    let phases = [
        Phase {
            name: "direct to stub",
            url: format!("{stub}/chat/completions"),
            key: None,
            body: plain.clone(),
        },
        Phase {
            name: "gateway pass-through",
            url: gw.clone(),
            key: Some(key.0.clone()),
            body: plain,
        },
        Phase {
            name: "gateway healed",
            url: gw.clone(),
            key: Some(key.0.clone()),
            body: healed,
        },
    ];
    let lat = sequential(&client, &phases, n).await;
    let mut rows = Vec::new();
    for (phase, lat) in phases.into_iter().zip(lat) {
        let rps = throughput(&client, Arc::new(phase), n).await;
        rows.push((lat, rps));
    }
    let (base_p50, base_p99) = (percentile(&rows[0].0, 0.5), percentile(&rows[0].0, 0.99));
    println!(
        "{:<22} {:>9} {:>9} {:>14} {:>14} {:>10}",
        "mode", "p50 µs", "p99 µs", "+p50 vs stub", "+p99 vs stub", "req/s"
    );
    for (name, (lat, rps)) in ["direct to stub", "gateway pass-through", "gateway healed"]
        .iter()
        .zip(&rows)
    {
        let (p50, p99) = (percentile(lat, 0.5), percentile(lat, 0.99));
        println!(
            "{:<22} {:>9.0} {:>9.0} {:>14.0} {:>14.0} {:>10.0}",
            name,
            us(p50),
            us(p99),
            us(p50) - us(base_p50),
            us(p99) - us(base_p99),
            rps
        );
    }
    let _ = stop_tx.send(());
    let _ = server.await;
    let _ = std::fs::remove_dir_all(&dir);
}

fn main() {
    // `cargo bench` passes `--bench`; there is nothing to filter.
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .unwrap();
    runtime.block_on(run());
}
