//! Usage and limits over real HTTP on the embedded (SQLite) store; the same across two
//! replicas on PostgreSQL is in the CLI's `replicas` tests.
#![allow(clippy::unwrap_used)]

mod common;

use common::*;
use jsonheal_gateway::store::{AccountPatch, Store};
use serde_json::{json, Value};

fn chat() -> Value {
    json!({"model": "stub-model", "messages": [{"role": "user", "content": "hi"}]})
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_request_past_the_rate_is_a_429_with_retry_after_and_usage_is_recorded() {
    let up = upstream().await;
    let gw = gateway(&up.url, |_| {}).await;
    gw.store
        .update_account(
            "test",
            &AccountPatch {
                rpm: Some(Some(2)),
                ..AccountPatch::default()
            },
        )
        .unwrap();
    for _ in 0..2 {
        up.push(ok("hello"));
        assert_eq!(gw.post(&chat()).send().await.unwrap().status(), 200);
    }
    let refused = gw.post(&chat()).send().await.unwrap();
    assert_eq!(refused.status(), 429);
    // Two a minute: the next one in 30 s.
    let retry: u64 = refused.headers()["retry-after"]
        .to_str()
        .unwrap()
        .parse()
        .unwrap();
    assert!((1..=30).contains(&retry), "{retry}");
    let body: Value = refused.json().await.unwrap();
    assert_eq!(body["error"]["code"], "rate_limit_exceeded");
    assert_eq!(body["error"]["type"], "requests");
    assert_eq!(
        up.calls(),
        2,
        "a refused request never reaches the upstream"
    );

    // A healing request that takes two attempts: its tokens are summed.
    gw.store
        .update_account(
            "test",
            &AccountPatch {
                rpm: Some(None),
                ..AccountPatch::default()
            },
        )
        .unwrap();
    up.push(ok("no json here"));
    up.push(ok(r#"{"name": "Ann", "age": 30,}"#));
    let healed = gw
        .post(&json!({"model": "stub-model",
                      "messages": [{"role": "user", "content": "a person"}],
                      "response_schema": person_schema()}))
        .send()
        .await
        .unwrap();
    assert_eq!(healed.status(), 200);

    let store = std::sync::Arc::clone(&gw.store);
    gw.stop().await;
    let account = store.account("test").unwrap();
    let usage = store.usage(account.id, 0).unwrap();
    assert_eq!(usage.len(), 1, "{usage:?}");
    let u = &usage[0];
    assert_eq!((u.requests, u.errors, u.repaired), (3, 0, 1));
    assert_eq!(
        u.attempts, 2,
        "pass-through requests make no healing attempts"
    );
    assert_eq!((u.prompt_tokens, u.completion_tokens), (40, 20));
}
