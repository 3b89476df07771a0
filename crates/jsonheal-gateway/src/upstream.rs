//! Calls to upstream providers, with their faults mapped to gateway errors.

use std::time::{Duration, Instant};

use axum::http::{header, StatusCode};
use serde_json::Value;

use crate::config::{Provider, Timeouts};
use crate::error::ApiError;
use crate::metrics::Metrics;

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

    /// Send a non-streaming chat completion and read its JSON body.
    pub async fn complete(
        &self,
        provider: &Provider,
        body: &Value,
        metrics: &Metrics,
    ) -> Result<Value, ApiError> {
        let resp = self.send(provider, body, false, metrics).await?;
        let bytes = resp
            .bytes()
            .await
            .map_err(|e| map_error(&provider.name, &e))?;
        let value: Value = serde_json::from_slice(&bytes).map_err(|e| {
            ApiError::BadGateway(format!(
                "upstream {:?} returned a body that is not JSON ({e})",
                provider.name
            ))
        })?;
        if !value.is_object() {
            return Err(ApiError::BadGateway(format!(
                "upstream {:?} returned JSON that is not an object",
                provider.name
            )));
        }
        Ok(value)
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
            ApiError::BadGateway(format!(
                "upstream {:?} returned a model list that is not JSON ({e})",
                provider.name
            ))
        })
    }
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
    if status.is_client_error() {
        return Err(ApiError::Upstream {
            status,
            body,
            content_type,
            retry_after,
        });
    }
    let snippet: String = String::from_utf8_lossy(&body).chars().take(300).collect();
    Err(ApiError::BadGateway(format!(
        "upstream {provider:?} answered {status}: {snippet}"
    )))
}

/// Map a transport failure: timeouts are 504, everything else (refused, reset, bad TLS) 502.
pub fn map_error(provider: &str, e: &reqwest::Error) -> ApiError {
    let mut detail = e.to_string();
    let mut source = std::error::Error::source(e);
    while let Some(s) = source {
        detail.push_str(": ");
        detail.push_str(&s.to_string());
        source = s.source();
    }
    if e.is_timeout() {
        ApiError::GatewayTimeout(format!("upstream {provider:?} timed out ({detail})"))
    } else if e.is_connect() {
        ApiError::BadGateway(format!(
            "cannot connect to upstream {provider:?} ({detail})"
        ))
    } else {
        ApiError::BadGateway(format!("upstream {provider:?} failed ({detail})"))
    }
}
