//! No healing, no streaming: forward, normalise tool-call arguments, return.

use axum::http::{header, HeaderMap, HeaderValue, StatusCode};
use axum::response::{IntoResponse, Response};

use super::heal::TOOL_CALLS_CANDIDATE;
use super::Ctx;
use crate::error::ApiError;
use crate::request::ChatRequest;
use crate::tools;
use crate::upstream::not_a_completion;
use crate::wire::{ChatCompletion, Report, Usage};

/// Just the `usage` of a completion; reading it also checks the body is JSON, without
/// building a tree of the rest.
#[derive(serde::Deserialize)]
struct UsageOnly {
    usage: Option<Usage>,
}

pub(super) async fn respond(ctx: &Ctx, req: &ChatRequest) -> Result<Response, ApiError> {
    let body = serde_json::Value::Object(req.upstream_body.clone());
    let provider = &req.provider.name;
    let bytes = ctx
        .state
        .upstream()
        .complete_bytes(&req.provider, &body, ctx.state.metrics())
        .await?;
    let starts_as_object = bytes
        .iter()
        .find(|b| !b.is_ascii_whitespace())
        .is_some_and(|b| *b == b'{');
    if !starts_as_object {
        return Err(not_a_completion(provider, &"the body is not a JSON object"));
    }
    // Without tool calls there is nothing to change: check the body and send it as it came.
    if memchr::memmem::find(&bytes, b"\"tool_calls\"").is_none() {
        let light: UsageOnly =
            serde_json::from_slice(&bytes).map_err(|e| not_a_completion(provider, &e))?;
        ctx.finish("passthrough", StatusCode::OK, 0, false, light.usage);
        return Ok((
            [(
                header::CONTENT_TYPE,
                HeaderValue::from_static("application/json"),
            )],
            bytes,
        )
            .into_response());
    }
    let mut resp: ChatCompletion =
        serde_json::from_slice(&bytes).map_err(|e| not_a_completion(provider, &e))?;
    let mut records = Vec::new();
    let mut reports = Vec::new();
    for choice in &mut resp.choices {
        let calls = tools::normalize_message(&mut choice.message, &req.tools, false);
        records.extend(calls.records);
        reports.extend(calls.reports);
    }
    let report = Report {
        attempts: 1,
        candidate: TOOL_CALLS_CANDIDATE.to_owned(),
        repairs: Vec::new(),
        coercions: Vec::new(),
        tool_calls: reports,
    };
    ctx.record_tool_calls(records).await;
    ctx.finish(
        "passthrough",
        StatusCode::OK,
        0,
        report.repaired(),
        resp.usage,
    );
    let mut response_headers = HeaderMap::new();
    super::mark(&mut response_headers, &report);
    resp.jsonheal = Some(report);
    Ok((response_headers, axum::Json(resp)).into_response())
}
