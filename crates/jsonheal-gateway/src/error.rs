//! The gateway's errors and their OpenAI-shaped HTTP responses, in one place.

use axum::http::{header, HeaderMap, HeaderValue, StatusCode};
use axum::response::{IntoResponse, Response};
use bytes::Bytes;
use serde_json::{json, Value};

/// The message of a healing failure, as OpenRouter words it (clients match on it).
pub const HEALING_FAILED_MESSAGE: &str =
    "Failed to generate a valid JSON response. Please, try again later.";

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
    /// The upstream answered 4xx: its status, body and `Retry-After` go to the client as
    /// they are.
    Upstream {
        status: StatusCode,
        body: Bytes,
        content_type: Option<HeaderValue>,
        retry_after: Option<HeaderValue>,
    },
    /// 502: the upstream could not be reached, broke the connection, answered 5xx or sent
    /// something that is not JSON.
    BadGateway(String),
    /// 504: the upstream did not answer in time.
    GatewayTimeout(String),
    /// 503: every attempt failed to give a valid answer.
    HealingFailed { no_retry: bool },
    /// 429: an account limit (`kind` is `requests` or `tokens`); retry after that many
    /// seconds.
    RateLimited {
        kind: &'static str,
        message: String,
        retry_after: u64,
    },
    /// 500: a bug or a database failure.
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

    /// The HTTP status.
    pub fn status(&self) -> StatusCode {
        match self {
            ApiError::InvalidRequest { .. } => StatusCode::BAD_REQUEST,
            ApiError::PayloadTooLarge { .. } => StatusCode::PAYLOAD_TOO_LARGE,
            ApiError::Unauthorized(_) => StatusCode::UNAUTHORIZED,
            ApiError::NotFound(_) => StatusCode::NOT_FOUND,
            ApiError::MethodNotAllowed => StatusCode::METHOD_NOT_ALLOWED,
            ApiError::Upstream { status, .. } => *status,
            ApiError::BadGateway(_) => StatusCode::BAD_GATEWAY,
            ApiError::GatewayTimeout(_) => StatusCode::GATEWAY_TIMEOUT,
            ApiError::HealingFailed { .. } => StatusCode::SERVICE_UNAVAILABLE,
            ApiError::RateLimited { .. } => StatusCode::TOO_MANY_REQUESTS,
            ApiError::Internal(_) => StatusCode::INTERNAL_SERVER_ERROR,
        }
    }

    /// The `error` object of OpenAI's error shape (`{message, type, param, code}`).
    pub fn error_object(&self) -> Value {
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
            ApiError::BadGateway(m) => (m.clone(), "upstream_error", None, Some("bad_gateway")),
            ApiError::GatewayTimeout(m) => {
                (m.clone(), "upstream_error", None, Some("gateway_timeout"))
            }
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
            ApiError::Internal(m) => (m.clone(), "server_error", None, Some("internal_error")),
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
            ApiError::BadGateway(_) => "bad_gateway",
            ApiError::GatewayTimeout(_) => "gateway_timeout",
            ApiError::HealingFailed { .. } => "healing_failed",
            ApiError::RateLimited { .. } => "rate_limited",
            ApiError::Internal(_) => "internal",
        }
    }
}

impl std::fmt::Display for ApiError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let obj = self.error_object();
        write!(
            f,
            "{} {}",
            self.status().as_u16(),
            obj.get("message").and_then(Value::as_str).unwrap_or("")
        )
    }
}

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        let status = self.status();
        let mut headers = HeaderMap::new();
        let body = match self {
            ApiError::Upstream {
                body,
                content_type,
                retry_after,
                ..
            } => {
                headers.insert(
                    header::CONTENT_TYPE,
                    content_type.unwrap_or(HeaderValue::from_static("application/json")),
                );
                if let Some(ra) = retry_after {
                    headers.insert(header::RETRY_AFTER, ra);
                }
                body
            }
            other => {
                headers.insert(
                    header::CONTENT_TYPE,
                    HeaderValue::from_static("application/json"),
                );
                if let ApiError::RateLimited { retry_after, .. } = &other {
                    headers.insert(header::RETRY_AFTER, HeaderValue::from(*retry_after));
                }
                if let ApiError::HealingFailed { no_retry } = other {
                    headers.insert(header::RETRY_AFTER, HeaderValue::from_static("5"));
                    if no_retry {
                        headers.insert("x-should-retry", HeaderValue::from_static("false"));
                    }
                }
                Bytes::from(json!({"error": other.error_object()}).to_string())
            }
        };
        (status, headers, body).into_response()
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
            json!({"error": e.error_object()}).to_string(),
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
        let obj = e.error_object();
        assert_eq!(obj["type"], "invalid_request_error");
        assert_eq!(obj["param"], "max_attempts");
        assert_eq!(e.status(), StatusCode::BAD_REQUEST);
    }
}
