//! Properties of the repair engine over generated inputs.
//!
//! - valid JSON (any whitespace, escapes, surrogate pairs, big and odd numbers, duplicate
//!   keys) comes back byte-identical with no repair;
//! - the same values written LLM-style (single quotes, bare keys, Python literals, trailing
//!   commas, comments, prose and fences) repair back to the same value;
//! - mutated JSON (bytes inserted, deleted, replaced; truncation) never panics, and an `Ok`
//!   is JSON that serde_json accepts, repairs to itself with no repair, and reports spans that
//!   lie on char boundaries of the input;
//! - any proper prefix of a container is completed and reported as truncated;
//! - deep nesting and adversarial runs neither overflow the stack nor take long.
//!
//! `PROPTEST_CASES=5000 cargo test -p jsonheal --test proptest_repair --release` for a
//! longer run.

#![allow(clippy::unwrap_used)]

use std::time::{Duration, Instant};

use jsonheal::{repair, ErrorKind, Repaired};
use proptest::prelude::*;
use proptest::sample::Index;
use proptest::test_runner::FileFailurePersistence;
use serde_json::Value;

// ---------------------------------------------------------------------------------------
// A JSON value, printable as valid JSON (with chosen whitespace) or LLM-style.

#[derive(Debug, Clone)]
enum Json {
    Null,
    Bool(bool),
    /// The number's text, exactly as written.
    Num(String),
    /// The string literal's inside, with its escapes, exactly as written.
    Str(String),
    Arr(Vec<Json>),
    Obj(Vec<(String, Json)>),
}

/// Whitespace that JSON allows between tokens.
const WS: &[&str] = &["", "", "", " ", "  ", "\n", "\t", "\r\n", "\n    ", " \t "];

/// Prints valid JSON; `ws` picks the whitespace around each token.
struct Printer<'a> {
    out: String,
    ws: &'a [u8],
    at: usize,
}

impl Printer<'_> {
    fn space(&mut self) {
        if self.ws.is_empty() {
            return;
        }
        let w = WS[self.ws[self.at % self.ws.len()] as usize % WS.len()];
        self.at += 1;
        self.out.push_str(w);
    }

    fn value(&mut self, v: &Json) {
        match v {
            Json::Null => self.out.push_str("null"),
            Json::Bool(b) => self.out.push_str(if *b { "true" } else { "false" }),
            Json::Num(n) => self.out.push_str(n),
            Json::Str(s) => {
                self.out.push('"');
                self.out.push_str(s);
                self.out.push('"');
            }
            Json::Arr(items) => {
                self.out.push('[');
                self.space();
                for (i, item) in items.iter().enumerate() {
                    if i > 0 {
                        self.out.push(',');
                        self.space();
                    }
                    self.value(item);
                    self.space();
                }
                self.out.push(']');
            }
            Json::Obj(members) => {
                self.out.push('{');
                self.space();
                for (i, (k, item)) in members.iter().enumerate() {
                    if i > 0 {
                        self.out.push(',');
                        self.space();
                    }
                    self.out.push('"');
                    self.out.push_str(k);
                    self.out.push('"');
                    self.space();
                    self.out.push(':');
                    self.space();
                    self.value(item);
                    self.space();
                }
                self.out.push('}');
            }
        }
    }
}

fn print_valid(v: &Json, ws: &[u8]) -> String {
    let mut p = Printer {
        out: String::new(),
        ws,
        at: 0,
    };
    p.space();
    p.value(v);
    p.space();
    p.out
}

fn is_ident(s: &str) -> bool {
    let mut chars = s.chars();
    matches!(chars.next(), Some(c) if c.is_ascii_alphabetic() || c == '_')
        && chars.all(|c| c.is_ascii_alphanumeric() || c == '_')
        && !matches!(
            s.to_ascii_lowercase().as_str(),
            "true" | "false" | "null" | "none" | "nan" | "infinity" | "undefined"
        )
}

/// A JSON string literal's content re-spelled inside single quotes: `'` escaped, `"` bare.
fn single_quoted(inside: &str) -> String {
    let mut out = String::from("'");
    let mut chars = inside.chars();
    while let Some(c) = chars.next() {
        match c {
            '\\' => match chars.next() {
                Some('"') => out.push('"'),
                Some(e) => {
                    out.push('\\');
                    out.push(e);
                }
                None => out.push_str("\\\\"),
            },
            '\'' => out.push_str("\\'"),
            c => out.push(c),
        }
    }
    out.push('\'');
    out
}

/// How the LLM-style printer slips; each flag is drawn per value tree.
#[derive(Debug, Clone, Copy)]
struct Slips {
    single_quotes: bool,
    bare_keys: bool,
    python: bool,
    trailing_commas: bool,
    comments: bool,
    fenced: bool,
    /// Separators written as a line break without the comma.
    missing_commas: bool,
}

fn print_llm(v: &Json, s: Slips, out: &mut String) {
    match v {
        Json::Null => out.push_str(if s.python { "None" } else { "null" }),
        Json::Bool(b) => out.push_str(match (b, s.python) {
            (true, true) => "True",
            (false, true) => "False",
            (true, false) => "true",
            (false, false) => "false",
        }),
        Json::Num(n) => out.push_str(n),
        Json::Str(inside) => {
            if s.single_quotes {
                out.push_str(&single_quoted(inside));
            } else {
                out.push('"');
                out.push_str(inside);
                out.push('"');
            }
        }
        Json::Arr(items) => {
            out.push('[');
            for (i, item) in items.iter().enumerate() {
                if i > 0 {
                    out.push_str(if s.missing_commas { "\n" } else { ", " });
                }
                if s.comments && i == 1 {
                    out.push_str("// the next one\n");
                }
                print_llm(item, s, out);
            }
            if s.trailing_commas && !items.is_empty() {
                out.push(',');
            }
            out.push(']');
        }
        Json::Obj(members) => {
            out.push('{');
            for (i, (k, item)) in members.iter().enumerate() {
                if i > 0 {
                    out.push_str(if s.missing_commas { "\n" } else { ", " });
                }
                if s.comments && i == 1 {
                    out.push_str("# a note\n");
                }
                if s.bare_keys && is_ident(k) {
                    out.push_str(k);
                } else if s.single_quotes {
                    out.push_str(&single_quoted(k));
                } else {
                    out.push('"');
                    out.push_str(k);
                    out.push('"');
                }
                out.push_str(": ");
                print_llm(item, s, out);
            }
            if s.trailing_commas && !members.is_empty() {
                out.push(',');
            }
            out.push('}');
        }
    }
}

// ---------------------------------------------------------------------------------------
// Strategies.

/// The inside of a JSON string literal: plain text (any Unicode but `"`, `\` and controls),
/// every short escape, `\uXXXX` outside the surrogates, and surrogate pairs.
fn string_inside() -> impl Strategy<Value = String> {
    let piece = prop_oneof![
        6 => "[^\"\\\\\\x00-\\x1f]{1,8}",
        1 => prop::sample::select(vec!["\\n", "\\t", "\\\"", "\\\\", "\\/", "\\b", "\\f", "\\r"])
            .prop_map(str::to_owned),
        1 => (0u32..0xD800).prop_map(|c| format!("\\u{c:04x}")),
        1 => (0xE000u32..=0xFFFF).prop_map(|c| format!("\\u{c:04X}")),
        1 => (0xD800u32..0xDC00, 0xDC00u32..0xE000)
            .prop_map(|(hi, lo)| format!("\\u{hi:04x}\\u{lo:04X}")),
        1 => Just("it's 'quoted' // not a comment # nor this".to_owned()),
    ];
    prop::collection::vec(piece, 0..6).prop_map(|v| v.concat())
}

/// JSON numbers as written: `-0`, `1e2`, `1.10`, integers beyond 2^64, exponents.
fn number() -> impl Strategy<Value = String> {
    prop_oneof![
        "-?(0|[1-9][0-9]{0,5})(\\.[0-9]{1,4})?([eE][+-]?[0-9]{1,2})?",
        "-?[1-9][0-9]{19,40}",
        prop::sample::select(vec![
            "-0",
            "1e2",
            "1.10",
            "0.0",
            "-0.0e-0",
            "1E+2",
            "18446744073709551616"
        ])
        .prop_map(str::to_owned),
    ]
}

/// Keys: a few that repeat (duplicates are valid JSON), identifiers, arbitrary strings.
fn key() -> impl Strategy<Value = String> {
    prop_oneof![
        2 => prop::sample::select(vec!["a", "b", "id", "name"]).prop_map(str::to_owned),
        2 => "[a-z_][a-z0-9_]{0,8}",
        1 => string_inside(),
    ]
}

fn json() -> impl Strategy<Value = Json> {
    let leaf = prop_oneof![
        Just(Json::Null),
        any::<bool>().prop_map(Json::Bool),
        number().prop_map(Json::Num),
        string_inside().prop_map(Json::Str),
    ];
    leaf.prop_recursive(6, 96, 8, |inner| {
        prop_oneof![
            prop::collection::vec(inner.clone(), 0..8).prop_map(Json::Arr),
            prop::collection::vec((key(), inner), 0..8).prop_map(Json::Obj),
        ]
    })
}

fn container() -> impl Strategy<Value = Json> {
    prop_oneof![
        prop::collection::vec(json(), 0..8).prop_map(Json::Arr),
        prop::collection::vec((key(), json()), 0..8).prop_map(Json::Obj),
    ]
}

/// A valid JSON text with whitespace drawn around every token.
fn valid_text() -> impl Strategy<Value = String> {
    (json(), prop::collection::vec(any::<u8>(), 0..64)).prop_map(|(j, ws)| print_valid(&j, &ws))
}

fn slips() -> impl Strategy<Value = Slips> {
    (any::<[bool; 7]>()).prop_map(|b| Slips {
        single_quotes: b[0],
        bare_keys: b[1],
        python: b[2],
        trailing_commas: b[3],
        comments: b[4],
        fenced: b[5],
        missing_commas: b[6],
    })
}

/// One edit of a text, by char index.
#[derive(Debug, Clone)]
enum Edit {
    Insert(Index, char),
    Delete(Index),
    Replace(Index, char),
    Truncate(Index),
    /// An LLM habit applied at every occurrence: `"` → `'`, `true` → `True`, …
    Rewrite(&'static str, &'static str),
}

/// Characters that matter to a JSON repairer, and a few that only need to survive.
const INTERESTING: &[char] = &[
    '"', '\'', '`', '{', '}', '[', ']', ':', ',', '\\', '/', '*', '#', '.', '-', '+', 'e', 'a',
    'n', 't', ' ', '\n', '\t', '\r', '\u{0}', '\u{7f}', '“', '”', '‘', '’', 'é', '😀', '\u{feff}',
];

const REWRITES: &[(&str, &str)] = &[
    ("\"", "'"),
    ("\"", ""),
    ("true", "True"),
    ("null", "None"),
    (",", ""),
    ("}", ",}"),
    ("]", ",]"),
    (":", ""),
    ("{", "{ // c\n"),
    ("[", "[ /* c */"),
    ("\"", "\u{201c}"),
    ("\\", ""),
];

fn edit() -> impl Strategy<Value = Edit> {
    let ch = prop_oneof![
        4 => prop::sample::select(INTERESTING),
        1 => any::<char>(),
    ];
    prop_oneof![
        4 => (any::<Index>(), ch.clone()).prop_map(|(i, c)| Edit::Insert(i, c)),
        3 => any::<Index>().prop_map(Edit::Delete),
        3 => (any::<Index>(), ch).prop_map(|(i, c)| Edit::Replace(i, c)),
        1 => any::<Index>().prop_map(Edit::Truncate),
        1 => prop::sample::select(REWRITES).prop_map(|(a, b)| Edit::Rewrite(a, b)),
    ]
}

fn apply(text: &str, edits: &[Edit]) -> String {
    let mut chars: Vec<char> = text.chars().collect();
    for e in edits {
        match e {
            Edit::Insert(i, c) => {
                let at = i.index(chars.len() + 1);
                chars.insert(at, *c);
            }
            Edit::Delete(i) if !chars.is_empty() => {
                chars.remove(i.index(chars.len()));
            }
            Edit::Replace(i, c) if !chars.is_empty() => {
                let at = i.index(chars.len());
                chars[at] = *c;
            }
            Edit::Truncate(i) => {
                let at = i.index(chars.len() + 1);
                chars.truncate(at);
            }
            Edit::Rewrite(from, to) => {
                let s: String = chars.iter().collect();
                chars = s.replace(from, to).chars().collect();
            }
            _ => {}
        }
    }
    chars.into_iter().collect()
}

// ---------------------------------------------------------------------------------------
// The invariants every result must keep.

/// `Ok` ⇒ JSON; idempotent; spans inside the input, on char boundaries, in input order.
/// `Err` ⇒ "no JSON found", the only honest error for these inputs (short, so far below the
/// depth limit, and repaired with the default options), and never for valid JSON.
fn check_result(
    input: &str,
    result: &Result<Repaired, jsonheal::Error>,
) -> Result<(), TestCaseError> {
    let r = match result {
        Ok(r) => r,
        Err(e) => {
            prop_assert_eq!(e.kind(), &ErrorKind::NoJson, "{:?}: {}", input, e);
            prop_assert!(
                serde_json::from_str::<serde::de::IgnoredAny>(input).is_err(),
                "valid JSON refused: {:?}: {}",
                input,
                e
            );
            return Ok(());
        }
    };
    prop_assert!(
        serde_json::from_str::<Value>(&r.text).is_ok(),
        "Ok but not JSON: {:?} -> {:?}",
        input,
        r.text
    );
    prop_assert!(r.value().is_ok());
    for rep in &r.repairs {
        prop_assert!(
            rep.span().start <= rep.span().end && rep.span().end <= input.len(),
            "span {:?} ({}) outside the input of {} bytes: {:?}",
            rep.span(),
            rep.kind(),
            input.len(),
            input
        );
        prop_assert!(
            input.is_char_boundary(rep.span().start) && input.is_char_boundary(rep.span().end),
            "span {:?} ({}) not on char boundaries: {:?}",
            rep.span(),
            rep.kind(),
            input
        );
    }
    let again = repair(&r.text);
    prop_assert!(
        again.is_ok(),
        "repaired text fails to repair: {:?} -> {:?}",
        input,
        r.text
    );
    let again = again.unwrap();
    prop_assert_eq!(
        &again.text,
        &r.text,
        "not idempotent: {:?} -> {:?} -> {:?}",
        input,
        &r.text,
        &again.text
    );
    prop_assert!(
        again.repairs.is_empty(),
        "repaired text (valid JSON) was repaired again: {:?} -> {:?}: {:?}",
        input,
        r.text,
        again.repairs
    );
    Ok(())
}

fn config() -> ProptestConfig {
    // Cases come from PROPTEST_CASES (default 256). Failures are saved next to this file
    // (`proptest_repair.regressions`) and replayed first on every later run. CI fixes the
    // seed (`PROPTEST_RNG_SEED` in `.ci/run`) so a run is reproducible; elsewhere each run
    // explores new cases.
    ProptestConfig {
        max_shrink_iters: 4096,
        failure_persistence: Some(Box::new(FileFailurePersistence::WithSource("regressions"))),
        ..ProptestConfig::default()
    }
}

proptest! {
    #![proptest_config(config())]

    /// Valid JSON comes back byte for byte (minus surrounding whitespace), with no repair.
    #[test]
    fn valid_json_is_untouched(text in valid_text()) {
        prop_assert!(
            serde_json::from_str::<Value>(&text).is_ok(),
            "the generator wrote invalid JSON: {:?}",
            text
        );
        let r = repair(&text);
        prop_assert!(r.is_ok(), "valid JSON refused: {:?}: {:?}", text, r);
        let r = r.unwrap();
        prop_assert_eq!(r.text.as_str(), text.trim(), "valid JSON changed");
        prop_assert!(r.repairs.is_empty(), "valid JSON reported repairs: {:?}", r.repairs);
    }

    /// The same values written LLM-style repair back to the same value, key order included.
    #[test]
    fn llm_style_repairs_to_the_value(j in container(), s in slips()) {
        let valid = print_valid(&j, &[]);
        let want: Value = serde_json::from_str(&valid).unwrap();
        let mut text = String::new();
        print_llm(&j, s, &mut text);
        if s.fenced {
            text = format!("Here is the JSON you asked for:\n```json\n{text}\n```\nAnything else?");
        }
        let r = repair(&text);
        check_result(&text, &r)?;
        prop_assert!(r.is_ok(), "refused: {:?}: {:?}", text, r);
        let got = r.unwrap().value().unwrap();
        // Compare as text: `Value`'s map equality ignores key order.
        prop_assert_eq!(
            serde_json::to_string(&got).unwrap(),
            serde_json::to_string(&want).unwrap(),
            "wrong value for {:?}",
            text
        );
    }

    /// Mutated JSON: never a panic; every `Ok` keeps the invariants.
    #[test]
    fn mutated_json_keeps_the_invariants(
        text in valid_text(),
        edits in prop::collection::vec(edit(), 1..6),
    ) {
        let input = apply(&text, &edits);
        let r = repair(&input);
        check_result(&input, &r)?;
    }

    /// Arbitrary text (mostly the characters that matter): same invariants.
    #[test]
    fn arbitrary_text_keeps_the_invariants(
        chars in prop::collection::vec(
            prop_oneof![4 => prop::sample::select(INTERESTING), 1 => any::<char>()],
            0..64,
        )
    ) {
        let input: String = chars.into_iter().collect();
        let r = repair(&input);
        check_result(&input, &r)?;
    }

    /// Any cut inside a container is completed, and the result says it was truncated.
    #[test]
    fn truncated_containers_are_completed(text in container().prop_map(|j| print_valid(&j, &[])), at in any::<Index>()) {
        prop_assume!(text.len() > 2);
        let mut cut = 1 + at.index(text.len() - 2);
        while !text.is_char_boundary(cut) {
            cut -= 1;
        }
        let input = &text[..cut];
        let r = repair(input);
        check_result(input, &r)?;
        prop_assert!(r.is_ok(), "truncated document refused: {:?}: {:?}", input, r);
        let r = r.unwrap();
        // A cut right after closers inside a string (`["a]`) reads as a string that lost its
        // quote before the closers of what is open (the contract's rule), which is no
        // truncation.
        let quote_before_closers = input.ends_with([']', '}'])
            && r.repairs
                .iter()
                .any(|x| x.kind() == jsonheal::RepairKind::MissingQuote);
        prop_assert!(
            r.is_truncated() || quote_before_closers,
            "truncation not reported: {:?} -> {:?}",
            input,
            r
        );
    }
}

// ---------------------------------------------------------------------------------------
// Depth and adversarial inputs, on a thread with the default 2 MiB stack: recursion would
// overflow it; the time bound only catches quadratic behaviour (debug builds are slow).

/// What a run on a small stack must give: JSON, or an error of this kind.
#[derive(Debug, Clone, PartialEq)]
enum Expect {
    Json,
    Error(ErrorKind),
}

/// Deeper than the default `max_depth` of 10,000.
fn too_deep() -> Expect {
    Expect::Error(ErrorKind::TooDeep)
}

fn no_json() -> Expect {
    Expect::Error(ErrorKind::NoJson)
}

fn on_small_stack(name: &str, input: String, expect: Expect) {
    let handle = std::thread::Builder::new()
        .stack_size(2 << 20)
        .name(name.to_owned())
        .spawn(move || {
            let t = Instant::now();
            let r = repair(&input);
            let elapsed = t.elapsed();
            let got = match &r {
                Ok(r) => {
                    assert!(
                        serde_json::from_str::<serde::de::IgnoredAny>(&r.text).is_ok(),
                        "Ok but not JSON"
                    );
                    Expect::Json
                }
                Err(e) => Expect::Error(e.kind().clone()),
            };
            (got, elapsed)
        })
        .expect("spawn");
    let (got, elapsed) = handle
        .join()
        .expect("the repair thread panicked or overflowed");
    assert_eq!(got, expect, "{name}");
    assert!(elapsed < Duration::from_secs(10), "took {elapsed:?}");
}

#[test]
fn a_million_open_brackets() {
    on_small_stack("[ x 1M", "[".repeat(1_000_000), too_deep());
}

#[test]
fn three_hundred_thousand_open_members() {
    on_small_stack("{\"a\": x 300k", "{\"a\":".repeat(300_000), too_deep());
}

#[test]
fn a_million_closers() {
    // Closers alone open nothing.
    on_small_stack("]} x 500k", "]}".repeat(500_000), no_json());
}

#[test]
fn alternating_openers() {
    // A `[` where a key belongs opens nothing (`{[{[` repairs to `{}`): never deep.
    on_small_stack("{[ x 500k", "{[".repeat(500_000), Expect::Json);
}

#[test]
fn unclosed_string_full_of_separators() {
    on_small_stack(
        "unclosed",
        format!("{{\"a\": \"x{}", ", y".repeat(100_000)),
        Expect::Json,
    );
}

#[test]
fn unbalanced_quotes() {
    // Quotes alone hold no value (see the `quotes_alone_are_no_json` table).
    on_small_stack("double quotes", "\"".repeat(100_000), no_json());
    on_small_stack("single quotes", "'".repeat(100_000), no_json());
}

#[test]
fn deep_valid_nesting_within_max_depth() {
    // 5,000 levels is within the default max_depth of 10,000: valid, so untouched.
    let text = format!("{}{}", "[".repeat(5_000), "]".repeat(5_000));
    let handle = std::thread::Builder::new()
        .stack_size(2 << 20)
        .spawn(move || repair(&text).map(|r| r.text == text && r.repairs.is_empty()))
        .expect("spawn");
    let r = handle.join().expect("no overflow");
    assert_eq!(
        r.ok(),
        Some(true),
        "deep valid nesting must come back untouched"
    );
}

// ---------------------------------------------------------------------------------------
// Engine bugs these properties found, shrunk to minimal inputs. An open one is ignored until
// the engine is fixed (`cargo test -p jsonheal --test proptest_repair -- --ignored` shows
// it); then the `#[ignore]` goes and it stays as a regression test.

/// The repaired value of `input`, as compact text (key order kept).
fn repaired_value(input: &str) -> Option<String> {
    let r = repair(input).ok()?;
    serde_json::to_string(&r.value().ok()?).ok()
}

/// Found here (fixed in 77a0315): a truncated document's valid prefix kept its lone surrogate.
#[test]
fn regression_lone_surrogate_in_truncated_prefix() {
    for input in [r#"["\uDC00","#, r#"["\ud800","#, r#"{"":null,"\uDC00":"","#] {
        let r = repair(input).expect("a truncated document is completed");
        assert!(
            serde_json::from_str::<Value>(&r.text).is_ok(),
            "{input:?} -> {:?} is not JSON",
            r.text
        );
    }
}

/// Found here (fixed in dbb1dc5): after `X:` every backslash was kept, valid escapes too.
#[test]
fn regression_valid_escapes_after_a_drive_letter() {
    // Each string is well delimited with valid escapes; the `None` forces the repair path.
    for (input, want) in [
        (r#"{"p": "C:\/x", "b": None}"#, r#"{"p":"C:/x","b":null}"#),
        (r#"{"A:\/": None}"#, r#"{"A:/":null}"#),
        (r#"{"p": "A:\u0041", "b": None}"#, r#"{"p":"A:A","b":null}"#),
    ] {
        assert_eq!(repaired_value(input).as_deref(), Some(want), "{input:?}");
    }
}

/// Found here (fixed in 9c60118): a `#` comment after a string with no comma was swallowed
/// into the string.
#[test]
fn regression_hash_comment_after_missing_comma() {
    for (input, want) in [
        ("{\"a\": \"x\"\n# c\n\"b\": 1}", r#"{"a":"x","b":1}"#),
        ("{'a': 'x'\n# c\n'b': 1}", r#"{"a":"x","b":1}"#),
        ("[\"x\"\n# c\n\"y\"]", r#"["x","y"]"#),
    ] {
        assert_eq!(repaired_value(input).as_deref(), Some(want), "{input:?}");
    }
}

/// Found here (fixed in 9c60118): prose, then a fence around an array of literals with a
/// missing comma, was "no JSON found".
#[test]
fn regression_fenced_literals_with_missing_comma_after_prose() {
    for (input, want) in [
        ("Here:\n```json\n[null null]\n```", "[null,null]"),
        (
            "Here is the JSON:\n```\n[true\nfalse]\n```\nAnything else?",
            "[true,false]",
        ),
    ] {
        assert_eq!(repaired_value(input).as_deref(), Some(want), "{input:?}");
    }
}

/// Found by the fuzz target: wrapping several top-level values in an array adds a level the
/// depth limit does not count, so the text is deeper than serde_json reads (128).
#[test]

fn regression_multiple_values_wrapper_stays_within_depth() {
    let input = format!("[] {}", "[".repeat(127));
    // Two values (the second completed), wrapped in an array: 129 levels.
    match repair(&input) {
        Ok(r) => assert!(
            serde_json::from_str::<Value>(&r.text).is_ok(),
            "Ok but serde_json cannot read it back: {}",
            r.text
        ),
        Err(e) => assert_eq!(e.kind(), &ErrorKind::TooDeep, "{e}"),
    }
}

/// Found by the fuzz target: with serde_json's `arbitrary_precision` (which this crate
/// enables), an object whose only key is `$serde_json::private::Number` is read back as a
/// number, or not at all; the repaired text is RFC 8259 JSON that `Repaired::value` cannot
/// return faithfully.
#[test]
#[ignore = "engine bug: the arbitrary_precision magic key breaks `value()`"]
fn known_bug_arbitrary_precision_magic_key() {
    for input in [
        r#"{"$serde_json::private::Number": "x", "b": None}"#,
        r#"{"$serde_json::private::Number": "1"}"#,
    ] {
        let r = repair(input).expect("an object with a string member repairs");
        let v = r.value();
        assert!(
            matches!(v, Ok(Value::Object(_))),
            "{input:?} -> {:?} reads back as {v:?}",
            r.text
        );
    }
}
