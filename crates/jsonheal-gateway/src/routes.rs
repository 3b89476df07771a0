//! The routes: which handler serves which path, and the layers around them. Nothing else.

use axum::extract::DefaultBodyLimit;
use axum::routing::{get, post};
use axum::Router;

use crate::state::AppState;
use crate::{chat, endpoints, request_id};

/// The HTTP routes of the gateway.
pub fn app(state: AppState) -> Router {
    Router::new()
        .route("/v1/chat/completions", post(chat::handle))
        .route("/chat/completions", post(chat::handle))
        .route("/v1/models", get(endpoints::models))
        .route("/v1/tool_calls", get(endpoints::list_tool_calls))
        .route("/v1/tool_calls/{id}", get(endpoints::get_tool_call))
        .route("/healthz", get(endpoints::healthz))
        .route("/metrics", get(endpoints::metrics))
        .fallback(endpoints::not_found)
        .method_not_allowed_fallback(endpoints::method_not_allowed)
        // The chat handler reads the body itself, against the configured limit, so that an
        // oversized body gets a 413 in OpenAI's error shape.
        .layer(DefaultBodyLimit::disable())
        .layer(axum::middleware::from_fn(request_id::layer))
        .with_state(state)
}
