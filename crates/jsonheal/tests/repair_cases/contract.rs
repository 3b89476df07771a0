//! The repair contract's general promises: valid input passes through, spans lie in the input,
//! repair is idempotent, the options and strict mode, bounded depth.

use crate::prelude::*;

#[test]
fn valid_input_passes_through_byte_identical() {
    for input in [
        r#"{"a": 1, "b": [true, null, "x"]}"#,
        r#"{"n": 1e2, "m": 1.10, "big": 123456789012345678901234567890, "neg": -0}"#,
        "[\n  1,\n  2\n]",
        r#""just a string""#,
        "42",
        "null",
        r#"{"s": "\u00e9\ud83d\ude00 \"q\" \\ \/"}"#,
        r#"{"a": {"b": {"c": []}}, "d": {}}"#,
        r#"{"dup": 1, "dup": 2}"#,
        r#""{\"a\":1}""#,
    ] {
        let r = repair(input).unwrap();
        assert_eq!(r.text, input, "valid input must come back byte-identical");
        assert!(r.repairs.is_empty());
    }
    // Surrounding whitespace is trimmed, nothing else.
    assert_eq!(repair("  \n{\"a\": 1}\n ").unwrap().text, "{\"a\": 1}");
}

#[test]
fn repairs_are_reported_with_spans_inside_the_input() {
    let input = "{a: 'x', b: [1, 2,], // c\n c: True}";
    let r = repair(input).unwrap();
    for rep in &r.repairs {
        assert!(
            rep.span().start <= rep.span().end && rep.span().end <= input.len(),
            "{rep:?}"
        );
    }
    let found: Vec<_> = r.repairs.iter().map(|r| r.kind()).collect();
    for k in [
        RepairKind::UnquotedKey,
        RepairKind::SingleQuotes,
        RepairKind::TrailingComma,
        RepairKind::RemovedComment,
        RepairKind::PythonLiteral,
    ] {
        assert!(found.contains(&k), "{k:?} missing from {found:?}");
    }
    let comma = r
        .repairs
        .iter()
        .find(|r| r.kind() == RepairKind::TrailingComma)
        .unwrap();
    assert_eq!(&input[comma.span()], ",");
}

#[test]
fn repair_is_idempotent_on_the_table() {
    for input in [
        "{a: 'x', b: [1, 2,],}",
        "```json\n{\"a\": 1}\n```",
        r#"{"a": "hello wor"#,
        r#"{"text": "He said "hi" to me"}"#,
        "{\"a\":1}\n{\"a\":2}",
    ] {
        let once = repair(input).unwrap().text;
        let twice = repair(&once).unwrap();
        assert_eq!(twice.text, once);
        assert!(twice.repairs.is_empty());
    }
}

#[test]
fn options_policies() {
    use jsonheal::{DuplicateKeys, ErrorKind, Multiple, NonFinite, Options};
    let two = "{\"a\": 1}\n{\"a\": 2}";
    let o = |m| Options {
        multiple: m,
        ..Options::default()
    };
    assert_eq!(
        repair_with(two, &o(Multiple::First)).unwrap().text,
        r#"{"a":1}"#
    );
    assert_eq!(
        repair_with(two, &o(Multiple::Last)).unwrap().text,
        r#"{"a":2}"#
    );
    assert_eq!(
        repair_with(two, &o(Multiple::Error)).unwrap_err().kind(),
        &ErrorKind::MultipleValues
    );

    let dup = r#"{"a": 1, "b": 2, "a": 3}"#;
    let d = |p| Options {
        duplicate_keys: p,
        ..Options::default()
    };
    assert_eq!(repair_with(dup, &d(DuplicateKeys::Keep)).unwrap().text, dup);
    assert_eq!(
        repair_with(dup, &d(DuplicateKeys::First)).unwrap().text,
        r#"{"a":1,"b":2}"#
    );
    assert_eq!(
        repair_with(dup, &d(DuplicateKeys::Last)).unwrap().text,
        r#"{"b":2,"a":3}"#
    );
    assert!(matches!(
        repair_with(dup, &d(DuplicateKeys::Error)).unwrap_err().kind(),
        ErrorKind::DuplicateKey(k) if k == "a"
    ));

    let nf = "[NaN, Infinity]";
    let n = |p| Options {
        non_finite: p,
        ..Options::default()
    };
    assert_eq!(
        repair_with(nf, &n(NonFinite::String)).unwrap().text,
        r#"["NaN","Infinity"]"#
    );
    assert_eq!(
        repair_with(nf, &n(NonFinite::Error)).unwrap_err().kind(),
        &ErrorKind::NonFinite
    );

    let deep = format!("{}{}", "[".repeat(10), "]".repeat(10));
    let shallow = Options {
        max_depth: 5,
        ..Options::default()
    };
    assert_eq!(
        repair_with(&deep, &shallow).unwrap_err().kind(),
        &ErrorKind::TooDeep
    );
}

#[test]
fn strict_mode_reports_line_and_column() {
    use jsonheal::Options;
    let ok = repair_with("{\"a\": 1}", &Options::strict()).unwrap();
    assert!(ok.repairs.is_empty());
    let err = repair_with("{\n  \"a\" 1\n}", &Options::strict()).unwrap_err();
    assert_eq!((err.line(), err.column()), (Some(2), Some(7)));
    assert_eq!(err.to_string(), "expected `:` at line 2 column 7");
    let eof = repair_with("{\"a\": 1", &Options::strict()).unwrap_err();
    assert!(
        eof.to_string()
            .starts_with("EOF while parsing an object at line 1"),
        "{eof}"
    );
    assert_eq!(
        repair_with("  ", &Options::strict())
            .unwrap_err()
            .to_string(),
        "no JSON found"
    );
    // Columns count characters, offsets bytes, whatever serde_json counts.
    let wide = "{\"é\": \"ü\", \"x\": 1,,}";
    let err = repair_with(wide, &Options::strict()).unwrap_err();
    let at = err.position().map(|p| p.offset);
    assert_eq!(at.and_then(|o| wide.get(o..o + 1)), Some(","));
    assert_eq!(at, wide.rfind(','));
    assert_eq!(err.column(), Some(19));
}

#[test]
fn deep_nesting_is_bounded_and_linear() {
    // Run on a small stack: the engine must not recurse. The engine alone here: the
    // harness (and serde_json's `Value`) recurse, and a million openers fed to the stream in
    // pieces would take a snapshot per piece (`stream.rs` checks the stream's depth bound).
    let handle = std::thread::Builder::new()
        .stack_size(256 * 1024)
        .spawn(|| {
            let deep = "[".repeat(1_000_000);
            let err = jsonheal::repair(&deep).unwrap_err();
            assert_eq!(err.kind(), &jsonheal::ErrorKind::TooDeep);
            let ok = format!("{}{}", "[".repeat(100), "]".repeat(100));
            assert_eq!(jsonheal::repair(&ok).unwrap().text, ok);
            let cut = "[".repeat(100);
            assert!(jsonheal::repair(&cut).is_ok());
        })
        .unwrap();
    handle.join().unwrap();
    // The same nesting on both paths, on the test's own stack.
    let ok = format!("{}{}", "[".repeat(100), "]".repeat(100));
    assert_eq!(repair(&ok).unwrap().text, ok);
    let r = repair(&"[".repeat(100)).unwrap();
    assert_eq!(r.text, format!("{}{}", "[".repeat(100), "]".repeat(100)));
}

/// Each divergence the harness tolerates still diverges (else the list is stale), whether or
/// not a table still holds its input.
#[test]
fn known_divergences_still_diverge() {
    use crate::common::both::{stream_problems, KNOWN_STREAM_DIVERGENCES};
    for (input, why) in KNOWN_STREAM_DIVERGENCES {
        assert!(
            !stream_problems(input, &jsonheal::Options::default(), true).is_empty(),
            "{input:?} ({why}): the stream now agrees with repair; take it off the list"
        );
    }
}

/// The harness can fail: a snapshot the final value contradicts is reported with where it
/// went wrong, and a divergence fails unless listed, and a listed one fails once it is gone.
#[test]
fn the_harness_reports_what_it_checks() {
    use crate::common::both::verdict;
    use crate::common::feed;
    let mut r = jsonheal::stream::Repairer::new();
    let fin = serde_json::json!({"a": 2});
    let err = feed(&mut r, "t", r#"{"a": 1}"#, &[4], Some(&fin)).unwrap_err();
    assert!(err.contains("/a: snapshot has 1, final has 2"), "{err}");
    assert!(verdict("[1]", &[]).is_ok());
    assert!(verdict("[1]", &["finish differs".into()]).is_err());
}
