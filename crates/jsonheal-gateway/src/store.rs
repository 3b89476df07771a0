//! Persistence: accounts, API keys, the request log and tool-call records.
//!
//! Everything goes through the [`Store`] trait so that a server database can be added
//! later; [`SqliteStore`] is the embedded default (WAL, foreign keys, `synchronous=FULL` so a
//! committed row survives a crash, numbered migrations run at open). rusqlite is synchronous:
//! the server calls the store from `spawn_blocking`. Two connections, each behind a mutex:
//! one for writes, one (read-only) for reads, so that an API-key lookup never waits behind a
//! commit's disk sync (WAL lets readers run beside the writer). A pool is the next step if
//! reads ever contend.

use std::fmt;
use std::sync::{Mutex, MutexGuard};
use std::time::{SystemTime, UNIX_EPOCH};

use rusqlite::{params, Connection, OptionalExtension, Transaction};
use serde::Serialize;
use sha2::{Digest, Sha256};

/// The default `max_attempts` of a new account.
pub const DEFAULT_MAX_ATTEMPTS: u32 = 3;
/// The name of the account requests run under with `--no-auth`.
pub const LOCAL_ACCOUNT: &str = "local";

/// A store failure.
#[derive(Debug)]
pub enum StoreError {
    /// No account has that name.
    NoSuchAccount(String),
    /// An account with that name exists already.
    AccountExists(String),
    /// A setting out of range.
    Invalid(String),
    /// The database failed.
    Database(String),
}

impl fmt::Display for StoreError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            StoreError::NoSuchAccount(n) => write!(f, "no account named {n:?}"),
            StoreError::AccountExists(n) => write!(f, "an account named {n:?} exists already"),
            StoreError::Invalid(why) => f.write_str(why),
            StoreError::Database(why) => write!(f, "database error: {why}"),
        }
    }
}

impl std::error::Error for StoreError {}

impl From<rusqlite::Error> for StoreError {
    fn from(e: rusqlite::Error) -> StoreError {
        StoreError::Database(e.to_string())
    }
}

/// An account: who a request runs as, and its healing defaults.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Account {
    pub id: i64,
    pub name: String,
    /// Heal every request that asks for `response_format` `json_schema`.
    pub auto_heal: bool,
    /// `max_attempts` when the request does not say.
    pub max_attempts: u32,
    /// The first characters of the current key, for telling keys apart in listings.
    pub key_prefix: Option<String>,
    /// Seconds since the Unix epoch.
    pub created_at: i64,
}

/// Changes to an account's settings; `None` leaves a setting as it is.
#[derive(Debug, Clone, Default)]
pub struct AccountPatch {
    pub auto_heal: Option<bool>,
    pub max_attempts: Option<u32>,
}

/// A newly made API key, shown once; only its hash is stored.
#[derive(Clone, PartialEq, Eq)]
pub struct ApiKey(pub String);

impl fmt::Debug for ApiKey {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("ApiKey(<redacted>)")
    }
}

/// One line of the request log.
#[derive(Debug, Clone)]
pub struct RequestRecord {
    pub request_id: String,
    pub account_id: Option<i64>,
    pub model: String,
    pub stream: bool,
    pub healing: bool,
    pub attempts: u32,
    /// `valid`, `healed`, `failed`, `passthrough`, `error`.
    pub outcome: String,
    pub prompt_tokens: u64,
    pub completion_tokens: u64,
    pub total_tokens: u64,
    pub latency_ms: u64,
}

/// A tool call about to be recorded.
#[derive(Debug, Clone)]
pub struct NewToolCall {
    pub request_id: String,
    pub account_id: i64,
    /// The upstream's `tool_calls[].id`.
    pub call_id: Option<String>,
    pub tool_name: String,
    /// The arguments exactly as the model sent them.
    pub raw_arguments: String,
    /// The normalised arguments as `tool_input::encode` stores them.
    pub input: String,
    /// How the arguments were normalised.
    pub strategy: String,
    /// Whether the arguments were cut off (then `raw_arguments` is all there is and `input`
    /// only what it held: never to be run as a complete call).
    pub truncated: bool,
}

/// A stored tool call.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ToolCallRecord {
    pub id: i64,
    pub request_id: String,
    pub account_id: i64,
    pub call_id: Option<String>,
    pub tool_name: String,
    pub raw_arguments: String,
    pub input: String,
    pub strategy: String,
    pub truncated: bool,
    pub created_at: i64,
}

/// The repository layer. Every method is synchronous; call it off the async runtime.
pub trait Store: Send + Sync + 'static {
    /// Create an account and its first key.
    fn create_account(
        &self,
        name: &str,
        auto_heal: bool,
        max_attempts: u32,
    ) -> Result<(Account, ApiKey), StoreError>;
    /// The account called `name`, creating it (without a key) if missing.
    fn ensure_account(&self, name: &str) -> Result<Account, StoreError>;
    /// All accounts, by name.
    fn list_accounts(&self) -> Result<Vec<Account>, StoreError>;
    /// Change an account's settings.
    fn update_account(&self, name: &str, patch: &AccountPatch) -> Result<Account, StoreError>;
    /// Replace an account's keys by a new one.
    fn rotate_key(&self, name: &str) -> Result<ApiKey, StoreError>;
    /// Delete an account, its keys and its tool calls.
    fn delete_account(&self, name: &str) -> Result<(), StoreError>;
    /// The account an API key belongs to.
    fn authenticate(&self, key: &str) -> Result<Option<Account>, StoreError>;
    /// Append request-log lines (one transaction).
    fn record_requests(&self, records: &[RequestRecord]) -> Result<(), StoreError>;
    /// Record tool calls (one transaction); returns their ids.
    fn record_tool_calls(&self, calls: &[NewToolCall]) -> Result<Vec<i64>, StoreError>;
    /// An account's tool calls, newest first.
    fn tool_calls(&self, account_id: i64, limit: u32) -> Result<Vec<ToolCallRecord>, StoreError>;
    /// One of an account's tool calls (another account's id is `None`).
    fn tool_call(&self, account_id: i64, id: i64) -> Result<Option<ToolCallRecord>, StoreError>;
    /// How many request-log lines there are (for checks and tests).
    fn request_count(&self) -> Result<u64, StoreError>;
    /// Check that the database answers.
    fn ping(&self) -> Result<(), StoreError>;
}

/// Numbered migrations; each runs once, in its own transaction, recorded in
/// `schema_migrations`.
const MIGRATIONS: &[&str] = &[
    "CREATE TABLE accounts (
        id INTEGER PRIMARY KEY,
        name TEXT NOT NULL UNIQUE,
        auto_heal INTEGER NOT NULL DEFAULT 0,
        max_attempts INTEGER NOT NULL DEFAULT 3,
        created_at INTEGER NOT NULL
    );
    CREATE TABLE api_keys (
        id INTEGER PRIMARY KEY,
        account_id INTEGER NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
        key_hash BLOB NOT NULL UNIQUE,
        key_prefix TEXT NOT NULL,
        created_at INTEGER NOT NULL
    );
    CREATE INDEX api_keys_account ON api_keys(account_id);
    CREATE TABLE requests (
        id INTEGER PRIMARY KEY,
        request_id TEXT NOT NULL,
        account_id INTEGER REFERENCES accounts(id) ON DELETE SET NULL,
        model TEXT NOT NULL,
        stream INTEGER NOT NULL,
        healing INTEGER NOT NULL,
        attempts INTEGER NOT NULL,
        outcome TEXT NOT NULL,
        prompt_tokens INTEGER NOT NULL,
        completion_tokens INTEGER NOT NULL,
        total_tokens INTEGER NOT NULL,
        latency_ms INTEGER NOT NULL,
        created_at INTEGER NOT NULL
    );
    CREATE INDEX requests_account ON requests(account_id, id);
    CREATE TABLE tool_calls (
        id INTEGER PRIMARY KEY,
        request_id TEXT NOT NULL,
        account_id INTEGER NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
        call_id TEXT,
        tool_name TEXT NOT NULL,
        raw_arguments TEXT NOT NULL,
        input TEXT NOT NULL,
        strategy TEXT NOT NULL,
        created_at INTEGER NOT NULL
    );
    CREATE INDEX tool_calls_account ON tool_calls(account_id, id);",
    // Cut-off tool-call arguments are recorded as such.
    "ALTER TABLE tool_calls ADD COLUMN truncated INTEGER NOT NULL DEFAULT 0;",
];

/// The embedded SQLite store.
pub struct SqliteStore {
    conn: Mutex<Connection>,
    /// The read connection; `None` for `:memory:`, where a second connection would open a
    /// different database.
    reader: Option<Mutex<Connection>>,
}

impl SqliteStore {
    /// Open (creating if needed) the database at `url` — a path, `sqlite://path`, or
    /// `:memory:` — and run pending migrations.
    pub fn open(url: &str) -> Result<SqliteStore, StoreError> {
        let path = url.strip_prefix("sqlite://").unwrap_or(url);
        if path.is_empty() {
            return Err(StoreError::Invalid("the database path is empty".to_owned()));
        }
        let mut conn = Connection::open(path)
            .map_err(|e| StoreError::Database(format!("cannot open {path}: {e}")))?;
        conn.busy_timeout(std::time::Duration::from_secs(10))?;
        // WAL lets readers run beside the writer; FULL makes each commit durable.
        conn.pragma_update(None, "journal_mode", "WAL")?;
        conn.pragma_update(None, "synchronous", "FULL")?;
        conn.pragma_update(None, "foreign_keys", "ON")?;
        migrate(&mut conn)?;
        let reader = if path == ":memory:" {
            None
        } else {
            let r = Connection::open(path)
                .map_err(|e| StoreError::Database(format!("cannot open {path}: {e}")))?;
            r.busy_timeout(std::time::Duration::from_secs(10))?;
            r.pragma_update(None, "foreign_keys", "ON")?;
            r.pragma_update(None, "query_only", "ON")?;
            Some(Mutex::new(r))
        };
        Ok(SqliteStore {
            conn: Mutex::new(conn),
            reader,
        })
    }

    fn reader(&self) -> MutexGuard<'_, Connection> {
        match &self.reader {
            Some(r) => r.lock().unwrap_or_else(|p| p.into_inner()),
            None => self.conn(),
        }
    }

    fn conn(&self) -> MutexGuard<'_, Connection> {
        // A panic while holding the lock cannot leave a half-done transaction (rusqlite rolls
        // back on drop), so a poisoned lock is still safe to use.
        self.conn.lock().unwrap_or_else(|p| p.into_inner())
    }
}

fn migrate(conn: &mut Connection) -> Result<(), StoreError> {
    conn.execute_batch(
        "CREATE TABLE IF NOT EXISTS schema_migrations (
            version INTEGER PRIMARY KEY,
            applied_at INTEGER NOT NULL
        )",
    )?;
    let done: i64 = conn.query_row(
        "SELECT COALESCE(MAX(version), 0) FROM schema_migrations",
        [],
        |r| r.get(0),
    )?;
    for (i, sql) in MIGRATIONS.iter().enumerate() {
        let version = i as i64 + 1;
        if version <= done {
            continue;
        }
        let tx = conn.transaction()?;
        tx.execute_batch(sql)?;
        tx.execute(
            "INSERT INTO schema_migrations (version, applied_at) VALUES (?1, ?2)",
            params![version, now()],
        )?;
        tx.commit()?;
    }
    Ok(())
}

fn now() -> i64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| d.as_secs() as i64)
}

/// Make a new key: `jh_` and 64 hex digits of 32 random bytes.
pub fn generate_key() -> Result<ApiKey, StoreError> {
    let mut bytes = [0u8; 32];
    getrandom::getrandom(&mut bytes)
        .map_err(|e| StoreError::Database(format!("no randomness for a key: {e}")))?;
    Ok(ApiKey(format!("jh_{}", hex(&bytes))))
}

/// SHA-256 of a key, as stored.
pub fn hash_key(key: &str) -> [u8; 32] {
    Sha256::digest(key.as_bytes()).into()
}

/// Lowercase hex.
pub fn hex(bytes: &[u8]) -> String {
    const DIGITS: &[u8; 16] = b"0123456789abcdef";
    let mut s = String::with_capacity(bytes.len() * 2);
    for b in bytes {
        s.push(DIGITS[usize::from(b >> 4)] as char);
        s.push(DIGITS[usize::from(b & 15)] as char);
    }
    s
}

/// Compare two byte strings in time that depends only on their lengths.
pub fn constant_time_eq(a: &[u8], b: &[u8]) -> bool {
    if a.len() != b.len() {
        return false;
    }
    a.iter().zip(b).fold(0u8, |acc, (x, y)| acc | (x ^ y)) == 0
}

fn check_max_attempts(n: u32) -> Result<(), StoreError> {
    if (1..=10).contains(&n) {
        Ok(())
    } else {
        Err(StoreError::Invalid(format!(
            "max_attempts must be between 1 and 10, not {n}"
        )))
    }
}

fn check_name(name: &str) -> Result<(), StoreError> {
    if name.is_empty() || name.len() > 200 || name.chars().any(char::is_control) {
        return Err(StoreError::Invalid(format!(
            "account name {name:?} must be 1 to 200 characters without control characters"
        )));
    }
    Ok(())
}

const ACCOUNT_COLUMNS: &str = "a.id, a.name, a.auto_heal, a.max_attempts, a.created_at,
    (SELECT key_prefix FROM api_keys k WHERE k.account_id = a.id ORDER BY k.id DESC LIMIT 1)";

const ACCOUNT_BY_ID: &str = "SELECT a.id, a.name, a.auto_heal, a.max_attempts, a.created_at,
    (SELECT key_prefix FROM api_keys k WHERE k.account_id = a.id ORDER BY k.id DESC LIMIT 1)
    FROM accounts a WHERE a.id = ?1";

fn account_row(r: &rusqlite::Row<'_>) -> rusqlite::Result<Account> {
    Ok(Account {
        id: r.get(0)?,
        name: r.get(1)?,
        auto_heal: r.get(2)?,
        max_attempts: r.get(3)?,
        created_at: r.get(4)?,
        key_prefix: r.get(5)?,
    })
}

fn account_by_name(tx: &Connection, name: &str) -> Result<Option<Account>, StoreError> {
    Ok(tx
        .query_row(
            &format!("SELECT {ACCOUNT_COLUMNS} FROM accounts a WHERE a.name = ?1"),
            [name],
            account_row,
        )
        .optional()?)
}

fn insert_key(tx: &Transaction<'_>, account_id: i64) -> Result<ApiKey, StoreError> {
    let key = generate_key()?;
    let prefix: String = key.0.chars().take(11).collect();
    tx.execute(
        "INSERT INTO api_keys (account_id, key_hash, key_prefix, created_at) VALUES (?1, ?2, ?3, ?4)",
        params![account_id, hash_key(&key.0).as_slice(), prefix, now()],
    )?;
    Ok(key)
}

fn tool_call_row(r: &rusqlite::Row<'_>) -> rusqlite::Result<ToolCallRecord> {
    Ok(ToolCallRecord {
        id: r.get(0)?,
        request_id: r.get(1)?,
        account_id: r.get(2)?,
        call_id: r.get(3)?,
        tool_name: r.get(4)?,
        raw_arguments: r.get(5)?,
        input: r.get(6)?,
        strategy: r.get(7)?,
        truncated: r.get(8)?,
        created_at: r.get(9)?,
    })
}

const TOOL_CALL_COLUMNS: &str = "id, request_id, account_id, call_id, tool_name, raw_arguments, \
                                 input, strategy, truncated, created_at";

impl Store for SqliteStore {
    fn create_account(
        &self,
        name: &str,
        auto_heal: bool,
        max_attempts: u32,
    ) -> Result<(Account, ApiKey), StoreError> {
        check_name(name)?;
        check_max_attempts(max_attempts)?;
        let mut conn = self.conn();
        let tx = conn.transaction()?;
        if account_by_name(&tx, name)?.is_some() {
            return Err(StoreError::AccountExists(name.to_owned()));
        }
        tx.execute(
            "INSERT INTO accounts (name, auto_heal, max_attempts, created_at) VALUES (?1, ?2, ?3, ?4)",
            params![name, auto_heal, max_attempts, now()],
        )?;
        let id = tx.last_insert_rowid();
        let key = insert_key(&tx, id)?;
        let account = account_by_name(&tx, name)?
            .ok_or_else(|| StoreError::Database("the new account vanished".to_owned()))?;
        tx.commit()?;
        Ok((account, key))
    }

    fn ensure_account(&self, name: &str) -> Result<Account, StoreError> {
        check_name(name)?;
        let mut conn = self.conn();
        let tx = conn.transaction()?;
        if let Some(a) = account_by_name(&tx, name)? {
            return Ok(a);
        }
        tx.execute(
            "INSERT INTO accounts (name, auto_heal, max_attempts, created_at) VALUES (?1, 0, ?2, ?3)",
            params![name, DEFAULT_MAX_ATTEMPTS, now()],
        )?;
        let account = account_by_name(&tx, name)?
            .ok_or_else(|| StoreError::Database("the new account vanished".to_owned()))?;
        tx.commit()?;
        Ok(account)
    }

    fn list_accounts(&self) -> Result<Vec<Account>, StoreError> {
        let conn = self.reader();
        let mut stmt = conn.prepare(&format!(
            "SELECT {ACCOUNT_COLUMNS} FROM accounts a ORDER BY a.name"
        ))?;
        let rows = stmt.query_map([], account_row)?;
        Ok(rows.collect::<Result<_, _>>()?)
    }

    fn update_account(&self, name: &str, patch: &AccountPatch) -> Result<Account, StoreError> {
        if let Some(n) = patch.max_attempts {
            check_max_attempts(n)?;
        }
        let mut conn = self.conn();
        let tx = conn.transaction()?;
        let account = account_by_name(&tx, name)?
            .ok_or_else(|| StoreError::NoSuchAccount(name.to_owned()))?;
        tx.execute(
            "UPDATE accounts SET auto_heal = ?1, max_attempts = ?2 WHERE id = ?3",
            params![
                patch.auto_heal.unwrap_or(account.auto_heal),
                patch.max_attempts.unwrap_or(account.max_attempts),
                account.id
            ],
        )?;
        let account = account_by_name(&tx, name)?
            .ok_or_else(|| StoreError::NoSuchAccount(name.to_owned()))?;
        tx.commit()?;
        Ok(account)
    }

    fn rotate_key(&self, name: &str) -> Result<ApiKey, StoreError> {
        let mut conn = self.conn();
        let tx = conn.transaction()?;
        let account = account_by_name(&tx, name)?
            .ok_or_else(|| StoreError::NoSuchAccount(name.to_owned()))?;
        tx.execute("DELETE FROM api_keys WHERE account_id = ?1", [account.id])?;
        let key = insert_key(&tx, account.id)?;
        tx.commit()?;
        Ok(key)
    }

    fn delete_account(&self, name: &str) -> Result<(), StoreError> {
        let conn = self.conn();
        let n = conn.execute("DELETE FROM accounts WHERE name = ?1", [name])?;
        if n == 0 {
            return Err(StoreError::NoSuchAccount(name.to_owned()));
        }
        Ok(())
    }

    fn authenticate(&self, key: &str) -> Result<Option<Account>, StoreError> {
        let hash = hash_key(key);
        let conn = self.reader();
        // Cached statements: this runs on every request, and parsing the SQL each time
        // costs more than the lookup.
        let found: Option<(Vec<u8>, i64)> = conn
            .prepare_cached("SELECT key_hash, account_id FROM api_keys WHERE key_hash = ?1")?
            .query_row([hash.as_slice()], |r| Ok((r.get(0)?, r.get(1)?)))
            .optional()?;
        // The index lookup finds the row; the constant-time comparison is the check.
        let Some((stored, account_id)) = found else {
            return Ok(None);
        };
        if !constant_time_eq(&stored, &hash) {
            return Ok(None);
        }
        let mut stmt = conn.prepare_cached(ACCOUNT_BY_ID)?;
        let account = stmt.query_row([account_id], account_row).optional()?;
        Ok(account)
    }

    fn record_requests(&self, records: &[RequestRecord]) -> Result<(), StoreError> {
        let mut conn = self.conn();
        let tx = conn.transaction()?;
        {
            let mut stmt = tx.prepare_cached(
                "INSERT INTO requests (request_id, account_id, model, stream, healing, attempts,
                    outcome, prompt_tokens, completion_tokens, total_tokens, latency_ms, created_at)
                 VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12)",
            )?;
            let at = now();
            for r in records {
                stmt.execute(params![
                    r.request_id,
                    r.account_id,
                    r.model,
                    r.stream,
                    r.healing,
                    r.attempts,
                    r.outcome,
                    r.prompt_tokens as i64,
                    r.completion_tokens as i64,
                    r.total_tokens as i64,
                    r.latency_ms as i64,
                    at
                ])?;
            }
        }
        tx.commit()?;
        Ok(())
    }

    fn record_tool_calls(&self, calls: &[NewToolCall]) -> Result<Vec<i64>, StoreError> {
        let mut conn = self.conn();
        let tx = conn.transaction()?;
        let mut ids = Vec::with_capacity(calls.len());
        {
            let mut stmt = tx.prepare_cached(
                "INSERT INTO tool_calls (request_id, account_id, call_id, tool_name, raw_arguments,
                    input, strategy, truncated, created_at)
                 VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9)",
            )?;
            let at = now();
            for c in calls {
                stmt.execute(params![
                    c.request_id,
                    c.account_id,
                    c.call_id,
                    c.tool_name,
                    c.raw_arguments,
                    c.input,
                    c.strategy,
                    c.truncated,
                    at
                ])?;
                ids.push(tx.last_insert_rowid());
            }
        }
        tx.commit()?;
        Ok(ids)
    }

    fn tool_calls(&self, account_id: i64, limit: u32) -> Result<Vec<ToolCallRecord>, StoreError> {
        let conn = self.reader();
        let mut stmt = conn.prepare_cached(&format!(
            "SELECT {TOOL_CALL_COLUMNS} FROM tool_calls WHERE account_id = ?1 ORDER BY id DESC LIMIT ?2"
        ))?;
        let rows = stmt.query_map(params![account_id, limit], tool_call_row)?;
        Ok(rows.collect::<Result<_, _>>()?)
    }

    fn tool_call(&self, account_id: i64, id: i64) -> Result<Option<ToolCallRecord>, StoreError> {
        let conn = self.reader();
        Ok(conn
            .query_row(
                &format!(
                    "SELECT {TOOL_CALL_COLUMNS} FROM tool_calls WHERE account_id = ?1 AND id = ?2"
                ),
                params![account_id, id],
                tool_call_row,
            )
            .optional()?)
    }

    fn request_count(&self) -> Result<u64, StoreError> {
        let conn = self.reader();
        let n: i64 = conn.query_row("SELECT COUNT(*) FROM requests", [], |r| r.get(0))?;
        Ok(n as u64)
    }

    fn ping(&self) -> Result<(), StoreError> {
        let conn = self.reader();
        conn.query_row("SELECT 1", [], |r| r.get::<_, i64>(0))?;
        Ok(())
    }
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;

    fn store() -> SqliteStore {
        SqliteStore::open(":memory:").expect("opens")
    }

    #[test]
    fn accounts_keys_and_settings() {
        let s = store();
        let (a, key) = s.create_account("alice", true, 5).expect("creates");
        assert!(key.0.starts_with("jh_") && key.0.len() == 67, "{}", key.0);
        assert!(a.auto_heal && a.max_attempts == 5);
        assert_eq!(a.key_prefix.as_deref(), Some(&key.0[..11]));
        assert!(matches!(
            s.create_account("alice", false, 3),
            Err(StoreError::AccountExists(_))
        ));
        assert!(matches!(
            s.create_account("bob", false, 11),
            Err(StoreError::Invalid(_))
        ));
        assert_eq!(
            s.authenticate(&key.0).expect("auth").map(|a| a.id),
            Some(a.id)
        );
        assert_eq!(s.authenticate("jh_wrong").expect("auth"), None);

        let new_key = s.rotate_key("alice").expect("rotates");
        assert_ne!(new_key, key);
        assert_eq!(s.authenticate(&key.0).expect("auth"), None);
        assert!(s.authenticate(&new_key.0).expect("auth").is_some());

        let a = s
            .update_account(
                "alice",
                &AccountPatch {
                    auto_heal: Some(false),
                    max_attempts: None,
                },
            )
            .expect("updates");
        assert!(!a.auto_heal && a.max_attempts == 5);
        assert!(matches!(
            s.update_account("nobody", &AccountPatch::default()),
            Err(StoreError::NoSuchAccount(_))
        ));
        s.delete_account("alice").expect("deletes");
        assert_eq!(s.authenticate(&new_key.0).expect("auth"), None);
        assert!(s.list_accounts().expect("lists").is_empty());
    }

    #[test]
    fn tool_calls_belong_to_one_account() {
        let s = store();
        let (a, _) = s.create_account("a", false, 3).expect("creates");
        let (b, _) = s.create_account("b", false, 3).expect("creates");
        let call = |account_id| NewToolCall {
            request_id: "req_1".to_owned(),
            account_id,
            call_id: Some("call_1".to_owned()),
            tool_name: "read".to_owned(),
            raw_arguments: "{file: 'x'}".to_owned(),
            input: r#"{"file":"x"}"#.to_owned(),
            strategy: "repaired".to_owned(),
            truncated: account_id == b.id,
        };
        let ids = s
            .record_tool_calls(&[call(a.id), call(a.id)])
            .expect("records");
        assert!(
            !s.tool_call(a.id, ids[0])
                .expect("gets")
                .expect("found")
                .truncated
        );
        let idb = s.record_tool_calls(&[call(b.id)]).expect("records")[0];
        assert!(
            s.tool_call(b.id, idb)
                .expect("gets")
                .expect("found")
                .truncated
        );
        assert_eq!(s.tool_calls(a.id, 100).expect("lists").len(), 2);
        assert!(s.tool_call(a.id, ids[0]).expect("gets").is_some());
        assert!(s.tool_call(a.id, idb).expect("gets").is_none());
        s.delete_account("b").expect("deletes");
        assert!(s.tool_calls(b.id, 100).expect("lists").is_empty());
    }

    #[test]
    fn migrations_run_once_and_data_survives_reopen() {
        let dir = std::env::temp_dir().join(format!("jsonheal-store-{}", std::process::id()));
        std::fs::create_dir_all(&dir).expect("dir");
        let path = dir.join("t.db");
        let _ = std::fs::remove_file(&path);
        let url = format!("sqlite://{}", path.display());
        let key = {
            let s = SqliteStore::open(&url).expect("opens");
            s.create_account("a", false, 3).expect("creates").1
        };
        let s = SqliteStore::open(&url).expect("reopens");
        assert!(s.authenticate(&key.0).expect("auth").is_some());
        s.record_requests(&[RequestRecord {
            request_id: "r".into(),
            account_id: None,
            model: "m".into(),
            stream: false,
            healing: true,
            attempts: 2,
            outcome: "healed".into(),
            prompt_tokens: 1,
            completion_tokens: 2,
            total_tokens: 3,
            latency_ms: 4,
        }])
        .expect("logs");
        assert_eq!(s.request_count().expect("counts"), 1);
        drop(s);
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn constant_time_eq_compares() {
        assert!(constant_time_eq(b"abc", b"abc"));
        assert!(!constant_time_eq(b"abc", b"abd"));
        assert!(!constant_time_eq(b"abc", b"ab"));
        assert_eq!(hex(&[0, 255, 16]), "00ff10");
    }
}
