//! Streaming documents with adversarial tokens spliced in anywhere: broken quotes, stray
//! escapes, comments in odd places, wrong closers, odd literals and numbers. The stream may
//! freeze at such text, but no snapshot may contradict the one-shot engine's final value.
//! There are no code fences; where the engine finds several top-level values, or a key twice
//! (splicing creates such), a later part of the text changes the result as a whole (the
//! limits documented in `jsonheal::stream`, read by `common::final_within_limits`): there
//! only `finish` and the snapshots' own order are checked.
#![allow(clippy::unwrap_used)]

use jsonheal::stream::Repairer;
use jsonheal::{repair, ErrorKind};
use proptest::prelude::*;

mod common;
use common::{feed, final_within_limits};

const TOKENS: &[&str] = &[
    "{",
    "{",
    "}",
    "}",
    "[",
    "[",
    "]",
    "]",
    ",",
    ",",
    ",",
    ":",
    ":",
    " ",
    " ",
    "\n",
    "\t",
    "\"str\"",
    "'str'",
    "`str`",
    "\"a, \"",
    "\"k: \"v",
    "\"p: \"",
    "\"q': ",
    ",000",
    "age 3",
    "tags [",
    "ObjectId(\"x\")",
    "NumberLong(",
    "f(1, 2)",
    "{{",
    "negative\"",
    ", role\": ",
    "u'p'",
    "b\"q\"",
    "b\" : 1",
    "\"\"",
    "x\"\", ",
    "}}",
    "\"He said \"",
    "\"x\"y\"",
    "\"a \"b\" c.\"",
    "'don't'",
    "\"\"",
    "\"C:\\dir\\new\"",
    "\"\\u00e9\\ud83d\\ude00\"",
    "\"\\ud83d\"",
    "\"\\x41\\q\"",
    "\"tab\\t\"",
    "'it's'",
    "\"",
    "'",
    "true",
    "True",
    "None",
    "nul",
    "12",
    "-3.5",
    "7 8",
    " -9",
    "true null",
    "2 x",
    "1e5",
    "0x1F",
    "1.2.3",
    "2024-01-15",
    "007",
    "12.",
    "r'\\d'",
    "C:\\Users\\me",
    "\nhost = ",
    "a=>",
    "+1",
    ".5",
    "NaN",
    "undefined",
    "word",
    "two words",
    "https://x.org/a?b=1#c",
    "see: 5pm",
    "// c\n",
    "/* c */",
    "# c\n",
    "#x",
    "+",
    "...",
    "\u{2026}",
    "\\",
    "\\\"",
    "(",
    ")",
    ";",
    "=",
    "\u{201c}q\u{201d}",
    "\u{2018}q\u{2019}",
    "\u{2018}",
    "\u{2019}",
    "\u{2019}s",
    "\u{201d}",
    "é",
    "<think>",
    "</think>",
    "Sure: ",
    "/re/",
];

/// Well-formed documents the soup is spliced into.
const BASES: &[&str] = &[
    r#"{"path": "src/main.rs", "content": "fn main() {\n    println!(\"hi\");\n}\n", "line": 12, "tags": ["a", "b"], "ok": true}"#,
    "{\n  // the user\n  name: 'Ada Lovelace',\n  'role': 'analyst', /* block */\n  active: True,\n  kids: [1, 2, 3,],\n  first name: \"Ada\",\n}",
    r#"[{"id": 1, "name": "x", "sub": {"a": [1, {"b": "c"}]}}, {"id": 2, "name": "y, z", "sub": {}}]"#,
    "Sure! Here it is:\n{\"a\": \"one\", \"b\": [\"two\", \"three\"], \"c\": {\"d\": null}}\nHope this helps.",
    r#"{"msg": 'it is', "n": -1.5e3, "list": ['p', "q", `r`], "none": None}"#,
    // A Python 2 dict's repr, as pprint writes it.
    "{u'name': u'Ada',\n u'tags': [u'x', b'y'],\n u'n': 2}",
    // Typographic quotes, of both kinds.
    "{\u{2018}name\u{2019}: \u{2018}Ada\u{2019}, \u{201c}tags\u{201d}: [\u{2018}x\u{2019}, \"y\"], \u{2018}n\u{2019}: 2}",
    // A document that lost its `{`.
    r#""name": "Ada", "args": {"path": "a.rs", "n": [1, 2]}, "ok": true}"#,
    // An escaped document (the engine unescapes it once from its first bracket on).
    r#"Here: {\n  \"path\": \"C:\\\\x\", \"n\": [1, 2],\n  \"q\": \"say \\\"hi\\\"\", \"ok\": true}"#,
];

/// `base` with each `(position, token)` spliced in (positions taken modulo its length and
/// moved back to a char boundary).
fn splice(base: &str, picks: &[(usize, usize)]) -> String {
    let mut text = base.to_owned();
    for &(at, token) in picks {
        let mut at = at % (text.len() + 1);
        while !text.is_char_boundary(at) {
            at -= 1;
        }
        text.insert_str(at, TOKENS[token % TOKENS.len()]);
    }
    text
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 1000, ..ProptestConfig::default() })]

    #[test]
    fn soup_never_contradicts_the_engine(
        base in 0..BASES.len(),
        picks in prop::collection::vec((any::<usize>(), any::<usize>()), 1..4),
        chunk in 1usize..8,
    ) {
        let text = splice(BASES[base], &picks);
        let want = repair(&text);
        // Splicing can leave the text with nothing the engine takes for JSON; no other
        // error is honest for it (the depth is far below the limit, the options default).
        if let Err(e) = &want {
            prop_assert_eq!(e.kind(), &ErrorKind::NoJson, "{:?}", text);
        }
        // Outside the stream's documented limits (several top-level values, a `[` lost
        // before a member's value, duplicate keys that splicing creates, …) every snapshot
        // agrees with the final value; inside them, snapshots still never go back.
        let fin = final_within_limits(&text);
        let cuts: Vec<usize> = (chunk..text.len()).step_by(chunk).collect();
        let mut r = Repairer::new();
        feed(&mut r, "soup", &text, &cuts, fin.as_ref()).map_err(TestCaseError::fail)?;
        prop_assert_eq!(r.finish(), want);
    }
}
