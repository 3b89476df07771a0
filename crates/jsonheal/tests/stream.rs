//! Streaming repair: every snapshot, at every prefix and under any chunking, is consistent with
//! the final value, and `finish` equals the one-shot `repair`.
#![allow(clippy::unwrap_used)]

use jsonheal::stream::{Event, Op, OpRef, Repairer, Shown};
use jsonheal::{repair, repair_with, DuplicateKeys, NonFinite, Options};
use proptest::prelude::*;
use serde_json::{json, Value};

mod common;
use common::{consistency, feed};

// ----- documents -------------------------------------------------------------------------

/// Valid JSON: the stream must fill these in completely.
const VALID: &[(&str, &str)] = &[
    (
        "tool call arguments with code inside strings",
        r#"{"path": "src/main.rs", "content": "fn main() {\n    let v = vec![1, 2];\n    println!(\"{:?} {}\", v, \"}]\");\n    // done: {\"a\": [1]}\n}\n", "line": 12, "overwrite": true, "mode": null, "tags": ["rust", "cli"], "ratio": -0.25e-3}"#,
    ),
    (
        "nested structured output",
        r#"{
  "title": "Quarterly report",
  "items": [
    {"id": 1, "name": "Ada", "score": 98.5, "tags": [], "address": {"city": "London", "zip": null}},
    {"id": 2, "name": "Grace \"Amazing\" Hopper", "score": 1e2, "tags": ["navy", "cobol"], "address": {}},
    [[1, 2, [3, [4]]], {"deep": {"deeper": {"deepest": [false]}}}]
  ],
  "total": 123456789012345678901234567890,
  "a/b~c": "pointer escapes",
  "": "empty key"
}"#,
    ),
    (
        "unicode and escapes",
        r#"["é 😀 ü", "\u00e9\ud83d\ude00\u0000", "tab\t nl\n q\" bs\\ sl\/ \b\f\r", "", [], {}, 0, -0, 1.10, 1E+2]"#,
    ),
    (
        "an array of scalars at the root",
        r#"[true, false, null, 1, "x"]"#,
    ),
];

/// LLM-style text the one-shot engine repairs; the stream should fill these in completely too.
const SMOOTH_LLM: &[(&str, &str)] = &[
    (
        "fence and prose around the value",
        "Sure! Here is the JSON you asked for:\n```json\n{\"name\": \"Ada\", \"langs\": [\"en\", \"fr\"], \"age\": 36}\n```\nLet me know if you need anything else.",
    ),
    (
        "single quotes, unquoted keys, comments, python literals, trailing commas",
        "{\n  // the user\n  name: 'Ada Lovelace',\n  'role': 'analyst', /* block\n comment */\n  active: True,\n  spouse: None,\n  retired: False,\n  kids: [1, 2, 3,], # hash comment\n  first name: \"Ada\",\n}",
    ),
    (
        "a reasoning block before the answer",
        "<think>The user wants {\"x\": 0}? No, an object with a.</think>\n{\"a\": 1, \"b\": [\"c\"]}",
    ),
    (
        "windows paths keep their backslashes",
        r#"{"path": "C:\Users\me\notes.txt", "ok": true}"#,
    ),
    (
        "single-quoted strings with escaped quotes",
        r#"{'msg': 'it\'s "quoted"', 'n': -12}"#,
    ),
];

/// Input the stream cannot settle alone: it may freeze, but never contradicts the final value.
const UNSURE_LLM: &[(&str, &str)] = &[
    (
        "closers and words after an inner quote",
        r#"{"sh": "if [[ -f "$f" ]]; then echo", "n": 1, "m": [{"a": "x "y" } z"}]}"#,
    ),
    (
        "a line comment holding the string's end",
        "{\"c\": \"say \"hi\" // note\", \"d\": 1, \"e\": \"x\" // real\n}",
    ),
    (
        "wrong closers deep inside",
        r#"{"a": [{"b": {"c": 1]}, {"d": 2}], "e": 3}"#,
    ),
    (
        "a doubled closer deep inside",
        r#"{"e": [{"f": 1}}, {"g": 2}], "h": 4}"#,
    ),
    ("inner quotes", r#"{"say": "He said "hi" to me", "n": 1}"#),
    (
        "an apostrophe in single quotes",
        r#"{"msg": 'it's ok', "n": 2}"#,
    ),
    ("concatenation", r#"{"a": "x" + "y", "b": 2}"#),
    (
        "a typographic closing quote",
        "{\"a\": \"x”, \"b\": \"y”, 'q': \"“yes”, then\"}",
    ),
    (
        "JSON inside a string, its quotes unescaped",
        r#"{"args": "{"city": "Boston, MA", "unit": "f"}", "css": "a[href="x"] { c: d; }", "n": 1}"#,
    ),
    (
        "JSON inside a string",
        r#"{"content": "{"key": "value"}", "path": "a.json", "x": {"y": "z"}}"#,
    ),
    (
        "a call with several arguments",
        r#"{"f": max(a, b), "n": 1}"#,
    ),
    (
        "a key without its colon",
        r#"{"name" "Ada", "age" 36, "tags" ["x"]}"#,
    ),
    (
        "dotted and @ keys",
        r#"{user.name: "ada", @id: "p1", dest/path: "b"}"#,
    ),
    ("an ellipsis after a string", r#"{"a": "x", ... "z": 1}"#),
    ("a key cut by the end", r#"{"a": "x", user.na"#),
    (
        "a phrase after a number",
        r#"{"a": 3 apples, "b": True story, "t": 12:30}"#,
    ),
    (
        "an escaped quote after a drive letter",
        r#"[{'a': 'A:\''}, 'C:\x\y']"#,
    ),
    ("ellipsis", "[1, 2, ...]"),
    ("missing comma", "{\"a\": 1\n\"b\": 2}"),
    ("missing inner closer", r#"[{"a": 1, {"b": 2}]"#),
    ("bare word values", "{cmd: read, file: main.go, n: 3}"),
    ("truncated string", r#"{"a": [1, 2], "b": "hel"#),
    ("truncated literal", r#"{"a": [1, 2, tr"#),
    ("truncated number", r#"{"a": [1, 2], "n": 3."#),
    ("truncated key", r#"{"a": {"b": 1}, "pat"#),
    (
        "nan and infinity",
        "[NaN, Infinity, -Infinity, undefined, 1]",
    ),
    ("missing value", r#"{"a": , "b": 2}"#),
    ("redundant closer", r#"{"a": 1}}"#),
    ("wrong closer", r#"{"a": [1, 2}"#),
    ("escaped json", r#"{\"a\": \"b\"}"#),
    ("early closer", r#"{"key": "value"}, "key2": "value2"}"#),
    ("wrong closer, more members", r#"{"a": [1, 2}, "b": 3}"#),
    ("doubled closer in an array", r#"[{"k": "v"}},{"k": "w"}]"#),
    (
        "comment right after a quote",
        "[\"a\"/* foo */, \"b\"// c\n]",
    ),
    ("comment before a colon", r#"{"a": "x", "b" /* c */: 1}"#),
    ("colon missing before a number", r#"{"a"2, "b"3}"#),
    ("a fraction", r#"{"key": 1/3, "n": 2}"#),
    (
        "forgotten quote before the closers",
        "{\"key\": [\"va]lue]}",
    ),
    ("forgotten quote, nested", "[{\"a\": \"x} y}]\n"),
    (
        "one-line fence",
        "Here: ```json {\"a\": [1, 2], \"b\": \"x\"}```",
    ),
    (
        "unicode spaces",
        "{\"a\":\u{3000}\"foo\",\u{202f}\"b\": [1,\u{2003}2]}",
    ),
    (
        "a quote before the first `}` at the start",
        "{...\"}msg\": 'it is', \"n\": -1.5e3{, \"list\": ['p'], \"x\": None}",
    ),
    (
        "escaped layout at the first bracket, in prose",
        "Here i\"tab{\\t\"t is:\n{\"a\": \"one\", \"b\": [\"two\"]}\nDone.",
    ),
    (
        "escaped layout at the start",
        "{\\n  \"a\": [1, 2],\\n  \"b\": \"x\"\\n}",
    ),
    (
        "escaped quotes at the start",
        "{\\\"a\\\": [1, 2], \\\"b\\\": \\\"x\\\"}",
    ),
    (
        "keys without colons",
        "{\"name\": \"Ann\", age 31, \"city\": \"Rome\", \"unit\" celsius, n 2}",
    ),
    (
        "code ending in `; }` before the quote",
        "{\"code\": \"f() { return \"ok\"; }\", \"file\": \"a.js\"}",
    ),
    (
        "closers then a quote",
        "{\"msg\": \"Type \"}\" to close\", \"n\": 1}",
    ),
    (
        "inner quote before a comma in an array",
        "[\"She said \"no\", then left\", \"next\", \"green\" blue]",
    ),
    (
        "an array left open before the next key",
        "{\"tags\": [\"a\", \"b\", \"count\": 2, \"m\": [[1, \"x\", \"k\": [\"y\"]}",
    ),
    (
        "a freeze inside a held-back element",
        "{\"b\": [\"two\", \"+\u{201c}q\u{201d}]three\"], \"c\": 1}",
    ),
    (
        "a fenced document that lost its opener",
        "Done:\n```json\n\"a\": [1, {\"b\": 2}], \"c\": {\"d\": 3}}\n```",
    ),
    (
        "json inside a comment before the value",
        "// {\"old\": [1]}\n/* {\"older\": 0} */ {\"new\": [2, {\"x\": \"y\"}]}",
    ),
];

fn all_docs() -> impl Iterator<Item = (&'static str, &'static str)> {
    VALID.iter().chain(SMOOTH_LLM).chain(UNSURE_LLM).copied()
}

// ----- checkers --------------------------------------------------------------------------

/// Feed `text` in the given pieces (byte slices, so UTF-8 characters may split) and check
/// after each one: the snapshot is consistent with `fin` and with the previous snapshot, and
/// the events drained so far rebuild it exactly.
fn check_chunks(name: &str, text: &str, cuts: &[usize], fin: Option<&Value>) -> Repairer {
    check_chunks_with(Options::default(), name, text, cuts, fin)
}

fn check_chunks_with(
    options: Options,
    name: &str,
    text: &str,
    cuts: &[usize],
    fin: Option<&Value>,
) -> Repairer {
    let mut r = Repairer::with_options(options);
    feed(&mut r, name, text, cuts, fin).unwrap_or_else(|m| panic!("{m}"));
    r
}

fn final_value(text: &str) -> Option<Value> {
    repair(text).ok().map(|r| r.value().unwrap())
}

fn every_byte(text: &str) -> Vec<usize> {
    (1..text.len()).collect()
}

// ----- tests -----------------------------------------------------------------------------

#[test]
fn finish_equals_one_shot_repair() {
    for (name, text) in all_docs() {
        for cuts in [
            vec![],
            every_byte(text),
            (7..text.len()).step_by(7).collect(),
        ] {
            let r = check_chunks(name, text, &cuts, None);
            assert_eq!(r.finish(), repair(text), "{name}");
        }
    }
}

#[test]
fn finish_uses_the_options() {
    let text = "[NaN, 1]";
    let options = Options {
        non_finite: NonFinite::String,
        ..Options::default()
    };
    let mut r = Repairer::with_options(options.clone());
    r.push(text);
    assert_eq!(r.finish(), repair_with(text, &options));

    let mut strict = Repairer::with_options(Options::strict());
    strict.push("{'a': 1}");
    assert_eq!(
        strict.snapshot(),
        None,
        "strict mode promises nothing partial"
    );
    assert!(strict.finish().is_err());
}

#[test]
fn valid_documents_every_prefix_is_consistent_and_complete() {
    for (name, text) in VALID {
        let fin = final_value(text).unwrap_or_else(|| panic!("{name}: valid JSON must repair"));
        let r = check_chunks(name, text, &every_byte(text), Some(&fin));
        assert!(!r.is_frozen(), "{name}: froze on valid JSON");
        assert_eq!(
            r.snapshot(),
            Some(fin),
            "{name}: the last snapshot is the value"
        );
    }
}

/// Needs the real repair engine (the stub accepts only valid JSON).
#[test]
fn llm_documents_every_prefix_is_consistent_and_complete() {
    for (name, text) in SMOOTH_LLM {
        let fin = final_value(text).unwrap_or_else(|| panic!("{name}: must repair"));
        let r = check_chunks(name, text, &every_byte(text), Some(&fin));
        assert!(!r.is_frozen(), "{name}: froze");
        assert_eq!(
            r.snapshot(),
            Some(fin),
            "{name}: the last snapshot is the value"
        );
    }
}

/// Needs the real repair engine for most documents; those it cannot repair are skipped.
#[test]
fn unsure_documents_every_prefix_is_consistent() {
    for (name, text) in UNSURE_LLM {
        let fin = final_value(text);
        check_chunks(name, text, &every_byte(text), fin.as_ref());
    }
}

/// The snapshot of a prefix never contradicts what the one-shot engine makes of that prefix
/// alone (a truncated document).
#[test]
fn snapshots_agree_with_repair_of_the_prefix() {
    for (name, text) in VALID.iter().chain(SMOOTH_LLM) {
        let mut r = Repairer::new();
        for (i, c) in text.char_indices() {
            r.push(&text[i..i + c.len_utf8()]);
            let prefix = &text[..i + c.len_utf8()];
            if let (Some(snap), Some(fin)) = (r.snapshot(), final_value(prefix)) {
                if let Err(m) = consistency(&snap, &fin) {
                    panic!("{name}: prefix {prefix:?}: {m}");
                }
            }
        }
    }
}

/// Keys that look alike (same length, same first and last bytes) are told apart, and a
/// duplicate freezes the stream however wide the object is.
#[test]
fn lookalike_keys_are_not_duplicates() {
    let wide: String = (0..40).map(|i| format!("\"k{i:02}x\": {i}, ")).collect();
    let cases: &[(String, bool)] = &[
        (r#"{"axb": 1, "ayb": 2, "azb": 3}"#.to_owned(), false),
        (r#"{"axb": 1, "ayb": 2, "axb": 3}"#.to_owned(), true),
        (r#"{"a": 1, "b": 2, "": 3, "": 4}"#.to_owned(), true),
        (format!("{{{wide}\"end\": 0}}"), false),
        (format!("{{{wide}\"k17x\": 0}}"), true),
    ];
    for (text, duplicate) in cases {
        let mut r = Repairer::new();
        r.push(text);
        assert_eq!(r.is_frozen(), *duplicate, "{text}");
        if !duplicate {
            assert_eq!(r.snapshot(), repair(text).unwrap().value().ok(), "{text}");
        }
    }
}

/// A later duplicate key overrides a value the snapshot already showed (when the policy keeps
/// the last): the stream freezes at the duplicate, and only `DuplicateKeys::First` makes the
/// earlier snapshots final.
#[test]
fn duplicate_keys_freeze_and_agree_with_keep_first() {
    let text = r#"{"a": 1, "b": [2], "a": 3, "c": 4}"#;
    let mut r = Repairer::new();
    r.push(text);
    assert!(r.is_frozen());
    assert_eq!(r.snapshot(), Some(json!({"a": 1, "b": [2]})));
    assert_eq!(r.finish(), repair(text));

    let first = Options {
        duplicate_keys: DuplicateKeys::First,
        ..Options::default()
    };
    // Needs the real engine: the stub ignores the policy.
    let fin = repair_with(text, &first).unwrap().value().unwrap();
    assert_eq!(fin, json!({"a": 1, "b": [2], "c": 4}));
    let r = check_chunks_with(
        first.clone(),
        "duplicate keys",
        text,
        &every_byte(text),
        Some(&fin),
    );
    assert_eq!(r.finish(), repair_with(text, &first));
}

/// A short string may be a key: of the object around an array that lost its `]`, or of an
/// object that lost its `{` (in an array, or as a member's value). A member's value may
/// also be the first element of an array that lost its `[`. So a short string appears once
/// what follows its quote rules that out, or once it is too long (or too many lines) for a
/// key; a long one appears as it arrives.
#[test]
fn short_strings_wait_for_their_quote() {
    let long = "x".repeat(80);
    let cases = [
        (r#"{"tags": ["ab"#.to_owned(), json!({"tags": []})),
        (r#"{"tags": ["ab""#.to_owned(), json!({"tags": []})),
        // An ellipsis and a colon may still follow the comma (`["ab", ...: 1`: a key to
        // the engine).
        (r#"{"tags": ["ab","#.to_owned(), json!({"tags": []})),
        (r#"{"tags": ["ab", ..."#.to_owned(), json!({"tags": []})),
        (r#"{"tags": ["ab", "#.to_owned(), json!({"tags": []})),
        (r#"{"tags": ["ab", ""#.to_owned(), json!({"tags": ["ab"]})),
        (
            r#"{"tags": ["ab", ... 1"#.to_owned(),
            json!({"tags": ["ab"]}),
        ),
        (r#"{"tags": ["ab"]"#.to_owned(), json!({"tags": ["ab"]})),
        (r#"{"tags": ["ab" :"#.to_owned(), json!({"tags": []})),
        (format!(r#"{{"tags": ["{long}"#), json!({"tags": [long]})),
        ("{\"tags\": [\"a\nb".to_owned(), json!({"tags": ["a\nb"]})),
        (r#"["ab"#.to_owned(), json!([])),
        (r#"["ab", 1"#.to_owned(), json!(["ab"])),
        (r#"{"a": "ab"#.to_owned(), json!({})),
        (r#"{"a": "ab", "#.to_owned(), json!({})),
        (r#"{"a": "ab", "b""#.to_owned(), json!({})),
        (r#"{"a": "ab", "b":"#.to_owned(), json!({"a": "ab"})),
        (r#"{"a": "ab"}"#.to_owned(), json!({"a": "ab"})),
        // A key of an object that lost its `{`, once a value follows the colon.
        (r#"{"a": "ab" :"#.to_owned(), json!({})),
        (r#"{"a": "ab" : ["#.to_owned(), json!({"a": {"ab": []}})),
        (r#"{"a": "ab", "c"]"#.to_owned(), json!({})),
        (format!(r#"{{"a": "{long}"#), json!({"a": long})),
        // Numbers after a comma in an object wait for the next key too.
        (r#"{"a": 1, "#.to_owned(), json!({})),
        (r#"{"a": 1, 2"#.to_owned(), json!({})),
        (r#"{"a": 1, "b": 2"#.to_owned(), json!({"a": 1})),
    ];
    for (text, want) in cases {
        let mut r = Repairer::new();
        r.push(&text);
        assert_eq!(r.snapshot(), Some(want), "after {text:?}");
    }
    let fixed = repair(r#"{"tags": ["a", "count": 2}"#).unwrap();
    assert_eq!(fixed.value().unwrap(), json!({"tags": ["a"], "count": 2}));
    let fixed = repair(r#"["a", "b": 2}]"#).unwrap();
    assert_eq!(fixed.value().unwrap(), json!(["a", {"b": 2}]));
    let fixed = repair(r#"{"a": "ab", "c"]}"#).unwrap();
    assert_eq!(fixed.value().unwrap(), json!({"a": ["ab", "c"]}));
    let fixed = repair(r#"{"a": "ab": 1}"#).unwrap();
    assert_eq!(fixed.value().unwrap(), json!({"a": {"ab": 1}}));
}

/// A member's string value longer than a key can be: it shows as it arrives.
const LONG_SRC: &str =
    r#"{"path": "src/a_long_folder_name/another_long_folder_name/and_then_a_file.rs"#;

#[test]
fn half_typed_tokens_are_withheld() {
    let cases: &[(&str, Option<Value>)] = &[
        ("", None),
        ("Sure, here it is: ", None),
        ("```json\n", None),
        // A `{` opening the text waits for its next byte: `{see attached}` is prose, and the
        // engine says "no JSON found" for it.
        ("{", None),
        ("{\"", Some(json!({}))),
        ("{\n  a:", Some(json!({}))),
        ("{see attached", None),
        // So does a `[`: `[TOOL_CALLS] {…}` is a chat template's control token.
        ("[", None),
        ("[1", Some(json!([]))),
        ("[ ", Some(json!([]))),
        ("[TOOL_CALLS", None),
        ("[TOOL_CALLS] ", None),
        ("[TOOL_CALLS] [{", Some(json!([{}]))),
        ("[TOOL_CALLS]f[ARGS]{\"a\": 1", Some(json!({}))),
        (r#"{"pat"#, Some(json!({}))),
        (r#"{"path""#, Some(json!({}))),
        (r#"{"path": "#, Some(json!({}))),
        // A string appears once its first bytes show it is no Windows path (`C:\x`, where
        // backslashes are separators): at most three bytes later.
        (r#"{"path": ""#, Some(json!({}))),
        (r#"{"path": "C:"#, Some(json!({}))),
        // A short string waits for its quote (see `short_strings_wait_for_their_quote`).
        (r#"{"path": "sr"#, Some(json!({}))),
        (LONG_SRC, Some(json!({"path": &LONG_SRC[10..]}))),
        // `C:\x…` is a Windows path (backslashes kept) only if an escape JSON does not know
        // follows before the quote: until one does, or the quote, the string waits.
        (r#"{"path": "C:\new"#, Some(json!({}))),
        (
            r#"{"path": "C:\new\dir\a_long_folder_name\another_long_folder_name\and_one_more"#,
            Some(
                json!({"path": "C:\\new\\dir\\a_long_folder_name\\another_long_folder_name\\and_one_more"}),
            ),
        ),
        (
            r#"{"path": "C:\new", "b":"#,
            Some(json!({"path": "C:\new"})),
        ),
        // A raw line break waits while only spaces, closers and commas follow it: were the
        // input to end there, the engine would end the string at the line break.
        ("[\"ab\ncd", Some(json!(["ab\ncd"]))),
        ("[\"ab\n", Some(json!(["ab"]))),
        ("[\"ab\n  ]", Some(json!(["ab"]))),
        (
            "{\"a\": \"a line that is longer than any key would ever be, then a comma: x,  ",
            Some(json!({"a": "a line that is longer than any key would ever be, then a comma: x"})),
        ),
        (
            "{\"a\": \"a line that is longer than any key would ever be, then a comma: x, y",
            Some(
                json!({"a": "a line that is longer than any key would ever be, then a comma: x, y"}),
            ),
        ),
        (r#"{"path": "", "b""#, Some(json!({}))),
        (r#"{"path": "", "b":"#, Some(json!({"path": ""}))),
        (
            r#"{"path": "src/a_long_folder_name/another_long_folder_name/yet_another_folder/x/\"#,
            Some(
                json!({"path": "src/a_long_folder_name/another_long_folder_name/yet_another_folder/x/"}),
            ),
        ),
        (
            r#"{"path": "src/a_long_folder_name/another_long_folder_name/yet_another_folder/x\u00"#,
            Some(
                json!({"path": "src/a_long_folder_name/another_long_folder_name/yet_another_folder/x"}),
            ),
        ),
        (
            r#"{"path": "src/a_long_folder_name/another_long_folder_name/yet_another_folder/x\ud83d\u"#,
            Some(
                json!({"path": "src/a_long_folder_name/another_long_folder_name/yet_another_folder/x"}),
            ),
        ),
        (r#"{"ok": tru"#, Some(json!({}))),
        (r#"{"ok": true"#, Some(json!({}))),
        (r#"{"ok": true "#, Some(json!({}))),
        (r#"{"ok": true,"#, Some(json!({}))),
        (r#"{"ok": true, "b":"#, Some(json!({"ok": true}))),
        (r#"{"n": 12"#, Some(json!({}))),
        (r#"{"n": 12}"#, Some(json!({"n": 12}))),
        (r#"[1, 2"#, Some(json!([1]))),
        (r#"[1, 2]"#, Some(json!([1, 2]))),
        (r#"[1, [2, {"#, Some(json!([1, [2, {}]]))),
        ("{ok: Tru", Some(json!({}))),
        ("{ok: True", Some(json!({}))),
        ("{ok: True}", Some(json!({"ok": true}))),
        // Not yet known to be an object (no `:` yet) at the text's start.
        ("{first na", None),
        ("{first name: 'Ad", Some(json!({}))),
        ("{first name: 'Ada'}", Some(json!({"first name": "Ada"}))),
        ("{'a': 1 /", Some(json!({}))),
        ("{'a': 1 /* x */ }", Some(json!({"a": 1}))),
        ("<think>{\"x\": 0}", None),
        // A template's placeholder and a usage line's option are prose.
        ("{{user_name}}", None),
        ("{{user_na", None),
        ("Usage: cmd [--lines N]", None),
        ("The result is [-1, ", Some(json!([-1]))),
        ("<thi", None),
        ("<think>{\"x\": 0}</think> [\"", Some(json!([]))),
    ];
    for (text, want) in cases {
        let mut r = Repairer::new();
        r.push(text);
        assert_eq!(&r.snapshot(), want, "after {text:?}");
        // The same, one byte at a time.
        let mut r = Repairer::new();
        for b in text.as_bytes() {
            r.push_bytes(std::slice::from_ref(b));
        }
        assert_eq!(&r.snapshot(), want, "after {text:?}, byte by byte");
    }
}

/// A bare key and its colon first: the engine reads an object that lost its `{` when no `{`
/// comes and the text ends with `}` (`name: "Ada", tags: ["x"]}`), so a `[` after more
/// members opens nothing until a `{` anywhere rules that out.
#[test]
fn bare_key_start_waits_for_a_brace() {
    let cases: &[(&str, Option<Value>, &str)] = &[
        (r#"name: "Ada", tags: ["x", "y"], "#, None, "n: 1}"),
        (r#"name: "Ada", tags: ["x", "y"], "#, None, "n: 1"),
        ("Note: see below. Items: [-1, 2, ", None, "3]"),
        (
            r#"Note: see below. Items: [1, 2, {"#,
            Some(json!([1, 2, {}])),
            "}]",
        ),
        (
            r#"name: "Ada", tags: ["x", "y"], see {"#,
            Some(json!(["x", "y"])),
            "x}",
        ),
        // Right after the colon: the answer, streamed.
        ("Result: [-1, 2, ", Some(json!([-1, 2])), "3]"),
        ("Done. Result: [[1], ", Some(json!([[1]])), "[2]]"),
        ("Result: {\"a\": [1, ", Some(json!({"a": [1]})), "2]}"),
        ("See http://x.io, then: [1, ", Some(json!([1])), "2]"),
        // A fenced value is the answer, whatever follows the fence (found by `stream_llm`).
        (
            "Done. Result: ```json\n[\n  None, ",
            Some(json!([null])),
            "]\n```\nLet me know.",
        ),
        (
            "name: \"Ada\", tags: \n```\n[\"x\", \"",
            Some(json!(["x"])),
            "y\"]\n```\n}",
        ),
    ];
    for (text, want, rest) in cases {
        let whole = format!("{text}{rest}");
        let fin = final_value(&whole);
        check_chunks(text, &whole, &every_byte(&whole), fin.as_ref());
        let mut r = Repairer::new();
        r.push(text);
        assert_eq!(&r.snapshot(), want, "after {text:?}");
        r.push(rest);
        assert_eq!(
            r.finish().ok().map(|f| f.value().unwrap()),
            fin,
            "{whole:?}"
        );
    }
}

/// A text that is one call (`callback({…});`, `NumberLong(5)`) is its argument to the
/// engine when it ends with `)`: the stream opens that argument or nothing.
#[test]
fn a_call_around_the_text_is_its_argument() {
    let cases: &[(&str, Option<Value>)] = &[
        (r#"callback({"a": [1, 2]});"#, Some(json!({"a": [1, 2]}))),
        ("cb({x: 1, y: [2, 3]})", Some(json!({"x": 1, "y": [2, 3]}))),
        ("cb(5, [1, 2])", None),
        (r#"run(null, {"a": 1})"#, None),
        ("cb({\u{11}s: ['x', 2]}, [3])", None),
        (r#"print(hello) {"a": [1]}"#, Some(json!({"a": [1]}))),
    ];
    for (text, want) in cases {
        let fin = final_value(text);
        check_chunks(text, text, &every_byte(text), fin.as_ref());
        let mut r = Repairer::new();
        r.push(text);
        assert_eq!(&r.snapshot(), want, "{text:?}");
    }
}

/// A string that never closes ends before the layout that precedes the text's final
/// closers (`["abc ]` is `["abc"]`), so trailing layout waits for what follows it. (The
/// strings are longer than a key could be, so they show as they grow.)
#[test]
fn trailing_layout_waits_for_what_follows() {
    let long = "a string longer than any key the stream holds back, seventy bytes or so";
    let cases: &[(String, Value)] = &[
        (format!("[\"{long} ]"), json!([long])),
        (format!("{{\"a\": [\"{long} \t]}}"), json!({"a": [long]})),
        (format!("[\"{long} x \t ]"), json!([format!("{long} x")])),
        (
            format!("[\"{long} x \r\n]"),
            json!([format!("{long} x \r")]),
        ),
        (format!("[\"{long} x y\"]"), json!([format!("{long} x y")])),
        (
            format!("{{\"content\": \"{long}\\n    let x = 1;\\n}}\\n   \"}}"),
            json!({"content": format!("{long}\n    let x = 1;\n}}\n   ")}),
        ),
    ];
    for (text, want) in cases {
        assert_eq!(final_value(text).as_ref(), Some(want), "{text:?}");
        check_chunks(text, text, &every_byte(text), Some(want));
    }
}

/// Closers and a comma at a string's end may come before the next key of an object around:
/// the engine then ends the string before them (`"y], "b": 1`), so the stream holds them
/// back until what follows shows they are content.
#[test]
fn trailing_closers_and_commas_wait_for_what_follows() {
    let long = "a string longer than any key the stream holds back, seventy bytes or so";
    let cases: &[(String, Value)] = &[
        (
            format!("{{\"a\": [\"x\", \"{long}], \"b\": 1}}"),
            json!({"a": ["x", long], "b": 1}),
        ),
        (
            format!("{{\"a\": {{\"b\": \"{long}}}, \"c\": 1}}"),
            json!({"a": {"b": long}, "c": 1}),
        ),
        (
            format!("{{\"a\": [{{\"b\": \"{long}}} ] , \"c\": 1}}"),
            json!({"a": [{"b": long}], "c": 1}),
        ),
        (format!("[\"{long}], x\"]"), json!([format!("{long}], x")])),
        // A comma and a line break before the next key: the value lost its quote there.
        (
            format!("{{\"a\": \"{long},\n  \"b\": 1}}"),
            json!({"a": long, "b": 1}),
        ),
        (
            format!("{{\"a\": \"{long}\nmore,\r\n\t\"b\": 1}}"),
            json!({"a": format!("{long}\nmore"), "b": 1}),
        ),
        // An element that lost its quote at its line's end.
        (format!("[\n  \"{long},\n  \"b\"\n]"), json!([long, "b"])),
        (format!("[\"{long}\n\"b\",\"c\"]"), json!([long, "b", "c"])),
        // A colon after a long element does not make it a key.
        (format!("[\"{long}\" // c\n: 1]"), json!([long, 1])),
    ];
    for (text, want) in cases {
        assert_eq!(final_value(text).as_ref(), Some(want), "{text:?}");
        check_chunks(text, text, &every_byte(text), Some(want));
    }
}

#[test]
fn uncertain_input_freezes_instead_of_guessing() {
    let cases: &[(&str, Option<Value>)] = &[
        // The space before the quote is withheld too: had the quote been a missing closing
        // one (`{"a": "x, "b": 1}`), the engine would trim it.
        (r#"{"say": "He said, "hi" to me"}"#, Some(json!({}))),
        (r#"["He said "hi" to me"]"#, Some(json!([]))),
        (r#"{"a": "x" + y}"#, Some(json!({}))),
        (r#"{"a": 1, "a": 2}"#, Some(json!({"a": 1}))),
        (r#"{cmd: read(x)}"#, Some(json!({}))),
        (r#"{"a": 0x1F, "b": 1}"#, Some(json!({}))),
        (r#"{"a": true#x}"#, Some(json!({}))),
        ("{\"a\": \"x\"// adjacent comment\n}", Some(json!({}))),
        ("{\"a\": \"x\" # a hash after a string\n}", Some(json!({}))),
        ("```json\n{\"a\": 1\n```", Some(json!({}))),
        // A wrong closer after a short string: the engine drops it, and a colon after it
        // makes the string a key (`{"a": {"b": 1}}`, `[{"ab": "am"}]`).
        (r#"{"a": "b"]: 1}"#, Some(json!({}))),
        (r#"["ab"}+:am]"#, Some(json!([]))),
        (r#"{"a": ["b"}: 1]}"#, Some(json!({"a": []}))),
        // A comma, then a wrong closer, which the engine drops: the colon after it makes
        // the string a key (`{"name": {"y": 1}}`; found by fuzzing).
        (r#"{"name": "y",]: 1}"#, Some(json!({}))),
        // A comment after a short string, then a colon: the first key of an object that
        // lost its `{` (`[{"a": 1}]`); the `]` that should be its `}` freezes the stream.
        ("[\"a\" // c\n: 1]", Some(json!([{}]))),
    ];
    for (text, want) in cases {
        let mut r = Repairer::new();
        r.push(text);
        assert!(r.is_frozen(), "{text:?} should freeze");
        assert_eq!(&r.snapshot(), want, "{text:?}");
        let revision = r.revision();
        r.push(r#", "more": [1, 2, 3]}"#);
        assert_eq!(
            r.revision(),
            revision,
            "{text:?}: a frozen stream does not change"
        );
    }
}

#[test]
fn events_name_paths_and_merge_appends() {
    // Longer than a key can be, so it shows as it arrives.
    let name = "a".repeat(70);
    let mut r = Repairer::new();
    r.push(&format!(r#"{{"items": [{{"name": "{name}"#));
    r.push("b");
    r.push("c");
    assert_eq!(
        r.events().map(|e| e.to_event()).collect::<Vec<_>>(),
        vec![
            Event {
                path: "".into(),
                op: Op::Set(json!({}))
            },
            Event {
                path: "/items".into(),
                op: Op::Set(json!([]))
            },
            Event {
                path: "/items/0".into(),
                op: Op::Set(json!({}))
            },
            // A string's growth before the next drain is part of its `Set`.
            Event {
                path: "/items/0/name".into(),
                op: Op::Set(json!(format!("{name}bc")))
            },
        ]
    );
    r.push(r#"d", "count": 12"#);
    assert_eq!(
        r.events().map(|e| e.to_event()).collect::<Vec<_>>(),
        vec![Event {
            path: "/items/0/name".into(),
            op: Op::Append("d".into())
        }]
    );
    r.push("}, 7]}");
    assert_eq!(
        r.events().map(|e| e.to_event()).collect::<Vec<_>>(),
        vec![
            Event {
                path: "/items/0/count".into(),
                op: Op::Set(json!(12))
            },
            Event {
                path: "/items/1".into(),
                op: Op::Set(json!(7))
            },
        ]
    );
    assert_eq!(r.events().len(), 0);
}

#[test]
fn a_container_that_arrives_whole_is_one_event() {
    let mut r = Repairer::new();
    let items = r#"[{"id": 1, "tags": ["a", "b"]}, {"id": 2, "note": "x\"y"}]"#;
    r.push(&format!(r#"{{"items": {items}, "open": [{{"id": 3"#));
    let events: Vec<_> = r.events().collect();
    let paths: Vec<_> = events.iter().map(|e| e.path).collect();
    assert_eq!(paths, ["", "/items", "/open", "/open/0"]);
    // Whole: its text as it came, and the value it parses to.
    assert_eq!(events[1].op, OpRef::Set(Shown::Json(items)));
    assert_eq!(
        events[1].to_event().op,
        Op::Set(serde_json::from_str(items).unwrap())
    );
    // Still open: shown as it grows.
    assert_eq!(events[3].op, OpRef::Set(Shown::Object));
    // Not strict JSON inside: value by value, as ever.
    r.push(r#"}], "more": [{'id': 4}, {"id": 5, "name": "Annabel Lee", "age": 40}]}"#);
    let paths: Vec<_> = r.events().map(|e| e.path.to_owned()).collect();
    assert_eq!(
        paths,
        ["/open/0/id", "/more", "/more/0", "/more/0/id", "/more/1"]
    );
    assert_eq!(
        r.snapshot(),
        Some(json!({
            "items": [{"id": 1, "tags": ["a", "b"]}, {"id": 2, "note": "x\"y"}],
            "open": [{"id": 3}],
            "more": [{"id": 4}, {"id": 5, "name": "Annabel Lee", "age": 40}]
        }))
    );
}

#[test]
fn without_events_records_none_but_snapshots_work() {
    let mut r = Repairer::new().without_events();
    r.push(r#"{"a": [1, "x"], "b": {}}"#);
    assert_eq!(r.events().len(), 0);
    assert_eq!(r.snapshot(), Some(json!({"a": [1, "x"], "b": {}})));
}

#[test]
fn numbers_keep_their_text() {
    let mut r = Repairer::new();
    let text = "[1.10, 1e2, 123456789012345678901234567890, -0, 1E-7]";
    r.push(text);
    let snap = serde_json::to_string(&r.snapshot().unwrap()).unwrap();
    assert!(snap.starts_with("[1.10,"), "{snap}");
    assert!(
        snap.contains(",123456789012345678901234567890,-0,"),
        "{snap}"
    );
    // Equal to a whole-document parse, also in how serde_json spells exponents.
    let whole: Value = serde_json::from_str(text).unwrap();
    assert_eq!(snap, serde_json::to_string(&whole).unwrap());
}

#[test]
fn deep_nesting_freezes_without_overflow() {
    let depth = 100_000;
    let text = "[".repeat(depth) + &"]".repeat(depth);
    let mut r = Repairer::new();
    r.push(&text);
    assert!(r.is_frozen());
    let snap = r.snapshot().unwrap();
    let mut d = 0;
    let mut v = &snap;
    while let Value::Array(a) = v {
        d += 1;
        match a.first() {
            Some(x) => v = x,
            None => break,
        }
    }
    assert_eq!(d, Options::default().max_depth.min(512));
}

#[test]
fn long_stream_in_tiny_chunks_is_linear_enough() {
    // 400 KB in 3-byte pieces must not re-parse: in a debug build a quadratic parser would
    // take minutes here.
    let item = r#"{"id": 12345, "text": "lorem ipsum dolor sit amet \"quoted\" é", "ok": true},"#;
    let text = format!("[{}0]", item.repeat(400_000 / item.len()));
    let mut r = Repairer::new();
    let started = std::time::Instant::now();
    let mut events = 0;
    for chunk in text.as_bytes().chunks(3) {
        r.push_bytes(chunk);
        events += r.events().len();
    }
    assert!(events > 0);
    assert!(
        started.elapsed().as_secs() < 20,
        "took {:?}",
        started.elapsed()
    );
    assert_eq!(r.snapshot(), serde_json::from_str(&text).ok());
}

// ----- property tests --------------------------------------------------------------------

fn cuts_from(sizes: &[usize], len: usize) -> Vec<usize> {
    let mut cuts = Vec::new();
    let mut at = 0;
    for s in sizes.iter().cycle() {
        at += s;
        if at >= len || sizes.is_empty() {
            break;
        }
        cuts.push(at);
    }
    cuts
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 64, ..ProptestConfig::default() })]

    /// Any chunking: consistent snapshots, and `finish` equal to the one-shot repair.
    #[test]
    fn random_chunkings(doc in 0..(VALID.len() + SMOOTH_LLM.len() + UNSURE_LLM.len()),
                        sizes in prop::collection::vec(1usize..40, 1..20)) {
        let (name, text) = all_docs().nth(doc).unwrap();
        let fin = final_value(text);
        let r = check_chunks(name, text, &cuts_from(&sizes, text.len()), fin.as_ref());
        prop_assert_eq!(r.finish(), repair(text));
    }

    /// Generated valid JSON, chunked anywhere: the last snapshot is the value itself.
    #[test]
    fn generated_json_fills_in(value in arb_json(), sizes in prop::collection::vec(1usize..16, 1..8),
                               pretty in any::<bool>()) {
        let text = if pretty {
            serde_json::to_string_pretty(&value).unwrap()
        } else {
            serde_json::to_string(&value).unwrap()
        };
        let fin = final_value(&text).unwrap();
        let r = check_chunks("generated", &text, &cuts_from(&sizes, text.len()), Some(&fin));
        prop_assert!(!r.is_frozen());
        prop_assert_eq!(r.snapshot(), Some(fin));
    }
}

fn arb_json() -> impl Strategy<Value = Value> {
    let leaf = prop_oneof![
        Just(Value::Null),
        any::<bool>().prop_map(Value::Bool),
        any::<i64>().prop_map(|n| json!(n)),
        (-1e6f64..1e6).prop_map(|f| json!(f)),
        "[ -~é😀\"\\\\\n\t/]{0,12}".prop_map(Value::String),
    ];
    let inner = leaf.prop_recursive(4, 48, 6, |inner| {
        prop_oneof![
            prop::collection::vec(inner.clone(), 0..6).prop_map(Value::Array),
            prop::collection::vec(("[a-z /~é]{0,6}", inner), 0..6)
                .prop_map(|m| Value::Object(m.into_iter().collect())),
        ]
    });
    prop_oneof![
        prop::collection::vec(inner.clone(), 0..6).prop_map(Value::Array),
        prop::collection::vec(("[a-z]{0,6}", inner), 0..6)
            .prop_map(|m| Value::Object(m.into_iter().collect())),
    ]
}

/// A node keeps its key's length in 16 bits: a longer key freezes the stream (whatever its
/// value is), the snapshot stops where it was, and `finish` still reads the whole text.
#[test]
fn a_key_longer_than_64_kib_freezes_the_stream() {
    let key = "k".repeat(70_000);
    for value in ["1", "true", "\"x\"", "[2]", "{}"] {
        let text = format!(r#"{{"a": [0], "{key}": {value}, "b": 2}}"#);
        let mut r = Repairer::new();
        r.push(&text);
        assert!(r.is_frozen(), "{value}");
        assert_eq!(r.snapshot(), Some(json!({"a": [0]})), "{value}");
        let fin = r.finish().unwrap().value().unwrap();
        assert_eq!(fin["b"], json!(2), "{value}");
        assert_eq!(fin.as_object().map(|o| o.len()), Some(3), "{value}");
    }
}

/// A text that starts with a quote is a bare string or a document that lost its `{` to the
/// engine; the stream leaves it to `finish`, for `„` (German) as for `“` (found by fuzzing:
/// `„` was not taken for a quote, and a later `{` was shown).
#[test]
fn a_typographic_quote_first_is_left_to_finish() {
    for text in [
        "„abc {\"a\": 1} def\"",
        "“abc {\"a\": 1} def\"",
        "„Köln“ {\"a\": [1]}",
    ] {
        let fin = final_value(text);
        check_chunks(text, text, &every_byte(text), fin.as_ref());
        let mut r = Repairer::new();
        r.push(text);
        assert!(
            r.snapshot().is_none() || r.snapshot() == fin,
            "{text:?}: {:?}",
            r.snapshot()
        );
    }
}

/// A fence that holds one scalar is the engine's answer: the stream shows nothing of the
/// brackets in the prose after it.
#[test]
fn a_fenced_scalar_freezes_the_stream() {
    for text in [
        "```json\n42\n```\nAlso see [1, 2]",
        "```json\nnull\n```\n{\"a\": 1}",
        "```\nTrue\n```\nor [true]",
    ] {
        let fin = final_value(text);
        check_chunks(text, text, &every_byte(text), fin.as_ref());
        let mut r = Repairer::new();
        r.push(text);
        assert_eq!(r.snapshot(), None, "{text:?}");
    }
    // A fenced document with a bare key first still streams.
    let mut r = Repairer::new();
    r.push("```\nname: \"Ada\", tags: [\"x\"");
    assert!(!r.is_frozen());
}

/// A string that never closes, then line breaks, a comma and a closer at the text's end: the
/// engine ends it at the first of those line breaks, so the stream holds them all back,
/// in every chunking (found by fuzzing: `['x…[\n,\n\n\r]`).
#[test]
fn a_comma_between_trailing_line_breaks_is_held_back() {
    for text in [
        "{\"a\": ['x y [\n,\n\n\r\r]",
        "{\"a\": [\"x y [\n,\n\n]",
        "{\"a\": [\"x\n ,\n}",
    ] {
        let fin = final_value(text);
        for size in 1..=8 {
            let cuts: Vec<usize> = (size..text.len()).step_by(size).collect();
            check_chunks(text, text, &cuts, fin.as_ref());
        }
    }
}

/// A document whose quotes are all escaped (`{\"name\": \"Ada\"}`, JSON pasted from a
/// string's content) streams as the engine reads it: unescaped once from its first bracket
/// on, then repaired. An escape the chunk's end cuts waits for its next byte. With a quote
/// before the bracket (the whole text may be a JSON string), the text's end decides, and
/// the stream freezes.
#[test]
fn escaped_documents_stream_unescaped() {
    stream_to_their_final_values(&[
        r#"{\"name\": \"Ada\", \"age\": 36, \"tags\": [\"x\", \"y\"]}"#,
        r#"Here you go: {\"answer\": {\"ok\": true, \"n\": [1, 2.5]}}"#,
        "```json\n{\\\"result\\\": \\\"done\\\"}\n```",
        "{\\n  \\\"a\\\": [1, 2],\\n  \\\"b\\\": \\\"x\\\"\\n}",
        // An escaped backslash inside a value, and an escape of its own: one level only.
        r#"{\"path\": \"C:\\\\Users\", \"q\": \"say \\\"hi\\\"\"}"#,
        r#"{\"code\": \"line1\\nline2\", \"tab\": \"a\tb\"}"#,
        r#"[{\"id\": 1}, {\"id\": 2}]"#,
        // Repairs inside the unescaped document apply as usual.
        r#"{\"a\": 'single', b: None, \"c\": [1, 2,],}"#,
        // Cut off.
        r#"{\"name\": \"Ada\", \"tags\": [\"x\"], \"more\": {\"k"#,
    ]);
    freeze_when_pushed_whole(&[
        r#""{\"a\": 1}""#,
        r#"note: "{\"a\": 1}" and more"#,
        r#""result": "{\"a\": 1}", "ok": true}"#,
    ]);
    // Split right after a backslash: nothing is guessed.
    let mut r = Repairer::new();
    r.push("{\\");
    r.push("\"k\\");
    assert_eq!(r.snapshot(), Some(serde_json::json!({})));
    assert!(!r.is_frozen());
    r.push("\": 1, \\\"m\\\": 2}");
    assert!(!r.is_frozen());
    assert_eq!(r.snapshot(), Some(serde_json::json!({"k": 1, "m": 2})));
}

/// A string value that lost its closing quote before the next member
/// (`"role": "designer, "skills": []`): the quote after the comma (or the line break) opens
/// the next key, so the engine ends the string before the separator, and so does the
/// stream, once the key's colon shows up. After closers, an inner quote or JSON inside the
/// string, the engine may read the quote otherwise: the stream freezes.
#[test]
fn a_string_that_lost_its_closing_quote_before_the_next_key() {
    stream_to_their_final_values(&[
        r#"{"name": "Bob", "role": "designer, "skills": [], "age": 31}"#,
        r#"[{"name": "Alice", "role": "engineer"}, {"name": "Bob", "role": "designer, "skills": ["ux"]}]"#,
        "{\"name\": \"Bob\n  \"age\": 25, \"city\": \"Rome\"}",
        "{\"a\": \"x,\n  \"b\": \"y\"}",
        r#"{"msg": "a long message that has run on for well over sixty-four bytes of text, "level": "info"}"#,
        r#"{"a": "one two ,  "b": 2}"#,
        r#"{"cmd": "ls -la, "cwd": "/tmp"}"#,
    ]);
    freeze_when_pushed_whole(&[
        // JSON inside the string: its quotes are its own.
        r#"{"args": "{"path": "a.rs", "mode": "w"}", "n": 1}"#,
        // Closers before the comma may end the open containers.
        r#"{"a": {"b": "x], "c": 1}}"#,
        // After an inner quote.
        r#"{"a": "say "hi" now, "b": 1}"#,
        // No key after the quote.
        r#"{"a": "x, "y and z", "b": 1}"#,
    ]);
}

/// A key that lost its closing quote to its colon (`{"tool: "bash"}`): the quote that
/// follows belongs to the value, and the engine ends the key at its colon. The stream does
/// the same once the word after that quote shows it. Keys it cannot tell so plainly freeze.
#[test]
fn a_key_that_holds_its_colon() {
    stream_to_their_final_values(&[
        r#"{"tool: "bash", "args": {"cmd: "ls -la", "timeout": 30}}"#,
        r#"[{"name: "Ada"}, {"name: "Bob", "age": 36}]"#,
        r#"{"a: "b c", "d": 1}"#,
        r#"{"x:  "_y"}"#,
        r#"{"the: "best": 1}"#,
        // A container opens after the colon.
        r#"{"a": "x", "skills: ["go"], "m: {"k": 1}, "n": 1}"#,
        // After a string value and a comma: a key its other quote closes.
        r#"{"a": "x", "msg': "Error: bad", "n": 1}"#,
        r#"{'a': 'x', 'msg": 'y'}"#,
        // The key's own quote never comes: the other one closes it.
        "{\"sentiment\": \"negative\", 'scores\": [[0.1, 0.2]],\n \"n\": 1}",
    ]);
    // A string value shows once that key's colon and value are in, with no wait for the
    // key's own quote.
    let mut r = Repairer::new();
    r.push("{\"sentiment\": \"negative\", 'scores\": [");
    assert_eq!(
        r.snapshot(),
        Some(serde_json::json!({"sentiment": "negative"}))
    );
    freeze_when_pushed_whole(&[
        // Compact, a digit after the quote, no space after the colon: the engine decides
        // by rules the stream does not mirror.
        r#"{"x:"y", "z": 1}"#,
        r#"{"n: "5, "z": 1}"#,
        // Not a plain word before the colon.
        r#"{"a\u0041: "b"}"#,
        r#"{"é: "b"}"#,
        // More than spaces between the colon and the quote.
        r#"{"a: b "c"}"#,
    ]);
}

/// A number or literal member, then a comma and anything but elements and a `]` (a key
/// the other straight quote closes, `"id": 1, "action': "Write"`, bare keys that lost
/// their colons): the engine reads what follows as keys, so the number is the member's
/// value, and the stream shows it and reads on.
#[test]
fn a_number_member_then_what_the_engine_reads_as_keys() {
    stream_to_their_final_values(&[
        r#"{"id": 1, "action': "Write tests", "done": true}"#,
        r#"{'n': 1, 'action": "x", 'ok': True}"#,
        r#"{"n": 1, "a': "b": 2}}"#,
        r#"{"n": null, "a': "b", "c'": 2}"#,
        r#"{"n": 1, "a\tb': 2, "c": 3}"#,
        // Bare keys after a number, their colons lost (`age 3`, `tags [1]`).
        "{first name 'Ada', age 3, tags [1], ok True, sub{a 1}}",
    ]);
    // Elements and a `]` after the comma: the value may be an array that lost its `[`.
    freeze_when_pushed_whole(&[r#"{"n": 1, "a", 2]}"#, r#"{"n": true, 'x', null]}"#]);
    let mut r = Repairer::new();
    r.push(r#"{"n": 1, "a", 2"#);
    assert!(!r.is_frozen());
    assert_eq!(r.snapshot(), Some(serde_json::json!({})));
}

/// Wrapper calls as values (MongoDB's shell, JavaScript): `ObjectId("507f…")` is its
/// argument, `NumberLong("42")` the number, a call with several arguments its text, as the
/// engine reads them, each shown once its `)` is in and what follows confirms it. A call
/// whose argument is no plain number or string freezes.
#[test]
fn wrapper_calls_are_their_argument() {
    stream_to_their_final_values(&[
        r#"{"_id": ObjectId("507f1f77bcf86cd799439011"), "n": NumberLong("42"), "m": NumberInt(7)}"#,
        r#"{"at": ISODate( "2024-01-15T10:00:00Z" ), "ts": Timestamp(1, 2), "f": x.y('a b')}"#,
        r#"[ObjectId("x"), Date(2020, "a,b"), 3]"#,
        "{\"a\": [ObjectId(\"x\")], \"b\": {\"c\": NumberDecimal(\"1.5\")}}",
    ]);
    freeze_when_pushed_whole(&[
        r#"{"a": ObjectId("a\"b"), "n": 1}"#,
        r#"{"a": ObjectId({"$oid": "x"}), "n": 1}"#,
        r#"{"a": f(x), "n": 1}"#,
        r#"{"a": f-g(1), "n": 1}"#,
    ]);
    // Cut before its `)`: nothing shown yet.
    let mut r = Repairer::new();
    r.push(r#"{"a": ObjectId("507f"#);
    assert!(!r.is_frozen());
    assert_eq!(r.snapshot(), Some(serde_json::json!({})));
}

/// A short string element, then a colon and a value, in an array with no object around
/// it (`["name": "Alice", …}]`): the first key of an object in the array that lost its
/// `{`, as the engine reads it. With an object around the array, the closers up to the
/// text's end tell whether the array lost its `]` instead: the stream freezes.
#[test]
fn a_key_in_an_array_opens_an_object() {
    stream_to_their_final_values(&[
        r#"["name": "Alice", "role": "eng", "skills": ["rust"]}, {"name": "Bob"}]"#,
        r#"[{"id": 1}, "id": 2, "tags": []}]"#,
        r#"[["a": 1}]]"#,
        "[\n  'k': 'v', \"n\": 2\n}]",
    ]);
    freeze_when_pushed_whole(&[
        r#"{"steps": ["id": 1, "x": 2}, {"id": 2}]}"#,
        r#"{"tags": ["a", "count": 2}"#,
        // No value after the colon: the quote may be content to the engine.
        r#"["a": , 1]"#,
    ]);
}

/// A doubled opener (`{{"a": 1}}`) is dropped, as the engine drops it. A `}` right after
/// the object's own may be the extra one or close the parent (the closers up to the text's
/// end decide): the stream freezes there, unless the object is the root.
#[test]
fn a_doubled_opener_is_dropped() {
    stream_to_their_final_values(&[
        r#"{{"regex": "^[a-z]+$", "n": 1}}"#,
        r#"{"x": [{{"id": 1}, {"id": 2}]}"#,
        "{ {\"a\": {\"b\": [1]}}}",
        r#"[{{"a": 1}, 2]"#,
    ]);
    freeze_when_pushed_whole(&[
        r#"{"a": {{"b": 1}}, "c": 2}"#,
        r#"{"x": {"a": {{"b": 1}}, "c": 2}, "d": 3}"#,
    ]);
}

/// A documented limit (found by fuzzing): a document that lost its `{`, then, as its first
/// bracket, a string holding an escaped document that is no member's value. The engine
/// keeps that JSON string as the answer; the stream had shown the object, and freezes.
#[test]
fn limit_a_string_holding_an_escaped_document_after_a_lost_brace() {
    let text = r#""a": "x", "{\"b\": 1}"}"#;
    assert_eq!(final_value(text), Some(serde_json::json!("{\"b\": 1}")));
    let mut r = Repairer::new();
    for c in text.chars() {
        r.push(c.encode_utf8(&mut [0u8; 4]));
    }
    assert!(r.is_frozen());
    assert_eq!(r.snapshot(), Some(serde_json::json!({})));
}

/// Each text, fed a byte at a time, streams to its final value without freezing, every
/// snapshot consistent on the way.
fn stream_to_their_final_values(streams: &[&str]) {
    for &text in streams {
        let fin = final_value(text).unwrap_or_else(|| panic!("{text:?}: must repair"));
        let r = check_chunks(text, text, &every_byte(text), Some(&fin));
        assert!(!r.is_frozen(), "{text:?}: froze");
        assert_eq!(r.snapshot(), Some(fin), "{text:?}");
    }
}

/// Each text, pushed whole, freezes the stream: what follows leaves it to `finish`.
fn freeze_when_pushed_whole(texts: &[&str]) {
    for &text in texts {
        let mut r = Repairer::new();
        r.push(text);
        assert!(r.is_frozen(), "{text:?} should freeze");
    }
}

/// A member's number, literal or container, or a string at the end of its line, then the
/// next member with its comma lost (or an array's container element, then the next
/// container): the stream inserts the comma as the engine does, once the key and its colon
/// show up, and fills the value in; every prefix stays consistent. A string on the same line
/// as the next key, or something that is no key, still freezes it.
#[test]
fn a_lost_comma_before_the_next_member() {
    let streams = [
        "{\n  \"hp\": 33\n  \"inventory\": [\"lute\", \"rapier\"],\n  \"ok\": true\n}",
        "{\"a\": true\n \"b\": null \"c\": -1.5e3\n}",
        "{\"a\": {\"x\": 1}\n  \"b\": [1, 2]\n  \"c\": {}}",
        "{\"scores\": {\"hate\": 0.003,\n \"self_harm\": 0.0001\n \"sexual\": 0.0007}}",
        "[\n  {\"id\": 1}\n  {\"id\": 2}\n  [3, [4] [5]]]",
        "{\n  \"name\": \"Bob Stone, the long-distance runner of the old town\"\n  \"age\": 25\n}",
        "{\n  \"name\": \"Bob\"\n  \"tags\": [\"a\"]\n  \"city\": \"York\"\n}",
        "{\"name\": \"search\" \"arguments\": {\"q\": \"rust\"} \"n\": 2}",
        // The next member lost its colon too.
        "{\"a\": 1 \"b\" 2, \"c\": \"x\", \"d\" = [1], \"e\"{\"f\": null}}",
        "{\"a\": \"x\"\"b\": 2, \"tags\": [\"p\" \"q\"  \"r\"\n \"s\"]}",
    ];
    stream_to_their_final_values(&streams);
    freeze_when_pushed_whole(&[
        "{\"a\": 1 \"b\"}",
        "[1 \"b\": 2]",
        "[1 - 2]",
        "[1 x]",
        "[1 2 apples]",
        "{\"a\": 1 2}",
        "{\"a\": \"x\" \"b\"}",
        "[\"a\"\"b\"]",
        "[\"a\" {\"b\": 1}]",
        "[1 {\"b\": 1}]",
    ]);
}

/// An array's numbers or literals with the commas between them lost (`[1 2 3]`, a matrix
/// written with spaces): the engine inserts each comma once a number follows the layout,
/// and so does the stream. Every prefix stays consistent and the value fills in; a word or
/// an operator after the layout is the engine's call (`[1 2 apples]` is `[1, "2 apples"]`).
#[test]
fn numbers_parted_by_layout_alone() {
    stream_to_their_final_values(&[
        "[1 2 3]",
        "{\"m\": [[1 0 0]\n [0 1 0]\n [0 0 1]], \"n\": 3}",
        "[1.5 -2 3e4, 4\t5]",
        "[true false null 7]",
        "{\"v\": [10  -20\n 30], \"ok\": true}",
    ]);
    for text in ["[1 2 apples]", "[1 2:30]", "[1 -x]", "[1 - 2]", "[3 * 7]"] {
        let fin = final_value(text).unwrap_or_else(|| panic!("{text:?}: must repair"));
        check_chunks(text, text, &every_byte(text), Some(&fin));
    }
}

/// Python string prefixes (`{u'name': u'Ada'}`, the repr of a Python 2 dict) are dropped
/// and the strings stream as any other, keys and values, as the engine reads them. A
/// prefixed value waits for the end of its line (or 256 bytes): a `"` later on the line
/// may make the engine read the word as a value that lost its opening quote. Where it
/// does, where a colon follows a key's quote, or where the word is no prefix, the stream
/// leaves it to `finish`; so it does with a raw string (`r'\d+'`), whose backslashes are
/// content.
#[test]
fn python_string_prefixes_are_dropped() {
    stream_to_their_final_values(&[
        "{u'name': u'Ada',\n u'tags': [u'x', b'y', B'z'],\n u'n': 1}",
        "{'a': b'raw',\n 'b': f'{x} items',\n 'c': [U'long enough to show as it arrives, one piece after another']\n}",
        "[u'a',\n u'b'\n]",
    ]);
    for text in [
        "{'re': r'\\bword\\b', 'n': 1}",
        "{'a': rb'\\n',\n 'b': 2}",
        "{R'\\d': 1, 'b': 2}",
        "[r'\\t',\n 'x']",
        "{u'name': u'Ada', u'n': 1}",
        "{\"a\": u'x\", \"b\": 1}",
        "{\"a\": u\", \"b\": 1}",
        "{u': 1}",
        "{ux'a': 1}",
        "{\"a\": x'y', \"b\": 2}",
    ] {
        let fin = final_value(text).unwrap_or_else(|| panic!("{text:?}: must repair"));
        check_chunks(text, text, &every_byte(text), Some(&fin));
    }
}

/// A member that lost its colon (`"name" "run"`, or wrote `=`, `=>`, `：`), its value
/// (`"a": ,` is null), or its key's opening quote (`model": 1`) streams as the engine reads
/// it; where a later `]` or `:` may make it something else, the stream leaves it to `finish`.
#[test]
fn lost_colons_values_and_key_quotes() {
    let streams = [
        "{\"name\" \"run\", \"n\": 1}",
        "{\"a\" 1, \"b\" true, \"c\" -2, \"d\" [1], \"e\" {\"f\" null}}",
        "{\"a\" = 1, \"b\" => \"x\", \"c\"：3}",
        // Bare keys with `=` (TOML, HCL) or `=>` (Perl, PHP) for the colon.
        "{\n  host = \"localhost\",\n  port = 8080,\n  tls=true\n}",
        "{a => 1, b=>[2], c = {d = \"e\"}}",
        "{status=\"active\"}",
        "{\"a\": , \"b\": 2, \"c\": }",
        "{\"a\":,\"b\": /* none */ , \"c\": [{\"d\":}]}",
        "{\"x\" }",
        "{model\": \"resnet-50\", \"cfg\": {lr\": 3e-4}, \"steps\" 10}",
        "{first name\" : \"Ada\"}",
        "[{id\": 1, \"ok\": true}, {id\": 2}]",
        // After a string value and its comma too.
        "{\"url\": \"https://x.org/en\", score\": 0.81, \"n\": 1}",
        "{\"name\": \"Bob\", role\": \"designer\", skills\" : [], tool\": {\"p\": \"a\"}}",
        "{\"a\": 1, b\": 2, \"c\": true, d\": null}",
        "{\"model\":: \"resnet-50\", \"n\": : 2}",
        // Holes in arrays, doubled commas between members.
        "{\"a\": [1,, 2, ,3,,], \"b\": [, \"x\",, {\"c\": [,]}]}",
        "{, \"n\": 1,, \"s\": \"x\" ,,, \"t\": true,,\"u\": [1],, \"v\": 2}",
        // Opened by one kind of quote, closed by the other.
        "{'id\": 1, \"type\": \"array', \"items\": {\"a': \"x\"}}",
        "{\"title\": 'Eiffel Tower\", \"tags\": ['a\", 'b\"], \"q\": 'say \"hi\" now', \"r\": {\"s\": 'x\"}, \"z\": 1}",
        "[{\"id\": 't1\"}, 'u\":v']",
    ];
    stream_to_their_final_values(&streams);
    // After a space, a quote is no key's closing quote to the engine: it opens the value
    // of a key that lost its colon (`{"a": ": 1"}`), whose short string then waits.
    let mut r = Repairer::new();
    r.push("{a \": 1}");
    assert!(!r.is_frozen());
    assert_eq!(r.snapshot(), Some(serde_json::json!({})));
    assert_eq!(
        final_value("{a \": 1}"),
        Some(serde_json::json!({"a": ": 1"}))
    );
    freeze_when_pushed_whole(&[
        // Maybe an array that lost its `[`: `{"a": [null, 1, 2]}`.
        "{\"a\" , 1, 2]}",
        "{\"a\": , 1, 2]}",
        "{a\"b\": 1}",
        // A word right after a key's quote may be more of the key: `{"a\"1 \"b": "%2"}`.
        "{\"a\"1 \"b\": %2}",
        // A `"` in a single-quoted key closes it only before a colon.
        "{'a\"}, \"b\": 1}",
        // A key that lost its closing quote ends at its own colon: `{" 2": 1}`.
        "{\" 2: 1, \"\"2b\"}",
    ]);
}

/// A document whose first token is a quoted key and its colon lost its `{`: the engine
/// reads an object from that key on, closed or not, in the text or right after an opening
/// fence, and so does the stream, as soon as the colon shows it. A first string that no
/// colon follows is a bare string (or prose), which the engine decides at the text's end.
#[test]
fn a_document_that_lost_its_opening_brace() {
    let streams = [
        "\"name\": \"Ada\", \"age\": 36}",
        // Cut off: the last value is complete, so the snapshot is final.
        "\"name\": \"Ada\", \"age\": 36, \"tags\": [\"x\"]",
        "  \n\"tool\" : \"run\", \"args\": {\"cmd\": \"ls -la\"}, \"ok\": true}",
        "'city': 'Oslo', 'population': 709000}",
        "“title”: “Dune”, “year”: 1965}",
        "```json\n\"id\": 7, \"tags\": [\"a\", \"b\"]}\n```",
        "<think>a key first</think>\n\"answer\": 42}",
        "\"say \\\"hi\\\"\": \"x\"}",
    ];
    stream_to_their_final_values(&streams);
    freeze_when_pushed_whole(&[
        "\"just a sentence\", he said",
        "\"a\", \"b\"]",
        "\"He said \"hi\" to me\"",
        "\"line\nbreak\": 1}",
    ]);
    // Inside a document: a member's short string value and then a colon make the string
    // the first key of an object that lost its `{`.
    stream_to_their_final_values(&[
        "{\"name\": \"w\", \"arguments\": \"path\": \"README.md\"}}",
        "{\"a\": \"b\": 1, \"c\": [2]}",
        "{\"a\": \"b\" : {\"c\": \"d\": true}}, \"e\": 'f': null}, \"g\": 1}",
        "{\"a\" \"b\": 1}}",
        "{\"a\": \"x\" /* c */ : 1}}",
    ]);
    freeze_when_pushed_whole(&[
        // Longer than a key can be: shown as a value already.
        "{\"a\": \"a string value that is far too long to be read as the key of any object\": 1}",
        "{\"a\": \"two\nlines\": 1}",
        // No value after the colon: the quote is content to the engine (`{"a": "b\":: 1"}`).
        "{\"a\": \"b\":: 1}",
        "{\"a\": \"b\": }",
        // In an array, the closers to the end decide.
        "[\"a\": 1]",
    ]);
    // Undecided until the colon (or what stands in its place) arrives.
    let mut r = Repairer::new();
    r.push("\"name\"  ");
    assert_eq!(r.snapshot(), None);
    assert!(!r.is_frozen());
    r.push(": 1");
    assert_eq!(r.snapshot(), Some(serde_json::json!({})));
}

/// Keys and values in typographic quotes (`“name”`, `‘name’`) stream like straight-quoted
/// ones: a `“` or `”` opens the string, and a `”`, `“` or `"` closes it as the engine reads
/// it, once what follows shows it does; `‘` and `’` likewise, with `"`. Every prefix stays
/// consistent and the value fills in. An apostrophe that a word follows (`‘it’s ok’`), a
/// Windows path in typographic quotes, or a `‘` opening a string closed by `”` is left to
/// `finish`.
#[test]
fn typographic_quotes_stream() {
    let streams = [
        "{“name”: “Alice”, “city”: “Paris”}",
        "{“message”: “We’re closed today – sorry!”, “n”: 2}",
        "{“id”: 5, “tags”: [“x”, \"y\"], “public”: false}",
        "{\"title\": “Inception”, \"year\": 2010, “dir”: “Nolan\"}",
        "[“a long value that is longer than a key can be, so it shows as it arrives”, “b”]",
        "{“user”: {“first”: “Jane”, “last”: “Doe”}, “active”: true}",
        "{‘status’: ‘ok’, ‘code’: 200}",
        "{‘name’: ‘José’, ‘role’: ‘admin’, ‘tags’: [‘a’, ‘b’]}",
        "{‘a’: ‘b’, \"n\": 2, “c”: ‘d’}",
        "[‘x’, ‘y’, {‘k’: ‘v’}]",
        "{‘path’: ‘/var/log\", ‘msg’: “quoted ‘inner’ words”}",
        "{‘message’: ‘a long value that is longer than a key can be, so it shows as it arrives’}",
    ];
    stream_to_their_final_values(&streams);
    // Never inconsistent on the way either.
    for text in [
        "{‘msg’: ‘it’s ok’}",
        "{‘a’: ‘x”, ‘b’: 1}",
        "{‘p’: ‘C:\\dir\\x’}",
    ] {
        let fin = final_value(text).unwrap_or_else(|| panic!("{text:?}: must repair"));
        check_chunks(text, text, &every_byte(text), Some(&fin));
    }
    freeze_when_pushed_whole(&[
        "{‘msg’: ‘it’s ok’}",
        "{‘p’: ‘C:\\dir\\x’}",
        "{“p”: “C:\\dir\\x”}",
    ]);
}

/// An ellipsis where a value or a key should be (`[1, 2, ...]`, `{"a": 1, ...}`,
/// `"rest": …`) is dropped, as the engine drops it, with a member's key; the comma after it
/// leaves no hole. Every prefix stays consistent and the value fills in.
#[test]
fn ellipses_are_dropped() {
    stream_to_their_final_values(&[
        "[1, 2, ...]",
        "[1, ..., 4, \"x\"]",
        "{\"a\": [1, 2, 3, ...], \"b\": {\"c\": 1, ...}, \"d\": ..., \"e\": 2, ...}",
        "{\"items\": [{\"id\": 1}, ...], \"rest\": …, \"n\": [\"a\", …]}",
        "[...]",
        "{\"a\": {...}}",
        "[{\"a\": 1} ... {\"b\": 2}]",
        "{\"list\": [\"a\", \"b\", ...,], \"x\": \"y\"}",
    ]);
    freeze_when_pushed_whole(&["[1, ..5]", "{\"a\": ..}", "[1, ...2]"]);
}

/// A string concatenation (`"hello " + "world"`) is one string to the engine, and to the
/// stream, which grows it part by part; a short one may still turn out to be a key.
#[test]
fn concatenated_strings_grow_as_one() {
    stream_to_their_final_values(&[
        "{\"a\": \"hello \" + \"world\", \"b\": 1}",
        "{\"msg\": \"part one, \" +\n    \"part two, \" +\n    'part three', \"n\": [\"x\" + \"y\", \"z\"]}",
        "{\"k\": \"a\" + \"b\": 1}",
        "[\"a long line of text that is surely no key of anything\" + \" and more\"]",
    ]);
    freeze_when_pushed_whole(&[
        "{\"a\": \"x\" + y}",
        "{\"a\": \"x\" + }",
        "{\"a\": \"x\" + /* c */ \"y\"}",
        // A line break before the `+` makes the parts no key (the engine's key-length
        // check): the quote before the colon is content (found by fuzzing).
        "{\"name\": \"Bob\"\n +\"tac\": [1]}",
    ]);
    let text = "{\"name\": \"Bob\"\n +\"tac\": [1]}";
    check_chunks(text, text, &every_byte(text), final_value(text).as_ref());
}

/// A member's value written as bare words (`"status": success`, `"name": John Smith`) is a
/// string to the engine; the stream shows it whole once what ends it (a comma and the next
/// member, or `}`) arrives. Literals, phrases after a literal, and words that some quote
/// later on the line may turn into something else are left to the engine.
#[test]
fn bare_words_as_a_members_value() {
    stream_to_their_final_values(&[
        "{\"status\": success, \"code\": 200}",
        // (At the text's end the last word waits: a quote later on its line could still
        // make it a string that lost its opening quote.)
        "{\"name\": John Smith, \"answer\": Paris}\n",
        "{\"a\": {\"b\": v1.2-beta_3 }, \"c\": [1]}",
        "{\"x\": hello world\t, \"y\": \"z\"}",
        "{\"url\": https://example.com/a?b=1&c=%20#top, \"file\": src/lib.rs}\n",
        "{\"who\": a+b@c.d, \"n\": 1}",
        "{\"path\": C:\\Users\\me\\new, \"n\": 1}\n",
        "{\"path\": C:\\Program Files\\x\\, \"n\": 1}\n",
        // A line break ends the words too.
        "{\n  \"name\": Ada Lovelace\n  , \"lang\": en\n}",
        "{\"a\": {\"b\": x\n}, \"c\": y\n}",
    ]);
    for text in [
        "{\"p\": C:\\x\\\"y, \"n\": 1}",
        "{\"p\": C:\\x\\\\\", \"n\": 1}",
        "{\"p\": C:\\Users\\a\"b, \"n\": 1}",
        "{\"p\": a\\u0041, \"n\": 1}",
        "{\"p\": C:\\x}",
        "{\"a\": x\n \"b\": 1}",
        "{\"a\": x\n, 2, 3]}",
        "{\"a\": x\n y, \"b\": 1}",
        "{\"a\": x\n]",
    ] {
        let fin = final_value(text).unwrap_or_else(|| panic!("{text:?}: must repair"));
        check_chunks(text, text, &every_byte(text), Some(&fin));
    }
    freeze_when_pushed_whole(&[
        "{\"a\": true story, \"b\": 1}",
        "{\"a\": word, 2, 3]}\n",
        "{\"a\": see: this, \"b\": 1}",
        "{\"a\": x // comment\n}",
        "{\"a\": f(x), \"b\": 1}",
    ]);
    // A value that lost its opening quote (`negative"`), as the engine's
    // `value_lost_opening_quote` reads it: words, their closing quote, then `}` or a comma
    // and the next member.
    stream_to_their_final_values(&[
        "{\"sentiment\": negative\", \"score\": 0.5}",
        "{\"a\": wrong\", \"b\": 1}",
        "{\"a\": hello world\" , \"b\": [1], \"c\": x\"}",
    ]);
    freeze_when_pushed_whole(&[
        // Elements and a `]` after it: an array that lost its `[` (`["a", "b"]`).
        "{\"tags\": a\", \"b\"]}",
        // Structure in the words: the engine looks at more.
        "{\"a\": see: x\", \"b\": 1}",
    ]);
    // (`ObjectId("1")` is a wrapper call: `wrapper_calls_are_their_argument`.)
    // Nothing shows before the end of the word is known.
    let mut r = Repairer::new();
    r.push("{\"status\": succ");
    assert_eq!(r.snapshot(), Some(serde_json::json!({})));
    r.push("ess");
    assert_eq!(r.snapshot(), Some(serde_json::json!({})));
    r.push("}\n");
    assert_eq!(r.snapshot(), Some(serde_json::json!({"status": "success"})));
}

/// A single-quoted value with an apostrophe in a word (`'don't'`, `'it's'`) is one string to
/// the engine, and the stream reads the apostrophe as content as it does.
#[test]
fn apostrophes_inside_single_quoted_values() {
    stream_to_their_final_values(&[
        "{'msg': 'don't forget', 'n': 1}",
        "{\"a\": 'it's ok', \"b\": ['can't', 'won't'], \"c\": 'rock'n'roll'}",
        "['it wasn't 2', 'x']",
    ]);
    freeze_when_pushed_whole(&["{'msg': 'it's' \"b\": 1}"]);
}

/// A `"` inside a string value that a word follows is content to the engine unless what
/// follows could make it a key or the next member (`"The "Best" movie"`); the stream reads
/// such inner quotes as it does, and leaves the rest to `finish`.
#[test]
fn inner_double_quotes_before_words() {
    stream_to_their_final_values(&[
        "{\"title\": \"The \"Best\" Movie\", \"n\": 1}",
        "{\"error\": \"Error: \"file not found\" again!\", \"code\": 2}",
        "{\"q\": \"She said \"no\".\", \"ok\": true}",
        "[\"a \"b\"-c\", \"x\"]",
        "{\"a\": {\"b\": \"x \"y\" zz.\"}}",
        // A quote right before the closing one, a word after the next quote.
        "{\"product\": \"Nike Air Max 90 \"Infrared\"\", \"price\": 140}",
        "{\"bash\": \"echo \"$HOME\"\", \"n\": 2}",
        "{\"a\": \"x\"\", \"b\": 1}",
    ]);
    freeze_when_pushed_whole(&[
        // A word, spaces and a string that ends the member: a key that lost its colon to
        // the engine.
        "{\"a\": \"say \"hi\" to \"Bob\", \"n\": 1}",
        // A comma before the quote and no key after it: it may open the next element of
        // an array that lost its `[` (`a_string_that_lost_its_closing_quote…` has the key).
        "{\"a\": \"x, \"b\" c\", \"d\": 1}",
        "{\"a\": \"one \"two\" three: four\"}",
    ]);
    // JSON inside the string, its quotes unescaped: the engine keeps the quote before
    // `, "f"` as content while its brace is open (found by fuzzing).
    let text = "{\"a\": \"x {\"id: \"function\",\"f\": 1}\"}";
    let fin = final_value(text).expect("repairs");
    assert_eq!(
        fin,
        serde_json::json!({"a": "x {\"id: \"function\",\"f\": 1}"})
    );
    let r = check_chunks(text, text, &every_byte(text), Some(&fin));
    assert!(r.is_frozen());
}

/// The look-aheads the stream repeats on every push while a decision waits (after `+`, a
/// comma, a colon, a first string) stop after a bounded run of layout, so pushing a huge one
/// a byte at a time stays linear; past the bound the stream leaves the rest to `finish`.
#[test]
fn waiting_look_aheads_are_bounded() {
    let layout = " ".repeat(300);
    let texts = [
        format!("{{\"a\": \"x\" +{layout}\"y\"}}"),
        format!("{{\"a\": 1,{layout}\"b\": 2}}"),
        format!("{{\"a\": \"k\":{layout}1}}"),
        format!("\"a\"{layout}: 1}}"),
    ];
    for text in &texts {
        freeze_when_pushed_whole(&[text.as_str()]);
        // Consistent all the way, whatever the reading.
        check_chunks(text, text, &every_byte(text), final_value(text).as_ref());
    }
}

/// A bare word after a value's comma that runs to the end of the pushed text, exactly as
/// long as the look-ahead for a key: the next push decides (found by fuzzing: the look for
/// a quote after the word read past the text).
#[test]
fn a_key_word_cut_at_the_look_ahead_waits() {
    let word = "k".repeat(64);
    let text = format!("{{\"a\": \"x\", {word}");
    let mut r = Repairer::new();
    r.push(&text);
    r.push("\": 1}");
    let fin = final_value(&format!("{text}\": 1}}"));
    assert!(fin.is_some());
    if !r.is_frozen() {
        assert_eq!(r.snapshot(), fin);
    }
}

/// A bare key after a string value, whose own value is the string `, ` (`{a: "", b: ", "}`):
/// the string before it ends, as the engine reads it, and the stream shows the key once the
/// value's closing quote and the `}` or `,` after it show it is a whole value. Words before
/// a colon and such a quote inside a string (`version:", "done"`) stay content.
#[test]
fn a_bare_key_whose_value_is_a_comma_string() {
    stream_to_their_final_values(&[
        r#"{a: "", b: ", "}"#,
        r#"{a: [{a: "x", b: ", "}]}"#,
        r#"{"a": "x", b: ", ", "c": 1}"#,
    ]);
    let text = r#"{"reply": "Sure! Here is the "updated" version:", "done": true}"#;
    let fin = final_value(text).unwrap_or_else(|| panic!("{text:?}: must repair"));
    check_chunks(text, text, &every_byte(text), Some(&fin));
}

/// Version numbers, dates, addresses and zero-padded codes written bare (`1.2.3`,
/// `2024-01-15`, `192.168.1.10`, `007`) are strings to the engine: the stream shows each once
/// the separator after it shows that it is whole and no quote later on its line makes the
/// engine read it as part of a string that lost its opening quote (so a one-line document
/// shows it at the line's end). A word that a space follows may go on
/// (`1.2.3 beta`): that is left as before. `12.` is the number 12 to the engine, and so
/// to the stream.
#[test]
fn numeric_bare_strings_stream() {
    stream_to_their_final_values(&[
        "{\"version\": 1.2.3}\n",
        "{\"ip\": 192.168.1.10, \"port\": 8080, \"zip\": 02134}\n",
        "{\"d\": 2024-01-15, \"range\": [10-20, 0.1.2, -1.2.3]}\n",
        "[\n  1.2.3,\n  4.5.6\n]",
        r#"{"a": 12., "b": [-0., 3.], "c": 0.}"#,
        "{\"a\": 1.5., \"b\": [0.5.], \"c\": 00.}\n",
        "[1.,\n 2.\n]",
    ]);
    for text in [
        r#"{"v": 1.2.3 beta, "n": 1}"#,
        r#"{"v": 12., "n": 1}"#,
        r#"{"v": 1.2.3, 4, 5]}"#,
        r#"{"v": [1.2.3 4.5.6]}"#,
        "{\"v\": 1.2.3\n beta, \"n\": 1}",
        "{\"a\": 1.2.3\n \"b\": 2}",
        "[1.2.3\n 4]",
        "{\"a\": 1.2.3\r\n}",
        "{\"a\": 2024-01-15T10:00:00Z, \"b\": 1}",
        "{\"a\": 1.2.3.}",
        "{\"a\": 1-2-3-, \"b\": -7-}",
        "{\"a\": [1e3., -1.5e312.]}",
        // A quote later on the line may make the engine read it all as a string that lost
        // its opening quote (a fuzz find: `[1-, … ]\ft", "`).
        "[1-, {name: 'Ad-.--a', tags:0]\\ft\", \"",
        "[1-, x\"]",
        "[nan, x\"]",
        "[+Infinity, x\"]",
        "{\"a\": 1.2.3, \"b\": x\"}",
        "[1.2.3, \"x\"]\n",
    ] {
        let fin = final_value(text).unwrap_or_else(|| panic!("{text:?}: must repair"));
        check_chunks(text, text, &every_byte(text), Some(&fin));
    }
}

/// Every literal the engine knows streams as it reads it: `TRUE`, `NULL`, `nil`, and the
/// non-finite numbers (`+Infinity`, `nan`, `-inf`) as the policy says, those the engine
/// reads only after its look for a lost opening quote once their line has ended.
#[test]
fn every_literal_spelling_streams() {
    stream_to_their_final_values(&[
        "{\"a\": TRUE, \"b\": FALSE, \"c\": NULL, \"d\": Null, \"e\": nil}",
        "[TRUE, NULL, nil]",
        "{\"a\": +Infinity, \"b\": nan, \"c\": inf, \"d\": -inf}\n",
        "[+Infinity, nan, -inf]\n",
    ]);
    for non_finite in [NonFinite::String, NonFinite::Null] {
        let options = Options {
            non_finite,
            ..Options::default()
        };
        let text = "{\"a\": +Infinity, \"b\": [nan, -inf], \"c\": 1}\n";
        let mut r = Repairer::with_options(options.clone());
        for c in text.chars() {
            r.push(c.encode_utf8(&mut [0u8; 4]));
        }
        assert!(!r.is_frozen(), "{non_finite:?}");
        let fin = jsonheal::repair_with(text, &options).map(|fixed| fixed.text);
        let fin: Value = serde_json::from_str(&fin.unwrap_or_default()).unwrap_or_default();
        assert_eq!(r.snapshot(), Some(fin), "{non_finite:?}");
    }
}

/// Bare words as an array's elements (`[red, green]`, `{"tags": [alpha beta, gamma]}`)
/// stream as the strings the engine writes, once the `,` or `]` after them shows they are
/// whole and no quote later on their line makes them a string that lost its opening one
/// (`[red, green, blue"]` is one string to the engine): so a one-line array shows them at
/// its line's end. A colon or a quote in them (a key, a string that lost a quote) is left
/// to `finish`, as is a word that a line break ends.
#[test]
fn bare_words_as_elements() {
    stream_to_their_final_values(&[
        "[red, green, blue]\n",
        "{\"tags\": [alpha beta, gamma], \"n\": 1}\n",
        "{\"c\": [x, \"y\", 3, z-1.2, a_b]}\n",
        "[[one, two], [three]]\n",
        "[\n  red,\n  green\n]",
    ]);
    let mut r = Repairer::new();
    r.push("{\"a\": [\n  red,\n  gre");
    assert_eq!(r.snapshot(), Some(serde_json::json!({"a": ["red"]})));
    for text in [
        "[red, \"b\": 1]",
        "{\"a\": [red, count: 2}",
        "[red\", \"x\"]",
        "[red\n green]",
        "[true story, x]",
        "[f(x), y]",
        "[red, green}",
        "{\"a\": [x, y}, \"b\": 1}",
        "[u'x', y]",
        "[see: this, x]",
        "[red // c\n, x]",
        "[nan, inf, x]",
        "[red, green, blue\"]",
        "[red, green, \"blue\"]",
        "[a, b\"]}",
    ] {
        let fin = final_value(text).unwrap_or_else(|| panic!("{text:?}: must repair"));
        check_chunks(text, text, &every_byte(text), Some(&fin));
    }
}
