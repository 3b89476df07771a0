//! `MissingQuote`: strings and keys that lost their opening or closing quote.

use crate::prelude::*;

#[test]
fn strings_that_lost_their_closing_quote() {
    run(
        "missing closing quote",
        &[
            RepairKind::MissingQuote,
            RepairKind::Truncated,
            RepairKind::TrailingComma,
        ],
        &[
            (
                "{\"a\": 1, \"b\": \"unterminated\n}",
                r#"{"a":1,"b":"unterminated"}"#,
            ),
            (
                "{\n  \"a\": \"foo\",\n  \"b\": \"bar\n}",
                r#"{"a":"foo","b":"bar"}"#,
            ),
            ("[\"x\n]", r#"["x"]"#),
            (r#"{"a": "b" , , "c": "d"}"#, r#"{"a":"b","c":"d"}"#),
            // A cut string whose text merely contains a line break keeps it.
            ("{\"a\": \"line\nmore", r#"{"a":"line\nmore"}"#),
        ],
    );
}

/// A string that never closes, at the end of a text that ends with exactly the closers of
/// what is open: the quote was forgotten before them (not a cut-off answer).
#[test]
fn a_forgotten_quote_before_the_final_closers() {
    run(
        "missing quote",
        &[RepairKind::MissingQuote, RepairKind::Truncated],
        &[
            (r#"{"key": ["value]}"#, r#"{"key":["value"]}"#),
            ("[\"abc]\n", r#"["abc"]"#),
            ("[\"abc  ]\n", r#"["abc"]"#),
            ("[\n[\n\"abc\n]\n]\n", r#"[["abc"]]"#),
            (r#"[{"a": "x}]"#, r#"[{"a":"x"}]"#),
            // Closers that do not match what is open are content of a cut-off string.
            (r#"{"code": "arr[i]"#, r#"{"code":"arr[i]"}"#),
            (r#"{"a": ["x", "y]]}"#, r#"{"a":["x","y]]}"]}"#),
        ],
    );
    assert!(!repair(r#"{"key": ["value]}"#).unwrap().is_truncated());
    assert!(repair(r#"{"a": ["x", "y]]}"#).unwrap().is_truncated());
}

/// A string value that lost its closing quote right before the closers of its containers,
/// then a comma and the next key of an object around them: the closers are structure. Not
/// when the string holds an opener of its own (code, whose closers are content), nor when the
/// closers do not lead to an object.
#[test]
fn lost_quotes_before_closers_and_the_next_key() {
    run(
        "lost quotes before closers",
        &[RepairKind::MissingQuote],
        &[
            (r#"{"a": ["x", "y], "b": 1}"#, r#"{"a":["x","y"],"b":1}"#),
            (r#"{"a": {"b": "x}, "c": 1}"#, r#"{"a":{"b":"x"},"c":1}"#),
            (
                r#"{"a": [{"b": "x}], "c": 1}"#,
                r#"{"a":[{"b":"x"}],"c":1}"#,
            ),
            (
                r#"{"a": [{"b": "x} ] , "c": 1}"#,
                r#"{"a":[{"b":"x"}],"c":1}"#,
            ),
            (
                r#"{"user": {"tags": ["admin", "ops], "name": "Ana"}}"#,
                r#"{"user":{"tags":["admin","ops"],"name":"Ana"}}"#,
            ),
            // Code whose braces are its own.
            (
                r#"{"call": {"content": "if (x) { y }, "path": "a"}}"#,
                r#"{"call":{"content":"if (x) { y }","path":"a"}}"#,
            ),
            // The closer ends an object inside an array: no key of that array follows.
            (
                r#"{"a": [{"b": "x}, "c": 1}"#,
                r#"{"a":[{"b":"x}","c":1}]}"#,
            ),
            // The closer ends the root: what follows is not a member.
            (r#"["see [1], "b": 2]"#, r#"["see [1], \"b\": 2"]"#),
        ],
    );
    assert!(kinds(r#"{"a": ["x", "y], "b": 1}"#).contains(&RepairKind::MissingQuote));
}

/// A value that lost its closing quote before `,` at the end of a line, the next key on the
/// next line: the comma and the line break are the separator, not content.
#[test]
fn lost_quotes_before_a_comma_and_a_line_break() {
    run(
        "lost quotes before a comma and a line break",
        &[RepairKind::MissingQuote],
        &[
            (
                "{\"name\": \"Ada,\n  \"age\": 3}",
                r#"{"name":"Ada","age":3}"#,
            ),
            (
                "{\"name\": \"Ada,\r\n  \"age\": 3}",
                r#"{"name":"Ada","age":3}"#,
            ),
            (
                "{\"name\": \"Ada,\t\n\"age\": 3}",
                r#"{"name":"Ada","age":3}"#,
            ),
            (
                "{\"a\": \"multi\nline,\n  \"b\": 1}",
                r#"{"a":"multi\nline","b":1}"#,
            ),
            // Only one comma is the separator.
            ("{\"a\": \"x,,\n \"b\": 1}", r#"{"a":"x,","b":1}"#),
        ],
    );
    // The line break is gone from the value, and so is its repair.
    assert_eq!(
        kinds("{\"name\": \"Ada,\n  \"age\": 3}"),
        vec![RepairKind::MissingQuote, RepairKind::MissingComma]
    );
}

/// An element that lost its closing quote at the end of its line, the next element's quote
/// first on the next line: the string ends at the line's end (a comma there is the
/// separator). Not when the text before was already on several lines, nor when the quoted
/// words are followed by more text (a quote inside prose).
#[test]
fn elements_that_lost_their_quote_at_the_line_end() {
    run(
        "elements that lost their quote at the line end",
        &[RepairKind::MissingQuote, RepairKind::InnerQuote],
        &[
            (
                "{\n  \"steps\": [\n    \"one\",\n    \"two,\n    \"three\"\n  ]\n}",
                r#"{"steps":["one","two","three"]}"#,
            ),
            (
                "{\n  \"steps\": [\n    \"one\",\n    \"two\n    \"three\"\n  ]\n}",
                r#"{"steps":["one","two","three"]}"#,
            ),
            ("[\n  \"a\n  \"b\",\n  \"c\"\n]", r#"["a","b","c"]"#),
            (
                "[\"one\",\r\n\"two\r\n\"three\"]",
                r#"["one","two","three"]"#,
            ),
            (
                "[\"He said:\n\"hello\" and left\"]",
                r#"["He said:\n\"hello\" and left"]"#,
            ),
            (
                "[\n  \"multi\nline\n  \"b\"\n]",
                r#"["multi\nline\n  \"b"]"#,
            ),
            (r#"["x, "y"]"#, r#"["x, \"y"]"#),
        ],
    );
}

/// A key that lost its closing quote before `: ` after a string value: the value's quote
/// closes it, and the key ends at its colon, also before a container.
#[test]
fn keys_that_lost_their_quote_after_a_string_value() {
    run(
        "keys that lost their quote after a string value",
        &[RepairKind::MissingQuote, RepairKind::InnerQuote],
        &[
            (
                r#"[{"name": "Bob", "role": "designer", "skills: []}, {"name": "Carol"}]"#,
                r#"[{"name":"Bob","role":"designer","skills":[]},{"name":"Carol"}]"#,
            ),
            (
                r#"{"model": "resnet-50", "metrics: {"loss": 1.25e-3}, "ok": true}"#,
                r#"{"model":"resnet-50","metrics":{"loss":1.25e-3},"ok":true}"#,
            ),
            (
                r#"{"name": "write_file", "arguments: {"path": "a.py"}}"#,
                r#"{"name":"write_file","arguments":{"path":"a.py"}}"#,
            ),
            (r#"{"a": "b", "c: 1}"#, r#"{"a":"b","c":1}"#),
            // No colon and space after the word: no key.
            (r#"{"a": "x", "Note:this"}"#, r#"{"a":"x\", \"Note:this"}"#),
        ],
    );
}

/// A key that lost its closing quote in compact JSON (`"units:"metric"`), before a raw line
/// break (`"id: 1,\n`), or before a value that its own quote opens (`"cwd: "/home"`): the
/// key ends at its colon. A key that holds a colon and closes properly stays whole.
#[test]
fn keys_that_lost_their_closing_quote_in_compact_and_multiline_json() {
    run(
        "key lost its closing quote",
        &[RepairKind::MissingQuote, RepairKind::MissingColon],
        &[
            (
                r#"{"a":"x","units:"metric","d":[1]}"#,
                r#"{"a":"x","units":"metric","d":[1]}"#,
            ),
            (r#"{"units:"metric"}"#, r#"{"units":"metric"}"#),
            (
                r#"{"id":"c","type:"function","f":{"n":"g"}}"#,
                r#"{"id":"c","type":"function","f":{"n":"g"}}"#,
            ),
            (
                r#"{"a":{"b":1,"days:[1,2,3]}},"i":0}"#,
                r#"{"a":{"b":1,"days":[1,2,3]},"i":0}"#,
            ),
            (
                r#"{"f":{"arguments:{"city":"Paris"}},"i":0}"#,
                r#"{"f":{"arguments":{"city":"Paris"}},"i":0}"#,
            ),
            (r#"{"index:0}"#, r#"{"index":0}"#),
            // A colon lost between a key and its string value, in compact JSON.
            (
                r#"{"id":"c","type""function","f":1}"#,
                r#"{"id":"c","type":"function","f":1}"#,
            ),
            (
                "{\"a\": \"x\",\n  \"id: 1,\n  \"b\": 2}",
                r#"{"a":"x","id":1,"b":2}"#,
            ),
            (
                "{\"a\": \"x\", \"owner: null\n}",
                r#"{"a":"x","owner":null}"#,
            ),
            (
                r#"{"lang": "de", "summary: "日本語 ok", "tags": ["a"]}"#,
                r#"{"lang":"de","summary":"日本語 ok","tags":["a"]}"#,
            ),
            (
                r#"{"a": 1, "cwd: "/home/user"}, "r": 2}"#,
                r#"{"a":1,"cwd":"/home/user","r":2}"#,
            ),
            // Keys with a colon of their own, closed by their quote: kept.
            (r#"{"a:b": 1, "http://x": 2}"#, r#"{"a:b":1,"http://x":2}"#),
            (r#"{"12:30": "lunch"}"#, r#"{"12:30":"lunch"}"#),
            // A value that holds `word:` stays one string.
            (r#"{"a": "note:", "b": 1}"#, r#"{"a":"note:","b":1}"#),
        ],
    );
}

/// A string value that lost its opening quote runs to its first unescaped `"` on the line
/// when what follows that quote ends the value: a separator, or, where the text holds
/// structure, the closer of what holds it or a comma and the next key or element. Escapes
/// JSON knows are read as escapes.
#[test]
fn values_that_lost_their_opening_quote() {
    run(
        "value lost its opening quote",
        &[RepairKind::UnquotedValue],
        &[
            (
                r#"{"host": 0.0.0.0", "port": 8080}"#,
                r#"{"host":"0.0.0.0","port":8080}"#,
            ),
            (
                r#"{"url": postgres://a:b@db:5432/app", "pool": 1}"#,
                r#"{"url":"postgres://a:b@db:5432/app","pool":1}"#,
            ),
            (
                r#"{"PERSON": [John O'Brien"], "ORG": []}"#,
                r#"{"PERSON":["John O'Brien"],"ORG":[]}"#,
            ),
            (
                r#"{"q": She said \"yes, [maybe]\" and left", "c": "x"}"#,
                r#"{"q":"She said \"yes, [maybe]\" and left","c":"x"}"#,
            ),
            (
                r#"[{"b": Off-by-one: `0..=n` [see #12]"}, {"c": 1}]"#,
                r#"[{"b":"Off-by-one: `0..=n` [see #12]"},{"c":1}]"#,
            ),
            (
                r#"{"r": ^[a-z]+:\\d{2,4}$", "m": 1}"#,
                r#"{"r":"^[a-z]+:\\d{2,4}$","m":1}"#,
            ),
            (
                r#"{"p": C:\Users\me", "q": 1}"#,
                r#"{"p":"C:\\Users\\me","q":1}"#,
            ),
            (
                r#"{"cmd": ls -la | grep \"x\"", "n": 1}"#,
                r#"{"cmd":"ls -la | grep \"x\"","n":1}"#,
            ),
            // The first quote opens the next key: the word before it is a bare value.
            (r#"{"a": x, "b": y", "c": 1}"#, r#"{"a":"x","b":"y","c":1}"#),
            (r#"{"a":x,"b":"c"}"#, r#"{"a":"x","b":"c"}"#),
            (r#"{"a": foo "b": 1}"#, r#"{"a":"foo","b":1}"#),
            // Structure before a quote that nothing plausible follows: `a` is no `x, y`.
            (r#"{"a": x, y" z, "b": 1}"#, r#"{"a":"x","y":" z","b":1}"#),
        ],
    );
}

/// A string that lost its opening quote keeps its closing one: for a value, a separator or
/// closer follows that quote; for a key, its colon does.
#[test]
fn strings_that_lost_their_opening_quote() {
    run(
        "lost opening quote",
        &[
            RepairKind::UnquotedKey,
            RepairKind::UnquotedValue,
            RepairKind::InnerQuote,
        ],
        &[
            (r#"{"a": x", "b": 1}"#, r#"{"a":"x","b":1}"#),
            (
                r#"{"a": hello world", "b": 1}"#,
                r#"{"a":"hello world","b":1}"#,
            ),
            (r#"["a", b", "c"]"#, r#"["a","b","c"]"#),
            (r#"{"a": x"}"#, r#"{"a":"x"}"#),
            (r#"{a": 1}"#, r#"{"a":1}"#),
            (r#"{"a": 1, b": 2}"#, r#"{"a":1,"b":2}"#),
            // After a string value the quote still closes it: the key follows.
            (r#"{"a": "x", b": 2}"#, r#"{"a":"x","b":2}"#),
            (
                "{\"a\": \"x\",\n b\": 2, c\": 3}",
                r#"{"a":"x","b":2,"c":3}"#,
            ),
            // A quote inside a value with words after it is no such thing.
            (
                r#"{"a": "say "hi" now", "b": 1}"#,
                r#"{"a":"say \"hi\" now","b":1}"#,
            ),
        ],
    );
}

/// `{"id":42"name":"x"}`: a number right before the next key (its comma lost) stays a
/// number; `["x",\n  "y\n  ]\n}`: a string that lost its quote at a line's end, when only
/// layout, closers and commas follow to the text's end over several lines, ends at the
/// first of those line breaks.
#[test]
fn a_lost_comma_after_a_number_and_a_lost_quote_before_closing_lines() {
    run(
        "lost comma, lost quote",
        &[
            RepairKind::MissingQuote,
            RepairKind::MissingComma,
            RepairKind::InvalidCharacter,
        ],
        &[
            (
                r#"{"id":42"name":"Widget","price":9.99}"#,
                r#"{"id":42,"name":"Widget","price":9.99}"#,
            ),
            (r#"{"a": 5", "b": 1}"#, r#"{"a":5,"b":1}"#),
            (
                "{\"tracks\": [\n    \"Weightless\",\n    \"Experience\n  ]\n}",
                r#"{"tracks":["Weightless","Experience"]}"#,
            ),
            ("{\"a\": \"bar\n}", r#"{"a":"bar"}"#),
            ("{\"a\": \"x\n  y\n  ]\n}", r#"{"a":"x\n  y"}"#),
        ],
    );
    // The line breaks that became layout are not reported as escaped.
    assert_eq!(
        kinds("{\"t\": [\"E\n  ]\n}"),
        vec![RepairKind::MissingQuote],
        "{:?}",
        repair("{\"t\": [\"E\n  ]\n}").unwrap().repairs
    );
}

/// A Windows path that ends in a backslash right before its closing quote (`"C:\dir\"`):
/// no path holds a quote, so the quote ends it and the backslash stays.
#[test]
fn windows_paths_ending_in_a_backslash() {
    run(
        "windows paths ending in a backslash",
        &[RepairKind::InvalidEscape],
        &[
            (r#"{"path": "C:\dir\"}"#, r#"{"path":"C:\\dir\\"}"#),
            (r#"{"p": "C:\dir\", "q": 1}"#, r#"{"p":"C:\\dir\\","q":1}"#),
            (r#"["C:\dir\"]"#, r#"["C:\\dir\\"]"#),
            (r#"{"p": "C:\dir\"name"}"#, r#"{"p":"C:\\dir\"name"}"#),
        ],
    );
}
