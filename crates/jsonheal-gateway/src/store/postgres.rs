//! The PostgreSQL store: one database shared by every gateway replica, so that any replica
//! serves any account and a key change on one is seen by all at once (nothing is cached).
//!
//! The synchronous `postgres` client with an r2d2 pool: the [`Store`] trait is synchronous
//! and called from `spawn_blocking`, so an async driver would only add a `block_on` per call.
//! Migrations run at open under a transaction-scoped advisory lock, so replicas starting
//! together apply each one exactly once. Connections are plain TCP (no TLS).

use std::collections::BTreeMap;
use std::time::Duration;

use postgres::error::SqlState;
use postgres::types::Type;
use postgres::{GenericClient, NoTls, Row};
use r2d2_postgres::r2d2::{Pool, PooledConnection};
use r2d2_postgres::PostgresConnectionManager;

use super::{
    constant_time_eq, day_of, generate_key, hash_key, key_prefix, now, signed, unsigned, usage_row,
    wait_ms, Account, AccountPatch, ApiKey, NewToolCall, RateStep, RequestRecord, Store,
    StoreError, ToolCallRecord, UsageRow, ACCOUNT_COLUMNS, DEFAULT_MAX_ATTEMPTS, TOOL_CALL_COLUMNS,
};

/// Connections per gateway process; requests past this wait for one (up to
/// [`CONNECT_TIMEOUT`]).
const POOL_SIZE: u32 = 16;
const CONNECT_TIMEOUT: Duration = Duration::from_secs(10);
/// The advisory lock that serialises migrations (an arbitrary constant: "jsonheal").
const MIGRATION_LOCK: i64 = 0x6a73_6f6e_6865_616c;

/// Numbered migrations, applied in order, each recorded in `schema_migrations`. Never edit
/// one that has shipped: add the next.
const MIGRATIONS: &[&str] = &[
    "CREATE TABLE accounts (
        id BIGSERIAL PRIMARY KEY,
        name TEXT NOT NULL UNIQUE,
        auto_heal BOOLEAN NOT NULL DEFAULT FALSE,
        max_attempts BIGINT NOT NULL DEFAULT 3,
        rpm BIGINT,
        tokens_per_day BIGINT,
        created_at BIGINT NOT NULL
    );
    CREATE TABLE api_keys (
        id BIGSERIAL PRIMARY KEY,
        account_id BIGINT NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
        key_hash BYTEA NOT NULL UNIQUE,
        key_prefix TEXT NOT NULL,
        created_at BIGINT NOT NULL
    );
    CREATE INDEX api_keys_account ON api_keys(account_id);
    CREATE TABLE requests (
        id BIGSERIAL PRIMARY KEY,
        request_id TEXT NOT NULL,
        account_id BIGINT REFERENCES accounts(id) ON DELETE SET NULL,
        model TEXT NOT NULL,
        stream BOOLEAN NOT NULL,
        healing BOOLEAN NOT NULL,
        attempts BIGINT NOT NULL,
        outcome TEXT NOT NULL,
        status BIGINT NOT NULL,
        repaired BOOLEAN NOT NULL,
        prompt_tokens BIGINT NOT NULL,
        completion_tokens BIGINT NOT NULL,
        total_tokens BIGINT NOT NULL,
        latency_ms BIGINT NOT NULL,
        created_at BIGINT NOT NULL
    );
    CREATE INDEX requests_account_time ON requests(account_id, created_at);
    CREATE TABLE tool_calls (
        id BIGSERIAL PRIMARY KEY,
        request_id TEXT NOT NULL,
        account_id BIGINT NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
        call_id TEXT,
        tool_name TEXT NOT NULL,
        raw_arguments TEXT NOT NULL,
        input TEXT NOT NULL,
        strategy TEXT NOT NULL,
        created_at BIGINT NOT NULL
    );
    CREATE INDEX tool_calls_account ON tool_calls(account_id, id);
    CREATE TABLE rate_state (
        account_id BIGINT PRIMARY KEY REFERENCES accounts(id) ON DELETE CASCADE,
        tat_ms BIGINT NOT NULL
    );
    CREATE TABLE usage_daily (
        account_id BIGINT NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
        day BIGINT NOT NULL,
        tokens BIGINT NOT NULL,
        PRIMARY KEY (account_id, day)
    );",
    // Cut-off tool-call arguments are recorded as such.
    "ALTER TABLE tool_calls ADD COLUMN truncated BOOLEAN NOT NULL DEFAULT FALSE;",
];

impl From<postgres::Error> for StoreError {
    fn from(e: postgres::Error) -> StoreError {
        // A server error's Display is only "db error"; its message is the useful part.
        match e.as_db_error() {
            Some(db) => StoreError::Database(format!("{} ({})", db.message(), db.code().code())),
            None => StoreError::Database(e.to_string()),
        }
    }
}

impl From<r2d2_postgres::r2d2::Error> for StoreError {
    fn from(e: r2d2_postgres::r2d2::Error) -> StoreError {
        StoreError::Database(format!("no database connection: {e}"))
    }
}

/// The shared PostgreSQL store.
pub struct PostgresStore {
    pool: Pool<PostgresConnectionManager<NoTls>>,
}

impl PostgresStore {
    /// Connect to the database at `url` (`postgres://user[:password]@host[:port]/database`)
    /// and run pending migrations. Blocks: call it off the async runtime.
    pub fn open(url: &str) -> Result<PostgresStore, StoreError> {
        // The caller names the (redacted) URL in its own message.
        let config: postgres::Config = url.parse().map_err(|e: postgres::Error| {
            StoreError::Invalid(format!("invalid PostgreSQL URL: {}", error_chain(&e)))
        })?;
        // One connection first, for a prompt and precise error (the pool retries until its
        // timeout and reports only "error connecting to server").
        config
            .connect(NoTls)
            .map_err(|e| StoreError::Database(format!("cannot connect: {}", error_chain(&e))))?;
        let pool = Pool::builder()
            .max_size(POOL_SIZE)
            .min_idle(Some(1))
            .connection_timeout(CONNECT_TIMEOUT)
            // Logged through `tracing` by the error handler below rather than printed.
            .error_handler(Box::new(LogErrors))
            .build(PostgresConnectionManager::new(config, NoTls))
            .map_err(|e| StoreError::Database(format!("cannot connect: {e}")))?;
        let store = PostgresStore { pool };
        store.migrate()?;
        Ok(store)
    }

    fn conn(&self) -> Result<PooledConnection<PostgresConnectionManager<NoTls>>, StoreError> {
        Ok(self.pool.get()?)
    }

    fn migrate(&self) -> Result<(), StoreError> {
        let mut conn = self.conn()?;
        let mut tx = conn.transaction()?;
        // Held to the end of the transaction: a replica starting at the same moment waits
        // here, then finds the migrations applied.
        tx.execute("SELECT pg_advisory_xact_lock($1)", &[&MIGRATION_LOCK])?;
        tx.batch_execute(
            "CREATE TABLE IF NOT EXISTS schema_migrations (
                version BIGINT PRIMARY KEY,
                applied_at BIGINT NOT NULL
            )",
        )?;
        let done: i64 = tx
            .query_one(
                "SELECT COALESCE(MAX(version), 0)::BIGINT FROM schema_migrations",
                &[],
            )?
            .try_get(0)?;
        for (i, sql) in MIGRATIONS.iter().enumerate() {
            let version = i as i64 + 1;
            if version <= done {
                continue;
            }
            tx.batch_execute(sql)?;
            tx.execute(
                "INSERT INTO schema_migrations (version, applied_at) VALUES ($1, $2)",
                &[&version, &now()],
            )?;
        }
        tx.commit()?;
        Ok(())
    }
}

/// An error and its causes, `: `-separated.
fn error_chain(e: &dyn std::error::Error) -> String {
    let mut text = e.to_string();
    let mut cause = e.source();
    while let Some(c) = cause {
        text.push_str(": ");
        text.push_str(&c.to_string());
        cause = c.source();
    }
    text
}

#[derive(Debug)]
struct LogErrors;

impl<E: std::fmt::Display> r2d2_postgres::r2d2::HandleError<E> for LogErrors {
    fn handle_error(&self, error: E) {
        tracing::warn!(error = %error, "a PostgreSQL connection failed");
    }
}

fn account_row(r: &Row) -> Result<Account, StoreError> {
    let rpm: Option<i64> = r.try_get(4)?;
    let tokens: Option<i64> = r.try_get(5)?;
    Ok(Account {
        id: r.try_get(0)?,
        name: r.try_get(1)?,
        auto_heal: r.try_get(2)?,
        max_attempts: unsigned(r.try_get(3)?, "max_attempts")?,
        rpm: rpm.map(|n| unsigned(n, "rpm")).transpose()?,
        tokens_per_day: tokens.map(|n| unsigned(n, "tokens_per_day")).transpose()?,
        created_at: r.try_get(6)?,
        key_prefix: r.try_get(7)?,
    })
}

fn account_by_name(c: &mut impl GenericClient, name: &str) -> Result<Option<Account>, StoreError> {
    c.query_opt(
        &format!("SELECT {ACCOUNT_COLUMNS} FROM accounts a WHERE a.name = $1"),
        &[&name],
    )?
    .as_ref()
    .map(account_row)
    .transpose()
}

fn insert_key(c: &mut impl GenericClient, account_id: i64) -> Result<ApiKey, StoreError> {
    let key = generate_key()?;
    c.execute(
        "INSERT INTO api_keys (account_id, key_hash, key_prefix, created_at) VALUES ($1, $2, $3, $4)",
        &[&account_id, &hash_key(&key.0).as_slice(), &key_prefix(&key), &now()],
    )?;
    Ok(key)
}

fn tool_call_row(r: &Row) -> Result<ToolCallRecord, StoreError> {
    Ok(ToolCallRecord {
        id: r.try_get(0)?,
        request_id: r.try_get(1)?,
        account_id: r.try_get(2)?,
        call_id: r.try_get(3)?,
        tool_name: r.try_get(4)?,
        raw_arguments: r.try_get(5)?,
        input: r.try_get(6)?,
        strategy: r.try_get(7)?,
        truncated: r.try_get(8)?,
        created_at: r.try_get(9)?,
    })
}

fn is_unique_violation(e: &postgres::Error) -> bool {
    e.code() == Some(&SqlState::UNIQUE_VIOLATION)
}

impl Store for PostgresStore {
    fn create_account(
        &self,
        name: &str,
        auto_heal: bool,
        max_attempts: u32,
    ) -> Result<(Account, ApiKey), StoreError> {
        super::check_name(name)?;
        super::check_max_attempts(max_attempts)?;
        let mut conn = self.conn()?;
        let mut tx = conn.transaction()?;
        // The unique name decides a race between replicas creating the same account.
        let id: i64 = match tx.query_one(
            "INSERT INTO accounts (name, auto_heal, max_attempts, created_at)
             VALUES ($1, $2, $3, $4) RETURNING id",
            &[&name, &auto_heal, &i64::from(max_attempts), &now()],
        ) {
            Ok(row) => row.try_get(0)?,
            Err(e) if is_unique_violation(&e) => {
                return Err(StoreError::AccountExists(name.to_owned()))
            }
            Err(e) => return Err(e.into()),
        };
        let key = insert_key(&mut tx, id)?;
        let account = account_by_name(&mut tx, name)?
            .ok_or_else(|| StoreError::Database("the new account vanished".to_owned()))?;
        tx.commit()?;
        Ok((account, key))
    }

    fn ensure_account(&self, name: &str) -> Result<Account, StoreError> {
        super::check_name(name)?;
        let mut conn = self.conn()?;
        conn.execute(
            "INSERT INTO accounts (name, auto_heal, max_attempts, created_at)
             VALUES ($1, FALSE, $2, $3) ON CONFLICT (name) DO NOTHING",
            &[&name, &i64::from(DEFAULT_MAX_ATTEMPTS), &now()],
        )?;
        account_by_name(&mut *conn, name)?.ok_or_else(|| StoreError::NoSuchAccount(name.to_owned()))
    }

    fn account(&self, name: &str) -> Result<Account, StoreError> {
        account_by_name(&mut *self.conn()?, name)?
            .ok_or_else(|| StoreError::NoSuchAccount(name.to_owned()))
    }

    fn list_accounts(&self) -> Result<Vec<Account>, StoreError> {
        self.conn()?
            .query(
                &format!("SELECT {ACCOUNT_COLUMNS} FROM accounts a ORDER BY a.name"),
                &[],
            )?
            .iter()
            .map(account_row)
            .collect()
    }

    fn update_account(&self, name: &str, patch: &AccountPatch) -> Result<Account, StoreError> {
        let mut conn = self.conn()?;
        let mut tx = conn.transaction()?;
        // FOR UPDATE: two replicas patching different settings at once both keep theirs.
        let account = tx
            .query_opt(
                &format!("SELECT {ACCOUNT_COLUMNS} FROM accounts a WHERE a.name = $1 FOR UPDATE"),
                &[&name],
            )?
            .as_ref()
            .map(account_row)
            .transpose()?
            .ok_or_else(|| StoreError::NoSuchAccount(name.to_owned()))?;
        let new = patch.apply(&account)?;
        tx.execute(
            "UPDATE accounts SET auto_heal = $1, max_attempts = $2, rpm = $3, tokens_per_day = $4
             WHERE id = $5",
            &[
                &new.auto_heal,
                &i64::from(new.max_attempts),
                &new.rpm.map(i64::from),
                &new.tokens_per_day.map(signed),
                &account.id,
            ],
        )?;
        let account = account_by_name(&mut tx, name)?
            .ok_or_else(|| StoreError::NoSuchAccount(name.to_owned()))?;
        tx.commit()?;
        Ok(account)
    }

    fn rotate_key(&self, name: &str) -> Result<ApiKey, StoreError> {
        let mut conn = self.conn()?;
        let mut tx = conn.transaction()?;
        let account = account_by_name(&mut tx, name)?
            .ok_or_else(|| StoreError::NoSuchAccount(name.to_owned()))?;
        tx.execute("DELETE FROM api_keys WHERE account_id = $1", &[&account.id])?;
        let key = insert_key(&mut tx, account.id)?;
        tx.commit()?;
        Ok(key)
    }

    fn delete_account(&self, name: &str) -> Result<(), StoreError> {
        let n = self
            .conn()?
            .execute("DELETE FROM accounts WHERE name = $1", &[&name])?;
        if n == 0 {
            return Err(StoreError::NoSuchAccount(name.to_owned()));
        }
        Ok(())
    }

    fn authenticate(&self, key: &str) -> Result<Option<Account>, StoreError> {
        let hash = hash_key(key);
        // One round trip: the key's row and its account together, as an unnamed statement
        // with its parameter type given (no separate prepare).
        let row = self
            .conn()?
            .query_typed(
                &format!(
                    "SELECT {ACCOUNT_COLUMNS}, ak.key_hash FROM api_keys ak
                     JOIN accounts a ON a.id = ak.account_id WHERE ak.key_hash = $1"
                ),
                &[(&hash.as_slice(), Type::BYTEA)],
            )?
            .into_iter()
            .next();
        let Some(row) = row else {
            return Ok(None);
        };
        // The index lookup finds the row; the constant-time comparison is the check.
        let stored: Vec<u8> = row.try_get(8)?;
        if !constant_time_eq(&stored, &hash) {
            return Ok(None);
        }
        account_row(&row).map(Some)
    }

    fn record_requests(&self, records: &[RequestRecord]) -> Result<(), StoreError> {
        if records.is_empty() {
            return Ok(());
        }
        let at = now();
        // Column arrays: the whole batch is one statement (one round trip), not one per line.
        let col = |f: &dyn Fn(&RequestRecord) -> i64| records.iter().map(f).collect::<Vec<_>>();
        let request_ids: Vec<&str> = records.iter().map(|r| r.request_id.as_str()).collect();
        let accounts: Vec<Option<i64>> = records.iter().map(|r| r.account_id).collect();
        let models: Vec<&str> = records.iter().map(|r| r.model.as_str()).collect();
        let streams: Vec<bool> = records.iter().map(|r| r.stream).collect();
        let healings: Vec<bool> = records.iter().map(|r| r.healing).collect();
        let attempts = col(&|r| i64::from(r.attempts));
        let outcomes: Vec<&str> = records.iter().map(|r| r.outcome.as_str()).collect();
        let statuses = col(&|r| i64::from(r.status));
        let repaired: Vec<bool> = records.iter().map(|r| r.repaired).collect();
        let prompt = col(&|r| signed(r.prompt_tokens));
        let completion = col(&|r| signed(r.completion_tokens));
        let total = col(&|r| signed(r.total_tokens));
        let latency = col(&|r| signed(r.latency_ms));
        // Summed per account first (one upsert cannot touch a row twice); the BTreeMap's
        // order also makes concurrent replicas lock the rows in the same order.
        let mut daily: BTreeMap<i64, i64> = BTreeMap::new();
        for r in records {
            if let Some(a) = r.account_id {
                let t = daily.entry(a).or_insert(0);
                *t = t.saturating_add(signed(r.total_tokens));
            }
        }
        let daily_accounts: Vec<i64> = daily.keys().copied().collect();
        let daily_tokens: Vec<i64> = daily.values().copied().collect();

        let mut conn = self.conn()?;
        let mut tx = conn.transaction()?;
        // An account deleted while its request ran: the line is kept without it.
        tx.execute(
            "INSERT INTO requests (request_id, account_id, model, stream, healing, attempts,
                outcome, status, repaired, prompt_tokens, completion_tokens, total_tokens,
                latency_ms, created_at)
             SELECT t.request_id, a.id, t.model, t.stream, t.healing, t.attempts, t.outcome,
                t.status, t.repaired, t.prompt_tokens, t.completion_tokens, t.total_tokens,
                t.latency_ms, $14
             FROM UNNEST($1::TEXT[], $2::BIGINT[], $3::TEXT[], $4::BOOLEAN[], $5::BOOLEAN[],
                $6::BIGINT[], $7::TEXT[], $8::BIGINT[], $9::BOOLEAN[], $10::BIGINT[],
                $11::BIGINT[], $12::BIGINT[], $13::BIGINT[])
                AS t(request_id, account_id, model, stream, healing, attempts, outcome, status,
                    repaired, prompt_tokens, completion_tokens, total_tokens, latency_ms)
             LEFT JOIN accounts a ON a.id = t.account_id",
            &[
                &request_ids,
                &accounts,
                &models,
                &streams,
                &healings,
                &attempts,
                &outcomes,
                &statuses,
                &repaired,
                &prompt,
                &completion,
                &total,
                &latency,
                &at,
            ],
        )?;
        if !daily_accounts.is_empty() {
            tx.execute(
                "INSERT INTO usage_daily (account_id, day, tokens)
                 SELECT a.id, $3, t.tokens
                 FROM UNNEST($1::BIGINT[], $2::BIGINT[]) AS t(account_id, tokens)
                 JOIN accounts a ON a.id = t.account_id
                 ORDER BY a.id
                 ON CONFLICT (account_id, day)
                    DO UPDATE SET tokens = usage_daily.tokens + EXCLUDED.tokens",
                &[&daily_accounts, &daily_tokens, &day_of(at)],
            )?;
        }
        tx.commit()?;
        Ok(())
    }

    fn usage(&self, account_id: i64, since: i64) -> Result<Vec<UsageRow>, StoreError> {
        self.conn()?
            .query(
                "SELECT model, COUNT(*), COUNT(*) FILTER (WHERE status >= 400),
                    COUNT(*) FILTER (WHERE repaired), SUM(attempts)::BIGINT,
                    SUM(prompt_tokens)::BIGINT, SUM(completion_tokens)::BIGINT,
                    SUM(total_tokens)::BIGINT
                 FROM requests WHERE account_id = $1 AND created_at >= $2
                 GROUP BY model ORDER BY model",
                &[&account_id, &since],
            )?
            .iter()
            .map(|r| {
                let mut n = [0i64; 7];
                for (i, slot) in n.iter_mut().enumerate() {
                    *slot = r.try_get(i + 1)?;
                }
                usage_row(r.try_get(0)?, n)
            })
            .collect()
    }

    fn tokens_on_day(&self, account_id: i64, day: i64) -> Result<u64, StoreError> {
        let n: Option<i64> = self
            .conn()?
            .query_opt(
                "SELECT tokens FROM usage_daily WHERE account_id = $1 AND day = $2",
                &[&account_id, &day],
            )?
            .map(|r| r.try_get(0))
            .transpose()?;
        unsigned(n.unwrap_or(0), "a daily token count")
    }

    fn take_rate(&self, account_id: i64, step: RateStep) -> Result<Option<u64>, StoreError> {
        let mut conn = self.conn()?;
        // One statement: the upsert locks the account's row, so replicas cannot both take
        // the last request of a window.
        let admitted = conn.query_opt(
            "INSERT INTO rate_state (account_id, tat_ms) VALUES ($1, $2::BIGINT + $3::BIGINT)
             ON CONFLICT (account_id) DO UPDATE
                SET tat_ms = GREATEST(rate_state.tat_ms, $2::BIGINT) + $3::BIGINT
                WHERE rate_state.tat_ms - $4::BIGINT <= $2::BIGINT
             RETURNING tat_ms",
            &[
                &account_id,
                &step.now_ms,
                &step.interval_ms,
                &step.tolerance_ms,
            ],
        )?;
        if admitted.is_some() {
            return Ok(None);
        }
        let tat: i64 = conn
            .query_one(
                "SELECT tat_ms FROM rate_state WHERE account_id = $1",
                &[&account_id],
            )?
            .try_get(0)?;
        Ok(Some(wait_ms(tat, step)))
    }

    fn record_tool_calls(&self, calls: &[NewToolCall]) -> Result<Vec<i64>, StoreError> {
        let mut conn = self.conn()?;
        let mut tx = conn.transaction()?;
        let stmt = tx.prepare(
            "INSERT INTO tool_calls (request_id, account_id, call_id, tool_name, raw_arguments,
                input, strategy, truncated, created_at)
             VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9) RETURNING id",
        )?;
        let at = now();
        let mut ids = Vec::with_capacity(calls.len());
        for c in calls {
            let row = tx.query_one(
                &stmt,
                &[
                    &c.request_id,
                    &c.account_id,
                    &c.call_id,
                    &c.tool_name,
                    &c.raw_arguments,
                    &c.input,
                    &c.strategy,
                    &c.truncated,
                    &at,
                ],
            )?;
            ids.push(row.try_get(0)?);
        }
        tx.commit()?;
        Ok(ids)
    }

    fn tool_calls(&self, account_id: i64, limit: u32) -> Result<Vec<ToolCallRecord>, StoreError> {
        self.conn()?
            .query(
                &format!(
                    "SELECT {TOOL_CALL_COLUMNS} FROM tool_calls WHERE account_id = $1
                     ORDER BY id DESC LIMIT $2"
                ),
                &[&account_id, &i64::from(limit)],
            )?
            .iter()
            .map(tool_call_row)
            .collect()
    }

    fn tool_call(&self, account_id: i64, id: i64) -> Result<Option<ToolCallRecord>, StoreError> {
        self.conn()?
            .query_opt(
                &format!(
                    "SELECT {TOOL_CALL_COLUMNS} FROM tool_calls WHERE account_id = $1 AND id = $2"
                ),
                &[&account_id, &id],
            )?
            .as_ref()
            .map(tool_call_row)
            .transpose()
    }

    fn request_count(&self) -> Result<u64, StoreError> {
        let n: i64 = self
            .conn()?
            .query_one("SELECT COUNT(*) FROM requests", &[])?
            .try_get(0)?;
        unsigned(n, "the request count")
    }

    fn ping(&self) -> Result<(), StoreError> {
        self.conn()?.batch_execute("SELECT 1")?;
        Ok(())
    }

    fn is_embedded(&self) -> bool {
        false
    }
}
