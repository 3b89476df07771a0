//! The gateway's errors and their OpenAI-shaped HTTP responses, in one place.
//!
//! Every error has a short public message for the client and, for upstream and internal
//! failures, a detail (URLs, HTTP-client error chains, upstream bodies) that only goes to the
//! log. The request-id middleware ([`finish_response`]) logs an error response with its
//! detail and puts the request id in the client's message.

use std::sync::Arc;

use axum::body::Body;
use axum::http::{header, HeaderMap, HeaderValue, StatusCode};
use axum::response::{IntoResponse, Response};
use bytes::Bytes;
use serde_json::{json, Value};

use crate::request_id::RequestId;

/// The message of a healing failure, as OpenRouter words it (clients match on it).
pub const HEALING_FAILED_MESSAGE: &str =
    "Failed to generate a valid JSON response. Please, try again later.";

/// The `code` of an upstream that refused the gateway's own provider key (401/403): distinct
/// from `invalid_api_key`, which means the client's gateway key is wrong.
pub const UPSTREAM_AUTH_CODE: &str = "upstream_auth_failed";

/// Everything a request can fail with.
#[derive(Debug)]
pub enum ApiError {
    /// 400: the request is malformed; `param` names the offending parameter.
    InvalidRequest {
        message: String,
        param: Option<String>,
    },
    /// 413: the body exceeds the configured limit.
    PayloadTooLarge { limit: usize },
    /// 401: no key, or a key that belongs to no account.
    Unauthorized(String),
    /// 404: no such route or record.
    NotFound(String),
    /// 405: the route exists, the method does not.
    MethodNotAllowed,
    /// The upstream answered 4xx (other than 401/403): its status, body and `Retry-After` go
    /// to the client as they are; they describe the client's request.
    Upstream {
        status: StatusCode,
        body: Bytes,
        content_type: Option<HeaderValue>,
        retry_after: Option<HeaderValue>,
    },
    /// 502: the upstream refused the gateway's provider key (it answered 401 or 403).
    UpstreamAuth {
        provider: String,
        status: StatusCode,
        detail: String,
    },
    /// 502: the upstream could not be reached, broke the connection, answered 5xx or sent
    /// something that is not a chat completion.
    BadGateway { message: String, detail: String },
    /// 504: the upstream did not answer in time.
    GatewayTimeout { message: String, detail: String },
    /// 503: every attempt failed to give a valid answer.
    HealingFailed { no_retry: bool },
    /// 429: an account limit (`kind` is `requests` or `tokens`); retry after that many
    /// seconds.
    RateLimited {
        kind: &'static str,
        message: String,
        retry_after: u64,
    },
    /// 500: a bug or a database failure; the text is for the log only.
    Internal(String),
}

impl ApiError {
    /// A 400 naming `param`.
    pub fn invalid(message: impl Into<String>, param: Option<&str>) -> ApiError {
        ApiError::InvalidRequest {
            message: message.into(),
            param: param.map(str::to_owned),
        }
    }

    /// A 502 with a public `message` and a `detail` for the log.
    pub fn bad_gateway(message: impl Into<String>, detail: impl Into<String>) -> ApiError {
        ApiError::BadGateway {
            message: message.into(),
            detail: detail.into(),
        }
    }

    /// The HTTP status.
    pub fn status(&self) -> StatusCode {
        match self {
            ApiError::InvalidRequest { .. } => StatusCode::BAD_REQUEST,
            ApiError::PayloadTooLarge { .. } => StatusCode::PAYLOAD_TOO_LARGE,
            ApiError::Unauthorized(_) => StatusCode::UNAUTHORIZED,
            ApiError::NotFound(_) => StatusCode::NOT_FOUND,
            ApiError::MethodNotAllowed => StatusCode::METHOD_NOT_ALLOWED,
            ApiError::Upstream { status, .. } => *status,
            ApiError::UpstreamAuth { .. } | ApiError::BadGateway { .. } => StatusCode::BAD_GATEWAY,
            ApiError::GatewayTimeout { .. } => StatusCode::GATEWAY_TIMEOUT,
            ApiError::HealingFailed { .. } => StatusCode::SERVICE_UNAVAILABLE,
            ApiError::RateLimited { .. } => StatusCode::TOO_MANY_REQUESTS,
            ApiError::Internal(_) => StatusCode::INTERNAL_SERVER_ERROR,
        }
    }

    /// What only the log sees: upstream URLs, error chains and bodies, database errors.
    pub fn detail(&self) -> Option<&str> {
        match self {
            ApiError::UpstreamAuth { detail, .. }
            | ApiError::BadGateway { detail, .. }
            | ApiError::GatewayTimeout { detail, .. } => Some(detail),
            ApiError::Internal(detail) => Some(detail),
            _ => None,
        }
    }

    /// The `error` object of OpenAI's error shape (`{message, type, param, code}`). Errors
    /// the client cannot fix itself name the request id, so a report can be matched to the
    /// gateway's log.
    pub fn error_object(&self, request_id: Option<&RequestId>) -> Value {
        let with_id = |m: String| match request_id {
            Some(id) => format!("{m} (request id {id})"),
            None => m,
        };
        let (message, kind, param, code): (String, &str, Option<&str>, Option<&str>) = match self {
            ApiError::InvalidRequest { message, param } => (
                message.clone(),
                "invalid_request_error",
                param.as_deref(),
                None,
            ),
            ApiError::PayloadTooLarge { limit } => (
                format!("request body is larger than the limit of {limit} bytes"),
                "invalid_request_error",
                None,
                Some("request_too_large"),
            ),
            ApiError::Unauthorized(m) => (
                m.clone(),
                "invalid_request_error",
                None,
                Some("invalid_api_key"),
            ),
            ApiError::NotFound(m) => (m.clone(), "invalid_request_error", None, Some("not_found")),
            ApiError::MethodNotAllowed => (
                "this endpoint does not accept that method".to_owned(),
                "invalid_request_error",
                None,
                Some("method_not_allowed"),
            ),
            ApiError::Upstream { status, body, .. } => {
                // Only used where a passed-through error has to become a stream chunk.
                let upstream: Option<Value> = serde_json::from_slice(body).ok();
                if let Some(err) = upstream.as_ref().and_then(|v| v.get("error")) {
                    if err.is_object() {
                        return err.clone();
                    }
                }
                (
                    format!("upstream answered {status}"),
                    "upstream_error",
                    None,
                    Some("upstream_error"),
                )
            }
            ApiError::UpstreamAuth {
                provider, status, ..
            } => (
                with_id(format!(
                    "the upstream provider {provider:?} refused the gateway's credentials \
                     (HTTP {}); the gateway's provider API key is missing or wrong",
                    status.as_u16()
                )),
                "upstream_error",
                None,
                Some(UPSTREAM_AUTH_CODE),
            ),
            ApiError::BadGateway { message, .. } => (
                with_id(message.clone()),
                "upstream_error",
                None,
                Some("bad_gateway"),
            ),
            ApiError::GatewayTimeout { message, .. } => (
                with_id(message.clone()),
                "upstream_error",
                None,
                Some("gateway_timeout"),
            ),
            ApiError::HealingFailed { .. } => (
                HEALING_FAILED_MESSAGE.to_owned(),
                "service_unavailable",
                None,
                Some("service_unavailable"),
            ),
            // OpenAI's shape: the type names what ran out.
            ApiError::RateLimited { kind, message, .. } => {
                (message.clone(), kind, None, Some("rate_limit_exceeded"))
            }
            ApiError::Internal(_) => (
                with_id("the gateway failed to handle the request".to_owned()),
                "server_error",
                None,
                Some("internal_error"),
            ),
        };
        json!({"message": message, "type": kind, "param": param, "code": code})
    }

    /// A short label for logs and metrics.
    pub fn label(&self) -> &'static str {
        match self {
            ApiError::InvalidRequest { .. } => "invalid_request",
            ApiError::PayloadTooLarge { .. } => "too_large",
            ApiError::Unauthorized(_) => "unauthorized",
            ApiError::NotFound(_) => "not_found",
            ApiError::MethodNotAllowed => "method_not_allowed",
            ApiError::Upstream { .. } => "upstream_status",
            ApiError::UpstreamAuth { .. } => "upstream_auth",
            ApiError::BadGateway { .. } => "bad_gateway",
            ApiError::GatewayTimeout { .. } => "gateway_timeout",
            ApiError::HealingFailed { .. } => "healing_failed",
            ApiError::RateLimited { .. } => "rate_limited",
            ApiError::Internal(_) => "internal",
        }
    }

    /// Log this error of request `id`: server-side failures as errors with their detail,
    /// refusals as warnings.
    pub fn log(&self, id: &RequestId) {
        let status = self.status().as_u16();
        let message = self.error_object(None);
        let message = message.get("message").and_then(Value::as_str).unwrap_or("");
        let detail = self.detail().unwrap_or("");
        if self.status().is_server_error() {
            tracing::error!(request_id = %id, status, label = self.label(), detail, "{message}");
        } else {
            tracing::warn!(request_id = %id, status, label = self.label(), "{message}");
        }
    }

    /// The body the client gets (an upstream 4xx's own body is passed through).
    fn body(&self, request_id: Option<&RequestId>) -> Bytes {
        match self {
            ApiError::Upstream { body, .. } => body.clone(),
            other => Bytes::from(json!({"error": other.error_object(request_id)}).to_string()),
        }
    }
}

impl std::fmt::Display for ApiError {
    /// The public message, then the detail: for logs, never for clients.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let obj = self.error_object(None);
        write!(
            f,
            "{} {}",
            self.status().as_u16(),
            obj.get("message").and_then(Value::as_str).unwrap_or("")
        )?;
        match self.detail() {
            Some(d) => write!(f, " ({d})"),
            None => Ok(()),
        }
    }
}

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        let status = self.status();
        let mut headers = HeaderMap::new();
        match &self {
            ApiError::Upstream {
                content_type,
                retry_after,
                ..
            } => {
                headers.insert(
                    header::CONTENT_TYPE,
                    content_type
                        .clone()
                        .unwrap_or(HeaderValue::from_static("application/json")),
                );
                if let Some(ra) = retry_after {
                    headers.insert(header::RETRY_AFTER, ra.clone());
                }
            }
            other => {
                headers.insert(
                    header::CONTENT_TYPE,
                    HeaderValue::from_static("application/json"),
                );
                if let ApiError::RateLimited { retry_after, .. } = other {
                    headers.insert(header::RETRY_AFTER, HeaderValue::from(*retry_after));
                }
                if let ApiError::HealingFailed { no_retry } = other {
                    headers.insert(header::RETRY_AFTER, HeaderValue::from_static("5"));
                    if *no_retry {
                        headers.insert("x-should-retry", HeaderValue::from_static("false"));
                    }
                }
            }
        }
        let mut response = (status, headers, self.body(None)).into_response();
        // The middleware finishes it: the log line and the request id (see `finish_response`).
        response.extensions_mut().insert(Arc::new(self));
        response
    }
}

/// Finish a response of request `id`: when it is an [`ApiError`], log it and give the
/// client's message the request id.
pub fn finish_response(response: &mut Response, id: &RequestId) {
    let Some(error) = response.extensions_mut().remove::<Arc<ApiError>>() else {
        return;
    };
    error.log(id);
    if error.detail().is_some() {
        *response.body_mut() = Body::from(error.body(Some(id)));
        response.headers_mut().remove(header::CONTENT_LENGTH);
    }
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;

    #[test]
    fn healing_failure_has_the_exact_shape() {
        let e = ApiError::HealingFailed { no_retry: false };
        assert_eq!(
            json!({"error": e.error_object(None)}).to_string(),
            r#"{"error":{"message":"Failed to generate a valid JSON response. Please, try again later.","type":"service_unavailable","param":null,"code":"service_unavailable"}}"#
        );
        assert_eq!(e.status(), StatusCode::SERVICE_UNAVAILABLE);
    }

    #[test]
    fn invalid_request_names_the_param() {
        let e = ApiError::invalid(
            "max_attempts must be between 1 and 10",
            Some("max_attempts"),
        );
        let obj = e.error_object(None);
        assert_eq!(obj["type"], "invalid_request_error");
        assert_eq!(obj["param"], "max_attempts");
        assert_eq!(e.status(), StatusCode::BAD_REQUEST);
    }

    #[test]
    fn details_reach_the_log_not_the_client() {
        let id = RequestId("req_1".to_owned());
        let e = ApiError::bad_gateway(
            "cannot connect to the upstream provider \"up\"",
            "error sending request for url (http://10.0.0.7:9/v1/chat/completions)",
        );
        let obj = e.error_object(Some(&id));
        let message = obj["message"].as_str().unwrap();
        assert!(!message.contains("10.0.0.7"), "{message}");
        assert!(message.contains("req_1"), "{message}");
        assert!(e.to_string().contains("10.0.0.7"), "the log keeps it");
        let e = ApiError::Internal("disk I/O error at /var/lib/x.db".to_owned());
        let message = e.error_object(Some(&id))["message"].to_string();
        assert!(!message.contains("/var/lib"), "{message}");
    }
}
