//! Schema healing through the gateway: the library's schema cache and construct-aware
//! coercion on the healed path, and the instructions budget from the configuration.
#![allow(clippy::unwrap_used)]

mod common;

use common::*;
use serde_json::{json, Value};

/// A schema whose descriptions alone are far over a small budget, with the value declared
/// only through `patternProperties` and `allOf`.
fn wordy_schema() -> Value {
    let words = "A long explanation of what this field means for the business. ".repeat(40);
    json!({
        "type": "object",
        "description": words,
        "required": ["x-count"],
        // Declared here for `additionalProperties`, typed only in an `allOf` member.
        "properties": {"ok": {}},
        "patternProperties": {"^x-": {"type": "integer", "description": words}},
        "allOf": [{"properties": {"ok": {"description": words}}},
                  {"properties": {"ok": {"type": "boolean"}}}],
        "additionalProperties": false
    })
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn heals_by_pattern_properties_and_all_of_within_the_instruction_budget() {
    let up = upstream().await;
    let gw = gateway(&up.url, |c| c.instructions_budget = 300).await;
    for _ in 0..2 {
        up.push(ok("{\"x-count\": \"7\", \"ok\": \"true\"}"));
        let resp = gw
            .post(&json!({
                "model": "stub-model",
                "messages": [{"role": "user", "content": "Count them."}],
                "response_schema": wordy_schema()
            }))
            .send()
            .await
            .unwrap();
        assert_eq!(resp.status(), 200);
        let body: Value = resp.json().await.unwrap();
        assert_eq!(
            body["choices"][0]["message"]["content"],
            r#"{"x-count":7,"ok":true}"#
        );
        let mut kinds: Vec<&str> = body["jsonheal"]["coercions"]
            .as_array()
            .unwrap()
            .iter()
            .filter_map(|c| c["kind"].as_str())
            .collect();
        kinds.sort_unstable();
        assert_eq!(kinds, ["string_to_boolean", "string_to_number"]);
    }
    for sent in up.bodies() {
        let instructions = sent["messages"][0]["content"].as_str().unwrap();
        assert!(
            instructions.chars().count() <= 300 * 3,
            "{} characters: {instructions}",
            instructions.chars().count()
        );
        // Every constraint is still there.
        for needle in [
            "\"^x-\":{\"type\":\"integer\"",
            "\"additionalProperties\":false",
            "{\"type\":\"boolean\"}",
            "\"required\":[\"x-count\"]",
        ] {
            assert!(instructions.contains(needle), "{needle}: {instructions}");
        }
    }
    gw.stop().await;
}
