//! `InnerQuote`: unescaped quotes inside strings (code, prose, JSON inside a string), and
//! what after a quote shows that the string ended there.

use crate::prelude::*;

/// What follows a string value's closing quote decides that it closes the string: the next
/// member in any form a model writes it (a key that lost its colon, a dotted or `@` key, an
/// ellipsis, a key cut by the end of the text).
#[test]
fn what_follows_a_closing_quote() {
    run(
        "key without colon after a string",
        &[RepairKind::MissingColon, RepairKind::InnerQuote],
        &[
            (
                "{\n  \"name\" \"Ada\",\n  \"age\" 36\n}",
                r#"{"name":"Ada","age":36}"#,
            ),
            (r#"{"a": "x", "b" 1}"#, r#"{"a":"x","b":1}"#),
            (r#"{"a" "b" "c" "d"}"#, r#"{"a":"b","c":"d"}"#),
            (
                r#"{"name": "Ada", "tags" ["x"]}"#,
                r#"{"name":"Ada","tags":["x"]}"#,
            ),
            (
                r#"{"name": "search", "arguments" {"q": "rust"}}"#,
                r#"{"name":"search","arguments":{"q":"rust"}}"#,
            ),
            (
                r#"{"city": "Paris", "sunny" true}"#,
                r#"{"city":"Paris","sunny":true}"#,
            ),
            // A quoted word then prose is still an inner quote.
            (
                r#"{"say": "press "OK" to go", "n": 1}"#,
                r#"{"say":"press \"OK\" to go","n":1}"#,
            ),
        ],
    );
    run(
        "dotted, @ and slashed keys after a string",
        &[RepairKind::UnquotedKey],
        &[
            (
                r#"{user.name: "ada", user.id: 7}"#,
                r#"{"user.name":"ada","user.id":7}"#,
            ),
            (
                r#"{@type: "Person", @id: "p1"}"#,
                r#"{"@type":"Person","@id":"p1"}"#,
            ),
            (
                r#"{"src": "a.txt", dest/path: "b.txt"}"#,
                r#"{"src":"a.txt","dest/path":"b.txt"}"#,
            ),
            (r#"{"a": "x", b /* c */ : 1}"#, r#"{"a":"x","b":1}"#),
        ],
    );
    run(
        "ellipsis after a string",
        &[RepairKind::Ellipsis],
        &[
            (r#"{"a": "x", ... "z": 1}"#, r#"{"a":"x","z":1}"#),
            (r#"{"name": "Ada", ...}"#, r#"{"name":"Ada"}"#),
            (
                "{\n  \"id\": \"u1\",\n  \"name\": \"Ada\",\n  ...\n}",
                r#"{"id":"u1","name":"Ada"}"#,
            ),
            (
                r#"[{"id": 1, "name": "a", ...}, ...]"#,
                r#"[{"id":1,"name":"a"}]"#,
            ),
        ],
    );
    run(
        "a key cut by the end after a string",
        &[RepairKind::Truncated],
        &[
            (r#"{"a": "x", na"#, r#"{"a":"x"}"#),
            (r#"{name: "Ada", user.na"#, r#"{"name":"Ada"}"#),
            ("{'a': 'x', 'b'", r#"{"a":"x"}"#),
            ("{'a': 'x', '", r#"{"a":"x"}"#),
            (r#"{"a": "x" + "#, r#"{"a":"x"}"#),
        ],
    );
}

/// JSON or code inside a string value whose own closers come right before the real
/// closing quote: the closers are content, the members after the string survive.
#[test]
fn closers_inside_a_string_before_its_quote() {
    run(
        "closers inside a string",
        &[RepairKind::InnerQuote, RepairKind::StrippedProse],
        &[
            (
                r#"{"content": "{"key": "value"}", "path": "a.json"}"#,
                r#"{"content":"{\"key\": \"value\"}","path":"a.json"}"#,
            ),
            (
                r#"{"code": "x = {"k": "v"}", "n": 1}"#,
                r#"{"code":"x = {\"k\": \"v\"}","n":1}"#,
            ),
            (
                r#"{"js": "const o = {a: "b"};", "ok": true}"#,
                r#"{"js":"const o = {a: \"b\"};","ok":true}"#,
            ),
            // JSON inside, its quotes unescaped: its own members stay inside.
            (
                r#"{"arguments": "{"location": "Boston, MA", "unit": "f"}"}"#,
                r#"{"arguments":"{\"location\": \"Boston, MA\", \"unit\": \"f\"}"}"#,
            ),
            (
                "{\"code\": \"data = {\"name\": \"x\", \"id\": 2}\\nprint(data)\", \"lang\": \"py\"}",
                r#"{"code":"data = {\"name\": \"x\", \"id\": 2}\nprint(data)","lang":"py"}"#,
            ),
            // A wrong closer with more text after it, in an object.
            (
                r#"{"css": "a[href="x"] { color: red; }"}"#,
                r#"{"css":"a[href=\"x\"] { color: red; }"}"#,
            ),
            (r#"["{", null]"#, r#"["{",null]"#),
            // A stray quote after the document is not content.
            (r#"{"a": {"b": "c"}}""#, r#"{"a":{"b":"c"}}"#),
            (r#"[{"a": "x"}, "y"]"#, r#"[{"a":"x"},"y"]"#),
        ],
    );
}

/// Quotes inside code or prose in a string, where what follows them looks like the end of
/// the string at first sight.
#[test]
fn inner_quotes_before_separators_and_closers() {
    run(
        "inner quotes before `;` and closers",
        &[RepairKind::InnerQuote, RepairKind::MissingComma],
        &[
            (
                r#"{"code": "function f() { return "ok"; }", "file": "a.js"}"#,
                r#"{"code":"function f() { return \"ok\"; }","file":"a.js"}"#,
            ),
            (
                r#"{"name": "write_file", "arguments": {"path": "g.ts", "content": "export function g() { return "hi"; }"}}"#,
                r#"{"name":"write_file","arguments":{"path":"g.ts","content":"export function g() { return \"hi\"; }"}}"#,
            ),
            (
                r#"{"msg": "Type "}" to close", "n": 1}"#,
                r#"{"msg":"Type \"}\" to close","n":1}"#,
            ),
            // A `;` between members is still a separator.
            (r#"{"a": "x"; "b": 2}"#, r#"{"a":"x","b":2}"#),
            // A closer that closes an inner container before a key is no content.
            (r#"{"a": {"b": "x"}"c": 1}"#, r#"{"a":{"b":"x"},"c":1}"#),
            (r#"[["a"]"b", "c"]"#, r#"[["a"],"b","c"]"#),
        ],
    );
    run(
        "inner quotes before a comma in an array",
        &[RepairKind::InnerQuote, RepairKind::UnquotedValue],
        &[
            (
                r#"["She said "no", then left", "next"]"#,
                r#"["She said \"no\", then left","next"]"#,
            ),
            (
                r#"{"quotes": ["He said "wait", and stopped", "fine"]}"#,
                r#"{"quotes":["He said \"wait\", and stopped","fine"]}"#,
            ),
            (r#"["a", b, "c"]"#, r#"["a","b","c"]"#),
            (r#"["x", "y"]"#, r#"["x","y"]"#),
            // One bare word after a string: the comma before it went missing.
            (r#"["red", "green" blue]"#, r#"["red","green","blue"]"#),
            (r#"["He said "hi" twice]"#, r#"["He said \"hi\" twice"]"#),
        ],
    );
}

/// A key with quotes inside, and comments inside a concatenation at the top level.
#[test]
fn inner_quotes_in_keys_and_top_level_concatenation() {
    run(
        "inner quotes in keys",
        &[RepairKind::MissingColon, RepairKind::InnerQuote],
        &[
            (r#"{"the "best" one": 1}"#, r#"{"the \"best\" one":1}"#),
            (r#"{"name" "Ada", "age" 36}"#, r#"{"name":"Ada","age":36}"#),
            (r#"{"a" "b": 1}"#, r#"{"a":{"b":1}}"#),
        ],
    );
    run(
        "top-level concatenation with comments",
        &[RepairKind::Concatenation, RepairKind::InnerQuote],
        &[
            (r#""a" + /* c */ "b""#, r#""ab""#),
            (r#""a" /* c */ + "b""#, r#""ab""#),
            ("\"a\" + // c\n \"b\"", r#""ab""#),
            (r#""He said "hi" + more""#, r#""He said \"hi\" + more""#),
        ],
    );
}

/// Source code inside a string value with its quotes unescaped.
#[test]
fn code_with_unescaped_quotes_in_strings() {
    run(
        "code in strings",
        &[RepairKind::InnerQuote, RepairKind::StrippedProse, RepairKind::StrippedFence, RepairKind::MissingColon],
        &[
            // Go imports: quoted words on lines of their own are no keys without colons.
            (
                "{\"path\": \"main.go\", \"content\": \"import (\n\t\"fmt\"\n\t\"net/http\"\n)\n\"}",
                r#"{"path":"main.go","content":"import (\n\t\"fmt\"\n\t\"net/http\"\n)\n"}"#,
            ),
            // A `)` right after closers inside the document is code.
            (
                r#"{"arguments": {"content": "r = get(URL, params={"base": "EUR"})\nprint(r)"}}"#,
                r#"{"arguments":{"content":"r = get(URL, params={\"base\": \"EUR\"})\nprint(r)"}}"#,
            ),
            // JSONP still ends at its `)`.
            (r#"The call is get_time({"tz": "UTC"})"#, r#"{"tz":"UTC"}"#),
            (r#"cb({"a": ["x"]});"#, r#"{"a":["x"]}"#),
            // A fence inside an unfenced document's string is content.
            (
                "{\"content\": \"## Usage\n```bash\nrun --column \"price\"\n```\nDone.\n\"}",
                r###"{"content":"## Usage\n```bash\nrun --column \"price\"\n```\nDone.\n"}"###,
            ),
            // A closing fence at the text's end (the opening one was in the prompt).
            ("{\"key\": \"value, value2\"```", r#"{"key":"value, value2"}"#),
            // Fenced, the closing fence still ends the document after a string.
            ("```json\n{\"a\": \"x\"\n```", r#"{"a":"x"}"#),
            // A key that lost its colon keeps its value on its line.
            ("{\"name\" \"Ada\", \"age\" 36}", r#"{"name":"Ada","age":36}"#),
        ],
    );
}

/// An inner quote followed by closers and more words (`if [[ -f "$f" ]]; then`), or by a
/// line comment whose line holds the string's real end: content, not the string's end.
#[test]
fn closers_and_comments_after_inner_quotes() {
    run(
        "closers and comments after inner quotes",
        &[
            RepairKind::InnerQuote,
            RepairKind::RemovedComment,
            RepairKind::StrippedProse,
        ],
        &[
            (
                r#"{"c": "x "y" ]] z", "d": 1}"#,
                r#"{"c":"x \"y\" ]] z","d":1}"#,
            ),
            (r#"["x "y" ]] z"]"#, r#"["x \"y\" ]] z"]"#),
            (r#"{"c": "a "b" } c"}"#, r#"{"c":"a \"b\" } c"}"#),
            (
                r#"{"content": "if [[ -f "$f" ]]; then\n  echo ok\nfi", "path": "a.sh"}"#,
                r#"{"content":"if [[ -f \"$f\" ]]; then\n  echo ok\nfi","path":"a.sh"}"#,
            ),
            (
                r#"{"c": "say "hi" # note", "d": 1}"#,
                r#"{"c":"say \"hi\" # note","d":1}"#,
            ),
            (
                r#"{"c": "say "hi" // note", "d": 1}"#,
                r#"{"c":"say \"hi\" // note","d":1}"#,
            ),
            // Prose after the document quotes words too: the document ends at its closer.
            (r#"{"a": "x"} and "b", too"#, r#"{"a":"x"}"#),
            (r#"{"a": "x"} Hope "this" helps"#, r#"{"a":"x"}"#),
            // A real comment after a value.
            ("{\"a\": \"x\" // the \"main\" one\n}", r#"{"a":"x"}"#),
            ("{\"a\": \"x\" # note\n, \"b\": 1}", r#"{"a":"x","b":1}"#),
            (r#"{"k": "a" /* c */ + "b"}"#, r#"{"k":"ab"}"#),
        ],
    );
}

/// After an inner quote, words that run on the line to the string's real end are the
/// sentence going on, not a key that lost its colon (`"The word "x" means y, so z."`); a
/// bare key and its value after a clean string still are.
#[test]
fn inner_quotes_before_the_rest_of_a_sentence() {
    run(
        "inner quotes",
        &[RepairKind::InnerQuote, RepairKind::UnquotedKey],
        &[
            (
                r#"{"a": "The word "x" means y, so z."}"#,
                r#"{"a":"The word \"x\" means y, so z."}"#,
            ),
            (
                r#"{"e": "The word "ephemeral" means short-lived, so B fits.", "n": 1}"#,
                r#"{"e":"The word \"ephemeral\" means short-lived, so B fits.","n":1}"#,
            ),
            (
                r#"{"note": "use "strict" mode", "b": 1}"#,
                r#"{"note":"use \"strict\" mode","b":1}"#,
            ),
            (r#"{"name": "Ann" age 31}"#, r#"{"name":"Ann","age":31}"#),
            (r#"{"a": "x" b: 2}"#, r#"{"a":"x","b":2}"#),
        ],
    );
}

/// A colon after a string element makes it a key only when the string is as short as a key
/// and on one line (the stream shows longer ones as they come): else the colon is dropped.
#[test]
fn long_elements_before_a_colon_stay_elements() {
    let long = "y".repeat(80);
    run(
        "long elements before a colon",
        &[RepairKind::MissingCloser, RepairKind::MissingComma],
        &[
            (
                &format!("[\"{long}\" // c\n: 1]"),
                &format!("[\"{long}\",1]"),
            ),
            ("[\"a\" // c\n: 1]", r#"[{"a":1}]"#),
            (r#"{"t": ["a", "n": 2}"#, r#"{"t":["a"],"n":2}"#),
        ],
    );
}

/// Quotes inside a string value, left unescaped.
#[test]
fn unescaped_quotes_in_strings() {
    run(
        "unescaped quotes in strings",
        &[RepairKind::InnerQuote, RepairKind::MissingQuote],
        &[
            (
                r#"{"text": "He said "hi" to me", "n": 1}"#,
                r#"{"text":"He said \"hi\" to me","n":1}"#,
            ),
            (
                r#"{"text": "do you know "michael", jackson", "n": 1}"#,
                r#"{"text":"do you know \"michael\", jackson","n":1}"#,
            ),
            (r#"{"code": "print("hi")"}"#, r#"{"code":"print(\"hi\")"}"#),
            (r#"{"a": "x "y" z"}"#, r#"{"a":"x \"y\" z"}"#),
            (r#"["He said "hi" ok"]"#, r#"["He said \"hi\" ok"]"#),
            (r#"{"a": "x, "b": 2}"#, r#"{"a":"x","b":2}"#),
        ],
    );
}
