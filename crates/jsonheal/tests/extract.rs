//! Extraction without a schema: the value a reader would pick, and the candidate list.
#![allow(clippy::unwrap_used)]

use jsonheal::extract::{candidates, extract, CandidateSource, MAX_CANDIDATES};
use jsonheal::{ErrorKind, RepairKind};
use serde_json::json;

/// (case, reply, the value a reader picks, where it came from).
#[test]
fn the_reader_rule() {
    use CandidateSource::*;
    let cases = vec![
        (
            "bare JSON",
            r#"{"a": 1}"#.to_owned(),
            json!({"a": 1}),
            Whole,
        ),
        (
            "broken bare JSON",
            "{a: 1, b: 'x',}".to_owned(),
            json!({"a": 1, "b": "x"}),
            Whole,
        ),
        (
            "prose before",
            r#"Here you go: {"a": 1}"#.to_owned(),
            json!({"a": 1}),
            Span,
        ),
        (
            "prose after",
            "{\"a\": 1}\n\nLet me know if you need more.".to_owned(),
            json!({"a": 1}),
            Span,
        ),
        (
            "prose around",
            r#"Sure! {"a": 1} Hope it helps."#.to_owned(),
            json!({"a": 1}),
            Span,
        ),
        (
            "a fence",
            "```json\n{\"a\": 1}\n```".to_owned(),
            json!({"a": 1}),
            Fence(0),
        ),
        (
            "a tilde fence",
            "~~~\n{\"a\": 1}\n~~~".to_owned(),
            json!({"a": 1}),
            Fence(0),
        ),
        (
            "fence plus prose",
            "Here:\n```json\n{\"a\": 1}\n```\nThe field a is one.".to_owned(),
            json!({"a": 1}),
            Fence(0),
        ),
        (
            "fence beats prose JSON",
            "Like {\"a\": 0}, so:\n```json\n{\"a\": 1}\n```".to_owned(),
            json!({"a": 1}),
            Fence(0),
        ),
        (
            "several fences: the last json one",
            "Example:\n```json\n{\"a\": 0}\n```\nAnswer:\n```json\n{\"a\": 1}\n```".to_owned(),
            json!({"a": 1}),
            Fence(1),
        ),
        (
            "json-tagged beats untagged",
            "```json\n{\"a\": 1}\n```\nrun:\n```\n{\"cmd\": \"x\"}\n```".to_owned(),
            json!({"a": 1}),
            Fence(0),
        ),
        (
            "untagged beats other languages",
            "```\n{\"a\": 1}\n```\n```python\n{\"a\": 2}\n```".to_owned(),
            json!({"a": 1}),
            Fence(0),
        ),
        (
            "think block then answer",
            "<think>Maybe {\"a\": 0}? No.</think>\n{\"a\": 1}".to_owned(),
            json!({"a": 1}),
            Whole,
        ),
        (
            "reasoning block then prose answer",
            "<reasoning>try [0]</reasoning> The answer is {\"a\": 1}.".to_owned(),
            json!({"a": 1}),
            Span,
        ),
        (
            "final answer marker",
            "Let me think: {\"a\": 0} is wrong.\n**Final answer:** {\"a\": 1}".to_owned(),
            json!({"a": 1}),
            Whole,
        ),
        (
            "last complete value in prose",
            "First {\"a\": 0}, then {\"a\": 1}.".to_owned(),
            json!({"a": 1}),
            Span,
        ),
        (
            "valid span beats one needing repair",
            "Try {\"a\": 1} (not {a: oops})".to_owned(),
            json!({"a": 1}),
            Span,
        ),
        (
            "top-level array",
            "[1, 2, 3]".to_owned(),
            json!([1, 2, 3]),
            Whole,
        ),
        (
            "top-level array in prose",
            "The list: [{\"a\": 1}, {\"a\": 2}].".to_owned(),
            json!([{"a": 1}, {"a": 2}]),
            Span,
        ),
        (
            "citations are not answers",
            "As shown in [1], {\"a\": 1}".to_owned(),
            json!({"a": 1}),
            Span,
        ),
        (
            "missing opening brace",
            "\"a\": 1, \"b\": 2}".to_owned(),
            json!({"a": 1, "b": 2}),
            Whole,
        ),
        (
            "braces in prose strings",
            r#"Note: {"s": "a } b"} ok"#.to_owned(),
            json!({"s": "a } b"}),
            Span,
        ),
        (
            "stray brace in prose",
            "Hmm { well. {\"a\": 1}".to_owned(),
            json!({"a": 1}),
            Span,
        ),
        (
            "an empty list mentioned after the answer",
            "Here:\n{\"name\": \"Ada\", \"skills\": [\"math\"]}\n\nIf none, the field is []."
                .to_owned(),
            json!({"name": "Ada", "skills": ["math"]}),
            Span,
        ),
        (
            "task boxes after the answer",
            "Here's the object: {\"a\": 1}\n\nTODO:\n- [ ] verify\n- [x] format".to_owned(),
            json!({"a": 1}),
            Span,
        ),
        (
            "three backticks inside a fenced string",
            "```json\n{\"tip\": \"use ``` for code\", \"level\": 1}\n```".to_owned(),
            json!({"tip": "use ``` for code", "level": 1}),
            Fence(0),
        ),
    ];
    for (name, reply, want, source) in cases {
        let got = extract(&reply).unwrap_or_else(|e| panic!("{name}: {e}"));
        assert_eq!(got.value, want, "{name}");
        assert_eq!(got.source, source, "{name}");
    }
}

#[test]
fn no_json_is_an_error() {
    for reply in [
        "",
        "   ",
        "I'm sorry, I can't do that.",
        "```json\n```",
        "<think>{\"a\": 1}</think> I can't help.",
        "<think>Let me consider {\"a\": 1} and then",
        "<think>done</think>\n<thinking>{\"a\": 1}",
        "This is well documented in the literature [1][2].",
        "Todo:\n- [ ] write tests\n- [x] ship it",
    ] {
        let err = extract(reply).expect_err(reply);
        assert_eq!(err.kind(), &ErrorKind::NoJson, "{reply:?}");
        assert!(candidates(reply).is_empty(), "{reply:?}");
    }
}

#[test]
fn every_result_says_what_was_repaired() {
    let reply = "Sure:\n```json\n{'a': 1,}\n```\nDone.";
    let got = extract(reply).unwrap();
    let kinds: Vec<RepairKind> = got.repairs.iter().map(|r| r.kind()).collect();
    assert!(kinds.contains(&RepairKind::StrippedFence), "{kinds:?}");
    assert!(kinds.contains(&RepairKind::StrippedProse), "{kinds:?}");
    assert!(kinds.contains(&RepairKind::SingleQuotes), "{kinds:?}");
    assert!(kinds.contains(&RepairKind::TrailingComma), "{kinds:?}");
    // Spans point into the whole reply, in input order.
    for r in &got.repairs {
        assert!(r.span().end <= reply.len(), "{r:?}");
    }
    let starts: Vec<usize> = got.repairs.iter().map(|r| r.span().start).collect();
    assert!(starts.windows(2).all(|w| w[0] <= w[1]), "{starts:?}");
    let comma = got
        .repairs
        .iter()
        .find(|r| r.kind() == RepairKind::TrailingComma)
        .unwrap();
    assert_eq!(&reply[comma.span()], ",");
    assert_eq!(&reply[got.span.clone()], "{'a': 1,}\n");
}

#[test]
fn skipped_reasoning_is_reported() {
    let reply = "<think>{\"a\": 0}</think>{\"a\": 1}";
    let got = extract(reply).unwrap();
    let skip = got
        .repairs
        .iter()
        .find(|r| r.kind() == RepairKind::SkippedReasoning)
        .unwrap();
    assert_eq!(&reply[skip.span()], "<think>{\"a\": 0}</think>");
}

/// Every reasoning tag the engine skips, `<reflection>` included, is skipped by `extract`
/// too (one list of tags): an answer after the block is the pick, and a reply cut off
/// inside the block holds no answer.
#[test]
fn every_reasoning_tag_is_skipped() {
    for (open, close) in [
        ("<think>", "</think>"),
        ("<thinking>", "</thinking>"),
        ("<reasoning>", "</reasoning>"),
        ("<reflection>", "</reflection>"),
        ("<REFLECTION>", "</Reflection>"),
    ] {
        let block = format!("{open}draft: {{\"a\": 0}}{close}");
        let reply = format!("{block}\nHere: {{\"a\": 1}}");
        let got = extract(&reply).unwrap();
        assert_eq!(got.value, json!({"a": 1}), "{open}");
        let skip = got
            .repairs
            .iter()
            .find(|r| r.kind() == RepairKind::SkippedReasoning)
            .unwrap();
        assert_eq!(&reply[skip.span()], block, "{open}");
        let cut = format!("{open}draft: {{\"a\": 0}}");
        let err = extract(&cut).unwrap_err();
        assert_eq!(err.kind(), &ErrorKind::NoJson, "{open}");
    }
}

#[test]
fn truncation_is_marked() {
    let got = extract(r#"{"a": 1, "b": [1, 2"#).unwrap();
    assert!(got.is_truncated());
    assert_eq!(got.value, json!({"a": 1, "b": [1, 2]}));
    let c = candidates("```json\n{\"a\": \"cut");
    assert!(c[0].truncated, "{c:?}");
    // The complete inner values of a cut-off document are not offered as answers.
    let c = candidates(r#"{"user": {"name": "a"}, "items": [1"#);
    assert_eq!(c.len(), 1, "{c:?}");
    // An example, then the answer cut off: the cut answer is the reader's pick.
    let c = candidates(
        "Example: {\"status\": \"done\", \"count\": 1}\nAnswer: {\"status\": \"pending\", \"cou",
    );
    assert!(c[0].truncated, "{c:?}");
    assert_eq!(c[0].value, json!({"status": "pending"}));
}

#[test]
fn candidates_are_listed_once_in_order() {
    let reply = "Example {\"a\": 0}.\n```json\n{\"a\": 1}\n```\nAgain: {\"a\": 1} and [2, 3]";
    let c = candidates(reply);
    let values: Vec<_> = c.iter().map(|c| c.value.clone()).collect();
    assert_eq!(
        values,
        vec![json!({"a": 1}), json!([2, 3]), json!({"a": 0})]
    );
    assert_eq!(c[0].source, CandidateSource::Fence(0));
}

#[test]
fn candidates_are_capped() {
    let reply = "{\"a\": 1} ".repeat(10_000);
    let c = candidates(&reply);
    assert!(c.len() <= MAX_CANDIDATES);
    // Many distinct spans: still capped.
    // (How long that takes belongs in the `heal` bench's `extract` group, not in a timed
    // test, which fails on a loaded machine and proves nothing on a quiet one.)
    let reply: String = (0..5000).map(|i| format!("x {{\"n\": {i}}} ")).collect();
    let c = candidates(&reply);
    assert_eq!(c.len(), MAX_CANDIDATES);
    assert_eq!(c[0].value, json!({"n": 4999}));
}

#[test]
fn adversarial_input_does_not_panic() {
    let inputs = [
        "{".repeat(50_000),
        "[".repeat(50_000) + &"]".repeat(49_999),
        "```".repeat(1000),
        "\"".repeat(1001) + "{",
        "<think>".repeat(100) + "</think>",
        "final answer".repeat(100),
        "é{\"a\":\"é\"}é".to_owned(),
        "~~~json\n".to_owned(),
    ];
    for input in inputs {
        let _ = candidates(&input);
        let _ = extract(&input);
    }
}

#[test]
fn candidate_sources_serialize() {
    assert_eq!(
        serde_json::to_value(CandidateSource::Whole).unwrap(),
        json!("whole")
    );
    assert_eq!(
        serde_json::to_value(CandidateSource::Fence(2)).unwrap(),
        json!({"fence": 2})
    );
    assert_eq!(
        serde_json::to_value(CandidateSource::Span).unwrap(),
        json!("span")
    );
}
