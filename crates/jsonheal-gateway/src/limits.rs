//! Per-account limits: requests per minute and tokens per UTC day, both off unless set with
//! `jsonheal accounts set`. The counts live in the store, so every replica on a shared
//! database enforces the same limit.
//!
//! Requests per minute is a generic cell rate algorithm: a burst of up to the limit, then
//! one request every `60 s / limit`; the store takes a request atomically. Tokens per day
//! counts what the request log has recorded for the day: a request is refused once the
//! day's tokens reach the limit. Tokens are known only when a request ends and the log is
//! written in batches (every 100 ms), so requests already running, or started within that
//! window, can take the day past its limit.

use std::time::{SystemTime, UNIX_EPOCH};

use axum::extract::FromRequestParts;
use axum::http::request::Parts;

use crate::auth::Caller;
use crate::error::ApiError;
use crate::state::AppState;
use crate::store::{day_of, Account, RateStep, Store, StoreError};

/// The account of a request that its limits admit: a [`Caller`] whose request per minute
/// has been taken and whose tokens for the day are not used up. Refused with a 429.
#[derive(Debug, Clone)]
pub struct Admitted(pub Account);

impl FromRequestParts<AppState> for Admitted {
    type Rejection = ApiError;

    async fn from_request_parts(parts: &mut Parts, state: &AppState) -> Result<Admitted, ApiError> {
        let Caller(account) = Caller::from_request_parts(parts, state).await?;
        if !any(&account) {
            return Ok(Admitted(account));
        }
        let now = SystemTime::now();
        let checked = account.clone();
        // Off the runtime even for SQLite: taking from the rate is a write.
        state
            .blocking(move |s| Ok(admit(s, &checked, now)))
            .await??;
        Ok(Admitted(account))
    }
}

/// Whether `account` has any limit (if not, [`admit`] has nothing to do).
pub fn any(account: &Account) -> bool {
    account.rpm.is_some() || account.tokens_per_day.is_some()
}

/// Admit one request of `account` at `now`, or refuse it with a 429 saying when to retry.
/// Blocking (it asks the store): call it off the async runtime unless the store is
/// embedded.
pub fn admit(store: &dyn Store, account: &Account, now: SystemTime) -> Result<(), ApiError> {
    let now_ms = now
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| i64::try_from(d.as_millis()).unwrap_or(i64::MAX));
    let internal = |e: StoreError| ApiError::Internal(format!("cannot check the limits: {e}"));
    // Tokens first: a request refused for them must not take a request from the rate.
    if let Some(max) = account.tokens_per_day {
        let secs = now_ms.div_euclid(1000);
        let used = store
            .tokens_on_day(account.id, day_of(secs))
            .map_err(internal)?;
        if used >= max {
            let retry_after = (day_of(secs) + 1) * 86_400 - secs;
            return Err(ApiError::RateLimited {
                kind: "tokens",
                message: format!(
                    "token limit reached for the day (UTC): limit {max}, used {used}; \
                     try again in {retry_after}s"
                ),
                retry_after: retry_after.max(1).unsigned_abs(),
            });
        }
    }
    if let Some(rpm) = account.rpm {
        if let Some(wait_ms) = store
            .take_rate(account.id, rate_step(rpm, now_ms))
            .map_err(internal)?
        {
            let retry_after = wait_ms.div_ceil(1000).max(1);
            return Err(ApiError::RateLimited {
                kind: "requests",
                message: format!(
                    "rate limit reached for requests per minute: limit {rpm}; \
                     try again in {retry_after}s"
                ),
                retry_after,
            });
        }
    }
    Ok(())
}

/// The rate step of `rpm` requests a minute: one every `60 s / rpm`, a burst of `rpm`.
fn rate_step(rpm: u32, now_ms: i64) -> RateStep {
    let interval_ms = (60_000 / i64::from(rpm.max(1))).max(1);
    RateStep {
        now_ms,
        interval_ms,
        tolerance_ms: interval_ms * (i64::from(rpm.max(1)) - 1),
    }
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;
    use crate::store::{AccountPatch, SqliteStore};
    use std::time::Duration;

    fn account(store: &SqliteStore, rpm: Option<u32>, tokens: Option<u64>) -> Account {
        store.create_account("a", false, 3).unwrap();
        store
            .update_account(
                "a",
                &AccountPatch {
                    rpm: Some(rpm),
                    tokens_per_day: Some(tokens),
                    ..AccountPatch::default()
                },
            )
            .unwrap()
    }

    fn retry_after(e: &ApiError) -> u64 {
        match e {
            ApiError::RateLimited { retry_after, .. } => *retry_after,
            other => panic!("not a rate limit: {other:?}"),
        }
    }

    #[test]
    fn requests_per_minute_refuse_the_one_past_the_burst() {
        let s = SqliteStore::open(":memory:").unwrap();
        let a = account(&s, Some(2), None);
        let t = UNIX_EPOCH + Duration::from_secs(1_700_000_000);
        admit(&s, &a, t).unwrap();
        admit(&s, &a, t).unwrap();
        let e = admit(&s, &a, t).unwrap_err();
        assert_eq!(e.status().as_u16(), 429);
        assert_eq!(retry_after(&e), 30);
        assert_eq!(e.error_object(None)["code"], "rate_limit_exceeded");
        assert_eq!(e.error_object(None)["type"], "requests");
        admit(&s, &a, t + Duration::from_secs(30)).unwrap();
    }

    #[test]
    fn tokens_per_day_refuse_until_midnight_utc() {
        let s = SqliteStore::open(":memory:").unwrap();
        let a = account(&s, None, Some(100));
        let now = SystemTime::now();
        admit(&s, &a, now).unwrap();
        s.record_requests(&[crate::store::RequestRecord {
            request_id: "r".into(),
            account_id: Some(a.id),
            model: "m".into(),
            stream: false,
            healing: false,
            attempts: 1,
            outcome: "passthrough".into(),
            status: 200,
            repaired: false,
            prompt_tokens: 60,
            completion_tokens: 40,
            total_tokens: 100,
            latency_ms: 1,
        }])
        .unwrap();
        let e = admit(&s, &a, now).unwrap_err();
        assert_eq!(e.error_object(None)["type"], "tokens");
        let secs = now.duration_since(UNIX_EPOCH).unwrap().as_secs();
        assert_eq!(retry_after(&e), 86_400 - secs % 86_400);
    }

    #[test]
    fn no_limits_admit_everything() {
        let s = SqliteStore::open(":memory:").unwrap();
        let a = account(&s, None, None);
        assert!(!any(&a));
        for _ in 0..100 {
            admit(&s, &a, SystemTime::now()).unwrap();
        }
    }

    #[test]
    fn the_step_spreads_a_minute() {
        let s = rate_step(3, 5);
        assert_eq!(
            (s.interval_ms, s.tolerance_ms, s.now_ms),
            (20_000, 40_000, 5)
        );
        let s = rate_step(1, 0);
        assert_eq!((s.interval_ms, s.tolerance_ms), (60_000, 0));
        assert_eq!(rate_step(1_000_000, 0).interval_ms, 1);
    }
}
