//! One store test suite, run against both backends: SQLite (a temporary file) and
//! PostgreSQL (a fresh database on the server `JSONHEAL_TEST_POSTGRES` names).
#![allow(clippy::unwrap_used)]

mod pg;

use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;

use jsonheal_gateway::store::{
    self, day_of, AccountPatch, NewToolCall, RateStep, RequestRecord, Store, StoreError,
};

/// Where a backend's database lives; dropping it removes the database.
enum Place {
    File(std::path::PathBuf),
    Postgres(pg::TestDb),
}

impl Place {
    fn url(&self) -> String {
        match self {
            Place::File(p) => format!("sqlite://{}", p.join("t.db").display()),
            Place::Postgres(db) => db.url.clone(),
        }
    }
}

impl Drop for Place {
    fn drop(&mut self) {
        if let Place::File(p) = self {
            let _ = std::fs::remove_dir_all(p);
        }
    }
}

static COUNTER: AtomicU64 = AtomicU64::new(0);

fn sqlite_place() -> Option<Place> {
    let p = std::env::temp_dir().join(format!(
        "jsonheal-store-{}-{}",
        std::process::id(),
        COUNTER.fetch_add(1, Ordering::Relaxed)
    ));
    std::fs::create_dir_all(&p).unwrap();
    Some(Place::File(p))
}

fn postgres_place() -> Option<Place> {
    pg::TestDb::create().map(Place::Postgres)
}

/// Each test runs on both backends: `sqlite::NAME` and `postgres::NAME`.
macro_rules! suite {
    ($($name:ident),* $(,)?) => {
        mod sqlite {
            $(#[test]
            fn $name() {
                let place = super::sqlite_place().unwrap();
                super::$name(&place);
            })*
        }
        mod postgres {
            $(#[test]
            fn $name() {
                let Some(place) = super::postgres_place() else { return };
                super::$name(&place);
            })*
        }
    };
}

suite!(
    accounts_keys_and_settings,
    tool_calls_belong_to_one_account,
    limits_are_set_checked_and_cleared,
    the_rate_admits_a_burst_then_refuses_with_the_wait,
    the_rate_holds_across_two_stores_on_one_database,
    usage_is_summed_by_model_and_by_day,
    migrations_run_once_when_stores_open_together,
    a_second_store_sees_key_changes_at_once,
);

fn open(place: &Place) -> Arc<dyn Store> {
    store::open(&place.url()).unwrap()
}

fn accounts_keys_and_settings(place: &Place) {
    let s = open(place);
    let (a, key) = s.create_account("alice", true, 5).expect("creates");
    assert!(key.0.starts_with("jh_") && key.0.len() == 67, "{}", key.0);
    assert!(a.auto_heal && a.max_attempts == 5);
    assert_eq!((a.rpm, a.tokens_per_day), (None, None), "limits are off");
    assert_eq!(a.key_prefix.as_deref(), Some(&key.0[..11]));
    assert!(matches!(
        s.create_account("alice", false, 3),
        Err(StoreError::AccountExists(_))
    ));
    assert!(matches!(
        s.create_account("bob", false, 11),
        Err(StoreError::Invalid(_))
    ));
    assert!(matches!(
        s.create_account("", false, 3),
        Err(StoreError::Invalid(_))
    ));
    assert_eq!(
        s.authenticate(&key.0).expect("auth").map(|a| a.id),
        Some(a.id)
    );
    assert_eq!(s.authenticate("jh_wrong").expect("auth"), None);
    assert_eq!(s.account("alice").expect("reads"), a);

    let new_key = s.rotate_key("alice").expect("rotates");
    assert_ne!(new_key, key);
    assert_eq!(s.authenticate(&key.0).expect("auth"), None);
    assert!(s.authenticate(&new_key.0).expect("auth").is_some());
    assert_eq!(
        s.account("alice").expect("reads").key_prefix.as_deref(),
        Some(&new_key.0[..11])
    );

    let a = s
        .update_account(
            "alice",
            &AccountPatch {
                auto_heal: Some(false),
                ..AccountPatch::default()
            },
        )
        .expect("updates");
    assert!(!a.auto_heal && a.max_attempts == 5);
    assert!(matches!(
        s.update_account("nobody", &AccountPatch::default()),
        Err(StoreError::NoSuchAccount(_))
    ));
    let local = s.ensure_account("local").expect("ensures");
    assert_eq!(s.ensure_account("local").expect("ensures again"), local);
    let names: Vec<String> = s
        .list_accounts()
        .expect("lists")
        .into_iter()
        .map(|a| a.name)
        .collect();
    assert_eq!(names, ["alice", "local"]);
    s.delete_account("alice").expect("deletes");
    assert_eq!(s.authenticate(&new_key.0).expect("auth"), None);
    assert!(matches!(
        s.delete_account("alice"),
        Err(StoreError::NoSuchAccount(_))
    ));
    assert!(matches!(
        s.account("alice"),
        Err(StoreError::NoSuchAccount(_))
    ));
    s.ping().expect("pings");
}

fn tool_calls_belong_to_one_account(place: &Place) {
    let s = open(place);
    let (a, _) = s.create_account("a", false, 3).expect("creates");
    let (b, _) = s.create_account("b", false, 3).expect("creates");
    let call = |account_id, call_id: Option<&str>| NewToolCall {
        request_id: "req_1".to_owned(),
        account_id,
        call_id: call_id.map(str::to_owned),
        tool_name: "read".to_owned(),
        raw_arguments: "{file: 'x'}".to_owned(),
        input: r#"{"file":"x"}"#.to_owned(),
        strategy: "repaired".to_owned(),
        // A call without an id stands for one whose arguments were cut off.
        truncated: call_id.is_none(),
    };
    let ids = s
        .record_tool_calls(&[call(a.id, Some("call_1")), call(a.id, None)])
        .expect("records");
    assert_eq!(ids.len(), 2);
    assert!(ids[0] < ids[1], "ids in insertion order: {ids:?}");
    let idb = s
        .record_tool_calls(&[call(b.id, Some("c"))])
        .expect("records")[0];
    let listed = s.tool_calls(a.id, 100).expect("lists");
    assert_eq!(
        listed.iter().map(|r| r.id).collect::<Vec<_>>(),
        [ids[1], ids[0]],
        "newest first"
    );
    assert_eq!(s.tool_calls(a.id, 1).expect("lists").len(), 1);
    let first = s.tool_call(a.id, ids[0]).expect("gets").expect("exists");
    assert_eq!(first.raw_arguments, "{file: 'x'}");
    assert_eq!(first.input, r#"{"file":"x"}"#);
    assert_eq!(first.call_id.as_deref(), Some("call_1"));
    assert!(!first.truncated);
    let second = s.tool_call(a.id, ids[1]).expect("gets").expect("exists");
    assert_eq!(second.call_id, None);
    assert!(second.truncated, "the cut-off flag is kept");
    assert!(s.tool_call(a.id, idb).expect("gets").is_none());
    s.delete_account("b").expect("deletes");
    assert!(s.tool_calls(b.id, 100).expect("lists").is_empty());
}

fn limits_are_set_checked_and_cleared(place: &Place) {
    let s = open(place);
    s.create_account("acme", false, 3).expect("creates");
    let a = s
        .update_account(
            "acme",
            &AccountPatch {
                rpm: Some(Some(60)),
                tokens_per_day: Some(Some(100_000)),
                ..AccountPatch::default()
            },
        )
        .expect("sets limits");
    assert_eq!((a.rpm, a.tokens_per_day), (Some(60), Some(100_000)));
    assert_eq!(s.account("acme").expect("reads"), a, "persisted");
    for bad in [
        AccountPatch {
            rpm: Some(Some(0)),
            ..AccountPatch::default()
        },
        AccountPatch {
            tokens_per_day: Some(Some(0)),
            ..AccountPatch::default()
        },
        AccountPatch {
            tokens_per_day: Some(Some(u64::MAX)),
            ..AccountPatch::default()
        },
        AccountPatch {
            max_attempts: Some(0),
            ..AccountPatch::default()
        },
    ] {
        assert!(
            matches!(s.update_account("acme", &bad), Err(StoreError::Invalid(_))),
            "{bad:?}"
        );
    }
    assert_eq!(
        s.account("acme").expect("reads"),
        a,
        "a refused patch changes nothing"
    );
    let a = s
        .update_account(
            "acme",
            &AccountPatch {
                rpm: Some(None),
                ..AccountPatch::default()
            },
        )
        .expect("clears");
    assert_eq!((a.rpm, a.tokens_per_day), (None, Some(100_000)));
}

/// Three requests a minute: one every 20 s, a burst of three.
fn three_a_minute(now_ms: i64) -> RateStep {
    RateStep {
        now_ms,
        interval_ms: 20_000,
        tolerance_ms: 40_000,
    }
}

fn the_rate_admits_a_burst_then_refuses_with_the_wait(place: &Place) {
    let s = open(place);
    let (a, _) = s.create_account("a", false, 3).expect("creates");
    let (b, _) = s.create_account("b", false, 3).expect("creates");
    let t = 1_700_000_000_000;
    for i in 0..3 {
        assert_eq!(
            s.take_rate(a.id, three_a_minute(t + i)).unwrap(),
            None,
            "{i}"
        );
    }
    // The fourth waits until the first's interval has passed.
    assert_eq!(
        s.take_rate(a.id, three_a_minute(t + 3)).unwrap(),
        Some(20_000 - 3)
    );
    // A refusal takes nothing: the wait is the same a second later.
    assert_eq!(
        s.take_rate(a.id, three_a_minute(t + 1003)).unwrap(),
        Some(19_000 - 3)
    );
    // Another account has its own rate.
    assert_eq!(s.take_rate(b.id, three_a_minute(t)).unwrap(), None);
    assert_eq!(s.take_rate(a.id, three_a_minute(t + 20_000)).unwrap(), None);
    assert!(s
        .take_rate(a.id, three_a_minute(t + 20_001))
        .unwrap()
        .is_some());
    // After a quiet minute the whole burst is back.
    let later = t + 200_000;
    for i in 0..3 {
        assert_eq!(s.take_rate(a.id, three_a_minute(later + i)).unwrap(), None);
    }
    assert!(s
        .take_rate(a.id, three_a_minute(later + 3))
        .unwrap()
        .is_some());
}

fn the_rate_holds_across_two_stores_on_one_database(place: &Place) {
    // Two stores on one database are two replicas: 16 concurrent takers, a burst of 3.
    let stores = [open(place), open(place)];
    let (a, _) = stores[0].create_account("a", false, 3).expect("creates");
    let t = 1_700_000_000_000;
    let admitted: usize = std::thread::scope(|scope| {
        let handles: Vec<_> = (0..16)
            .map(|i| {
                let s = Arc::clone(&stores[i % 2]);
                scope.spawn(move || s.take_rate(a.id, three_a_minute(t)).unwrap().is_none())
            })
            .collect();
        handles
            .into_iter()
            .map(|h| usize::from(h.join().unwrap()))
            .sum()
    });
    assert_eq!(admitted, 3);
}

fn record(account_id: Option<i64>, model: &str, tokens: (u64, u64), status: u16) -> RequestRecord {
    RequestRecord {
        request_id: "req".to_owned(),
        account_id,
        model: model.to_owned(),
        stream: false,
        healing: true,
        attempts: 2,
        outcome: if status == 200 { "healed" } else { "failed" }.to_owned(),
        status,
        repaired: status == 200,
        prompt_tokens: tokens.0,
        completion_tokens: tokens.1,
        total_tokens: tokens.0 + tokens.1,
        latency_ms: 4,
    }
}

fn usage_is_summed_by_model_and_by_day(place: &Place) {
    let s = open(place);
    let (a, _) = s.create_account("a", false, 3).expect("creates");
    let (b, _) = s.create_account("b", false, 3).expect("creates");
    let today = day_of(
        std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .unwrap()
            .as_secs() as i64,
    );
    assert_eq!(s.tokens_on_day(a.id, today).unwrap(), 0);
    s.record_requests(&[
        record(Some(a.id), "m1", (10, 5), 200),
        record(Some(a.id), "m1", (20, 7), 503),
        record(Some(a.id), "m2", (1, 1), 200),
        record(Some(b.id), "m1", (100, 100), 200),
        // An account deleted while its request ran: kept without it, the batch not lost.
        record(Some(9_999_999), "m1", (1, 1), 200),
        record(None, "m1", (1, 1), 200),
    ])
    .expect("logs");
    s.record_requests(&[record(Some(a.id), "m2", (3, 0), 200)])
        .expect("logs");
    assert_eq!(s.request_count().unwrap(), 7);
    let usage = s.usage(a.id, 0).unwrap();
    assert_eq!(usage.len(), 2, "{usage:?}");
    let m1 = &usage[0];
    assert_eq!(m1.model, "m1");
    assert_eq!(
        (m1.requests, m1.errors, m1.repaired, m1.attempts),
        (2, 1, 1, 4)
    );
    assert_eq!(
        (m1.prompt_tokens, m1.completion_tokens, m1.total_tokens),
        (30, 12, 42)
    );
    let m2 = &usage[1];
    assert_eq!(
        (m2.model.as_str(), m2.requests, m2.total_tokens),
        ("m2", 2, 5)
    );
    assert_eq!(s.tokens_on_day(a.id, today).unwrap(), 47);
    assert_eq!(s.tokens_on_day(b.id, today).unwrap(), 200);
    assert_eq!(s.tokens_on_day(a.id, today - 1).unwrap(), 0);
    // `since` in the future: nothing yet.
    assert!(s.usage(a.id, (today + 2) * 86_400).unwrap().is_empty());
    s.delete_account("b").expect("deletes");
    assert_eq!(s.tokens_on_day(b.id, today).unwrap(), 0);
}

fn migrations_run_once_when_stores_open_together(place: &Place) {
    let url = place.url();
    let stores: Vec<Arc<dyn Store>> = std::thread::scope(|scope| {
        let handles: Vec<_> = (0..4).map(|_| scope.spawn(|| store::open(&url))).collect();
        handles
            .into_iter()
            .map(|h| h.join().unwrap().expect("opens beside the others"))
            .collect()
    });
    let (_, key) = stores[0].create_account("a", false, 3).expect("creates");
    for s in &stores {
        assert!(s.authenticate(&key.0).unwrap().is_some());
    }
    drop(stores);
    // Reopened: nothing is migrated again and the data is there.
    let s = open(place);
    assert!(s.authenticate(&key.0).unwrap().is_some());
    if let Place::Postgres(db) = place {
        let rows = db.query("SELECT COUNT(*) FROM schema_migrations");
        let applied = db.query("SELECT MAX(version) FROM schema_migrations");
        assert_eq!(rows, applied, "one row per migration");
    }
}

fn a_second_store_sees_key_changes_at_once(place: &Place) {
    let (one, two) = (open(place), open(place));
    let (_, key) = one.create_account("a", false, 3).expect("creates");
    assert!(two.authenticate(&key.0).unwrap().is_some());
    let new_key = one.rotate_key("a").expect("rotates");
    assert!(two.authenticate(&key.0).unwrap().is_none());
    assert!(two.authenticate(&new_key.0).unwrap().is_some());
    two.update_account(
        "a",
        &AccountPatch {
            rpm: Some(Some(5)),
            ..AccountPatch::default()
        },
    )
    .expect("sets");
    assert_eq!(
        one.authenticate(&new_key.0).unwrap().and_then(|a| a.rpm),
        Some(5)
    );
    two.delete_account("a").expect("deletes");
    assert!(one.authenticate(&new_key.0).unwrap().is_none());
}
