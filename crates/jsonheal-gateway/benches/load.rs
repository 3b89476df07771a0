//! Load benchmark: the gateway's overhead over an upstream that answers instantly.
//!
//! Everything runs in this process on loopback: an instant stub upstream, the gateway (auth
//! on, SQLite request log) in front of it, and a load generator. For each mode it measures
//! the latency of sequential requests (p50/p99; for streams, the time to the first event) and
//! the throughput with 32 and with 1,000 concurrent connections (each opened at once: a burst
//! the listen backlog must hold), counting errors and requests slower than a second. The
//! gateway's overhead is its latency minus the direct-to-stub latency of the same run.
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

use axum::body::Body;
use axum::response::IntoResponse;
use axum::routing::post;
use axum::Router;
use bytes::Bytes;
use jsonheal_gateway::config::Config;
use jsonheal_gateway::store;
use jsonheal_gateway::AppState;
use serde_json::{json, Map, Value};
use tokio::net::TcpListener;

/// Concurrent connections of the throughput runs.
const CONCURRENCY: [usize; 2] = [32, 1000];
/// A request slower than this under load counts as a stall.
const STALL: Duration = Duration::from_secs(1);
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

/// The stub's answer to `"stream": true`: the events a real upstream sends, one write each.
fn stream_events() -> Vec<Bytes> {
    let env = json!({"id": "chatcmpl-load", "object": "chat.completion.chunk",
        "created": 1700000000, "model": "stub-model"});
    let chunk = |choices: Value| {
        let mut c = env.clone();
        c["choices"] = choices;
        Bytes::from(format!("data: {c}\n\n"))
    };
    vec![
        chunk(
            json!([{"index": 0, "delta": {"role": "assistant", "content": ""}, "finish_reason": null}]),
        ),
        chunk(
            json!([{"index": 0, "delta": {"content": "Hello from the stub"}, "finish_reason": null}]),
        ),
        chunk(json!([{"index": 0, "delta": {}, "finish_reason": "stop"}])),
        Bytes::from_static(b"data: [DONE]\n\n"),
    ]
}

async fn start_stub(body: Bytes) -> String {
    let app = Router::new().route(
        "/v1/chat/completions",
        post(move |request: Bytes| {
            let body = body.clone();
            async move {
                if memchr::memmem::find(&request, b"\"stream\":true").is_some() {
                    let events = futures_util::stream::iter(
                        stream_events().into_iter().map(Ok::<_, std::io::Error>),
                    );
                    return (
                        [("content-type", "text/event-stream")],
                        Body::from_stream(events),
                    )
                        .into_response();
                }
                ([("content-type", "application/json")], body).into_response()
            }
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
    /// Time to the first event, not to the end of the body.
    stream: bool,
}

fn percentile(sorted: &[Duration], p: f64) -> Duration {
    if sorted.is_empty() {
        return Duration::ZERO;
    }
    let i = ((sorted.len() as f64 - 1.0) * p).round() as usize;
    sorted[i.min(sorted.len() - 1)]
}

/// One request: its latency (for a stream, to the first `data:` event; the rest is read
/// too), or why it failed.
async fn try_one(client: &reqwest::Client, phase: &Phase) -> Result<Duration, String> {
    let started = Instant::now();
    let mut req = client
        .post(&phase.url)
        .header("content-type", "application/json")
        .body(phase.body.clone());
    if let Some(k) = &phase.key {
        req = req.bearer_auth(k);
    }
    let mut resp = req.send().await.map_err(|e| e.to_string())?;
    let status = resp.status();
    if !status.is_success() {
        return Err(format!("{}: status {status}", phase.name));
    }
    let mut seen = Vec::new();
    let mut first = None;
    while let Some(piece) = resp.chunk().await.map_err(|e| e.to_string())? {
        if phase.stream && first.is_none() {
            seen.extend_from_slice(&piece);
            if memchr::memmem::find(&seen, b"data:").is_some() {
                first = Some(started.elapsed());
            }
        }
    }
    Ok(first.unwrap_or_else(|| started.elapsed()))
}

async fn one(client: &reqwest::Client, phase: &Phase) -> Duration {
    match try_one(client, phase).await {
        Ok(d) => d,
        Err(e) => panic!("{}: {e}", phase.name),
    }
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

/// What a throughput run measured.
struct Load {
    rps: f64,
    errors: usize,
    first_error: Option<String>,
    stalls: usize,
    max: Duration,
}

/// Requests per second with `concurrency` connections, all started at once, each running
/// requests back to back (every client its own connection pool, so each is one connection).
async fn throughput(phase: Arc<Phase>, n: usize, concurrency: usize) -> Load {
    let started = Instant::now();
    let deadline = started + PHASE_LIMIT;
    let per_worker = n.div_ceil(concurrency).max(3);
    let mut tasks = Vec::new();
    for _ in 0..concurrency {
        let phase = Arc::clone(&phase);
        let client = reqwest::Client::builder()
            .pool_max_idle_per_host(1)
            .timeout(Duration::from_secs(60))
            .build()
            .unwrap();
        tasks.push(tokio::spawn(async move {
            let (mut done, mut errors, mut stalls) = (0usize, 0usize, 0usize);
            let (mut first_error, mut max) = (None, Duration::ZERO);
            for _ in 0..per_worker {
                match try_one(&client, &phase).await {
                    Ok(d) => {
                        done += 1;
                        max = max.max(d);
                        if d > STALL {
                            stalls += 1;
                        }
                    }
                    Err(e) => {
                        errors += 1;
                        first_error.get_or_insert(e);
                    }
                }
                if Instant::now() > deadline {
                    break;
                }
            }
            (done, errors, first_error, stalls, max)
        }));
    }
    let mut load = Load {
        rps: 0.0,
        errors: 0,
        first_error: None,
        stalls: 0,
        max: Duration::ZERO,
    };
    let mut total = 0;
    for t in tasks {
        let (done, errors, first_error, stalls, max) = t.await.unwrap();
        total += done;
        load.errors += errors;
        load.stalls += stalls;
        load.max = load.max.max(max);
        if load.first_error.is_none() {
            load.first_error = first_error;
        }
    }
    load.rps = total as f64 / started.elapsed().as_secs_f64();
    load
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
    let config_listen = config.listen;
    // Off the runtime: a PostgreSQL store connects and migrates over the network.
    let ((state, writer), key) = tokio::task::spawn_blocking(move || {
        let store = store::open(&config.database).unwrap();
        let name = format!("load-{}", std::process::id());
        let (_, key) = store.create_account(&name, false, 3).unwrap();
        (AppState::new(config, store).unwrap(), key)
    })
    .await
    .unwrap();
    let listener = jsonheal_gateway::bind(config_listen, 1024).unwrap();
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
    let streamed = Bytes::from(
        json!({"model": "stub-model", "messages": [{"role": "user", "content": "hi"}],
               "stream": true})
        .to_string(),
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
        "reply {} bytes, schema 30 properties; {n} sequential requests per mode (interleaved), \
         then {n} at each of {CONCURRENCY:?} concurrent connections; machine: {} cores",
        reply.len(),
        std::thread::available_parallelism().map_or(0, |n| n.get())
    );

    let phase = |name, url: &str, key: Option<&str>, body: &Bytes, stream| Phase {
        name,
        url: url.to_owned(),
        key: key.map(str::to_owned),
        body: body.clone(),
        stream,
    };
    let direct = format!("{stub}/chat/completions");
    let k = Some(key.0.as_str());
    let phases = [
        phase("direct to stub", &direct, None, &plain, false),
        phase("gateway pass-through", &gw, k, &plain, false),
        phase("gateway healed", &gw, k, &healed, false),
        phase("direct stream (TTFE)", &direct, None, &streamed, true),
        phase("gateway stream (TTFE)", &gw, k, &streamed, true),
    ];
    let lat = sequential(&client, &phases, n).await;
    let p = |i: usize, q: f64| us(percentile(&lat[i], q));
    println!(
        "{:<24} {:>9} {:>9} {:>12} {:>12}",
        "mode", "p50 µs", "p99 µs", "+p50 added", "+p99 added"
    );
    for (i, ph) in phases.iter().enumerate() {
        // Streams are compared with the direct stream, the rest with the direct request.
        let base = if ph.stream { 3 } else { 0 };
        println!(
            "{:<24} {:>9.0} {:>9.0} {:>12.0} {:>12.0}",
            ph.name,
            p(i, 0.5),
            p(i, 0.99),
            p(i, 0.5) - p(base, 0.5),
            p(i, 0.99) - p(base, 0.99)
        );
    }
    println!(
        "{:<24} {:>6} {:>10} {:>7} {:>7} {:>9}",
        "mode", "conns", "req/s", "errors", "stalls", "max ms"
    );
    let phases: Vec<Arc<Phase>> = phases.into_iter().map(Arc::new).collect();
    for concurrency in CONCURRENCY {
        for ph in &phases {
            if ph.name.starts_with("direct") && ph.stream {
                continue;
            }
            let load = throughput(Arc::clone(ph), n, concurrency).await;
            println!(
                "{:<24} {:>6} {:>10.0} {:>7} {:>7} {:>9.1}",
                ph.name,
                concurrency,
                load.rps,
                load.errors,
                load.stalls,
                load.max.as_secs_f64() * 1e3
            );
            if let Some(e) = load.first_error {
                println!("    first error: {e}");
            }
        }
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
