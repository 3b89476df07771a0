//! `POST /v1/chat/completions`: pass-through, the healing loop, and both streaming modes.

use std::collections::{BTreeMap, VecDeque};
use std::convert::Infallible;
use std::time::Instant;

use axum::body::Body;
use axum::extract::State;
use axum::http::{header, HeaderMap, HeaderValue, StatusCode};
use axum::response::{IntoResponse, Response};
use bytes::Bytes;
use futures_util::StreamExt;
use serde_json::{json, Map, Value};
use tokio::sync::mpsc;

use crate::error::ApiError;
use crate::healing::{self, FailureKind};
use crate::request::{self, ChatRequest};
use crate::routes::{authenticate, blocking, request_id};
use crate::store::{Account, NewToolCall, RequestRecord};
use crate::{sse, tools, AppState};

/// The largest content delta the gateway sends when it streams a healed answer.
const DELTA_BYTES: usize = 256;

/// What one request is about, for logs, the request log and tool-call records.
struct Ctx {
    state: AppState,
    request_id: String,
    account: Option<Account>,
    model: String,
    stream: bool,
    healing: bool,
    started: Instant,
}

impl Ctx {
    fn finish(&self, outcome: &str, attempts: u32, usage: &Usage) {
        self.state.metrics().request(outcome);
        self.state.log_request(RequestRecord {
            request_id: self.request_id.clone(),
            account_id: self.account.as_ref().map(|a| a.id),
            model: self.model.clone(),
            stream: self.stream,
            healing: self.healing,
            attempts,
            outcome: outcome.to_owned(),
            // Filled in when usage is wired into the restructured request path.
            status: 0,
            repaired: outcome == "healed",
            prompt_tokens: usage.prompt,
            completion_tokens: usage.completion,
            total_tokens: usage.total,
            latency_ms: self.started.elapsed().as_millis().min(u128::from(u64::MAX)) as u64,
        });
    }

    /// Store tool calls under this request and account; a failure is logged, not returned,
    /// because the client's answer does not depend on it.
    async fn record_tool_calls(&self, mut calls: Vec<NewToolCall>) {
        let Some(account) = &self.account else { return };
        if calls.is_empty() {
            return;
        }
        for c in &mut calls {
            c.request_id = self.request_id.clone();
            c.account_id = account.id;
            self.state.metrics().tool_call(&c.strategy);
        }
        if let Err(e) = blocking(&self.state, move |s| s.record_tool_calls(&calls)).await {
            tracing::error!(request_id = %self.request_id, error = %e, "cannot record tool calls");
        }
    }
}

/// Token usage summed over upstream calls.
#[derive(Debug, Default, Clone, Copy)]
struct Usage {
    prompt: u64,
    completion: u64,
    total: u64,
    seen: bool,
}

impl Usage {
    fn add(&mut self, usage: Option<&Value>) {
        let Some(u) = usage.filter(|u| u.is_object()) else {
            return;
        };
        let get = |k: &str| u.get(k).and_then(Value::as_u64).unwrap_or(0);
        let (p, c) = (get("prompt_tokens"), get("completion_tokens"));
        self.prompt += p;
        self.completion += c;
        self.total += u
            .get("total_tokens")
            .and_then(Value::as_u64)
            .unwrap_or(p + c);
        self.seen = true;
    }

    fn to_json(self) -> Value {
        json!({"prompt_tokens": self.prompt, "completion_tokens": self.completion,
               "total_tokens": self.total})
    }
}

/// The handler.
pub async fn handle(State(state): State<AppState>, headers: HeaderMap, body: Body) -> Response {
    let mut ctx = Ctx {
        state,
        request_id: request_id(),
        account: None,
        model: String::new(),
        stream: false,
        healing: false,
        started: Instant::now(),
    };
    let mut response = match serve(&mut ctx, &headers, body).await {
        Ok(r) => r,
        Err(e) => {
            let status = e.status();
            if status.is_server_error() {
                tracing::error!(request_id = %ctx.request_id, error = %e, "request failed");
            } else {
                tracing::warn!(request_id = %ctx.request_id, error = %e, "request refused");
            }
            ctx.finish(e.label(), 0, &Usage::default());
            e.into_response()
        }
    };
    if let Ok(v) = HeaderValue::from_str(&ctx.request_id) {
        response.headers_mut().insert("x-request-id", v);
    }
    response
}

async fn serve(ctx: &mut Ctx, headers: &HeaderMap, body: Body) -> Result<Response, ApiError> {
    let account = authenticate(&ctx.state, headers).await?;
    ctx.account = Some(account.clone());
    let limit = ctx.state.config().body_limit;
    let bytes = axum::body::to_bytes(body, limit).await.map_err(|e| {
        let too_large = std::error::Error::source(&e)
            .is_some_and(|s| s.is::<http_body_util::LengthLimitError>());
        if too_large {
            ApiError::PayloadTooLarge { limit }
        } else {
            ApiError::invalid(format!("cannot read the request body: {e}"), None)
        }
    })?;
    let value: Value = serde_json::from_slice(&bytes)
        .map_err(|e| ApiError::invalid(format!("the request body is not valid JSON: {e}"), None))?;
    if let Some(m) = value.get("model").and_then(Value::as_str) {
        ctx.model = m.to_owned();
    }
    let req = request::prepare(value, &account, ctx.state.config(), &ctx.state.0.schemas)?;
    ctx.stream = req.stream;
    ctx.healing = req.healing.is_some();
    match (req.healing.is_some(), req.stream) {
        (true, false) => heal_json(ctx, &req).await,
        (true, true) => Ok(heal_stream(ctx, req)),
        (false, false) => pass_json(ctx, &req).await,
        (false, true) => pass_stream(ctx, req).await,
    }
}

/// The text of a message's `content` (a string, or the text parts of an array).
fn content_text(message: &Value) -> Option<String> {
    match message.get("content") {
        Some(Value::String(s)) => Some(s.clone()),
        Some(Value::Array(parts)) => Some(
            parts
                .iter()
                .filter_map(|p| p.get("text").and_then(Value::as_str))
                .collect(),
        ),
        _ => None,
    }
}

/// How the healing loop ended.
enum Outcome {
    /// A valid answer: the message to return and the `jsonheal` report.
    Healed {
        message: Value,
        finish_reason: Value,
        report: Value,
        repaired: bool,
        tool_calls: Vec<NewToolCall>,
    },
    /// `max_attempts` attempts, none valid.
    Failed,
    /// The upstream failed.
    Error(ApiError),
}

struct Run {
    outcome: Outcome,
    attempts: u32,
    usage: Usage,
    /// The last upstream response (its id, created, model are reused in the answer).
    last: Option<Value>,
}

/// The loop: call upstream, heal, re-ask with the feedback, until valid or out of attempts.
async fn run_healing(state: &AppState, req: &ChatRequest, request_id: &str) -> Run {
    let mut run = Run {
        outcome: Outcome::Failed,
        attempts: 0,
        usage: Usage::default(),
        last: None,
    };
    let Some(healing) = &req.healing else {
        run.outcome = Outcome::Error(ApiError::Internal("healing without a schema".to_owned()));
        return run;
    };
    let mut body = req.upstream_body.clone();
    for attempt in 1..=healing.max_attempts {
        run.attempts = attempt;
        let sent = Value::Object(body.clone());
        let resp = match state
            .0
            .upstream
            .complete(&req.provider, &sent, state.metrics())
            .await
        {
            Ok(r) => r,
            Err(e) => {
                run.outcome = Outcome::Error(e);
                return run;
            }
        };
        let usage = resp.get("usage");
        run.usage.add(usage);
        let Some(choice) = resp.pointer("/choices/0").filter(|c| c.is_object()) else {
            run.outcome = Outcome::Error(ApiError::BadGateway(
                "the upstream response has no choices".to_owned(),
            ));
            return run;
        };
        let finish_reason = choice.get("finish_reason").cloned().unwrap_or(Value::Null);
        let mut message = choice.get("message").cloned().unwrap_or_else(|| json!({}));
        let raw_content = content_text(&message);
        let has_tool_calls = message
            .get("tool_calls")
            .and_then(Value::as_array)
            .is_some_and(|c| !c.is_empty());
        let (tool_calls, problems) = tools::normalize_message(&mut message, &req.tools, true);

        let verdict = if finish_reason.as_str() == Some("length") {
            Err((FailureKind::Truncated, healing::truncated_feedback()))
        } else if has_tool_calls {
            if problems.is_empty() {
                Ok(None)
            } else {
                Err((
                    FailureKind::Invalid,
                    format!(
                        "{}\nCall the tool again with arguments that match its parameters.",
                        problems.join("\n")
                    ),
                ))
            }
        } else {
            match raw_content.as_deref() {
                Some(text) => healing::heal(text, &healing.schema)
                    .map(Some)
                    .map_err(|f| (f.kind, f.feedback)),
                None => Err((
                    FailureKind::NoJson,
                    "Your previous answer was empty. Answer with only a JSON value that \
                     conforms to the schema."
                        .to_owned(),
                )),
            }
        };
        let label = match &verdict {
            Ok(Some(s)) if !s.repairs.is_empty() || !s.coercions.is_empty() => "repaired",
            Ok(_) => "valid",
            Err((kind, _)) => kind.name(),
        };
        state.metrics().attempt(label);
        let token_count = |k: &str| usage.and_then(|u| u.get(k)).and_then(|v| v.as_u64());
        let (prompt_tokens, completion_tokens) = (
            token_count("prompt_tokens"),
            token_count("completion_tokens"),
        );
        tracing::info!(
            request_id,
            attempt,
            max_attempts = healing.max_attempts,
            result = label,
            prompt_tokens,
            completion_tokens,
            "healing attempt"
        );
        match verdict {
            Ok(success) => {
                let (report, repaired) = match success {
                    Some(s) => {
                        let text = serde_json::to_string(&s.value).unwrap_or_default();
                        message["content"] = Value::String(text);
                        let repaired = !s.repairs.is_empty() || !s.coercions.is_empty();
                        (
                            json!({"attempts": attempt, "candidate": s.candidate,
                                   "repairs": s.repairs, "coercions": s.coercions}),
                            repaired,
                        )
                    }
                    None => {
                        let repaired = tool_calls
                            .iter()
                            .any(|c| c.strategy != healing::valid_strategy());
                        (
                            json!({"attempts": attempt, "candidate": "tool_calls",
                                   "repairs": [], "coercions": []}),
                            repaired,
                        )
                    }
                };
                run.outcome = Outcome::Healed {
                    message,
                    finish_reason,
                    report,
                    repaired,
                    tool_calls,
                };
                run.last = Some(resp);
                return run;
            }
            Err((_, feedback)) => {
                if let Some(Value::Array(messages)) = body.get_mut("messages") {
                    messages.push(json!({"role": "assistant",
                        "content": assistant_echo(raw_content.as_deref(), &message)}));
                    messages.push(json!({"role": "user", "content": feedback}));
                }
                run.last = Some(resp);
            }
        }
    }
    run
}

/// The model's reply as the assistant turn of a re-ask (tool calls described in text, since
/// a real `tool_calls` turn would need tool results the gateway does not have).
fn assistant_echo(content: Option<&str>, message: &Value) -> String {
    let mut text = content.unwrap_or_default().to_owned();
    if let Some(calls) = message.get("tool_calls").and_then(Value::as_array) {
        for c in calls {
            let name = c
                .pointer("/function/name")
                .and_then(Value::as_str)
                .unwrap_or("?");
            let args = c
                .pointer("/function/arguments")
                .and_then(Value::as_str)
                .unwrap_or("");
            if !text.is_empty() {
                text.push('\n');
            }
            text.push_str(&format!("[tool call {name} with arguments {args}]"));
        }
    }
    text
}

fn no_retry(state: &AppState) -> bool {
    state.config().x_should_retry_false
}

/// Healing, non-streaming.
async fn heal_json(ctx: &Ctx, req: &ChatRequest) -> Result<Response, ApiError> {
    let run = run_healing(&ctx.state, req, &ctx.request_id).await;
    match run.outcome {
        Outcome::Healed {
            message,
            finish_reason,
            report,
            repaired,
            tool_calls,
        } => {
            let mut resp = run.last.unwrap_or_else(|| json!({}));
            resp["choices"] = json!([{"index": 0, "message": message,
                "logprobs": Value::Null, "finish_reason": finish_reason}]);
            if run.usage.seen {
                resp["usage"] = run.usage.to_json();
            }
            resp["jsonheal"] = report;
            ctx.record_tool_calls(tool_calls).await;
            ctx.finish(
                if repaired || run.attempts > 1 {
                    "healed"
                } else {
                    "valid"
                },
                run.attempts,
                &run.usage,
            );
            let mut response = axum::Json(resp).into_response();
            let h = response.headers_mut();
            h.insert("x-jsonheal-attempts", HeaderValue::from(run.attempts));
            h.insert(
                "x-jsonheal-repaired",
                HeaderValue::from_static(if repaired { "true" } else { "false" }),
            );
            Ok(response)
        }
        Outcome::Failed => {
            tracing::warn!(request_id = %ctx.request_id, attempts = run.attempts, "healing failed");
            ctx.finish("failed", run.attempts, &run.usage);
            let mut response = ApiError::HealingFailed {
                no_retry: no_retry(&ctx.state),
            }
            .into_response();
            response
                .headers_mut()
                .insert("x-jsonheal-attempts", HeaderValue::from(run.attempts));
            Ok(response)
        }
        Outcome::Error(e) => Err(e),
    }
}

/// Just the `usage` of a completion; reading it also checks the body is JSON, without
/// building a tree of the rest.
#[derive(serde::Deserialize)]
struct UsageOnly {
    usage: Option<Value>,
}

/// No healing, non-streaming: forward, normalise tool-call arguments, return.
async fn pass_json(ctx: &Ctx, req: &ChatRequest) -> Result<Response, ApiError> {
    let body = Value::Object(req.upstream_body.clone());
    let provider = &req.provider.name;
    let bytes = ctx
        .state
        .0
        .upstream
        .complete_bytes(&req.provider, &body, ctx.state.metrics())
        .await?;
    let not_json = |why: String| {
        ApiError::BadGateway(format!(
            "upstream {provider:?} returned a body that is not JSON ({why})"
        ))
    };
    let starts_as_object = bytes
        .iter()
        .find(|b| !b.is_ascii_whitespace())
        .is_some_and(|b| *b == b'{');
    if !starts_as_object {
        return Err(not_json("not an object".to_owned()));
    }
    let mut usage = Usage::default();
    // Without tool calls there is nothing to change: check the body and send it as it came.
    if memchr::memmem::find(&bytes, b"\"tool_calls\"").is_none() {
        let light: UsageOnly =
            serde_json::from_slice(&bytes).map_err(|e| not_json(e.to_string()))?;
        usage.add(light.usage.as_ref());
        ctx.finish("passthrough", 0, &usage);
        return Ok((
            [(
                header::CONTENT_TYPE,
                HeaderValue::from_static("application/json"),
            )],
            bytes,
        )
            .into_response());
    }
    let mut resp: Value = serde_json::from_slice(&bytes).map_err(|e| not_json(e.to_string()))?;
    let mut calls = Vec::new();
    if let Some(choices) = resp.get_mut("choices").and_then(Value::as_array_mut) {
        for choice in choices {
            if let Some(message) = choice.get_mut("message") {
                calls.extend(tools::normalize_message(message, &req.tools, false).0);
            }
        }
    }
    usage.add(resp.get("usage"));
    ctx.record_tool_calls(calls).await;
    ctx.finish("passthrough", 0, &usage);
    Ok(axum::Json(resp).into_response())
}

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

/// The `id`, `object`, `created`, `model` every chunk of one stream shares.
fn envelope(last: Option<&Value>, model: &str) -> Map<String, Value> {
    let mut env = Map::new();
    let id = last
        .and_then(|l| l.get("id"))
        .filter(|v| v.is_string())
        .cloned()
        .unwrap_or_else(|| {
            Value::String(format!(
                "chatcmpl-{}",
                request_id().trim_start_matches("req_")
            ))
        });
    env.insert("id".to_owned(), id);
    env.insert("object".to_owned(), json!("chat.completion.chunk"));
    let created = last
        .and_then(|l| l.get("created"))
        .filter(|v| v.is_number())
        .cloned()
        .unwrap_or_else(|| json!(now_secs()));
    env.insert("created".to_owned(), created);
    let model = last
        .and_then(|l| l.get("model"))
        .filter(|v| v.is_string())
        .cloned()
        .unwrap_or_else(|| json!(model));
    env.insert("model".to_owned(), model);
    if let Some(fp) = last
        .and_then(|l| l.get("system_fingerprint"))
        .filter(|v| !v.is_null())
    {
        env.insert("system_fingerprint".to_owned(), fp.clone());
    }
    env
}

fn chunk(env: &Map<String, Value>, choices: Value, extra: &[(&str, Value)]) -> Bytes {
    let mut c = env.clone();
    c.insert("choices".to_owned(), choices);
    for (k, v) in extra {
        c.insert((*k).to_owned(), v.clone());
    }
    sse::data(&Value::Object(c))
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

/// Healing, streaming: keep-alive comments while the attempts run, then the validated
/// answer as chunks — or the error chunk.
fn heal_stream(ctx: &mut Ctx, req: ChatRequest) -> Response {
    let (tx, rx) = mpsc::channel::<Bytes>(64);
    let task_ctx = Ctx {
        state: ctx.state.clone(),
        request_id: ctx.request_id.clone(),
        account: ctx.account.clone(),
        model: ctx.model.clone(),
        stream: true,
        healing: true,
        started: ctx.started,
    };
    tokio::spawn(async move {
        let ctx = task_ctx;
        let keepalive = ctx.state.config().keepalive;
        if tx.send(sse::comment("jsonheal: healing")).await.is_err() {
            return;
        }
        let run = {
            let attempts = run_healing(&ctx.state, &req, &ctx.request_id);
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
                            ctx.finish("client_closed", 0, &Usage::default());
                            return;
                        }
                    }
                }
            }
        };
        let env = envelope(run.last.as_ref(), &ctx.model);
        let usage_extra: Vec<(&str, Value)> = if req.include_usage {
            vec![("usage", Value::Null)]
        } else {
            Vec::new()
        };
        let mut out: Vec<Bytes> = Vec::new();
        let outcome_label;
        match run.outcome {
            Outcome::Healed {
                message,
                finish_reason,
                report,
                repaired,
                tool_calls,
            } => {
                out.push(chunk(
                    &env,
                    json!([{"index": 0, "delta": {"role": "assistant", "content": ""},
                        "finish_reason": null}]),
                    &usage_extra,
                ));
                if let Some(text) = message.get("content").and_then(Value::as_str) {
                    for piece in pieces(text, DELTA_BYTES) {
                        out.push(chunk(
                            &env,
                            json!([{"index": 0, "delta": {"content": piece}, "finish_reason": null}]),
                            &usage_extra,
                        ));
                    }
                }
                if let Some(calls) = message.get("tool_calls").and_then(Value::as_array) {
                    let calls: Vec<Value> = calls
                        .iter()
                        .enumerate()
                        .map(|(i, c)| {
                            let mut c = c.clone();
                            if let Some(o) = c.as_object_mut() {
                                o.insert("index".to_owned(), json!(i));
                            }
                            c
                        })
                        .collect();
                    out.push(chunk(
                        &env,
                        json!([{"index": 0, "delta": {"tool_calls": calls}, "finish_reason": null}]),
                        &usage_extra,
                    ));
                }
                let mut extra = usage_extra.clone();
                extra.push(("jsonheal", report));
                out.push(chunk(
                    &env,
                    json!([{"index": 0, "delta": {}, "finish_reason": finish_reason}]),
                    &extra,
                ));
                if req.include_usage {
                    out.push(chunk(&env, json!([]), &[("usage", run.usage.to_json())]));
                }
                ctx.record_tool_calls(tool_calls).await;
                outcome_label = if repaired || run.attempts > 1 {
                    "healed"
                } else {
                    "valid"
                };
            }
            Outcome::Failed | Outcome::Error(_) => {
                let error = match run.outcome {
                    Outcome::Error(e) => {
                        tracing::error!(request_id = %ctx.request_id, error = %e, "upstream failed during a streamed healing");
                        outcome_label = e.label();
                        e.error_object()
                    }
                    _ => {
                        tracing::warn!(request_id = %ctx.request_id, attempts = run.attempts, "healing failed");
                        outcome_label = "failed";
                        ApiError::HealingFailed { no_retry: false }.error_object()
                    }
                };
                if req.include_usage {
                    out.push(chunk(&env, json!([]), &[("usage", run.usage.to_json())]));
                }
                out.push(chunk(
                    &env,
                    json!([{"index": 0, "delta": {}, "finish_reason": "error"}]),
                    &[("error", error)],
                ));
            }
        }
        out.push(sse::done());
        for b in out {
            if tx.send(b).await.is_err() {
                break;
            }
        }
        ctx.finish(outcome_label, run.attempts, &run.usage);
    });
    sse_response(rx)
}

/// A tool call whose argument deltas are being collected.
#[derive(Default)]
struct PendingCall {
    id: Option<Value>,
    kind: Option<Value>,
    name: String,
    arguments: String,
}

/// Buffers tool-call deltas per (choice, call index) and emits each call whole, its
/// arguments normalised, once it is complete.
struct ToolCallBuffer<'a> {
    tools: &'a std::collections::HashMap<String, crate::request::Tool>,
    pending: BTreeMap<(u64, u64), PendingCall>,
    records: Vec<NewToolCall>,
}

impl ToolCallBuffer<'_> {
    /// The completed calls of `choice` (all of them, or those other than `keep`) as
    /// chunks.
    fn flush(&mut self, env: &Map<String, Value>, choice: u64, keep: Option<u64>) -> Vec<Bytes> {
        let keys: Vec<(u64, u64)> = self
            .pending
            .keys()
            .filter(|(c, i)| *c == choice && Some(*i) != keep)
            .copied()
            .collect();
        let mut out = Vec::new();
        for key in keys {
            let Some(call) = self.pending.remove(&key) else {
                continue;
            };
            let id = call.id.as_ref().and_then(Value::as_str).map(str::to_owned);
            let n = tools::normalize_call(
                &call.name,
                id.as_deref(),
                &call.arguments,
                self.tools,
                false,
            );
            self.records.push(n.record);
            out.push(chunk(
                env,
                json!([{"index": choice, "delta": {"tool_calls": [{
                    "index": key.1,
                    "id": call.id,
                    "type": call.kind.unwrap_or_else(|| json!("function")),
                    "function": {"name": call.name, "arguments": n.arguments}
                }]}, "finish_reason": null}]),
                &[],
            ));
        }
        out
    }

    /// Everything to send for one upstream chunk: completed calls first, then the chunk
    /// itself (verbatim when it carried no tool-call deltas).
    fn process(&mut self, mut value: Value, raw: Bytes) -> Vec<Bytes> {
        let env = envelope(Some(&value), "");
        let mut out = Vec::new();
        let mut touched = false;
        let mut keep_chunk = true;
        if let Some(choices) = value.get_mut("choices").and_then(Value::as_array_mut) {
            let mut any_left = false;
            for choice in choices.iter_mut() {
                let idx = choice.get("index").and_then(Value::as_u64).unwrap_or(0);
                let deltas = choice
                    .get_mut("delta")
                    .and_then(Value::as_object_mut)
                    .and_then(|d| d.remove("tool_calls"));
                if let Some(Value::Array(deltas)) = deltas {
                    touched = true;
                    for d in deltas {
                        let ti = d.get("index").and_then(Value::as_u64).unwrap_or(0);
                        if !self.pending.contains_key(&(idx, ti)) {
                            // A new call starts: the earlier ones of this choice are done.
                            out.extend(self.flush(&env, idx, Some(ti)));
                        }
                        let call = self.pending.entry((idx, ti)).or_default();
                        if let Some(id) = d.get("id").filter(|v| !v.is_null()) {
                            call.id = Some(id.clone());
                        }
                        if let Some(t) = d.get("type").filter(|v| !v.is_null()) {
                            call.kind = Some(t.clone());
                        }
                        if let Some(n) = d.pointer("/function/name").and_then(Value::as_str) {
                            call.name.push_str(n);
                        }
                        match d.pointer("/function/arguments") {
                            Some(Value::String(a)) => call.arguments.push_str(a),
                            Some(Value::Null) | None => {}
                            Some(other) => call.arguments.push_str(&other.to_string()),
                        }
                    }
                }
                let finished = choice.get("finish_reason").is_some_and(|f| !f.is_null());
                if finished {
                    out.extend(self.flush(&env, idx, None));
                }
                let delta_has_more = choice
                    .get("delta")
                    .and_then(Value::as_object)
                    .is_some_and(|d| d.values().any(|v| !v.is_null()));
                if finished || delta_has_more {
                    any_left = true;
                }
            }
            let has_usage = value.get("usage").is_some_and(|u| !u.is_null());
            if touched && !any_left && !has_usage {
                keep_chunk = false;
            }
        }
        if touched {
            if keep_chunk {
                out.push(sse::data(&value));
            }
        } else {
            out.push(raw);
        }
        out
    }

    fn flush_all(&mut self, env: &Map<String, Value>) -> Vec<Bytes> {
        let choices: Vec<u64> = self.pending.keys().map(|(c, _)| *c).collect();
        let mut out = Vec::new();
        for c in choices {
            out.extend(self.flush(env, c, None));
        }
        out
    }
}

/// No healing, streaming: forward the upstream's events as they come, except tool-call
/// argument deltas, which are buffered and sent normalised when each call completes.
async fn pass_stream(ctx: &mut Ctx, req: ChatRequest) -> Result<Response, ApiError> {
    let body = Value::Object(req.upstream_body.clone());
    let provider = req.provider.name.clone();
    // Errors up to the upstream's first event still get a proper status (502, 504, 4xx);
    // after that the status is sent and a failure becomes an error chunk.
    let resp = ctx
        .state
        .0
        .upstream
        .send(&req.provider, &body, true, ctx.state.metrics())
        .await?;
    let mut upstream = resp.bytes_stream();
    let mut parser = sse::Parser::default();
    let mut queue: VecDeque<sse::Event> = VecDeque::new();
    while !queue.iter().any(|e| e.data.is_some()) {
        match upstream.next().await {
            Some(Ok(bytes)) => queue.extend(parser.push(&bytes).map_err(|why| {
                ApiError::BadGateway(format!(
                    "upstream {provider:?} sent a broken event stream ({why})"
                ))
            })?),
            Some(Err(e)) => return Err(crate::upstream::map_error(&provider, &e)),
            None => {
                return Err(ApiError::BadGateway(format!(
                    "upstream {provider:?} ended the stream before sending an event"
                )))
            }
        }
    }
    if let Some(data) = queue.iter().find_map(|e| e.data.as_deref()) {
        let readable =
            data == "[DONE]" || serde_json::from_str::<Value>(data).is_ok_and(|v| v.is_object());
        if !readable {
            return Err(ApiError::BadGateway(format!(
                "upstream {provider:?} sent an event that is not a JSON object"
            )));
        }
    }
    let (tx, rx) = mpsc::channel::<Bytes>(64);
    let task_ctx = Ctx {
        state: ctx.state.clone(),
        request_id: ctx.request_id.clone(),
        account: ctx.account.clone(),
        model: ctx.model.clone(),
        stream: true,
        healing: false,
        started: ctx.started,
    };
    tokio::spawn(async move {
        let ctx = task_ctx;
        let mut buffer = ToolCallBuffer {
            tools: &req.tools,
            pending: BTreeMap::new(),
            records: Vec::new(),
        };
        let mut usage = Usage::default();
        let mut last_env: Option<Value> = None;
        let mut failure: Option<ApiError> = None;
        let mut done = false;
        while !done {
            let Some(ev) = queue.pop_front() else {
                match upstream.next().await {
                    Some(Ok(bytes)) => match parser.push(&bytes) {
                        Ok(evs) => queue.extend(evs),
                        Err(why) => {
                            failure = Some(ApiError::BadGateway(format!(
                                "upstream {provider:?} sent a broken event stream ({why})"
                            )));
                            break;
                        }
                    },
                    Some(Err(e)) => {
                        failure = Some(crate::upstream::map_error(&provider, &e));
                        break;
                    }
                    None => break,
                }
                continue;
            };
            let out = match ev.data.as_deref() {
                None => vec![ev.raw],
                Some("[DONE]") => {
                    let env = envelope(last_env.as_ref(), &ctx.model);
                    let mut out = buffer.flush_all(&env);
                    out.push(ev.raw);
                    done = true;
                    out
                }
                Some(data) => match serde_json::from_str::<Value>(data) {
                    Ok(v) if v.is_object() => {
                        usage.add(v.get("usage"));
                        last_env = Some(Value::Object(envelope(Some(&v), &ctx.model)));
                        buffer.process(v, ev.raw)
                    }
                    _ => {
                        failure = Some(ApiError::BadGateway(format!(
                            "upstream {provider:?} sent an event that is not a JSON object"
                        )));
                        break;
                    }
                },
            };
            for b in out {
                if tx.send(b).await.is_err() {
                    tracing::info!(request_id = %ctx.request_id, "client went away mid-stream");
                    ctx.finish("client_closed", 0, &usage);
                    return;
                }
            }
        }
        if failure.is_none() && !done {
            failure = Some(ApiError::BadGateway(format!(
                "upstream {provider:?} ended the stream before [DONE]"
            )));
        }
        let outcome = match failure {
            Some(e) => {
                tracing::error!(request_id = %ctx.request_id, error = %e, "upstream stream failed");
                let env = envelope(last_env.as_ref(), &ctx.model);
                let mut out = buffer.flush_all(&env);
                out.push(chunk(
                    &env,
                    json!([{"index": 0, "delta": {}, "finish_reason": "error"}]),
                    &[("error", e.error_object())],
                ));
                out.push(sse::done());
                for b in out {
                    if tx.send(b).await.is_err() {
                        break;
                    }
                }
                e.label()
            }
            None => "passthrough",
        };
        let records = std::mem::take(&mut buffer.records);
        ctx.record_tool_calls(records).await;
        ctx.finish(outcome, 0, &usage);
    });
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

    #[test]
    fn usage_sums_and_fills_total() {
        let mut u = Usage::default();
        u.add(Some(
            &json!({"prompt_tokens": 10, "completion_tokens": 5, "total_tokens": 15}),
        ));
        u.add(Some(&json!({"prompt_tokens": 20, "completion_tokens": 7})));
        u.add(None);
        assert_eq!(
            u.to_json(),
            json!({"prompt_tokens": 30, "completion_tokens": 12, "total_tokens": 42})
        );
    }

    #[test]
    fn tool_call_deltas_are_buffered_until_complete() {
        let tools = std::collections::HashMap::new();
        let mut b = ToolCallBuffer {
            tools: &tools,
            pending: BTreeMap::new(),
            records: Vec::new(),
        };
        let env = json!({"id": "c", "object": "chat.completion.chunk", "created": 1, "model": "m"});
        let mk = |choices: Value| {
            let mut v = env.clone();
            v["choices"] = choices;
            v
        };
        let first = mk(
            json!([{"index": 0, "delta": {"role": "assistant", "content": null,
            "tool_calls": [{"index": 0, "id": "call_1", "type": "function",
            "function": {"name": "read", "arguments": ""}}]}, "finish_reason": null}]),
        );
        let out = b.process(first, Bytes::new());
        assert_eq!(out.len(), 1, "the role survives, the call waits");
        assert!(!String::from_utf8_lossy(&out[0]).contains("tool_calls"));
        let part = mk(json!([{"index": 0, "delta": {"tool_calls": [{"index": 0,
            "function": {"arguments": "{file: 'a"}}]}, "finish_reason": null}]));
        assert!(b.process(part, Bytes::new()).is_empty());
        let part = mk(json!([{"index": 0, "delta": {"tool_calls": [{"index": 0,
            "function": {"arguments": ".txt',}"}}]}, "finish_reason": null}]));
        assert!(b.process(part, Bytes::new()).is_empty());
        let end = mk(json!([{"index": 0, "delta": {}, "finish_reason": "tool_calls"}]));
        let out = b.process(end, Bytes::from_static(b"data: end\n\n"));
        assert_eq!(out.len(), 2);
        let text = String::from_utf8_lossy(&out[0]);
        assert!(
            text.contains("call_1") && text.contains("\"name\":\"read\""),
            "{text}"
        );
        assert_eq!(&out[1][..], b"data: end\n\n");
        assert_eq!(b.records.len(), 1);
        assert_eq!(b.records[0].raw_arguments, "{file: 'a.txt',}");
    }
}
