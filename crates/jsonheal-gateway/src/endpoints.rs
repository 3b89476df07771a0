//! The small endpoints: models, tool-call records, health, metrics, and the fallbacks.

use axum::extract::{Path, Query, State};
use axum::http::{header, HeaderValue};
use axum::response::{IntoResponse, Response};
use axum::Json;
use serde::Deserialize;
use serde_json::{json, Value};

use crate::auth::Caller;
use crate::error::ApiError;
use crate::healing;
use crate::state::AppState;
use crate::store::ToolCallRecord;

pub async fn not_found() -> ApiError {
    ApiError::NotFound("no such endpoint".to_owned())
}

pub async fn method_not_allowed() -> ApiError {
    ApiError::MethodNotAllowed
}

pub async fn healthz(State(state): State<AppState>) -> Result<Response, ApiError> {
    state.blocking(|s| s.ping()).await?;
    Ok(Json(json!({"status": "ok"})).into_response())
}

pub async fn metrics(State(state): State<AppState>) -> Response {
    (
        [(
            header::CONTENT_TYPE,
            HeaderValue::from_static("text/plain; version=0.0.4; charset=utf-8"),
        )],
        state.metrics().render(),
    )
        .into_response()
}

/// Every provider's models; those of a provider other than the default are listed as
/// `@provider/model`, which is how a request routes to them.
pub async fn models(State(state): State<AppState>, _: Caller) -> Result<Response, ApiError> {
    let config = state.config();
    let mut data = Vec::new();
    let mut last_error = None;
    for p in &config.providers {
        match state.upstream().models(p).await {
            Ok(list) => {
                let items = list
                    .get("data")
                    .and_then(Value::as_array)
                    .cloned()
                    .unwrap_or_default();
                for mut m in items {
                    if p.name != config.default_provider {
                        if let Some(id) = m.get("id").and_then(Value::as_str) {
                            let routed = format!("@{}/{id}", p.name);
                            m["id"] = Value::String(routed);
                        }
                    }
                    data.push(m);
                }
            }
            Err(e) => {
                tracing::warn!(provider = %p.name, error = %e, "cannot list models");
                last_error = Some(e);
            }
        }
    }
    if data.is_empty() {
        if let Some(e) = last_error {
            return Err(e);
        }
    }
    Ok(Json(json!({"object": "list", "data": data})).into_response())
}

#[derive(Deserialize)]
pub struct ListQuery {
    limit: Option<String>,
}

fn tool_call_json(r: &ToolCallRecord) -> Value {
    json!({
        "id": r.id,
        "object": "tool_call",
        "request_id": r.request_id,
        "call_id": r.call_id,
        "tool": r.tool_name,
        "raw_arguments": r.raw_arguments,
        "input": Value::Object(healing::decode_input(Some(&r.input))),
        "strategy": r.strategy,
        "truncated": r.truncated,
        "created": r.created_at,
    })
}

pub async fn list_tool_calls(
    State(state): State<AppState>,
    Caller(account): Caller,
    Query(q): Query<ListQuery>,
) -> Result<Response, ApiError> {
    let limit = match q.limit.as_deref() {
        None => 100,
        Some(text) => match text.parse::<u32>() {
            Ok(n) if (1..=1000).contains(&n) => n,
            _ => {
                return Err(ApiError::invalid(
                    format!("'limit' must be an integer from 1 to 1000, not {text:?}"),
                    Some("limit"),
                ))
            }
        },
    };
    let records = state
        .blocking(move |s| s.tool_calls(account.id, limit))
        .await?;
    let data: Vec<Value> = records.iter().map(tool_call_json).collect();
    Ok(Json(json!({"object": "list", "data": data})).into_response())
}

pub async fn get_tool_call(
    State(state): State<AppState>,
    Caller(account): Caller,
    Path(id): Path<String>,
) -> Result<Response, ApiError> {
    let Ok(id) = id.parse::<i64>() else {
        return Err(ApiError::NotFound(format!("no tool call with id {id:?}")));
    };
    // Another account's record is indistinguishable from a missing one.
    match state.blocking(move |s| s.tool_call(account.id, id)).await? {
        Some(r) => Ok(Json(tool_call_json(&r)).into_response()),
        None => Err(ApiError::NotFound(format!("no tool call with id {id}"))),
    }
}
