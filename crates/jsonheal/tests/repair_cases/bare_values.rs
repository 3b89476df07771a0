//! `UnquotedValue`, `PythonLiteral`, `NonFiniteNumber`, `Undefined`, `NumberFormat`: values
//! written bare, literals of other languages, numbers JSON does not spell.

use crate::prelude::*;

#[test]
fn unquoted_values_are_typed() {
    run(
        "unquoted string values",
        &[RepairKind::UnquotedValue, RepairKind::UnquotedKey],
        &[
            (
                r#"{"name": John Smith, "age": 30}"#,
                r#"{"name":"John Smith","age":30}"#,
            ),
            (
                "{cmd: read, file: main.go, n: 3, ok: true, x: null}",
                r#"{"cmd":"read","file":"main.go","n":3,"ok":true,"x":null}"#,
            ),
            (
                "{v: 1.2.3, ip: 10.0.0.1}",
                r#"{"v":"1.2.3","ip":"10.0.0.1"}"#,
            ),
            (
                "{url: https://example.com/a?b=c}",
                r#"{"url":"https://example.com/a?b=c"}"#,
            ),
            (r"{p: C:\path\to}", r#"{"p":"C:\\path\\to"}"#),
            (
                "{x: none, y: None, z: NULL}",
                r#"{"x":null,"y":null,"z":null}"#,
            ),
            ("[red, green, blue]", r#"["red","green","blue"]"#),
            ("{date: 2024-01-15}", r#"{"date":"2024-01-15"}"#),
            ("{size: 30px}", r#"{"size":"30px"}"#),
            ("{zip: 02134}", r#"{"zip":"02134"}"#),
            ("{n: -5, f: 2.5e3}", r#"{"n":-5,"f":2.5e3}"#),
            ("{color: #fff}", r##"{"color":"#fff"}"##),
        ],
    );
}

#[test]
fn python_and_js_literals() {
    run(
        "python literals",
        &[RepairKind::PythonLiteral, RepairKind::TupleToArray],
        &[
            (
                r#"{"a": True, "b": False, "c": None}"#,
                r#"{"a":true,"b":false,"c":null}"#,
            ),
            ("{'pt': (1, 2)}", r#"{"pt":[1,2]}"#),
            ("[True, False, None]", "[true,false,null]"),
            ("True", "true"),
            ("None", "null"),
            ("{'t': ()}", r#"{"t":[]}"#),
        ],
    );
    run(
        "non-finite and JS literals",
        &[
            RepairKind::NonFiniteNumber,
            RepairKind::Undefined,
            RepairKind::NumberFormat,
        ],
        &[
            (
                r#"{"a": NaN, "b": Infinity, "c": -Infinity}"#,
                r#"{"a":null,"b":null,"c":null}"#,
            ),
            (r#"{"a": undefined, "b": 1}"#, r#"{"a":null,"b":1}"#),
            ("[NaN]", "[null]"),
            (
                "{\"a\": +1, \"b\": .5, \"c\": 0x1F, \"d\": 1.}",
                r#"{"a":1,"b":0.5,"c":31,"d":1}"#,
            ),
        ],
    );
}

#[test]
fn arithmetic_after_a_number_is_one_bare_value() {
    run(
        "unquoted string values",
        &[
            RepairKind::UnquotedValue,
            RepairKind::MissingComma,
            RepairKind::RemovedComment,
        ],
        &[
            ("{expression: 3 * 7}", r#"{"expression":"3 * 7"}"#),
            ("{\"a\": 10 - 2, \"b\": 1}", r#"{"a":"10 - 2","b":1}"#),
            ("{\"size\": 1920 x 1080}", r#"{"size":"1920 x 1080"}"#),
            ("[1 -2]", "[1,-2]"),
            ("{\"a\": 5 // c\n}", r#"{"a":5}"#),
        ],
    );
}

/// `1/3` is one bare value (a string); a comment after a number still ends it.
#[test]
fn a_slash_after_a_number_is_not_a_comment() {
    run(
        "bare values",
        &[RepairKind::UnquotedValue, RepairKind::RemovedComment],
        &[
            (r#"{"key": 1/3}"#, r#"{"key":"1/3"}"#),
            (r#"{"key": 10/3, "b": 1}"#, r#"{"key":"10/3","b":1}"#),
            ("[1/2]", r#"["1/2"]"#),
            ("[1// c\n]", "[1]"),
            (r#"{"a": 1/* x */}"#, r#"{"a":1}"#),
        ],
    );
}

/// A number or literal followed by words on the same line is one bare string (`3 apples`),
/// unless the words are a key or a literal of their own.
#[test]
fn numbers_and_literals_followed_by_words() {
    run(
        "phrases",
        &[
            RepairKind::UnquotedValue,
            RepairKind::MissingComma,
            RepairKind::RemovedComment,
        ],
        &[
            (
                r#"{"a": True story, "b": nullable}"#,
                r#"{"a":"True story","b":"nullable"}"#,
            ),
            (
                r#"{"a": 3 apples, "b": 1st place}"#,
                r#"{"a":"3 apples","b":"1st place"}"#,
            ),
            (
                r#"{"count": 10 items, "ok": true}"#,
                r#"{"count":"10 items","ok":true}"#,
            ),
            (r#"{"duration": 5 minutes}"#, r#"{"duration":"5 minutes"}"#),
            (
                r#"{"price": 19.99 USD, "qty": 2}"#,
                r#"{"price":"19.99 USD","qty":2}"#,
            ),
            (
                r#"{"error": null pointer exception, "line": 3}"#,
                r#"{"error":"null pointer exception","line":3}"#,
            ),
            (
                r#"{"temp": -5 degrees, "city": Oslo}"#,
                r#"{"temp":"-5 degrees","city":"Oslo"}"#,
            ),
            ("{\"eta\": 3 days\n, \"n\": 1}", r#"{"eta":"3 days","n":1}"#),
            (r#"[3 apples, 2 pears]"#, r#"["3 apples","2 pears"]"#),
            // Separate values.
            ("[1 2 3]", "[1,2,3]"),
            ("[true false]", "[true,false]"),
            (r#"{"a": 1 b: 2}"#, r#"{"a":1,"b":2}"#),
            (r#"{"a": 1 "b": 2}"#, r#"{"a":1,"b":2}"#),
            ("{\"a\": 1 // note\n}", r#"{"a":1}"#),
            // Cut by the end: the words may be a key being written.
            (r#"{"a": 1 b"#, r#"{"a":1}"#),
        ],
    );
    run(
        "clock times and ratios",
        &[RepairKind::UnquotedValue],
        &[
            (
                r#"{"time": 12:30, "tz": UTC}"#,
                r#"{"time":"12:30","tz":"UTC"}"#,
            ),
            (
                r#"{"aspect": 16:9, "fps": 30}"#,
                r#"{"aspect":"16:9","fps":30}"#,
            ),
            (
                r#"{"start": 10:30 AM, "room": B2}"#,
                r#"{"start":"10:30 AM","room":"B2"}"#,
            ),
        ],
    );
}

/// A call with several arguments is an expression, kept whole; one argument is a wrapper.
#[test]
fn calls_with_several_arguments() {
    run(
        "calls",
        &[RepairKind::UnquotedValue, RepairKind::Wrapper],
        &[
            (r#"{"formula": max(a, b)}"#, r#"{"formula":"max(a, b)"}"#),
            (
                "{'when': datetime.date(2024, 5, 1), 'n': 1}",
                r#"{"when":"datetime.date(2024, 5, 1)","n":1}"#,
            ),
            (r#"[max(1,2), 3]"#, r#"["max(1,2)",3]"#),
            (r#"{"a": f("x, y")}"#, r#"{"a":"x, y"}"#),
            (
                r#"{"_id": ObjectId("x"), "n": NumberLong(5)}"#,
                r#"{"_id":"x","n":5}"#,
            ),
        ],
    );
}

/// A bare path with one slash (`/tmp`) is no regex literal: nothing closes it on its line.
#[test]
fn bare_paths_with_one_slash() {
    run(
        "bare paths",
        &[RepairKind::UnquotedValue, RepairKind::RegexLiteral],
        &[
            (r#"{dir: /tmp}"#, r#"{"dir":"/tmp"}"#),
            (r#"{"a": /tmp, "b": 1}"#, r#"{"a":"/tmp","b":1}"#),
            (r#"{cwd: /tmp, cmd: ls}"#, r#"{"cwd":"/tmp","cmd":"ls"}"#),
            // A closed one with flags is a regex.
            (r#"{"re": /ab+c/i, "x": 1}"#, r#"{"re":"/ab+c/i","x":1}"#),
        ],
    );
}

/// Paths written bare, and words before a colon inside a string.
#[test]
fn bare_paths_and_colons_inside_strings() {
    run(
        "bare paths",
        &[RepairKind::UnquotedValue, RepairKind::RegexLiteral],
        &[
            (
                r#"{"path": /usr/local/bin}"#,
                r#"{"path":"/usr/local/bin"}"#,
            ),
            ("[/usr/local/bin, 1]", r#"["/usr/local/bin",1]"#),
            (r#"{"p": /etc/hosts}"#, r#"{"p":"/etc/hosts"}"#),
            // Regex literals keep their flags.
            (r#"{"r": /ab+c/gi}"#, r#"{"r":"/ab+c/gi"}"#),
            (r#"{"r": /ab+c/, "b": 1}"#, r#"{"r":"/ab+c/","b":1}"#),
        ],
    );
    run(
        "a colon inside a string after an inner quote",
        &[RepairKind::UnquotedKey, RepairKind::InnerQuote],
        &[
            (
                r#"{"reply": "Sure! Here is the "updated" version:", "done": true}"#,
                r#"{"reply":"Sure! Here is the \"updated\" version:","done":true}"#,
            ),
            (
                "{\"a\": \"x\"\n b: \"\", \"c\": 1}",
                r#"{"a":"x","b":"","c":1}"#,
            ),
            // A bare key whose value is the string `, ` (a whole value: `}` or `,`
            // follows it) is a key, and the string before it ends.
            (r#"{a: "", b: ", "}"#, r#"{"a":"","b":", "}"#),
            (
                r#"{a: [{a: "x", b: ", "}]}"#,
                r#"{"a":[{"a":"x","b":", "}]}"#,
            ),
            (
                r#"{"a": "x", b: ", ", "c": 1}"#,
                r#"{"a":"x","b":", ","c":1}"#,
            ),
            (r#"{"a": "x", sep: ",\t"}"#, r#"{"a":"x","sep":",\t"}"#),
            // A string that starts with `//` after the colon is the key's value.
            (
                "{a: '',_: \n\"// not a comment\",\n}",
                r#"{"a":"","_":"// not a comment"}"#,
            ),
        ],
    );
}

/// JavaScript's `new` before a wrapper call; German low quotes; a bare key before a
/// full-width colon; a key with a Python prefix after a string value.
#[test]
fn more_literal_styles() {
    run(
        "literals",
        &[
            RepairKind::UnquotedKey,
            RepairKind::Wrapper,
            RepairKind::UnquotedValue,
            RepairKind::TypographicQuotes,
        ],
        &[
            (
                r#"{created: new Date("2024-03-01"), id: 7}"#,
                r#"{"created":"2024-03-01","id":7}"#,
            ),
            ("[new Date(1700000000000)]", "[1700000000000]"),
            (
                r#"{"a": new Foo(1, 2), "b": 1}"#,
                r#"{"a":"new Foo(1, 2)","b":1}"#,
            ),
            (
                "{\u{201e}name\u{201c}: \u{201e}K\u{f6}ln\u{201c}}",
                "{\"name\":\"K\u{f6}ln\"}",
            ),
            (
                "{\"a\": \"sagte \u{201e}hallo\u{201c} laut\", \"b\": 1}",
                "{\"a\":\"sagte \u{201e}hallo\u{201c} laut\",\"b\":1}",
            ),
            (
                "{\u{540d}\u{524d}\u{ff1a}\"x\"\u{ff0c}\u{5e74}\u{9f62}\u{ff1a}30}",
                "{\"\u{540d}\u{524d}\":\"x\",\"\u{5e74}\u{9f62}\":30}",
            ),
            (
                "{u'name': u'Ada', u'lang': u'en', u'score': 0.5}",
                r#"{"name":"Ada","lang":"en","score":0.5}"#,
            ),
        ],
    );
}

#[test]
fn thousands_separators_in_a_members_value() {
    run(
        "thousands",
        &[RepairKind::UnquotedKey, RepairKind::NumberFormat],
        &[
            (
                r#"{"city": "Amsterdam", "population": 921,402}"#,
                r#"{"city":"Amsterdam","population":921402}"#,
            ),
            (r#"{"a": 1,234,567, "b": 2}"#, r#"{"a":1234567,"b":2}"#),
            (r#"{"a": -1,000}"#, r#"{"a":-1000}"#),
            // Cut off after a group: the groups so far.
            (r#"{"a": 12,345"#, r#"{"a":12345}"#),
            // Valid JSON: two elements.
            (r#"[1,234]"#, r#"[1,234]"#),
            // Not groups of three, a leading zero, or a key after all.
            (r#"{"a": 1,2345}"#, r#"{"a":1,"2345":null}"#),
            (r#"{"a": 0,123}"#, r#"{"a":0,"123":null}"#),
            (r#"{"a": 1,234: 5}"#, r#"{"a":1,"234":5}"#),
            (r#"{"a": 1.5,234}"#, r#"{"a":1.5,"234":null}"#),
        ],
    );
    assert_eq!(kinds(r#"{"a": 1,234}"#), vec![RepairKind::NumberFormat]);
}

/// A scalar, or several, making up the whole text.
#[test]
fn top_level_scalars_that_need_repair() {
    run(
        "top level",
        &[
            RepairKind::MultipleValues,
            RepairKind::InnerQuote,
            RepairKind::Truncated,
            RepairKind::Concatenation,
            RepairKind::TrailingComma,
            RepairKind::StrippedProse,
            RepairKind::ControlCharacter,
        ],
        &[
            (r#""He said "hi" to me""#, r#""He said \"hi\" to me""#),
            (
                r#""The TV has a 24" screen""#,
                r#""The TV has a 24\" screen""#,
            ),
            ("\"hello\nworld\"", r#""hello\nworld""#),
            (r#""a"+"b"+"c""#, r#""abc""#),
            (r#""hello" + " world""#, r#""hello world""#),
            ("'it's'", r#""it's""#),
            // Cut off: the prefix, reported as truncated.
            (r#""abc"#, r#""abc""#),
            ("'abc", r#""abc""#),
            // Several scalars: an array, as for several top-level values.
            ("1\n2", "[1,2]"),
            ("1,2,3", "[1,2,3]"),
            ("1,2,3,", "[1,2,3]"),
            ("\"a\"\n\"b\"", r#"["a","b"]"#),
            (r#""a", "b""#, r#"["a","b"]"#),
            ("None, 1", "[null,1]"),
            ("4,", "4"),
            ("4 , ", "4"),
            // Prose is still prose.
            ("hello", ERR),
            ("42 is the answer", ERR),
            (r#""I am sorry" he said"#, ERR),
            (r#""Hello," she said. {"a": 1}"#, r#"{"a":1}"#),
        ],
    );
    assert!(repair(r#""abc"#).unwrap().is_truncated());
}
