//! The state every request shares: configuration, store, upstream client, metrics, schema
//! cache, and the background writer of the request log.

use std::sync::mpsc::{Receiver, RecvTimeoutError, Sender};
use std::sync::Arc;
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

use anyhow::Context;

use crate::config::Config;
use crate::error::ApiError;
use crate::healing::SchemaCache;
use crate::metrics::Metrics;
use crate::store::{Account, RequestRecord, Store, StoreError, LOCAL_ACCOUNT};
use crate::upstream::Upstream;

/// Shared state of a running gateway. Cheap to clone.
#[derive(Clone)]
pub struct AppState(Arc<Inner>);

struct Inner {
    config: Config,
    store: Arc<dyn Store>,
    upstream: Upstream,
    metrics: Metrics,
    schemas: SchemaCache,
    /// The account requests run as with auth off.
    local_account: Option<Account>,
    request_log: Sender<RequestRecord>,
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
        let schemas = SchemaCache::with_instruction_budget(config.instructions_budget);
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
                schemas,
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

    /// The upstream HTTP client.
    pub fn upstream(&self) -> &Upstream {
        &self.0.upstream
    }

    /// Compiled schemas, shared by all requests.
    pub fn schemas(&self) -> &SchemaCache {
        &self.0.schemas
    }

    /// The account every request runs as when auth is off.
    pub fn local_account(&self) -> Option<&Account> {
        self.0.local_account.as_ref()
    }

    /// Queue a record for the request log (written in batches by the writer thread).
    pub fn log_request(&self, record: RequestRecord) {
        if self.0.request_log.send(record).is_err() {
            tracing::error!("the request log writer has stopped; a record was not written");
        }
    }

    /// Run a store call off the async runtime.
    pub async fn blocking<T, F>(&self, f: F) -> Result<T, ApiError>
    where
        T: Send + 'static,
        F: FnOnce(&dyn Store) -> Result<T, StoreError> + Send + 'static,
    {
        let store = Arc::clone(self.store());
        tokio::task::spawn_blocking(move || f(&*store))
            .await
            .map_err(|e| ApiError::Internal(format!("a database task failed: {e}")))?
            .map_err(|e| ApiError::Internal(e.to_string()))
    }
}

/// How long the request log writer gathers records before one transaction writes them: one
/// disk sync per window instead of one per request. A crash loses at most this window of the
/// request log (tool calls are written before the response, not here).
const REQUEST_LOG_WINDOW: Duration = Duration::from_millis(100);
const REQUEST_LOG_BATCH: usize = 1000;

fn write_request_log(store: &dyn Store, rx: &Receiver<RequestRecord>) {
    while let Ok(first) = rx.recv() {
        let mut batch = vec![first];
        let deadline = Instant::now() + REQUEST_LOG_WINDOW;
        while batch.len() < REQUEST_LOG_BATCH {
            let left = deadline.saturating_duration_since(Instant::now());
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
