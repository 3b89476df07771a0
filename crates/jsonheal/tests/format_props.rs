//! `format::compact` and `format::pretty` lay JSON out exactly as serde_json does, whatever
//! the layout they start from, and keep number text that serde_json would rewrite.
#![allow(clippy::unwrap_used)]

use jsonheal::format::{compact, pretty};
use proptest::prelude::*;
use serde_json::{json, Value};

fn arb_json() -> impl Strategy<Value = Value> {
    let leaf = prop_oneof![
        Just(Value::Null),
        any::<bool>().prop_map(Value::Bool),
        any::<i64>().prop_map(|n| json!(n)),
        (-1e6f64..1e6).prop_map(|f| json!(f)),
        "[ -~é😀\"\\\\\n\t/{}\\[\\],:]{0,12}".prop_map(Value::String),
    ];
    leaf.prop_recursive(5, 64, 6, |inner| {
        prop_oneof![
            prop::collection::vec(inner.clone(), 0..6).prop_map(Value::Array),
            prop::collection::vec(("[a-z \"{}:,]{0,6}", inner), 0..6)
                .prop_map(|m| Value::Object(m.into_iter().collect())),
        ]
    })
}

proptest! {
    #[test]
    fn layouts_match_serde_json(value in arb_json()) {
        let flat = serde_json::to_string(&value).unwrap();
        let indented = serde_json::to_string_pretty(&value).unwrap();
        prop_assert_eq!(compact(&indented), flat.clone());
        prop_assert_eq!(compact(&flat), flat.clone());
        prop_assert_eq!(pretty(&flat), indented.clone());
        prop_assert_eq!(pretty(&indented), indented);
    }

    #[test]
    fn repaired_text_keeps_its_lexemes(n in "-?[1-9][0-9]{0,3}(\\.[0-9]{1,3}0)?[eE][+-]?[0-9]{1,2}") {
        let text = format!("{{'n': {n}, 'list': [{n},],}}");
        let fixed = jsonheal::repair(&text).unwrap();
        prop_assert_eq!(compact(&fixed.text), format!("{{\"n\":{n},\"list\":[{n}]}}"));
        let member = format!("\"n\": {n},");
        prop_assert!(pretty(&fixed.text).contains(&member));
    }
}
