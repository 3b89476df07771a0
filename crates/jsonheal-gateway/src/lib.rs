//! jsonheal-gateway: an OpenAI-compatible proxy that heals responses against a JSON Schema.
//!
//! Point any OpenAI client's base URL at it. When a request asks for healing (a
//! `response_schema`, `response_format.json_schema.healing_options`, an account with
//! automatic healing, or OpenRouter's `response-healing` plugin), the gateway runs the loop
//! — instructions, upstream call, extract → repair → validate, re-ask with the errors — and
//! returns schema-valid JSON, or a 503 after `max_attempts`. Tool-call arguments are always
//! normalised into JSON objects and recorded.
//!
//! ```no_run
//! # async fn run() -> anyhow::Result<()> {
//! let config = jsonheal_gateway::config::Config::with_upstream("http://localhost:11434/v1");
//! jsonheal_gateway::serve(config, async {
//!     let _ = tokio::signal::ctrl_c().await;
//! })
//! .await
//! # }
//! ```

mod chat;
pub mod config;
pub mod error;
pub mod healing;
pub mod limits;
pub mod metrics;
pub mod request;
mod routes;
pub mod sse;
pub mod store;
pub mod tools;
pub mod upstream;

use std::future::Future;
use std::sync::Arc;
use std::thread::JoinHandle;
use std::time::Duration;

use anyhow::Context;
use axum::Router;
use tokio::net::TcpListener;

use crate::config::Config;
use crate::metrics::Metrics;
use crate::store::{Account, RequestRecord, Store, LOCAL_ACCOUNT};
use crate::upstream::Upstream;

/// Shared state of a running gateway. Cheap to clone.
#[derive(Clone)]
pub struct AppState(Arc<Inner>);

struct Inner {
    config: Config,
    store: Arc<dyn Store>,
    upstream: Upstream,
    metrics: Metrics,
    schemas: healing::SchemaCache,
    /// The account requests run as with auth off.
    local_account: Option<Account>,
    request_log: std::sync::mpsc::Sender<RequestRecord>,
}

/// The background thread that writes the request log in batches (so no request waits for
/// a disk sync). Dropping every `AppState` ends it; [`RequestLogWriter::finish`] waits for
/// it to flush.
pub struct RequestLogWriter(Option<JoinHandle<()>>);

impl RequestLogWriter {
    /// Wait (up to `timeout`) until every queued record is written.
    pub async fn finish(mut self, timeout: Duration) {
        if let Some(handle) = self.0.take() {
            let join = tokio::task::spawn_blocking(move || handle.join());
            if tokio::time::timeout(timeout, join).await.is_err() {
                tracing::warn!("the request log writer did not finish in time");
            }
        }
    }
}

impl AppState {
    /// State over `store`; with auth off, requests run as the `local` account.
    pub fn new(
        config: Config,
        store: Arc<dyn Store>,
    ) -> anyhow::Result<(AppState, RequestLogWriter)> {
        let upstream = Upstream::new(config.timeouts).map_err(anyhow::Error::msg)?;
        let local_account = if config.auth {
            None
        } else {
            Some(store.ensure_account(LOCAL_ACCOUNT)?)
        };
        let (tx, rx) = std::sync::mpsc::channel::<RequestRecord>();
        let writer_store = Arc::clone(&store);
        let handle = std::thread::Builder::new()
            .name("jsonheal-request-log".to_owned())
            .spawn(move || write_request_log(&*writer_store, &rx))
            .context("cannot start the request log writer")?;
        Ok((
            AppState(Arc::new(Inner {
                config,
                store,
                upstream,
                metrics: Metrics::default(),
                schemas: healing::SchemaCache::default(),
                local_account,
                request_log: tx,
            })),
            RequestLogWriter(Some(handle)),
        ))
    }

    /// The configuration.
    pub fn config(&self) -> &Config {
        &self.0.config
    }

    /// The store.
    pub fn store(&self) -> &Arc<dyn Store> {
        &self.0.store
    }

    /// The metrics.
    pub fn metrics(&self) -> &Metrics {
        &self.0.metrics
    }

    fn log_request(&self, record: RequestRecord) {
        if self.0.request_log.send(record).is_err() {
            tracing::error!("the request log writer has stopped; a record was not written");
        }
    }
}

/// How long the request log writer gathers records before one transaction writes them: one
/// disk sync per window instead of one per request. A crash loses at most this window of the
/// request log (tool calls are written before the response, not here).
const REQUEST_LOG_WINDOW: Duration = Duration::from_millis(100);
const REQUEST_LOG_BATCH: usize = 1000;

fn write_request_log(store: &dyn Store, rx: &std::sync::mpsc::Receiver<RequestRecord>) {
    use std::sync::mpsc::RecvTimeoutError;
    while let Ok(first) = rx.recv() {
        let mut batch = vec![first];
        let deadline = std::time::Instant::now() + REQUEST_LOG_WINDOW;
        while batch.len() < REQUEST_LOG_BATCH {
            let left = deadline.saturating_duration_since(std::time::Instant::now());
            match rx.recv_timeout(left) {
                Ok(r) => batch.push(r),
                // The window is over, or every sender is gone (shutdown): write what we have.
                Err(RecvTimeoutError::Timeout | RecvTimeoutError::Disconnected) => break,
            }
        }
        if let Err(e) = store.record_requests(&batch) {
            tracing::error!(error = %e, lost = batch.len(), "cannot write the request log");
        }
    }
}

/// The HTTP routes of the gateway.
pub fn app(state: AppState) -> Router {
    routes::router(state)
}

/// Open the store named in `config`, bind `config.listen` and serve until `shutdown`
/// completes; in-flight requests are finished first.
pub async fn serve(
    config: Config,
    shutdown: impl Future<Output = ()> + Send + 'static,
) -> anyhow::Result<()> {
    let listener = TcpListener::bind(config.listen)
        .await
        .with_context(|| format!("cannot listen on {}", config.listen))?;
    // Both block (PostgreSQL connects, migrates and makes the local account over the
    // network), so they run off the async runtime.
    let (state, writer) = tokio::task::spawn_blocking(move || {
        let store = store::open(&config.database).with_context(|| {
            format!(
                "cannot open the database {}",
                store::redact_url(&config.database)
            )
        })?;
        AppState::new(config, store)
    })
    .await
    .context("the database task failed")??;
    serve_listener(listener, state, writer, shutdown).await
}

/// Serve `state` on an already bound `listener` until `shutdown` completes.
pub async fn serve_listener(
    listener: TcpListener,
    state: AppState,
    writer: RequestLogWriter,
    shutdown: impl Future<Output = ()> + Send + 'static,
) -> anyhow::Result<()> {
    let addr = listener
        .local_addr()
        .context("the listener has no address")?;
    let config = state.config();
    if !config.auth {
        tracing::warn!(
            "AUTHENTICATION IS OFF (--no-auth): anyone who can reach {addr} can use the \
             upstream providers and their API keys. Use this for local development only."
        );
    }
    tracing::info!(
        %addr,
        default_provider = %config.default_provider,
        providers = config.providers.len(),
        database = %store::redact_url(&config.database),
        "jsonheal gateway listening"
    );
    axum::serve(listener, app(state))
        .with_graceful_shutdown(shutdown)
        .await
        .context("the server failed")?;
    tracing::info!("shut down; flushing the request log");
    writer.finish(Duration::from_secs(10)).await;
    Ok(())
}

/// Log to stderr; the level comes from `JSONHEAL_LOG` (`info` by default, e.g.
/// `JSONHEAL_LOG=debug`). Safe to call more than once.
pub fn init_logging() {
    let filter = tracing_subscriber::EnvFilter::try_from_env("JSONHEAL_LOG")
        .unwrap_or_else(|_| tracing_subscriber::EnvFilter::new("info"));
    let _ = tracing_subscriber::fmt()
        .with_env_filter(filter)
        .with_writer(std::io::stderr)
        .with_ansi(std::io::IsTerminal::is_terminal(&std::io::stderr()))
        .with_target(false)
        .try_init();
}

/// Completes on SIGINT (Ctrl-C) or, on Unix, SIGTERM.
pub async fn shutdown_signal() {
    let ctrl_c = async {
        if let Err(e) = tokio::signal::ctrl_c().await {
            tracing::error!(error = %e, "cannot listen for Ctrl-C");
            std::future::pending::<()>().await;
        }
    };
    #[cfg(unix)]
    let term = async {
        match tokio::signal::unix::signal(tokio::signal::unix::SignalKind::terminate()) {
            Ok(mut s) => {
                s.recv().await;
            }
            Err(e) => {
                tracing::error!(error = %e, "cannot listen for SIGTERM");
                std::future::pending::<()>().await;
            }
        }
    };
    #[cfg(not(unix))]
    let term = std::future::pending::<()>();
    tokio::select! {
        () = ctrl_c => {},
        () = term => {},
    }
    tracing::info!("shutdown signal received; finishing in-flight requests");
}
