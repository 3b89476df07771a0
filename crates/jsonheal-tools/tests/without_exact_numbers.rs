//! The library without its `exact-numbers` feature: `cargo test -p jsonheal-tools` builds
//! jsonheal alone, so serde_json's `arbitrary_precision` is off here (CI runs it on its own;
//! in a whole-workspace build the CLI and the gateway turn the feature on). The repaired
//! text must keep every number as written either way; only `value()` is approximate.
#![allow(clippy::unwrap_used)]

use jsonheal::{repair, repair_with, DuplicateKeys, Options};

#[test]
fn the_text_keeps_numbers_as_written_and_the_value_is_approximate() {
    let input = "{n: 1e2, big: 123456789012345678901234567890, d: 1.10,}";
    let fixed = repair(input).unwrap();
    assert_eq!(
        fixed.text,
        r#"{"n":1e2,"big":123456789012345678901234567890,"d":1.10}"#
    );
    let value = fixed.value().unwrap();
    assert_eq!(value["n"].as_f64(), Some(100.0));
    assert!(value["big"].as_f64().unwrap() > 1.2e29);
}

/// CI runs this crate's tests alone with the variable set, to show that build really lacks
/// `arbitrary_precision` (a whole-workspace run has it, and skips this check).
#[test]
fn the_feature_is_off_when_ci_says_so() {
    if std::env::var_os("JSONHEAL_EXPECT_INEXACT_NUMBERS").is_some() {
        assert!(
            serde_json::from_str::<serde_json::Value>("1e400").is_err(),
            "serde_json's arbitrary_precision is on: some crate turned on jsonheal/exact-numbers"
        );
    }
}

#[test]
fn dropping_duplicate_keys_keeps_number_text() {
    let options = Options {
        duplicate_keys: DuplicateKeys::First,
        ..Options::default()
    };
    let fixed = repair_with(r#"{"a": 1e2, "b": 18446744073709551617, "a": 3}"#, &options).unwrap();
    assert_eq!(fixed.text, r#"{"a":1e2,"b":18446744073709551617}"#);
}
