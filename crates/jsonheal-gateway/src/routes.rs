//! The router and the small endpoints; chat completions live in `chat`.

use axum::extract::{DefaultBodyLimit, Path, Query, State};
use axum::http::{header, HeaderMap, HeaderValue};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use axum::{Json, Router};
use serde::Deserialize;
use serde_json::{json, Value};

use crate::error::ApiError;
use crate::store::{Account, StoreError, ToolCallRecord};
use crate::{chat, healing, AppState};

pub fn router(state: AppState) -> Router {
    Router::new()
        .route("/v1/chat/completions", post(chat::handle))
        .route("/chat/completions", post(chat::handle))
        .route("/v1/models", get(models))
        .route("/v1/tool_calls", get(list_tool_calls))
        .route("/v1/tool_calls/{id}", get(get_tool_call))
        .route("/healthz", get(healthz))
        .route("/metrics", get(metrics))
        .fallback(not_found)
        .method_not_allowed_fallback(method_not_allowed)
        // The chat handler reads the body itself, against the configured limit, so that an
        // oversized body gets a 413 in OpenAI's error shape.
        .layer(DefaultBodyLimit::disable())
        .with_state(state)
}

async fn not_found() -> ApiError {
    ApiError::NotFound("no such endpoint".to_owned())
}

async fn method_not_allowed() -> ApiError {
    ApiError::MethodNotAllowed
}

/// A fresh request id: `req_` and 24 hex digits.
pub fn request_id() -> String {
    let mut bytes = [0u8; 12];
    if getrandom::getrandom(&mut bytes).is_err() {
        // Uniqueness, not secrecy, matters here; fall back to the clock.
        let nanos = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| d.as_nanos());
        bytes.copy_from_slice(&nanos.to_le_bytes()[..12]);
    }
    format!("req_{}", crate::store::hex(&bytes))
}

/// Run a store call off the async runtime.
pub async fn blocking<T, F>(state: &AppState, f: F) -> Result<T, ApiError>
where
    T: Send + 'static,
    F: FnOnce(&dyn crate::store::Store) -> Result<T, StoreError> + Send + 'static,
{
    let store = std::sync::Arc::clone(state.store());
    tokio::task::spawn_blocking(move || f(&*store))
        .await
        .map_err(|e| ApiError::Internal(format!("a database task failed: {e}")))?
        .map_err(|e| ApiError::Internal(e.to_string()))
}

/// The account of the request's `Authorization: Bearer` key (or the local account with
/// auth off).
pub async fn authenticate(state: &AppState, headers: &HeaderMap) -> Result<Account, ApiError> {
    if let Some(local) = &state.0.local_account {
        return Ok(local.clone());
    }
    let Some(value) = headers.get(header::AUTHORIZATION) else {
        return Err(ApiError::Unauthorized(
            "you didn't provide an API key; send it as 'Authorization: Bearer <key>'".to_owned(),
        ));
    };
    let key = value
        .to_str()
        .ok()
        .and_then(|v| {
            v.strip_prefix("Bearer ")
                .or_else(|| v.strip_prefix("bearer "))
        })
        .map(str::trim)
        .unwrap_or_default()
        .to_owned();
    if key.is_empty() {
        return Err(ApiError::Unauthorized(
            "the Authorization header must be 'Bearer <key>'".to_owned(),
        ));
    }
    // An indexed lookup on the read connection takes microseconds: done in place, it saves
    // two thread hand-offs per request (what `blocking` would cost), which on a loaded
    // machine is most of the gateway's overhead.
    let found = state
        .store()
        .authenticate(&key)
        .map_err(|e| ApiError::Internal(e.to_string()))?;
    match found {
        Some(account) => Ok(account),
        None => Err(ApiError::Unauthorized(
            "incorrect API key provided".to_owned(),
        )),
    }
}

async fn healthz(State(state): State<AppState>) -> Response {
    match blocking(&state, |s| s.ping()).await {
        Ok(()) => Json(json!({"status": "ok"})).into_response(),
        Err(e) => {
            tracing::error!(error = %e, "health check failed");
            e.into_response()
        }
    }
}

async fn metrics(State(state): State<AppState>) -> Response {
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
async fn models(State(state): State<AppState>, headers: HeaderMap) -> Result<Response, ApiError> {
    authenticate(&state, &headers).await?;
    let config = state.config();
    let mut data = Vec::new();
    let mut last_error = None;
    for p in &config.providers {
        match state.0.upstream.models(p).await {
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
struct ListQuery {
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
        "created": r.created_at,
    })
}

async fn list_tool_calls(
    State(state): State<AppState>,
    headers: HeaderMap,
    Query(q): Query<ListQuery>,
) -> Result<Response, ApiError> {
    let account = authenticate(&state, &headers).await?;
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
    let records = blocking(&state, move |s| s.tool_calls(account.id, limit)).await?;
    let data: Vec<Value> = records.iter().map(tool_call_json).collect();
    Ok(Json(json!({"object": "list", "data": data})).into_response())
}

async fn get_tool_call(
    State(state): State<AppState>,
    headers: HeaderMap,
    Path(id): Path<String>,
) -> Result<Response, ApiError> {
    let account = authenticate(&state, &headers).await?;
    let Ok(id) = id.parse::<i64>() else {
        return Err(ApiError::NotFound(format!("no tool call with id {id:?}")));
    };
    // Another account's record is indistinguishable from a missing one.
    match blocking(&state, move |s| s.tool_call(account.id, id)).await? {
        Some(r) => Ok(Json(tool_call_json(&r)).into_response()),
        None => Err(ApiError::NotFound(format!("no tool call with id {id}"))),
    }
}
