//! Every request gets an id: in the `x-request-id` response header, in the log lines about
//! it, and in the message of an error the gateway itself reports. The middleware here is also
//! where an [`ApiError`](crate::error::ApiError) response is logged with its internal details and given the id.

use axum::extract::Request;
use axum::http::HeaderValue;
use axum::middleware::Next;
use axum::response::Response;
use tracing::Instrument;

/// A request's id: `req_` and 24 hex digits.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RequestId(pub String);

impl RequestId {
    /// A fresh id.
    pub fn new() -> RequestId {
        RequestId(format!("req_{}", random_hex()))
    }
}

impl Default for RequestId {
    fn default() -> RequestId {
        RequestId::new()
    }
}

impl std::fmt::Display for RequestId {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

/// 24 random hex digits.
pub fn random_hex() -> String {
    let mut bytes = [0u8; 12];
    if getrandom::getrandom(&mut bytes).is_err() {
        // Uniqueness, not secrecy, matters here; fall back to the clock.
        let nanos = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| d.as_nanos());
        bytes.copy_from_slice(&nanos.to_le_bytes()[..12]);
    }
    crate::store::hex(&bytes)
}

/// The middleware: give the request an id (a request extension handlers read), then finish
/// the response: the `x-request-id` header, and for an error the log line and the id in the
/// client's message.
pub async fn layer(mut req: Request, next: Next) -> Response {
    let id = RequestId::new();
    req.extensions_mut().insert(id.clone());
    // Every log line about the request carries its id (streaming tasks re-enter the span).
    let span = tracing::info_span!("request", request_id = %id);
    let mut response = next.run(req).instrument(span).await;
    crate::error::finish_response(&mut response, &id);
    if let Ok(v) = HeaderValue::from_str(&id.0) {
        response.headers_mut().insert("x-request-id", v);
    }
    response
}
