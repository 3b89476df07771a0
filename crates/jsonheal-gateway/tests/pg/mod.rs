//! A throw-away PostgreSQL database per test, on the server `JSONHEAL_TEST_POSTGRES` names
//! (e.g. `postgres://postgres@127.0.0.1:5432`; `scripts/test.sh` sets it). Without the
//! variable the PostgreSQL tests are skipped, except under `CI=true`, where that is a failure.
//! Shared by the gateway's and the CLI's tests (`#[path]`).
#![allow(dead_code, clippy::unwrap_used)]

use std::sync::atomic::{AtomicU64, Ordering};

static COUNTER: AtomicU64 = AtomicU64::new(0);

/// A database created for one test and dropped (with its connections) when this is dropped,
/// also when the test fails.
pub struct TestDb {
    /// The database's URL.
    pub url: String,
    server: String,
    name: String,
}

/// The server URL, or `None` to skip (never under CI).
pub fn server() -> Option<String> {
    match std::env::var("JSONHEAL_TEST_POSTGRES") {
        Ok(url) if !url.is_empty() => Some(url.trim_end_matches('/').to_owned()),
        _ => {
            assert!(
                std::env::var("CI").as_deref() != Ok("true"),
                "JSONHEAL_TEST_POSTGRES is not set: CI must run the PostgreSQL tests \
                 (scripts/test.sh sets it)"
            );
            eprintln!("skipped: JSONHEAL_TEST_POSTGRES is not set");
            None
        }
    }
}

/// Run `f` on a fresh thread: the synchronous `postgres` client starts a runtime of its own,
/// which cannot happen on an async test's thread.
fn off_runtime<T: Send + 'static>(f: impl FnOnce() -> T + Send + 'static) -> T {
    std::thread::spawn(f).join().unwrap()
}

fn admin(server: &str, sql: String) -> Result<(), String> {
    let url = format!("{server}/postgres");
    off_runtime(move || {
        let mut c = postgres::Client::connect(&url, postgres::NoTls)
            .map_err(|e| format!("cannot reach the PostgreSQL server at {url}: {e}"))?;
        c.batch_execute(&sql).map_err(|e| format!("{sql}: {e:?}"))
    })
}

impl TestDb {
    /// A new empty database, or `None` when PostgreSQL tests are skipped.
    pub fn create() -> Option<TestDb> {
        let server = server()?;
        let nanos = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .unwrap()
            .as_nanos();
        let name = format!(
            "jsonheal_test_{}_{}_{nanos}",
            std::process::id(),
            COUNTER.fetch_add(1, Ordering::Relaxed)
        );
        admin(&server, format!("CREATE DATABASE {name}")).unwrap();
        Some(TestDb {
            url: format!("{server}/{name}"),
            server,
            name,
        })
    }

    /// Run one query on the database and return the first column of each row as text.
    pub fn query(&self, sql: &str) -> Vec<String> {
        let url = self.url.clone();
        let sql = sql.to_owned();
        off_runtime(move || {
            let mut c = postgres::Client::connect(&url, postgres::NoTls).unwrap();
            c.simple_query(&sql)
                .unwrap()
                .into_iter()
                .filter_map(|m| match m {
                    postgres::SimpleQueryMessage::Row(r) => r.get(0).map(str::to_owned),
                    _ => None,
                })
                .collect()
        })
    }
}

impl Drop for TestDb {
    fn drop(&mut self) {
        // FORCE ends connections a stopped gateway or a failed test left open.
        // Not a panic: this may run while a failed test unwinds.
        if let Err(e) = admin(
            &self.server,
            format!("DROP DATABASE IF EXISTS {} WITH (FORCE)", self.name),
        ) {
            eprintln!("cannot drop the test database {}: {e}", self.name);
        }
    }
}
