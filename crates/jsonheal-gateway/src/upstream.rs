//! Calls to upstream providers, with their faults mapped to gateway errors.

use std::time::{Duration, Instant};

use axum::http::{header, StatusCode};
use serde_json::Value;

use crate::config::{Provider, Timeouts};
use crate::error::ApiError;
use crate::metrics::Metrics;
use crate::wire::ChatCompletion;

/// An HTTP client shared by all requests (connection pooling).
#[derive(Clone)]
pub struct Upstream {
    client: reqwest::Client,
    timeouts: Timeouts,
}

impl Upstream {
    /// A client with the configured timeouts.
    pub fn new(timeouts: Timeouts) -> Result<Upstream, String> {
        let client = reqwest::Client::builder()
            .connect_timeout(timeouts.connect)
            // For streams, `read_timeout` bounds the silence between bytes.
            .read_timeout(timeouts.request)
            .pool_idle_timeout(Duration::from_secs(60))
            // A request body or a small SSE read must not wait for a delayed ACK.
            .tcp_nodelay(true)
            .build()
            .map_err(|e| format!("cannot build the HTTP client: {e}"))?;
        Ok(Upstream { client, timeouts })
    }

    fn request(&self, provider: &Provider, path: &str) -> reqwest::RequestBuilder {
        let url = format!("{}{}", provider.base_url, path);
        let mut req = self.client.post(url);
        if let Some(key) = &provider.api_key {
            req = req.bearer_auth(key);
        }
        req
    }

    /// Send a chat completion and wait for its response headers. A non-2xx status becomes
    /// the matching error (4xx passed through, 5xx a 502).
    pub async fn send(
        &self,
        provider: &Provider,
        body: &Value,
        stream: bool,
        metrics: &Metrics,
    ) -> Result<reqwest::Response, ApiError> {
        let bytes = serde_json::to_vec(body).map_err(|e| {
            ApiError::Internal(format!("cannot serialise the upstream request: {e}"))
        })?;
        let mut req = self
            .request(provider, "/chat/completions")
            .header(header::CONTENT_TYPE, "application/json")
            .body(bytes);
        if !stream {
            req = req.timeout(self.timeouts.request);
        }
        let started = Instant::now();
        let result = req.send().await;
        metrics.upstream_latency(started.elapsed());
        let resp = result.map_err(|e| map_error(&provider.name, &e))?;
        check_status(&provider.name, resp).await
    }

    /// Send a non-streaming chat completion and read its body, unparsed.
    pub async fn complete_bytes(
        &self,
        provider: &Provider,
        body: &Value,
        metrics: &Metrics,
    ) -> Result<bytes::Bytes, ApiError> {
        let resp = self.send(provider, body, false, metrics).await?;
        resp.bytes()
            .await
            .map_err(|e| map_error(&provider.name, &e))
    }

    /// Send a non-streaming chat completion and read it.
    pub async fn complete(
        &self,
        provider: &Provider,
        body: &Value,
        metrics: &Metrics,
    ) -> Result<ChatCompletion, ApiError> {
        let resp = self.send(provider, body, false, metrics).await?;
        let bytes = resp
            .bytes()
            .await
            .map_err(|e| map_error(&provider.name, &e))?;
        serde_json::from_slice(&bytes).map_err(|e| not_a_completion(&provider.name, &e))
    }

    /// `GET /models` of one provider.
    pub async fn models(&self, provider: &Provider) -> Result<Value, ApiError> {
        let url = format!("{}/models", provider.base_url);
        let mut req = self.client.get(url).timeout(self.timeouts.request);
        if let Some(key) = &provider.api_key {
            req = req.bearer_auth(key);
        }
        let resp = req
            .send()
            .await
            .map_err(|e| map_error(&provider.name, &e))?;
        let resp = check_status(&provider.name, resp).await?;
        let bytes = resp
            .bytes()
            .await
            .map_err(|e| map_error(&provider.name, &e))?;
        serde_json::from_slice(&bytes).map_err(|e| {
            ApiError::bad_gateway(
                format!(
                    "the upstream provider {:?} returned a model list that is not JSON",
                    provider.name
                ),
                e.to_string(),
            )
        })
    }
}

/// The error for an upstream body that is not a chat completion.
pub fn not_a_completion(provider: &str, why: &dyn std::fmt::Display) -> ApiError {
    ApiError::bad_gateway(
        format!("the upstream provider {provider:?} returned a body that is not JSON or not a chat completion"),
        why.to_string(),
    )
}

async fn check_status(
    provider: &str,
    resp: reqwest::Response,
) -> Result<reqwest::Response, ApiError> {
    let status = resp.status();
    if status.is_success() {
        return Ok(resp);
    }
    let status = StatusCode::from_u16(status.as_u16()).unwrap_or(StatusCode::BAD_GATEWAY);
    let content_type = resp.headers().get(header::CONTENT_TYPE).cloned();
    let retry_after = resp.headers().get(header::RETRY_AFTER).cloned();
    let body = resp.bytes().await.unwrap_or_default();
    let snippet = || -> String { String::from_utf8_lossy(&body).chars().take(300).collect() };
    if status == StatusCode::UNAUTHORIZED || status == StatusCode::FORBIDDEN {
        // The provider refused the gateway's key: passing its 401 on would make the client
        // blame its own gateway key.
        return Err(ApiError::UpstreamAuth {
            provider: provider.to_owned(),
            status,
            detail: format!("upstream {provider:?} answered {status}: {}", snippet()),
        });
    }
    if status.is_client_error() {
        return Err(ApiError::Upstream {
            status,
            body,
            content_type,
            retry_after,
        });
    }
    Err(ApiError::bad_gateway(
        format!(
            "the upstream provider {provider:?} answered with an error (HTTP {})",
            status.as_u16()
        ),
        format!("upstream {provider:?} answered {status}: {}", snippet()),
    ))
}

/// Map a transport failure: timeouts are 504, everything else (refused, reset, bad TLS) 502.
/// The client learns which; the URL and the error chain go to the log.
pub fn map_error(provider: &str, e: &reqwest::Error) -> ApiError {
    let mut detail = e.to_string();
    let mut source = std::error::Error::source(e);
    while let Some(s) = source {
        detail.push_str(": ");
        detail.push_str(&s.to_string());
        source = s.source();
    }
    if e.is_timeout() {
        ApiError::GatewayTimeout {
            message: format!("the upstream provider {provider:?} timed out"),
            detail,
        }
    } else if e.is_connect() {
        ApiError::bad_gateway(
            format!("cannot connect to the upstream provider {provider:?}"),
            detail,
        )
    } else {
        ApiError::bad_gateway(
            format!("the connection to the upstream provider {provider:?} failed"),
            detail,
        )
    }
}
