use super::bytes::{plain_stop, string_stop};
use super::strings::{cuttable, held_from};
use super::*;
use crate::text::is_json_number;
use proptest::prelude::*;
use serde_json::json;

/// Pieces of string content that exercise every stop of `plain_value_run`: escapes
/// (also cut by a chunk's end), bytes the engine may cut, quotes of all kinds.
const STRING_PIECES: &[&str] = &[
    "a",
    "fn x",
    " ",
    "  ",
    ",",
    "}",
    "]",
    "\n",
    "\\",
    "\\\\",
    "\\\"",
    "\\t",
    "\\/",
    "\\r",
    "\\b",
    "\\u00e9",
    "\\ud83d\\ude00",
    "\\'",
    "\\x",
    "\"",
    "”",
    "“",
    "–",
    "é",
    "😀",
    "'",
    ":",
    "\", \"",
    "\"}",
    "\t",
];

const STRING_HOMES: &[(&str, &str)] = &[
    ("{\"path\": \"a.rs\", \"content\": \"", "\", \"n\": 1}"),
    ("{\"content\": \"", "\"}"),
    ("[\"", "\", 2]"),
    ("\"", "\""),
    ("{'a': \"", "\"}"),
    ("Sure:\n```json\n{\"a\": [\"", "\"]}\n```"),
    ("{\"content\": \"", ""),
];

proptest! {
    #![proptest_config(ProptestConfig { cases: 600, ..ProptestConfig::default() })]

    /// The fast path for string values changes nothing a caller sees: after every push
    /// the events, the snapshot and whether the stream froze are those of the general
    /// path.
    #[test]
    fn plain_value_run_agrees_with_the_general_path(
        home in 0..STRING_HOMES.len(),
        pieces in prop::collection::vec(0..STRING_PIECES.len(), 0..40),
        sizes in prop::collection::vec(1usize..20, 1..12),
    ) {
        let (open, close) = STRING_HOMES[home];
        let body: String = pieces.iter().map(|&i| STRING_PIECES[i]).collect();
        let text = format!("{open}{body}{close}");
        let mut fast = Repairer::new();
        let mut general = Repairer::new();
        general.parser.plain_fast = false;
        let bytes = text.as_bytes();
        let (mut at, mut k) = (0, 0);
        while at < bytes.len() {
            let end = (at + sizes[k % sizes.len()]).min(bytes.len());
            k += 1;
            fast.push_bytes(&bytes[at..end]);
            general.push_bytes(&bytes[at..end]);
            at = end;
            let a: Vec<Event> = fast.events().map(EventRef::to_event).collect();
            let b: Vec<Event> = general.events().map(EventRef::to_event).collect();
            prop_assert_eq!(a, b, "events after {} bytes of {:?}", at, text);
            prop_assert_eq!(fast.snapshot(), general.snapshot());
            prop_assert_eq!(fast.is_frozen(), general.is_frozen());
        }
    }
}

/// Feed `text` in `piece`-byte pieces to a repairer with the lane for whole containers
/// (taken however short the text) and to one without; the first push after which they
/// differ.
fn whole_lane_disagrees(text: &str, piece: usize) -> Option<String> {
    whole_lane_compared(text, piece).err()
}

/// As `whole_lane_disagrees`; `Ok` with how many whole containers the lane took.
fn whole_lane_compared(text: &str, piece: usize) -> Result<usize, String> {
    let mut fast = Repairer::new();
    fast.parser.whole_min_scan = 0;
    let mut general = Repairer::new();
    general.parser.whole_fast = false;
    for chunk in text.as_bytes().chunks(piece) {
        fast.push_bytes(chunk);
        general.push_bytes(chunk);
        let (a, b) = (fast.snapshot(), general.snapshot());
        if a != b || fast.is_frozen() != general.is_frozen() {
            return Err(format!(
                "after {} bytes: {a:?} (frozen: {}) vs {b:?} (frozen: {})",
                fast.text().len(),
                fast.is_frozen(),
                general.is_frozen()
            ));
        }
    }
    Ok(fast.parser.whole_spans.len())
}

/// The lane for whole containers changes no snapshot: after every push (in pieces
/// large enough for it to be taken) the snapshot, and whether the stream froze, are
/// the general path's, for every input of the corpora.
#[test]
fn whole_containers_agree_with_the_general_path() {
    let dir = format!("{}/tests/data", env!("CARGO_MANIFEST_DIR"));
    let mut files: Vec<_> = std::fs::read_dir(&dir)
        .expect("the corpora")
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "jsonl"))
        .collect();
    files.sort();
    let (mut cases, mut taken, mut failures) = (0, 0, Vec::new());
    for file in &files {
        let corpus = std::fs::read_to_string(file).expect("a corpus");
        for line in corpus.lines().filter(|l| !l.trim().is_empty()) {
            let case: Value = serde_json::from_str(line).expect("a corpus line");
            let Some(input) = case.get("input").and_then(Value::as_str) else {
                continue;
            };
            cases += 1;
            for piece in [usize::MAX, 333, 97, 40] {
                match whole_lane_compared(input, piece) {
                    Ok(n) => taken += usize::from(n > 0 && piece == usize::MAX),
                    Err(why) => {
                        failures.push(format!("{input:?} in {piece} B pieces: {why}"));
                        break;
                    }
                }
            }
        }
    }
    assert!(cases > 5000, "{cases} cases");
    // The lane is exercised (most inputs freeze before their first strict container,
    // or have none).
    assert!(
        taken * 10 > cases,
        "the lane took containers in {taken} of {cases}"
    );
    assert!(
        failures.is_empty(),
        "{} of {cases}:\n{}",
        failures.len(),
        failures.join("\n")
    );
}

/// Values, strict and not, for the documents of `whole_lane_agrees_on_built_documents`.
const LEAVES: &[&str] = &[
    "1",
    "-2.5e3",
    "0",
    "01",
    "true",
    "null",
    "True",
    "None",
    "\"x\"",
    "\"\"",
    "\"it's\"",
    "'y'",
    "\"say “hi”\"",
    "\"a\\nb\\u00e9\"",
    "\"\\ud800\"",
    "\"C:\\new\\x\"",
    "\"x\"]\"",
    "\"p\" ]]\"",
    "word",
    "\"tab\tin\"",
    "[]",
    "{}",
    // A whole container, then what makes its closers string content to the engine.
    "[\"q\"]\"",
    "{\"k\": \"v\"} }\"",
    "[\"w\"]] more words\"",
    "[[\"z\"]]",
    // Strict strings whose quotes the engine may read as closing ones.
    "\"a”}\"",
    "\"b’]\"",
    "\"c”, \"",
    "\"d', \"",
    "\"e']\"",
];

/// Between two values of a container: strict separators, and the faults around them.
const SEPARATORS: &[&str] = &[", ", ",", ",\n  ", " , ", ", ", " ", ",,", "\n", ", // c\n"];

/// A document from the choices: nested arrays and objects of `LEAVES`.
fn built(choices: &[usize], at: &mut usize, depth: usize) -> String {
    fn pick(choices: &[usize], at: &mut usize, n: usize) -> usize {
        let c = choices.get(*at).copied().unwrap_or(0);
        *at += 1;
        c % n
    }
    let kind = if depth > 3 { 2 } else { pick(choices, at, 3) };
    let len = pick(choices, at, 4);
    let sep = SEPARATORS[pick(choices, at, SEPARATORS.len())];
    let keys = [
        "\"a\"",
        "\"b\"",
        "c",
        "\"a\"",
        "\"d\"",
        "'e'",
        "\"f'\"",
        "\"g”\"",
        // Strict keys holding what may close a key before a colon, to the engine.
        "\"h': z\"",
        "\"i”: z\"",
    ];
    match kind {
        0 | 1 => {
            let object = kind == 0;
            let mut out = String::from(if object { "{" } else { "[" });
            for k in 0..len {
                if k > 0 {
                    out.push_str(sep);
                }
                if object {
                    out.push_str(keys[pick(choices, at, keys.len())]);
                    out.push_str(": ");
                }
                out.push_str(&built(choices, at, depth + 1));
            }
            out.push_str(if object { "}" } else { "]" });
            out
        }
        _ => LEAVES[pick(choices, at, LEAVES.len())].to_owned(),
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 400, ..ProptestConfig::default() })]

    /// The lane for whole containers agrees with the general path on built documents,
    /// strict in parts and faulty in others, whole or in pieces of any size.
    #[test]
    fn whole_lane_agrees_on_built_documents(
        choices in prop::collection::vec(0usize..1000, 1..120),
        prefix in prop::sample::select(vec!["", "Sure: ", "```json\n", "{\"wrap\": "]),
        piece in prop::sample::select(vec![usize::MAX, 500, 64, 33]),
    ) {
        let mut at = 0;
        let mut text = String::from(prefix);
        // The root holds two built values (a root is read by the general path).
        text.push_str(if choices[0] % 2 == 0 { "[" } else { "{\"k\": [" });
        text.push_str(&built(&choices, &mut at, 0));
        text.push_str(", ");
        text.push_str(&built(&choices, &mut at, 0));
        text.push_str(if choices[0] % 2 == 0 { "]" } else { "]}" });
        prop_assert_eq!(whole_lane_disagrees(&text, piece), None, "{:?}", text);
    }
}

fn fed_bytewise(text: &str) -> Repairer {
    let mut r = Repairer::new();
    for b in text.as_bytes() {
        r.push_bytes(std::slice::from_ref(b));
    }
    r
}

/// `plain_stop` reads words and an overlapping last word; every length, stop byte,
/// position and second stop must give what a byte-by-byte search gives.
#[test]
fn plain_stop_finds_the_first_stop_at_every_position() {
    fn naive(b: &[u8], control: bool) -> Option<usize> {
        b.iter()
            .position(|&c| matches!(c, b'"' | b'\\' | 0xE2 | b'\'') || (control && c < 0x20))
    }
    let stops = [b'"', b'\\', 0xE2, b'\'', b'\n', 0x00, 0x1F];
    // Bytes next to the stops in value, which a careless word trick would flag.
    let fillers = [
        b'a',
        b' ',
        b'!',
        b'#',
        b'&',
        b'(',
        0xE1,
        0xE3,
        0x21,
        b']',
        b'\\' + 1,
    ];
    for len in 0..=40 {
        for &fill in &fillers {
            let mut b = vec![fill; len];
            assert_eq!(plain_stop::<false>(&b), naive(&b, false), "{b:?}");
            assert_eq!(plain_stop::<true>(&b), naive(&b, true), "{b:?}");
            for at in 0..len {
                for &stop in &stops {
                    b[at] = stop;
                    for later in [at + 1, at + 7, at + 8, len.saturating_sub(1)] {
                        let mut c = b.clone();
                        if let Some(x) = c.get_mut(later) {
                            *x = stops[later % stops.len()];
                        }
                        assert_eq!(plain_stop::<false>(&c), naive(&c, false), "{c:?}");
                        assert_eq!(plain_stop::<true>(&c), naive(&c, true), "{c:?}");
                    }
                    b[at] = fill;
                }
            }
        }
    }
}

#[test]
fn json_numbers() {
    for ok in [
        "0",
        "-0",
        "12",
        "1.5",
        "1e5",
        "1E+5",
        "-1.25e-3",
        "123456789012345678901",
    ] {
        assert!(is_json_number(ok.as_bytes()), "{ok}");
    }
    for bad in [
        "", "-", "01", "1.", ".5", "+1", "1e", "1e+", "0x1F", "1.2.3", "--1",
    ] {
        assert!(!is_json_number(bad.as_bytes()), "{bad}");
    }
}

/// The rules of `held_from` one by one, as first written.
fn held_from_reference(s: &str) -> usize {
    let b = s.as_bytes();
    let mut keep = s.len();
    // Every rule below holds back a run of cuttable bytes at the very end.
    if b.last().is_none_or(|&c| !cuttable(c)) {
        return keep;
    }
    let run = b.len() - b.iter().rev().take_while(|&&c| cuttable(c)).count();
    if let Some(nl) = memchr::memchr(b'\n', &b[run..]) {
        keep = run + nl;
    }
    // A comma before trailing layout: the separator, should the string have lost its
    // closing quote before it (`"x,\n  "b": 1`).
    let body = s.trim_end_matches([' ', '\t', '\r', '\n']);
    keep = keep.min(body.strip_suffix(',').unwrap_or(body).len());
    // Layout at the end: should the text end with a closer after it, the engine ends the
    // string before both (`["value ]`).
    let layout = b
        .iter()
        .rev()
        .take_while(|&&c| matches!(c, b' ' | b'\t' | b'\r' | b'\n'))
        .count();
    keep = keep.min(b.len() - layout);
    // Closers (with layout and commas) at the end: if the text ends there, they close what
    // is open (`{"key": ["value]}`); if a key follows, they close containers before it
    // (`"y], "b": 1`); either way the engine ends the string before them.
    let run = b.iter().rev().take_while(|&&c| cuttable(c)).count();
    if b[b.len() - run..].iter().any(|&c| matches!(c, b'}' | b']')) {
        keep = keep.min(b.len() - run);
    }
    keep
}

proptest::proptest! {
    /// The one-pass hold-back agrees with the rules applied one by one.
    #[test]
    fn held_from_agrees_with_its_rules(
        s in proptest::collection::vec(proptest::sample::select(
            vec!["a", " ", ",", "\n", "}", "]", "\t", "\r", "é"]), 0..12),
    ) {
        let s = s.concat();
        proptest::prop_assert_eq!(held_from(&s), held_from_reference(&s));
    }
}

proptest::proptest! {
    /// The word-at-a-time scan finds what a byte-by-byte one does, at every length and
    /// offset (the stops placed near word edges and past the scanned words).
    #[test]
    fn string_stop_finds_the_first_stop(
        filler in proptest::collection::vec(proptest::prop_oneof![
            40 => proptest::sample::select(vec![b'a', b' ', 0x80, 0xE3, 0xFF]),
            1 => proptest::sample::select(vec![b'\'', b'"', b'\\', b'`', 0xE2]),
        ], 0..200),
        quote in proptest::sample::select(vec![b'"', b'\'', b'`']),
        third in proptest::option::of(proptest::sample::select(vec![b'"', b'\'', 0xE2])),
    ) {
        let naive = filler
            .iter()
            .position(|&c| c == quote || c == b'\\' || Some(c) == third);
        proptest::prop_assert_eq!(string_stop(&filler, quote, third), naive);
    }
}

#[test]
fn bytes_split_inside_chars_are_joined() {
    let text = "{\"a\": \"é😀 \\u00e9 \\ud83d\\ude00\"}";
    let r = fed_bytewise(text);
    assert_eq!(r.text(), text);
    assert_eq!(r.snapshot(), Some(json!({"a": "é😀 é 😀"})));
}

#[test]
fn invalid_utf8_becomes_replacement_like_lossy() {
    let bytes: &[u8] = b"{\"a\": \"x\xE2\x82y\xFF\xF0\x9F\x98\"}";
    let lossy = String::from_utf8_lossy(bytes).into_owned();
    for size in 1..=bytes.len() {
        let mut r = Repairer::new();
        for chunk in bytes.chunks(size) {
            r.push_bytes(chunk);
        }
        assert_eq!(r.text(), lossy, "chunk size {size}");
    }
    // An incomplete character at the very end is replaced at finish.
    let mut r = Repairer::new();
    r.push_bytes(b"[1, \xF0\x9F");
    assert_eq!(r.text(), "[1, ");
    r.push("]");
    assert_eq!(r.text(), "[1, \u{FFFD}]");
}

#[test]
fn pointer_segments_are_escaped() {
    let mut r = Repairer::new();
    r.push(r#"{"a/b": {"~": [true, "#);
    let paths: Vec<String> = r.events().map(|e| e.path.to_owned()).collect();
    assert_eq!(paths, ["", "/a~1b", "/a~1b/~0", "/a~1b/~0/0"]);
}
