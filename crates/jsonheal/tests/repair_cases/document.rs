//! The document level: `StrippedProse`, `StrippedFence`, `SkippedReasoning`, `MultipleValues`,
//! and prose that holds no JSON.

use crate::prelude::*;

#[test]
fn fences_prose_and_reasoning() {
    run(
        "code fence",
        &[RepairKind::StrippedFence],
        &[
            ("```json\n{\"a\": 1}\n```", r#"{"a":1}"#),
            ("```\n{\"a\": 1}\n```", r#"{"a":1}"#),
            ("~~~json\n{\"a\": 1}\n~~~", r#"{"a":1}"#),
            ("```JSON\n[1, 2]\n```", "[1,2]"),
            ("```json\n{'a': 1,}\n```", r#"{"a":1}"#),
            ("```json\n```", ERR),
            ("```", ERR),
        ],
    );
    run(
        "code fence + prose",
        &[RepairKind::StrippedProse],
        &[
            (
                "Here is the JSON:\n```json\n{\"a\": 1}\n```\nHope this helps!",
                r#"{"a":1}"#,
            ),
            (
                "Sure, here you go:\n\n```json\n{\n  \"name\": \"x\"\n}\n```",
                r#"{"name":"x"}"#,
            ),
        ],
    );
    run(
        "text around JSON",
        &[RepairKind::StrippedProse],
        &[
            ("Sure! Here it is: {\"a\": 1} Let me know.", r#"{"a":1}"#),
            ("The result is [1, 2, 3].", "[1,2,3]"),
            ("{\"a\": 1} garbage", r#"{"a":1}"#),
            ("Output: {\"ok\": true}\n\nThat's all.", r#"{"ok":true}"#),
            ("I'd say {'a': 1} is right", r#"{"a":1}"#),
            ("Use the {name} placeholder: {\"a\": 1}", r#"{"a":1}"#),
            ("See [the docs] for {\"a\": 1}", r#"{"a":1}"#),
        ],
    );
    run(
        "no JSON at all",
        &[],
        &[
            ("I cannot help with that request.", ERR),
            ("", ERR),
            ("   \n\t ", ERR),
            ("I'm sorry, I can't do that.", ERR),
            ("Hello there", ERR),
        ],
    );
    run(
        "reasoning preamble",
        &[RepairKind::SkippedReasoning],
        &[
            ("<think>maybe {\"x\": 0}</think>\n{\"a\": 1}", r#"{"a":1}"#),
            ("<thinking>[1]</thinking>[2]", "[2]"),
            (
                "<reasoning>let me think</reasoning>\n```json\n{\"a\": 1}\n```",
                r#"{"a":1}"#,
            ),
            ("<think>only thoughts {\"x\": 1}", ERR),
        ],
    );
    run(
        "multiple JSON values",
        &[RepairKind::MultipleValues],
        &[
            ("{\"a\": 1}\n{\"a\": 2}", r#"[{"a":1},{"a":2}]"#),
            ("[1] [2]", "[[1],[2]]"),
        ],
    );
}

#[test]
fn reasoning_tags_close_in_any_case() {
    run(
        "reasoning preamble",
        &[RepairKind::SkippedReasoning],
        &[
            ("<THINKING>x {\"a\": 0}</THINKING>{\"a\": 1}", r#"{"a":1}"#),
            ("<Think>x</think>\n[1]", "[1]"),
        ],
    );
}

#[test]
fn prose_in_braces_is_not_an_object() {
    run(
        "no JSON at all",
        &[
            RepairKind::UnquotedKey,
            RepairKind::Truncated,
            RepairKind::MissingValue,
        ],
        &[
            ("{see attached}", ERR),
            ("{name}", ERR),
            ("{a = 1}", r#"{"a":1}"#),
            ("{a: 1}", r#"{"a":1}"#),
            ("{\"a\"}", r#"{"a":null}"#),
            ("{", "{}"),
        ],
    );
}

/// A code fence written on one line.
#[test]
fn one_line_fences() {
    run(
        "fences",
        &[RepairKind::StrippedFence],
        &[
            ("```{\"a\": 1}```", r#"{"a":1}"#),
            ("```json {\"a\": \"b\"} ```", r#"{"a":"b"}"#),
            ("Here: ```json {\"a\": 1}```", r#"{"a":1}"#),
            ("````{ \"key\": \"value\" }```", r#"{"key":"value"}"#),
            ("Here it is: ```json { 'a': 'b' } ```", r#"{"a":"b"}"#),
            ("```json [1, 2]``` and ```json [3]```", "[[1,2],[3]]"),
            ("```json```", ERR),
        ],
    );
}

/// Quotes alone hold no value.
#[test]
fn quotes_alone_are_no_json() {
    run(
        "no json",
        &[],
        &[("\"\"\"\"\"", ERR), ("''''", ERR), ("\"", ERR), ("'", ERR)],
    );
}

/// A citation in prose (`[1]`, `[12][13]` after words on a line) is no answer; a `[1]` that
/// starts the text or its own line, or comes after a first value, is JSON.
#[test]
fn citations_in_prose_are_no_answer() {
    run(
        "citations",
        &[RepairKind::StrippedProse, RepairKind::MultipleValues],
        &[
            ("This is well documented in the literature [1][2].", "ERR"),
            ("Refs: [12]", "ERR"),
            ("I could not find the primes; see [1].", "ERR"),
            ("see [1] and then {\"a\": 1}", r#"{"a":1}"#),
            ("[1]", "[1]"),
            ("[1][2]", "[[1],[2]]"),
            ("[1]\n[2]\n[3]", "[[1],[2],[3]]"),
            ("// {\"a\": 1}\n[1]", "[1]"),
            ("The result is [1, 2].", "[1,2]"),
            ("Result: [-1]", "[-1]"),
            // A Markdown task box is no empty array either.
            ("Todo:\n- [ ] write tests\n- [x] ship it", "ERR"),
            ("Steps:\n- [1, 2]", "[1,2]"),
        ],
    );
}

/// Prose that looks like JSON for a byte or two holds none.
#[test]
fn placeholders_and_options_are_no_json() {
    run(
        "json-looking prose",
        &[RepairKind::StrippedProse, RepairKind::RedundantCloser],
        &[
            ("Usage: read_file <path> [--lines N]", ERR),
            ("see [-a] here", ERR),
            ("{{user_name}}", ERR),
            ("Hello {{ name }}, welcome", ERR),
            ("{{name}} and {{date}}", ERR),
            // Still JSON: a negative number, nested objects.
            ("Result: [-1, 2]", "[-1,2]"),
            (r#"{{"a": 1}}"#, r#"{"a":1}"#),
        ],
    );
}

/// A chat template's control tokens before the value (`[TOOL_CALLS]`, `[ARGS]`, `[INST]`)
/// are not arrays; alone, `[ABC]` still is one.
#[test]
fn chat_template_control_tokens() {
    run(
        "prose",
        &[RepairKind::StrippedProse, RepairKind::UnquotedValue],
        &[
            (
                r#"[TOOL_CALLS] [{"name": "a", "arguments": {}}]"#,
                r#"[{"name":"a","arguments":{}}]"#,
            ),
            (
                r#"[TOOL_CALLS]translate[ARGS]{"text": "x",}"#,
                r#"{"text":"x"}"#,
            ),
            (r#"[INST] json please [/INST] {"a": 1}"#, r#"{"a":1}"#),
            (
                r#"[TOOL_CALLS] [{"name": "f", "arguments": {"ids": [1, 2"#,
                r#"[{"name":"f","arguments":{"ids":[1,2]}}]"#,
            ),
            ("[ABC]", r#"["ABC"]"#),
            (r#"[ABC, "d"]"#, r#"["ABC","d"]"#),
        ],
    );
}

/// A bracket in prose opens an array only before JSON: `[8%]`, `[0u8; 32]` and `[-r]` are
/// notes, a code snippet and an option.
#[test]
fn bracketed_notes_in_prose_are_no_arrays() {
    run(
        "prose",
        &[RepairKind::StrippedProse],
        &[
            (r#"{"a": 1} Tax [8%]."#, r#"{"a":1}"#),
            ("Result: [1, 2]", "[1,2]"),
            ("Result: [1 2]", "[1,2]"),
            ("see [-1, 2]", "[-1,2]"),
            ("values [1.5e3]", "[1.5e3]"),
        ],
    );
}

/// A wrapper's closing tag or a chat template's special token at the text's end ends the
/// document, even where the document is still open; elsewhere `<` is content.
#[test]
fn closing_tags_end_the_document() {
    run(
        "wrappers",
        &[
            RepairKind::StrippedProse,
            RepairKind::Truncated,
            RepairKind::UnquotedValue,
        ],
        &[
            (r#"{"a": "x"</tool_call>"#, r#"{"a":"x"}"#),
            (r#"{"a": "x" </tool_call>"#, r#"{"a":"x"}"#),
            (r#"{"a": 1</tool_call>"#, r#"{"a":1}"#),
            ("{\"a\": true</function>\n", r#"{"a":true}"#),
            (r#"{"a": "O'Neil"<|call|>"#, r#"{"a":"O'Neil"}"#),
            (r#"{"a": {"b": 1}<|im_end|>"#, r#"{"a":{"b":1}}"#),
            (
                r#"<tool_call>{"a": "x", "b": [1, 2</tool_call>"#,
                r#"{"a":"x","b":[1,2]}"#,
            ),
            (r#"{"a": "x"}</parameter></invoke>"#, r#"{"a":"x"}"#),
            // Inside a string, or with more after it, a tag is content.
            (r#"{"a": "<b>bold</b>"}"#, r#"{"a":"<b>bold</b>"}"#),
            (r#"{"a": "x</b>", "c": 1}"#, r#"{"a":"x</b>","c":1}"#),
            (r#"{"html": "<p>x</p>""#, r#"{"html":"<p>x</p>"}"#),
            (r#"{"a": 1 < 2}"#, r#"{"a":"1 < 2"}"#),
        ],
    );
}

/// A fence that holds one scalar is a JSON document (`42`, `"yes"`, `null`, `True`), and
/// wins over a value in the prose around it; prose alone in a fence is none.
#[test]
fn a_fence_that_holds_one_scalar() {
    run(
        "fenced scalar",
        &[RepairKind::StrippedFence],
        &[
            ("```json\n42\n```", "42"),
            ("```json\nnull\n```", "null"),
            (
                "The answer:\n```json\n\"hi there\"\n```\nThanks",
                r#""hi there""#,
            ),
            ("```json\n\"say \\\"hi\\\"\"\n```", r#""say \"hi\"""#),
            ("```\nTrue\n```", "true"),
            ("```json\n-1.5e3\n```\nAlso see [1, 2]", "-1.5e3"),
            ("```json\n{\"a\": 1}\n```", r#"{"a":1}"#),
            ("```json\n42 apples\n```", ERR),
            ("```\nI cannot help with that.\n```", ERR),
        ],
    );
}
