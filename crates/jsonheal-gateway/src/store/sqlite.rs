//! The embedded SQLite store: one process, one file (WAL, foreign keys, `synchronous=FULL` so
//! a committed row survives a crash, numbered migrations run at open). Two connections, each
//! behind a mutex: one for writes, one (read-only) for reads, so that an API-key lookup never
//! waits behind a commit's disk sync (WAL lets readers run beside the writer).

use std::sync::{Mutex, MutexGuard};

use rusqlite::{params, Connection, OptionalExtension, Transaction};

use super::{
    check_max_attempts, check_name, constant_time_eq, day_of, generate_key, hash_key, key_prefix,
    now, signed, unsigned, usage_row, wait_ms, Account, AccountPatch, ApiKey, NewToolCall,
    RateStep, RequestRecord, Store, StoreError, ToolCallRecord, UsageRow, ACCOUNT_COLUMNS,
    DEFAULT_MAX_ATTEMPTS, TOOL_CALL_COLUMNS,
};

impl From<rusqlite::Error> for StoreError {
    fn from(e: rusqlite::Error) -> StoreError {
        StoreError::Database(e.to_string())
    }
}

/// Numbered migrations; each runs once, in its own transaction, recorded in
/// `schema_migrations`. Never edit one that has shipped: add the next.
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
    // Usage and limits. A request logged before this has status 0 (unknown).
    "ALTER TABLE accounts ADD COLUMN rpm INTEGER;
    ALTER TABLE accounts ADD COLUMN tokens_per_day INTEGER;
    ALTER TABLE requests ADD COLUMN status INTEGER NOT NULL DEFAULT 0;
    ALTER TABLE requests ADD COLUMN repaired INTEGER NOT NULL DEFAULT 0;
    CREATE INDEX requests_account_time ON requests(account_id, created_at);
    CREATE TABLE rate_state (
        account_id INTEGER PRIMARY KEY REFERENCES accounts(id) ON DELETE CASCADE,
        tat_ms INTEGER NOT NULL
    );
    CREATE TABLE usage_daily (
        account_id INTEGER NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
        day INTEGER NOT NULL,
        tokens INTEGER NOT NULL,
        PRIMARY KEY (account_id, day)
    );",
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
    // IMMEDIATE takes the write lock first, so two processes opening a new file at once
    // cannot both run a migration.
    let tx = conn.transaction_with_behavior(rusqlite::TransactionBehavior::Immediate)?;
    tx.execute_batch(
        "CREATE TABLE IF NOT EXISTS schema_migrations (
            version INTEGER PRIMARY KEY,
            applied_at INTEGER NOT NULL
        )",
    )?;
    let done: i64 = tx.query_row(
        "SELECT COALESCE(MAX(version), 0) FROM schema_migrations",
        [],
        |r| r.get(0),
    )?;
    for (i, sql) in MIGRATIONS.iter().enumerate() {
        let version = i as i64 + 1;
        if version <= done {
            continue;
        }
        tx.execute_batch(sql)?;
        tx.execute(
            "INSERT INTO schema_migrations (version, applied_at) VALUES (?1, ?2)",
            params![version, now()],
        )?;
    }
    tx.commit()?;
    Ok(())
}

fn account_row(r: &rusqlite::Row<'_>) -> rusqlite::Result<Account> {
    let tokens: Option<i64> = r.get(5)?;
    Ok(Account {
        id: r.get(0)?,
        name: r.get(1)?,
        auto_heal: r.get(2)?,
        max_attempts: r.get(3)?,
        rpm: r.get(4)?,
        // Written from a u64 checked to fit; a negative value cannot be stored.
        tokens_per_day: tokens.map(|n| n.max(0).unsigned_abs()),
        created_at: r.get(6)?,
        key_prefix: r.get(7)?,
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
    tx.execute(
        "INSERT INTO api_keys (account_id, key_hash, key_prefix, created_at) VALUES (?1, ?2, ?3, ?4)",
        params![account_id, hash_key(&key.0).as_slice(), key_prefix(&key), now()],
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

    fn account(&self, name: &str) -> Result<Account, StoreError> {
        account_by_name(&self.reader(), name)?
            .ok_or_else(|| StoreError::NoSuchAccount(name.to_owned()))
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
        let mut conn = self.conn();
        let tx = conn.transaction()?;
        let account = account_by_name(&tx, name)?
            .ok_or_else(|| StoreError::NoSuchAccount(name.to_owned()))?;
        let new = patch.apply(&account)?;
        tx.execute(
            "UPDATE accounts SET auto_heal = ?1, max_attempts = ?2, rpm = ?3, tokens_per_day = ?4
             WHERE id = ?5",
            params![
                new.auto_heal,
                new.max_attempts,
                new.rpm,
                new.tokens_per_day.map(signed),
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
        let mut stmt = conn.prepare_cached(&format!(
            "SELECT {ACCOUNT_COLUMNS} FROM accounts a WHERE a.id = ?1"
        ))?;
        let account = stmt.query_row([account_id], account_row).optional()?;
        Ok(account)
    }

    fn record_requests(&self, records: &[RequestRecord]) -> Result<(), StoreError> {
        let mut conn = self.conn();
        let tx = conn.transaction()?;
        {
            // An account deleted while its request ran: the line is kept without it.
            let mut line = tx.prepare_cached(
                "INSERT INTO requests (request_id, account_id, model, stream, healing, attempts,
                    outcome, status, repaired, prompt_tokens, completion_tokens, total_tokens,
                    latency_ms, created_at)
                 VALUES (?1, (SELECT id FROM accounts WHERE id = ?2), ?3, ?4, ?5, ?6, ?7, ?8, ?9,
                    ?10, ?11, ?12, ?13, ?14)",
            )?;
            let mut daily = tx.prepare_cached(
                "INSERT INTO usage_daily (account_id, day, tokens)
                 SELECT id, ?2, ?3 FROM accounts WHERE id = ?1
                 ON CONFLICT (account_id, day) DO UPDATE SET tokens = tokens + excluded.tokens",
            )?;
            let at = now();
            for r in records {
                line.execute(params![
                    r.request_id,
                    r.account_id,
                    r.model,
                    r.stream,
                    r.healing,
                    r.attempts,
                    r.outcome,
                    r.status,
                    r.repaired,
                    signed(r.prompt_tokens),
                    signed(r.completion_tokens),
                    signed(r.total_tokens),
                    signed(r.latency_ms),
                    at
                ])?;
                if let Some(account) = r.account_id {
                    daily.execute(params![account, day_of(at), signed(r.total_tokens)])?;
                }
            }
        }
        tx.commit()?;
        Ok(())
    }

    fn usage(&self, account_id: i64, since: i64) -> Result<Vec<UsageRow>, StoreError> {
        let conn = self.reader();
        let mut stmt = conn.prepare_cached(
            "SELECT model, COUNT(*), SUM(status >= 400), SUM(repaired != 0), SUM(attempts),
                SUM(prompt_tokens), SUM(completion_tokens), SUM(total_tokens)
             FROM requests WHERE account_id = ?1 AND created_at >= ?2
             GROUP BY model ORDER BY model",
        )?;
        let rows = stmt.query_map(params![account_id, since], |r| {
            Ok((
                r.get::<_, String>(0)?,
                [
                    r.get::<_, i64>(1)?,
                    r.get(2)?,
                    r.get(3)?,
                    r.get(4)?,
                    r.get(5)?,
                    r.get(6)?,
                    r.get(7)?,
                ],
            ))
        })?;
        rows.map(|row| {
            let (model, n) = row?;
            usage_row(model, n)
        })
        .collect()
    }

    fn tokens_on_day(&self, account_id: i64, day: i64) -> Result<u64, StoreError> {
        let conn = self.reader();
        let n: Option<i64> = conn
            .prepare_cached("SELECT tokens FROM usage_daily WHERE account_id = ?1 AND day = ?2")?
            .query_row(params![account_id, day], |r| r.get(0))
            .optional()?;
        unsigned(n.unwrap_or(0), "a daily token count")
    }

    fn take_rate(&self, account_id: i64, step: RateStep) -> Result<Option<u64>, StoreError> {
        let conn = self.conn();
        // One statement, so the check and the step are atomic.
        let admitted: Option<i64> = conn
            .prepare_cached(
                "INSERT INTO rate_state (account_id, tat_ms) VALUES (?1, ?2 + ?3)
                 ON CONFLICT (account_id) DO UPDATE SET tat_ms = MAX(tat_ms, ?2) + ?3
                    WHERE tat_ms - ?4 <= ?2
                 RETURNING tat_ms",
            )?
            .query_row(
                params![account_id, step.now_ms, step.interval_ms, step.tolerance_ms],
                |r| r.get(0),
            )
            .optional()?;
        if admitted.is_some() {
            return Ok(None);
        }
        let tat: i64 = conn
            .prepare_cached("SELECT tat_ms FROM rate_state WHERE account_id = ?1")?
            .query_row([account_id], |r| r.get(0))?;
        Ok(Some(wait_ms(tat, step)))
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
        unsigned(n, "the request count")
    }

    fn ping(&self) -> Result<(), StoreError> {
        let conn = self.reader();
        conn.query_row("SELECT 1", [], |r| r.get::<_, i64>(0))?;
        Ok(())
    }

    fn is_embedded(&self) -> bool {
        true
    }
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;

    #[test]
    fn a_database_from_before_usage_and_limits_is_upgraded_in_place() {
        let dir = std::env::temp_dir().join(format!("jsonheal-upgrade-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("old.db");
        let _ = std::fs::remove_file(&path);
        {
            // The schema as version 1 shipped it, with an account and a request in it.
            let conn = Connection::open(&path).unwrap();
            conn.execute_batch(MIGRATIONS[0]).unwrap();
            conn.execute_batch(
                "CREATE TABLE schema_migrations (version INTEGER PRIMARY KEY,
                    applied_at INTEGER NOT NULL);
                 INSERT INTO schema_migrations VALUES (1, 0);
                 INSERT INTO accounts (name, auto_heal, max_attempts, created_at)
                    VALUES ('old', 1, 4, 0);
                 INSERT INTO requests (request_id, account_id, model, stream, healing, attempts,
                    outcome, prompt_tokens, completion_tokens, total_tokens, latency_ms,
                    created_at)
                    VALUES ('r', 1, 'm', 0, 1, 2, 'healed', 3, 4, 7, 5, 10);",
            )
            .unwrap();
        }
        let s = SqliteStore::open(&path.display().to_string()).unwrap();
        let a = s.account("old").unwrap();
        assert!(a.auto_heal && a.max_attempts == 4);
        assert_eq!((a.rpm, a.tokens_per_day), (None, None));
        let usage = s.usage(a.id, 0).unwrap();
        assert_eq!(usage.len(), 1);
        assert_eq!((usage[0].requests, usage[0].errors), (1, 0));
        assert_eq!(usage[0].total_tokens, 7);
        let versions: i64 = s
            .reader()
            .query_row("SELECT COUNT(*) FROM schema_migrations", [], |r| r.get(0))
            .unwrap();
        assert_eq!(versions, MIGRATIONS.len() as i64);
        drop(s);
        let _ = std::fs::remove_dir_all(&dir);
    }
}
