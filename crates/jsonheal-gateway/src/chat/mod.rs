//! `POST /v1/chat/completions`: the handler reads and checks the request, then hands it to
//! one of four paths: the healing loop (`heal`), plain pass-through (`pass`), or one of the
//! two streaming paths (`stream`).

mod heal;
mod pass;
mod stream;
mod tool_stream;

use std::time::Instant;

use axum::body::Body;
use axum::extract::State;
use axum::http::{HeaderMap, HeaderValue, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::Extension;
use serde_json::Value;

use crate::error::ApiError;
use crate::limits::Admitted;
use crate::request::{self, ChatRequest};
use crate::request_id::RequestId;
use crate::state::AppState;
use crate::store::{Account, NewToolCall, RequestRecord};
use crate::wire::{Report, Usage};

/// What one request is about, for logs, the request log and tool-call records.
#[derive(Clone)]
struct Ctx {
    state: AppState,
    request_id: RequestId,
    account: Account,
    model: String,
    stream: bool,
    healing: bool,
    started: Instant,
}

impl Ctx {
    /// Count the request and queue its request-log record: `status` is what the client got
    /// (for a stream that ended in an error event, that error's status; 499 when the
    /// client went away), `repaired` whether the reply or its tool-call arguments were.
    fn finish(
        &self,
        outcome: &str,
        status: StatusCode,
        attempts: u32,
        repaired: bool,
        usage: Option<Usage>,
    ) {
        let usage = usage.unwrap_or_default();
        self.state.metrics().request(outcome);
        self.state.log_request(RequestRecord {
            request_id: self.request_id.0.clone(),
            account_id: Some(self.account.id),
            model: self.model.clone(),
            stream: self.stream,
            healing: self.healing,
            attempts,
            outcome: outcome.to_owned(),
            status: status.as_u16(),
            repaired,
            prompt_tokens: usage.prompt_tokens,
            completion_tokens: usage.completion_tokens,
            total_tokens: usage.total_tokens,
            latency_ms: self.started.elapsed().as_millis().min(u128::from(u64::MAX)) as u64,
        });
    }

    /// Store tool calls under this request and account; a failure is logged, not returned,
    /// because the client's answer does not depend on it.
    async fn record_tool_calls(&self, mut calls: Vec<NewToolCall>) {
        if calls.is_empty() {
            return;
        }
        for c in &mut calls {
            c.request_id = self.request_id.0.clone();
            c.account_id = self.account.id;
            self.state.metrics().tool_call(&c.strategy);
        }
        if let Err(e) = self
            .state
            .blocking(move |s| s.record_tool_calls(&calls))
            .await
        {
            tracing::error!(request_id = %self.request_id, error = %e, "cannot record tool calls");
        }
    }

    /// Whether healing failures tell SDKs not to retry.
    fn no_retry(&self) -> bool {
        self.state.config().x_should_retry_false
    }
}

/// The status recorded for a request whose client went away (nginx's convention).
fn client_closed() -> StatusCode {
    StatusCode::from_u16(499).unwrap_or(StatusCode::BAD_REQUEST)
}

/// Mark a response with the report's headers: `x-jsonheal-attempts`, `x-jsonheal-repaired`
/// (true only when the report lists a change) and `x-jsonheal-truncated`.
fn mark(headers: &mut HeaderMap, report: &Report) {
    let flag = |b: bool| HeaderValue::from_static(if b { "true" } else { "false" });
    headers.insert("x-jsonheal-attempts", HeaderValue::from(report.attempts));
    headers.insert("x-jsonheal-repaired", flag(report.repaired()));
    headers.insert("x-jsonheal-truncated", flag(report.truncated()));
}

/// The handler.
pub async fn handle(
    State(state): State<AppState>,
    Extension(request_id): Extension<RequestId>,
    Admitted(account): Admitted,
    body: Body,
) -> Response {
    let mut ctx = Ctx {
        state,
        request_id,
        account,
        model: String::new(),
        stream: false,
        healing: false,
        started: Instant::now(),
    };
    match serve(&mut ctx, body).await {
        Ok(r) => r,
        Err(e) => {
            ctx.finish(e.label(), e.status(), 0, false, None);
            e.into_response()
        }
    }
}

async fn serve(ctx: &mut Ctx, body: Body) -> Result<Response, ApiError> {
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
    let req = request::prepare(value, &ctx.account, ctx.state.config(), ctx.state.schemas())?;
    ctx.stream = req.stream;
    ctx.healing = req.healing.is_some();
    dispatch(ctx.clone(), req).await
}

async fn dispatch(ctx: Ctx, req: ChatRequest) -> Result<Response, ApiError> {
    match (req.healing.is_some(), req.stream) {
        (true, false) => heal::respond(&ctx, &req).await,
        (true, true) => Ok(stream::heal(ctx, req)),
        (false, false) => pass::respond(&ctx, &req).await,
        (false, true) => stream::pass(ctx, req).await,
    }
}
