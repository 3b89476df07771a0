//! The two streaming paths. Healing: keep-alive comments while the attempts run, then the
//! validated answer as chunks. Pass-through: the upstream's events as they come, tool-call
//! argument deltas buffered and sent whole (see `tool_stream`).

use std::collections::VecDeque;
use std::convert::Infallible;

use axum::body::Body;
use axum::http::{header, HeaderValue, StatusCode};
use axum::response::Response;
use bytes::Bytes;
use futures_util::StreamExt;
use serde_json::{json, Value};
use tokio::sync::mpsc;
use tracing::Instrument;

use super::heal::{self, Outcome};
use super::tool_stream::ToolCallBuffer;
use super::{client_closed, Ctx};
use crate::error::ApiError;
use crate::request::ChatRequest;
use crate::request_id::random_hex;
use crate::sse;
use crate::upstream::map_error;
use crate::wire::{Chunk, Content, Delta, ToolCallDelta, Usage};

/// The largest content delta the gateway sends when it streams a healed answer.
const DELTA_BYTES: usize = 256;

/// The body of a streamed response, fed by a task through a channel.
fn sse_response(rx: mpsc::Receiver<Bytes>) -> Response {
    let stream = futures_util::stream::unfold(rx, |mut rx| async move {
        rx.recv().await.map(|b| (Ok::<_, Infallible>(b), rx))
    });
    let mut response = Response::new(Body::from_stream(stream));
    *response.status_mut() = StatusCode::OK;
    let h = response.headers_mut();
    h.insert(
        header::CONTENT_TYPE,
        HeaderValue::from_static("text/event-stream"),
    );
    h.insert(header::CACHE_CONTROL, HeaderValue::from_static("no-cache"));
    response
}

fn now_secs() -> u64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_secs())
}

/// The `id`, `object`, `created`, `model` (and fingerprint) every chunk of one stream
/// shares, from the last upstream answer when there is one.
pub(super) fn envelope(
    id: Option<&str>,
    created: Option<&Value>,
    model: Option<&str>,
    fingerprint: Option<&str>,
    fallback_model: &str,
) -> Chunk {
    Chunk {
        id: Some(id.map_or_else(|| format!("chatcmpl-{}", random_hex()), str::to_owned)),
        object: Some("chat.completion.chunk".to_owned()),
        created: created
            .filter(|v| v.is_number())
            .cloned()
            .unwrap_or_else(|| json!(now_secs())),
        model: Some(model.unwrap_or(fallback_model).to_owned()),
        system_fingerprint: fingerprint.map(str::to_owned),
        ..Chunk::default()
    }
}

/// The envelope of an upstream chunk.
pub(super) fn envelope_of(c: &Chunk, fallback_model: &str) -> Chunk {
    envelope(
        c.id.as_deref(),
        Some(&c.created),
        c.model.as_deref(),
        c.system_fingerprint.as_deref(),
        fallback_model,
    )
}

/// Split `text` into pieces of at most `max` bytes on character boundaries.
fn pieces(text: &str, max: usize) -> Vec<&str> {
    let mut out = Vec::new();
    let mut rest = text;
    while !rest.is_empty() {
        let mut end = rest.len().min(max);
        while !rest.is_char_boundary(end) {
            end -= 1;
        }
        if end == 0 {
            end = rest.chars().next().map_or(rest.len(), char::len_utf8);
        }
        out.push(&rest[..end]);
        rest = &rest[end..];
    }
    out
}

/// Send `out` in order; false when the client went away.
async fn send_all(tx: &mpsc::Sender<Bytes>, out: Vec<Bytes>) -> bool {
    for b in out {
        if tx.send(b).await.is_err() {
            return false;
        }
    }
    true
}

/// Healing, streaming: keep-alive comments while the attempts run, then the validated
/// answer as chunks — or the error chunk.
pub(super) fn heal(ctx: Ctx, req: ChatRequest) -> Response {
    let (tx, rx) = mpsc::channel::<Bytes>(64);
    tokio::spawn(
        async move {
        let keepalive = ctx.state.config().keepalive;
        if tx.send(sse::comment("jsonheal: healing")).await.is_err() {
            return;
        }
        let run = {
            let attempts = heal::run(&ctx.state, &req, &ctx.request_id);
            tokio::pin!(attempts);
            let mut ticker =
                tokio::time::interval_at(tokio::time::Instant::now() + keepalive, keepalive);
            loop {
                tokio::select! {
                    run = &mut attempts => break run,
                    _ = ticker.tick() => {
                        // A client that hung up ends the attempts (dropping them cancels the
                        // upstream call).
                        if tx.send(sse::comment("keep-alive")).await.is_err() {
                            tracing::info!(request_id = %ctx.request_id, "client went away during healing");
                            ctx.finish("client_closed", client_closed(), 0, false, None);
                            return;
                        }
                    }
                }
            }
        };
        let last = run.last.as_ref();
        let env = envelope(
            last.and_then(|l| l.id.as_deref()),
            last.map(|l| &l.created),
            last.and_then(|l| l.model.as_deref()),
            last.and_then(|l| l.rest.get("system_fingerprint"))
                .and_then(Value::as_str),
            &ctx.model,
        );
        // With `include_usage`, every chunk says `usage: null` until the last one.
        let pending_usage = req.include_usage.then_some(Value::Null);
        let with_usage = |mut c: Chunk| {
            c.usage = pending_usage.clone();
            c
        };
        let usage_chunk = |usage: Option<Usage>| {
            let mut c = Chunk::like(&env);
            c.usage = Some(json!(usage.unwrap_or_default()));
            sse::data(&c)
        };
        let mut out: Vec<Bytes> = Vec::new();
        let outcome_label;
        // What the client got: the headers said 200; a final error event says otherwise.
        let (status, repaired);
        match run.outcome {
            Outcome::Healed(healed) => {
                outcome_label = healed.label(run.attempts);
                (status, repaired) = (StatusCode::OK, healed.report.repaired());
                let role = Delta {
                    role: Some("assistant".to_owned()),
                    content: Some(json!("")),
                    ..Delta::default()
                };
                out.push(sse::data(&with_usage(Chunk::like(&env).choice(role, None))));
                if let Some(Content::Text(text)) = &healed.message.content {
                    for piece in pieces(text, DELTA_BYTES) {
                        let delta = Delta {
                            content: Some(json!(piece)),
                            ..Delta::default()
                        };
                        out.push(sse::data(&with_usage(
                            Chunk::like(&env).choice(delta, None),
                        )));
                    }
                }
                if let Some(calls) = &healed.message.tool_calls {
                    let calls = calls
                        .iter()
                        .enumerate()
                        .map(|(i, c)| ToolCallDelta {
                            index: i as u64,
                            id: c.id.clone(),
                            kind: Some(c.kind.clone()),
                            function: Some(crate::wire::FunctionDelta {
                                name: Some(c.function.name.clone()),
                                arguments: Some(c.function.arguments.clone()),
                            }),
                        })
                        .collect();
                    let delta = Delta {
                        tool_calls: Some(calls),
                        ..Delta::default()
                    };
                    out.push(sse::data(&with_usage(
                        Chunk::like(&env).choice(delta, None),
                    )));
                }
                let mut last = with_usage(
                    Chunk::like(&env).choice(Delta::default(), healed.finish_reason.clone()),
                );
                last.jsonheal = Some(healed.report);
                out.push(sse::data(&last));
                if req.include_usage {
                    out.push(usage_chunk(run.usage));
                }
                ctx.record_tool_calls(healed.tool_calls).await;
            }
            Outcome::Failed | Outcome::Error(_) => {
                repaired = false;
                let error = match run.outcome {
                    Outcome::Error(e) => {
                        e.log(&ctx.request_id);
                        outcome_label = e.label();
                        status = e.status();
                        e.error_object(Some(&ctx.request_id))
                    }
                    _ => {
                        tracing::warn!(request_id = %ctx.request_id, attempts = run.attempts, "healing failed");
                        outcome_label = "failed";
                        status = StatusCode::SERVICE_UNAVAILABLE;
                        ApiError::HealingFailed { no_retry: false }.error_object(None)
                    }
                };
                if req.include_usage {
                    out.push(usage_chunk(run.usage));
                }
                let mut c = Chunk::like(&env).choice(Delta::default(), Some("error".to_owned()));
                c.error = Some(error);
                out.push(sse::data(&c));
            }
        }
        out.push(sse::done());
        send_all(&tx, out).await;
        ctx.finish(outcome_label, status, run.attempts, repaired, run.usage);
    }.instrument(tracing::Span::current()));
    sse_response(rx)
}

/// No healing, streaming: forward the upstream's events as they come, except tool-call
/// argument deltas, which are buffered and sent normalised when each call completes.
pub(super) async fn pass(ctx: Ctx, req: ChatRequest) -> Result<Response, ApiError> {
    let body = Value::Object(req.upstream_body.clone());
    let provider = req.provider.name.clone();
    let broken = {
        let message = format!("the upstream provider {provider:?} sent a broken event stream");
        move |why: String| ApiError::bad_gateway(message.clone(), why)
    };
    // Errors up to the upstream's first event still get a proper status (502, 504, 4xx);
    // after that the status is sent and a failure becomes an error chunk.
    let resp = ctx
        .state
        .upstream()
        .send(&req.provider, &body, true, ctx.state.metrics())
        .await?;
    let mut upstream = resp.bytes_stream();
    let mut parser = sse::Parser::default();
    let mut queue: VecDeque<sse::Event> = VecDeque::new();
    while !queue.iter().any(|e| e.data.is_some()) {
        match upstream.next().await {
            Some(Ok(bytes)) => queue.extend(parser.push(&bytes).map_err(&broken)?),
            Some(Err(e)) => return Err(map_error(&provider, &e)),
            None => return Err(broken("the stream ended before its first event".to_owned())),
        }
    }
    if let Some(data) = queue.iter().find_map(|e| e.data.as_deref()) {
        if data != "[DONE]" {
            serde_json::from_str::<Chunk>(data)
                .map_err(|e| broken(format!("the first event is not a chunk: {e}")))?;
        }
    }
    let (tx, rx) = mpsc::channel::<Bytes>(64);
    tokio::spawn(
        async move {
            let mut buffer = ToolCallBuffer::new(&req.tools);
            let mut usage: Option<Usage> = None;
            let mut env: Option<Chunk> = None;
            let mut failure: Option<ApiError> = None;
            let mut done = false;
            while !done {
                let Some(ev) = queue.pop_front() else {
                    match upstream.next().await {
                        Some(Ok(bytes)) => match parser.push(&bytes) {
                            Ok(evs) => queue.extend(evs),
                            Err(why) => {
                                failure = Some(broken(why));
                                break;
                            }
                        },
                        Some(Err(e)) => {
                            failure = Some(map_error(&provider, &e));
                            break;
                        }
                        None => break,
                    }
                    continue;
                };
                let out = match ev.data.as_deref() {
                    None => vec![ev.raw],
                    Some("[DONE]") => {
                        let env = env
                            .clone()
                            .unwrap_or_else(|| envelope(None, None, None, None, &ctx.model));
                        let mut out = buffer.flush_all(&env);
                        // After the last choice chunk, before [DONE]: what was done to the
                        // tool calls, in the same `jsonheal` shape as a healed answer.
                        if let Some(report) = buffer.report() {
                            let mut c = Chunk::like(&env);
                            c.jsonheal = Some(report);
                            out.push(sse::data(&c));
                        }
                        out.push(ev.raw);
                        done = true;
                        out
                    }
                    Some(data) => match serde_json::from_str::<Chunk>(data) {
                        Ok(c) => {
                            if let Some(u) = c.usage.as_ref().filter(|u| !u.is_null()) {
                                let u = serde_json::from_value::<Usage>(u.clone()).ok();
                                Usage::accumulate(&mut usage, u.as_ref());
                            }
                            env = Some(envelope_of(&c, &ctx.model));
                            buffer.process(c, ev.raw)
                        }
                        Err(e) => {
                            failure = Some(broken(format!("an event is not a chunk: {e}")));
                            break;
                        }
                    },
                };
                if !send_all(&tx, out).await {
                    tracing::info!(request_id = %ctx.request_id, "client went away mid-stream");
                    ctx.finish("client_closed", client_closed(), 0, false, usage);
                    return;
                }
            }
            if failure.is_none() && !done {
                failure = Some(broken("the stream ended before [DONE]".to_owned()));
            }
            let (outcome, status) = match failure {
                Some(e) => {
                    e.log(&ctx.request_id);
                    let env = env.unwrap_or_else(|| envelope(None, None, None, None, &ctx.model));
                    let mut out = buffer.flush_all(&env);
                    let mut c =
                        Chunk::like(&env).choice(Delta::default(), Some("error".to_owned()));
                    c.error = Some(e.error_object(Some(&ctx.request_id)));
                    out.push(sse::data(&c));
                    out.push(sse::done());
                    send_all(&tx, out).await;
                    (e.label(), e.status())
                }
                None => ("passthrough", StatusCode::OK),
            };
            let calls = buffer.take_records();
            let repaired = crate::tools::any_repaired(&calls);
            ctx.record_tool_calls(calls).await;
            ctx.finish(outcome, status, 0, repaired, usage);
        }
        .instrument(tracing::Span::current()),
    );
    Ok(sse_response(rx))
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;

    #[test]
    fn pieces_respect_char_boundaries() {
        let text = "{\"a\":\"héllo wörld\"}";
        let parts = pieces(text, 4);
        assert_eq!(parts.concat(), text);
        assert!(parts.iter().all(|p| p.len() <= 4));
        assert!(pieces("", 4).is_empty());
    }
}
