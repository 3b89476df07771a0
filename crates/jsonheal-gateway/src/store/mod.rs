//! Persistence: accounts, API keys, limits, the request log (usage) and tool-call records.
//!
//! Everything goes through the [`Store`] trait. Two backends: [`SqliteStore`], the embedded
//! default (one process), and [`PostgresStore`], a shared database that several gateway
//! replicas use at once, so that any replica serves any account. [`open`] picks one from the
//! database URL. Every method is synchronous (rusqlite, and the `postgres` client with an r2d2
//! pool): the server calls the store from `spawn_blocking`, except where
//! [`Store::is_embedded`] says a lookup is local and takes microseconds.

mod postgres;
mod sqlite;

use std::fmt;
use std::sync::Arc;
use std::time::{SystemTime, UNIX_EPOCH};

use serde::Serialize;
use sha2::{Digest, Sha256};

pub use self::postgres::PostgresStore;
pub use self::sqlite::SqliteStore;

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

/// An account: who a request runs as, its healing defaults and its limits.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Account {
    pub id: i64,
    pub name: String,
    /// Heal every request that asks for `response_format` `json_schema`.
    pub auto_heal: bool,
    /// `max_attempts` when the request does not say.
    pub max_attempts: u32,
    /// Requests per minute; `None` is no limit.
    pub rpm: Option<u32>,
    /// Tokens (prompt + completion) per UTC day; `None` is no limit.
    pub tokens_per_day: Option<u64>,
    /// The first characters of the current key, for telling keys apart in listings.
    pub key_prefix: Option<String>,
    /// Seconds since the Unix epoch.
    pub created_at: i64,
}

/// Changes to an account's settings; `None` leaves a setting as it is. For the limits,
/// `Some(None)` removes the limit.
#[derive(Debug, Clone, Default)]
pub struct AccountPatch {
    pub auto_heal: Option<bool>,
    pub max_attempts: Option<u32>,
    pub rpm: Option<Option<u32>>,
    pub tokens_per_day: Option<Option<u64>>,
}

impl AccountPatch {
    /// `account` with this patch applied, checked.
    pub fn apply(&self, account: &Account) -> Result<Account, StoreError> {
        let mut a = account.clone();
        if let Some(v) = self.auto_heal {
            a.auto_heal = v;
        }
        if let Some(v) = self.max_attempts {
            check_max_attempts(v)?;
            a.max_attempts = v;
        }
        if let Some(v) = self.rpm {
            a.rpm = v;
        }
        if let Some(v) = self.tokens_per_day {
            a.tokens_per_day = v;
        }
        check_limits(&a)?;
        Ok(a)
    }

    /// Whether the patch changes nothing.
    pub fn is_empty(&self) -> bool {
        self.auto_heal.is_none()
            && self.max_attempts.is_none()
            && self.rpm.is_none()
            && self.tokens_per_day.is_none()
    }
}

/// A newly made API key, shown once; only its hash is stored.
#[derive(Clone, PartialEq, Eq)]
pub struct ApiKey(pub String);

impl fmt::Debug for ApiKey {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("ApiKey(<redacted>)")
    }
}

/// One line of the request log: what a request did and what it cost.
#[derive(Debug, Clone)]
pub struct RequestRecord {
    pub request_id: String,
    pub account_id: Option<i64>,
    pub model: String,
    pub stream: bool,
    pub healing: bool,
    /// Upstream calls made for the request (healing attempts).
    pub attempts: u32,
    /// `valid`, `healed`, `failed`, `passthrough`, `error`.
    pub outcome: String,
    /// The HTTP status the client got.
    pub status: u16,
    /// The reply (or its tool-call arguments) was repaired.
    pub repaired: bool,
    /// Summed over every upstream call of the request.
    pub prompt_tokens: u64,
    pub completion_tokens: u64,
    pub total_tokens: u64,
    pub latency_ms: u64,
}

/// An account's usage of one model over a period.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct UsageRow {
    pub model: String,
    pub requests: u64,
    /// Requests answered with a status of 400 or more.
    pub errors: u64,
    pub repaired: u64,
    pub attempts: u64,
    pub prompt_tokens: u64,
    pub completion_tokens: u64,
    pub total_tokens: u64,
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

/// One step of a rate limit (a generic cell rate algorithm): a request is admitted when the
/// account's theoretical arrival time, less `tolerance_ms`, is not after `now_ms`; admitting
/// it moves that time `interval_ms` on from the later of itself and `now_ms`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct RateStep {
    pub now_ms: i64,
    pub interval_ms: i64,
    pub tolerance_ms: i64,
}

/// The repository layer. Every method is synchronous; call it off the async runtime unless
/// [`Store::is_embedded`].
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
    /// The account called `name`.
    fn account(&self, name: &str) -> Result<Account, StoreError>;
    /// All accounts, by name.
    fn list_accounts(&self) -> Result<Vec<Account>, StoreError>;
    /// Change an account's settings.
    fn update_account(&self, name: &str, patch: &AccountPatch) -> Result<Account, StoreError>;
    /// Replace an account's keys by a new one.
    fn rotate_key(&self, name: &str) -> Result<ApiKey, StoreError>;
    /// Delete an account, its keys, its tool calls and its limit state.
    fn delete_account(&self, name: &str) -> Result<(), StoreError>;
    /// The account an API key belongs to.
    fn authenticate(&self, key: &str) -> Result<Option<Account>, StoreError>;
    /// Append request-log lines and add their tokens to the accounts' daily totals (one
    /// transaction).
    fn record_requests(&self, records: &[RequestRecord]) -> Result<(), StoreError>;
    /// An account's usage since `since` (seconds since the epoch), by model.
    fn usage(&self, account_id: i64, since: i64) -> Result<Vec<UsageRow>, StoreError>;
    /// The tokens an account used on `day` (days since the epoch, UTC).
    fn tokens_on_day(&self, account_id: i64, day: i64) -> Result<u64, StoreError>;
    /// Take one request from an account's rate (atomically, across every replica on the
    /// database): `None` if admitted, else the milliseconds until a request would be.
    fn take_rate(&self, account_id: i64, step: RateStep) -> Result<Option<u64>, StoreError>;
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
    /// Lookups are local (no network) and may run on the async runtime.
    fn is_embedded(&self) -> bool;
}

/// Open the store a database URL names: `postgres://` or `postgresql://` for PostgreSQL,
/// anything else (a path, `sqlite://path`, `:memory:`) for SQLite. Pending migrations run
/// first. Blocks: call it off the async runtime.
pub fn open(url: &str) -> Result<Arc<dyn Store>, StoreError> {
    if is_postgres_url(url) {
        Ok(Arc::new(PostgresStore::open(url)?))
    } else {
        Ok(Arc::new(SqliteStore::open(url)?))
    }
}

/// Whether `url` names a PostgreSQL database.
pub fn is_postgres_url(url: &str) -> bool {
    url.starts_with("postgres://") || url.starts_with("postgresql://")
}

/// The URL with any password replaced by `***`, for logs and error messages.
pub fn redact_url(url: &str) -> String {
    let Some((scheme, rest)) = url.split_once("://") else {
        return url.to_owned();
    };
    let (authority, path) = rest.split_at(rest.find('/').unwrap_or(rest.len()));
    match authority.rsplit_once('@') {
        Some((userinfo, host)) => match userinfo.split_once(':') {
            Some((user, _)) => format!("{scheme}://{user}:***@{host}{path}"),
            None => url.to_owned(),
        },
        None => url.to_owned(),
    }
}

/// An account's columns (`a` is `accounts`), the same SQL for both backends.
pub(crate) const ACCOUNT_COLUMNS: &str =
    "a.id, a.name, a.auto_heal, a.max_attempts, a.rpm, a.tokens_per_day, a.created_at,
    (SELECT key_prefix FROM api_keys k WHERE k.account_id = a.id ORDER BY k.id DESC LIMIT 1)";

/// A tool call's columns, the same SQL for both backends.
pub(crate) const TOOL_CALL_COLUMNS: &str =
    "id, request_id, account_id, call_id, tool_name, raw_arguments, \
                                 input, strategy, truncated, created_at";

fn now() -> i64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| d.as_secs() as i64)
}

/// The UTC day (days since the epoch) of `secs` seconds since the epoch.
pub fn day_of(secs: i64) -> i64 {
    secs.div_euclid(86_400)
}

/// Make a new key: `jh_` and 64 hex digits of 32 random bytes.
pub fn generate_key() -> Result<ApiKey, StoreError> {
    let mut bytes = [0u8; 32];
    getrandom::getrandom(&mut bytes)
        .map_err(|e| StoreError::Database(format!("no randomness for a key: {e}")))?;
    Ok(ApiKey(format!("jh_{}", hex(&bytes))))
}

/// The part of a key kept in clear, for listings.
fn key_prefix(key: &ApiKey) -> String {
    key.0.chars().take(11).collect()
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

fn check_limits(a: &Account) -> Result<(), StoreError> {
    if a.rpm == Some(0) {
        return Err(StoreError::Invalid(
            "rpm must be at least 1 (use \"off\" for no limit)".to_owned(),
        ));
    }
    if a.tokens_per_day == Some(0) {
        return Err(StoreError::Invalid(
            "tokens_per_day must be at least 1 (use \"off\" for no limit)".to_owned(),
        ));
    }
    // Stored as a signed 64-bit integer.
    if a.tokens_per_day.is_some_and(|n| i64::try_from(n).is_err()) {
        return Err(StoreError::Invalid(format!(
            "tokens_per_day must be at most {}",
            i64::MAX
        )));
    }
    Ok(())
}

fn check_name(name: &str) -> Result<(), StoreError> {
    if name.is_empty() || name.len() > 200 || name.chars().any(char::is_control) {
        return Err(StoreError::Invalid(format!(
            "account name {name:?} must be 1 to 200 characters without control characters"
        )));
    }
    Ok(())
}

/// A count read from the database as a signed integer (both backends store 64-bit signed);
/// a negative one is corruption, reported rather than wrapped.
fn unsigned<T: TryFrom<i64>>(v: i64, what: &str) -> Result<T, StoreError> {
    T::try_from(v).map_err(|_| StoreError::Database(format!("{what} out of range: {v}")))
}

/// A count for a 64-bit signed column, saturated (a token count beyond `i64::MAX` cannot
/// come from a real request).
fn signed(v: u64) -> i64 {
    i64::try_from(v).unwrap_or(i64::MAX)
}

/// A usage row from its model and its seven sums, in [`UsageRow`]'s field order.
fn usage_row(model: String, n: [i64; 7]) -> Result<UsageRow, StoreError> {
    let u = |v: i64| unsigned::<u64>(v, "a usage sum");
    Ok(UsageRow {
        model,
        requests: u(n[0])?,
        errors: u(n[1])?,
        repaired: u(n[2])?,
        attempts: u(n[3])?,
        prompt_tokens: u(n[4])?,
        completion_tokens: u(n[5])?,
        total_tokens: u(n[6])?,
    })
}

/// How long until the refused `step` would be admitted, given the stored arrival time.
fn wait_ms(tat_ms: i64, step: RateStep) -> u64 {
    (tat_ms - step.tolerance_ms - step.now_ms)
        .max(1)
        .unsigned_abs()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn constant_time_eq_compares() {
        assert!(constant_time_eq(b"abc", b"abc"));
        assert!(!constant_time_eq(b"abc", b"abd"));
        assert!(!constant_time_eq(b"abc", b"ab"));
        assert_eq!(hex(&[0, 255, 16]), "00ff10");
    }

    #[test]
    fn urls_pick_the_backend_and_hide_passwords() {
        assert!(is_postgres_url("postgres://u@h/db"));
        assert!(is_postgres_url("postgresql://u@h/db"));
        assert!(!is_postgres_url("jsonheal.db"));
        assert!(!is_postgres_url("sqlite://x.db"));
        assert_eq!(
            redact_url("postgres://me:s3cret@db:5432/x"),
            "postgres://me:***@db:5432/x"
        );
        assert_eq!(redact_url("postgres://me@db/x"), "postgres://me@db/x");
        assert_eq!(redact_url("x.db"), "x.db");
    }

    #[test]
    fn days_are_utc() {
        assert_eq!(day_of(0), 0);
        assert_eq!(day_of(86_399), 0);
        assert_eq!(day_of(86_400), 1);
        assert_eq!(day_of(-1), -1);
    }
}
