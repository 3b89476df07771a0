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

mod auth;
mod chat;
pub mod config;
mod endpoints;
pub mod error;
pub mod healing;
pub mod limits;
pub mod metrics;
pub mod request;
pub mod request_id;
mod routes;
pub mod sse;
pub mod state;
pub mod store;
pub mod tools;
pub mod upstream;
pub mod wire;

use std::future::Future;
use std::net::SocketAddr;
use std::time::Duration;

use anyhow::Context;
use axum::serve::ListenerExt;
use tokio::net::{TcpListener, TcpSocket, TcpStream};

use crate::config::Config;

pub use crate::routes::app;
pub use crate::state::{AppState, RequestLogWriter};

/// Open the store named in `config`, bind `config.listen` and serve until `shutdown`
/// completes; in-flight requests are finished first.
pub async fn serve(
    config: Config,
    shutdown: impl Future<Output = ()> + Send + 'static,
) -> anyhow::Result<()> {
    let listener = bind(config.listen, config.backlog)
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

/// A listener on `addr` whose accept queue holds `backlog` connections: a burst of new
/// connections beyond the queue waits for SYN retransmits (a second or more), so the default
/// (1024) is well above the OS's usual 128. The kernel caps it at `net.core.somaxconn`.
pub fn bind(addr: SocketAddr, backlog: u32) -> std::io::Result<TcpListener> {
    let socket = if addr.is_ipv4() {
        TcpSocket::new_v4()?
    } else {
        TcpSocket::new_v6()?
    };
    // A restarted gateway can bind while the old connections are in TIME_WAIT.
    socket.set_reuseaddr(true)?;
    socket.bind(addr)?;
    socket.listen(backlog)
}

/// Options set on every accepted connection. `TCP_NODELAY`: a streamed response writes small
/// pieces (headers, then each event); with Nagle's algorithm on, the first event waits for
/// the client's delayed ACK (~40 ms) before it leaves.
pub fn tune_accepted(stream: &TcpStream) {
    if let Err(e) = stream.set_nodelay(true) {
        tracing::warn!(error = %e, "cannot set TCP_NODELAY on a connection");
    }
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
    let listener = listener.tap_io(|tcp: &mut TcpStream| tune_accepted(tcp));
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

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn accepted_connections_get_tcp_nodelay_and_the_backlog_binds() {
        let listener = bind(SocketAddr::from(([127, 0, 0, 1], 0)), 1024).unwrap();
        let addr = listener.local_addr().unwrap();
        let _client = TcpStream::connect(addr).await.unwrap();
        let (accepted, _) = listener.accept().await.unwrap();
        assert!(
            !accepted.nodelay().unwrap(),
            "off by default: the test can fail"
        );
        tune_accepted(&accepted);
        assert!(accepted.nodelay().unwrap());
    }
}
