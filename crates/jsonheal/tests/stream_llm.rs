//! Streaming generated LLM-style documents: values rendered with single quotes, bare keys,
//! Python literals, comments, trailing commas, prose, fences and reasoning blocks around them.
//! Under any chunking every snapshot is consistent with the final value, the stream fills in
//! completely (never freezes on these), and a stream cut anywhere agrees with the one-shot
//! repair of what arrived.
#![allow(clippy::unwrap_used)]

use jsonheal::stream::Repairer;
use jsonheal::{repair, ErrorKind};
use proptest::prelude::*;
use serde_json::{json, Value};

mod common;

/// A small deterministic generator, so one proptest seed drives all rendering choices.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }

    fn one_in(&mut self, n: u64) -> bool {
        self.next() % n == 0
    }

    fn pick<'a>(&mut self, items: &[&'a str]) -> &'a str {
        items[(self.next() % items.len() as u64) as usize]
    }
}

/// Space between tokens, sometimes with a comment (always after a space: a comment glued to
/// a closing quote may be content to the engine). `#` comments are left to the fixed
/// documents of `tests/stream.rs`: right after a root bracket the engine does not take
/// `[ # note` for JSON in prose.
fn gap(rng: &mut Rng, out: &mut String) {
    out.push_str(rng.pick(&["", " ", " ", "\n  ", "\n"]));
    if rng.one_in(6) {
        out.push_str(rng.pick(&[" // note\n", " /* note */ ", " /* a\nb */\n"]));
    }
}

/// Space only: between a key and its colon the engine's lookahead after a string value
/// does not skip comments.
fn space(rng: &mut Rng, out: &mut String) {
    out.push_str(rng.pick(&["", " ", "\n"]));
}

fn is_identifier(k: &str) -> bool {
    let mut chars = k.chars();
    chars
        .next()
        .is_some_and(|c| c.is_ascii_alphabetic() || c == '_')
        && chars.all(|c| c.is_ascii_alphanumeric() || c == '_')
}

fn single_quotable(s: &str) -> bool {
    !s.chars()
        .any(|c| matches!(c, '\'' | '"' | '\\') || c.is_control())
        // `C:...` would read as a Windows path.
        && s.as_bytes().get(1).is_none_or(|&b| b != b':')
}

fn string(s: &str, rng: &mut Rng, out: &mut String) {
    if single_quotable(s) && rng.one_in(3) {
        out.push('\'');
        out.push_str(s);
        out.push('\'');
    } else {
        out.push_str(&serde_json::to_string(s).unwrap());
    }
}

fn render(v: &Value, rng: &mut Rng, out: &mut String) {
    match v {
        Value::Null => out.push_str(rng.pick(&["null", "None"])),
        Value::Bool(true) => out.push_str(rng.pick(&["true", "True"])),
        Value::Bool(false) => out.push_str(rng.pick(&["false", "False"])),
        Value::Number(n) => out.push_str(&n.to_string()),
        Value::String(s) => string(s, rng, out),
        Value::Array(items) => {
            out.push('[');
            for (i, item) in items.iter().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                gap(rng, out);
                render(item, rng, out);
                if rng.one_in(3) {
                    out.push(' ');
                }
            }
            if !items.is_empty() && rng.one_in(3) {
                out.push(',');
            }
            gap(rng, out);
            out.push(']');
        }
        Value::Object(members) => {
            out.push('{');
            for (i, (k, item)) in members.iter().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                gap(rng, out);
                if is_identifier(k) && rng.one_in(2) {
                    // A bare key: nothing but spaces may stand before its colon.
                    out.push_str(k);
                    out.push_str(rng.pick(&["", " "]));
                } else {
                    string(k, rng, out);
                    space(rng, out);
                }
                out.push(':');
                out.push(' ');
                gap(rng, out);
                render(item, rng, out);
                if rng.one_in(3) {
                    out.push(' ');
                }
            }
            if !members.is_empty() && rng.one_in(3) {
                out.push(',');
            }
            gap(rng, out);
            out.push('}');
        }
    }
}

/// The whole reply: the rendered value, maybe with prose, a fence or a reasoning block.
fn reply(v: &Value, rng: &mut Rng) -> String {
    let mut out = String::new();
    if rng.one_in(3) {
        out.push_str(rng.pick(&[
            "<think>The user wants {\"x\": 1}? Let me check [1, 2].</think>\n",
            "<thinking>draft: {'a': 1}</thinking>",
        ]));
    }
    let prose = rng.one_in(2);
    if prose {
        out.push_str(rng.pick(&[
            "Sure! Here is the JSON:\n",
            "Here is the {result} you asked for [as JSON]:\n\n",
            "Done. Result: ",
        ]));
    }
    let fence = rng.one_in(2);
    if fence {
        out.push_str(rng.pick(&["```json\n", "```\n", "~~~json\n"]));
    }
    render(v, rng, &mut out);
    if fence {
        out.push_str("\n```");
    }
    if prose && rng.one_in(2) {
        out.push_str("\nLet me know if you need anything else.");
    }
    out
}

/// Feed `text` cut at `cuts`; check every snapshot against `fin`; return the repairer.
fn feed(text: &str, cuts: &[usize], fin: &Value) -> Result<Repairer, TestCaseError> {
    let mut r = Repairer::new();
    common::feed(&mut r, "reply", text, cuts, Some(fin)).map_err(TestCaseError::fail)?;
    Ok(r)
}

fn cuts(seed: u64, len: usize, max_chunk: u64) -> Vec<usize> {
    let mut rng = Rng(seed | 1);
    let mut at = 0;
    let mut out = Vec::new();
    loop {
        at += 1 + (rng.next() % max_chunk) as usize;
        if at >= len {
            return out;
        }
        out.push(at);
    }
}

fn arb_json() -> impl Strategy<Value = Value> {
    let text = prop_oneof![
        "[a-z ]{0,10}",
        "[ -~]{0,12}",
        Just("print(\"hi\", end='')\n".to_owned()),
        Just("a, ".to_owned()),
        Just("C:\\Users\\me".to_owned()),
        Just("say \"hi\" to me".to_owned()),
        Just("é 😀 ü".to_owned()),
        Just("// not a comment".to_owned()),
    ];
    let leaf = prop_oneof![
        Just(Value::Null),
        any::<bool>().prop_map(Value::Bool),
        any::<i32>().prop_map(|n| json!(n)),
        (-1e3f64..1e3).prop_map(|f| json!(f)),
        text.prop_map(Value::String),
    ];
    let key = prop_oneof![
        "[a-z_][a-z0-9_]{0,6}",
        "[a-z]{1,4} [a-z]{1,4}",
        "[ -~]{0,6}"
    ];
    let inner = leaf.prop_recursive(3, 32, 5, move |inner| {
        prop_oneof![
            prop::collection::vec(inner.clone(), 0..5).prop_map(Value::Array),
            prop::collection::vec((key.clone(), inner), 0..5)
                .prop_map(|m| Value::Object(m.into_iter().collect())),
        ]
    });
    prop_oneof![
        prop::collection::vec(inner.clone(), 1..5).prop_map(Value::Array),
        prop::collection::vec(("[a-z_][a-z0-9_]{0,6}", inner), 1..5)
            .prop_map(|m| Value::Object(m.into_iter().collect())),
    ]
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 200, ..ProptestConfig::default() })]

    /// The stream never contradicts the final value, and where the engine recovers the value
    /// the stream ends with it, unfrozen. Where the engine finds no JSON (its prose
    /// heuristics can refuse `[ None\n]` after prose), the stream shows nothing either.
    #[test]
    fn llm_style_replies_stream_smoothly(value in arb_json(), seed in any::<u64>(), max_chunk in 1u64..64) {
        let mut rng = Rng(seed | 1);
        let text = reply(&value, &mut rng);
        let cuts = cuts(seed, text.len(), max_chunk);
        let fin = match repair(&text) {
            Ok(fixed) => fixed.value().unwrap(),
            Err(e) => {
                prop_assert_eq!(e.kind(), &ErrorKind::NoJson);
                let mut r = Repairer::new();
                r.push(&text);
                prop_assert_eq!(r.snapshot(), None, "{:?}", text);
                return Ok(());
            }
        };
        let r = feed(&text, &cuts, &fin)?;
        if fin == value {
            prop_assert!(!r.is_frozen(), "froze on {:?}", text);
            prop_assert_eq!(r.snapshot(), Some(fin));
        }
        prop_assert_eq!(r.finish(), repair(&text));
    }

    /// A reply cut anywhere: the snapshot agrees with the one-shot repair of the cut text.
    #[test]
    fn cut_replies_agree_with_repair_of_the_cut(value in arb_json(), seed in any::<u64>(), cut in 0.0f64..1.0) {
        let mut rng = Rng(seed | 1);
        let text = reply(&value, &mut rng);
        let mut at = (text.len() as f64 * cut) as usize;
        while !text.is_char_boundary(at) {
            at -= 1;
        }
        let prefix = &text[..at];
        match repair(prefix) {
            Ok(fixed) => {
                let fin = fixed.value().unwrap();
                feed(prefix, &cuts(seed, prefix.len(), 16), &fin)?;
            }
            // A cut before the value's first bracket leaves prose, a fence's opening or
            // nothing: no JSON, and the stream, fed the same, shows nothing either.
            Err(e) => {
                prop_assert_eq!(e.kind(), &ErrorKind::NoJson, "{:?}", prefix);
                let mut r = Repairer::new();
                r.push(prefix);
                prop_assert_eq!(r.snapshot(), None, "{:?}", prefix);
                prop_assert_eq!(r.finish().map_err(|e| e.kind().clone()), Err(ErrorKind::NoJson));
            }
        }
    }
}
