//! `UnquotedKey`, `MissingColon`: keys written bare, colons lost, doubled or spelled `=`.

use crate::prelude::*;

#[test]
fn unquoted_keys() {
    run(
        "unquoted keys",
        &[RepairKind::UnquotedKey],
        &[
            ("{a: 1, b_2: \"x\"}", r#"{"a":1,"b_2":"x"}"#),
            ("{first name: \"A\"}", r#"{"first name":"A"}"#),
            (
                "{ $id: 1, _x: 2, camelCase: 3 }",
                r#"{"$id":1,"_x":2,"camelCase":3}"#,
            ),
            ("{a-b: 1}", r#"{"a-b":1}"#),
            ("{1: \"one\", 2: \"two\"}", r#"{"1":"one","2":"two"}"#),
            ("{nested: {inner: [1]}}", r#"{"nested":{"inner":[1]}}"#),
            ("{\n  name: \"x\",\n  age: 3\n}", r#"{"name":"x","age":3}"#),
            ("{名前: \"x\"}", r#"{"名前":"x"}"#),
        ],
    );
    assert!(kinds("{a: 1}").contains(&RepairKind::UnquotedKey));
}

#[test]
fn missing_colon_and_value() {
    run(
        "missing colon",
        &[RepairKind::MissingColon],
        &[
            (r#"{"a" 1, "b": 2}"#, r#"{"a":1,"b":2}"#),
            (r#"{"a" "x"}"#, r#"{"a":"x"}"#),
            ("{a = 1}", r#"{"a":1}"#),
        ],
    );
    run(
        "missing value",
        &[RepairKind::MissingValue],
        &[
            (r#"{"a": , "b": 2}"#, r#"{"a":null,"b":2}"#),
            (r#"{"a": }"#, r#"{"a":null}"#),
            (r#"{"a", "b": 1}"#, r#"{"a":null,"b":1}"#),
        ],
    );
}

/// A key that lost its colon, right before a number or a quoted value.
#[test]
fn missing_colons_right_after_the_key() {
    run(
        "missing colon",
        &[RepairKind::MissingColon, RepairKind::InnerQuote],
        &[
            (r#"{"a"2}"#, r#"{"a":2}"#),
            (r#"{"a"1, "b"2}"#, r#"{"a":1,"b":2}"#),
            ("{a 'b'}", r#"{"a":"b"}"#),
            ("{a “b”}", r#"{"a":"b"}"#),
            // A word after the quote is still part of the key.
            (r#"{"key"s": 1}"#, r#"{"key\"s":1}"#),
            ("{see attached}", ERR),
        ],
    );
}

/// A member whose key lost its colon after a string value: the string still ends at its
/// quote, and the member keeps its value.
#[test]
fn keys_without_colons_after_strings() {
    run(
        "keys without colons",
        &[RepairKind::MissingColon, RepairKind::InnerQuote],
        &[
            (r#"{'name' 'x', age 3,}"#, r#"{"name":"x","age":3}"#),
            (
                r#"{"name": "Ann", age 31, "city": "Rome"}"#,
                r#"{"name":"Ann","age":31,"city":"Rome"}"#,
            ),
            (
                "{\n  \"name\": \"Ann\",\n  age 31\n}",
                r#"{"name":"Ann","age":31}"#,
            ),
            (
                r#"{"id": "7", status "open"}"#,
                r#"{"id":"7","status":"open"}"#,
            ),
            (
                r#"{"title": "Dune", author "Frank Herbert", year 1965}"#,
                r#"{"title":"Dune","author":"Frank Herbert","year":1965}"#,
            ),
            (r#"{city "Paris", days 3}"#, r#"{"city":"Paris","days":3}"#),
            (
                r#"{"id": "7", "status" open}"#,
                r#"{"id":"7","status":"open"}"#,
            ),
            (
                r#"{"city": "Lyon", "unit" celsius, "days": 3}"#,
                r#"{"city":"Lyon","unit":"celsius","days":3}"#,
            ),
            (
                r#"{'lang': 'de', 'mode' strict}"#,
                r#"{"lang":"de","mode":"strict"}"#,
            ),
            // Prose after an inner quote stays in the string.
            (
                r#"{"text": "He said "yes", then 2 more"}"#,
                r#"{"text":"He said \"yes\", then 2 more"}"#,
            ),
            (r#"{"msg": "a, b 1, c"}"#, r#"{"msg":"a, b 1, c"}"#),
        ],
    );
    run(
        "bare keys without colons",
        &[RepairKind::UnquotedKey],
        &[
            (r#"{"a": null, count 2}"#, r#"{"a":null,"count":2}"#),
            (r#"{"ok": true, retries 3}"#, r#"{"ok":true,"retries":3}"#),
            (
                r#"{"tags": ["x"], limit 10}"#,
                r#"{"tags":["x"],"limit":10}"#,
            ),
            (r#"{"a": 1, enabled true}"#, r#"{"a":1,"enabled":true}"#),
            (r#"{"a": 1, retry count 3}"#, r#"{"a":1,"retry count":3}"#),
            // The last word is no value: a key with spaces and no value.
            (r#"{"a": 1, first name}"#, r#"{"a":1,"first name":null}"#),
            (
                r#"{"a": 1, version 1.2.3}"#,
                r#"{"a":1,"version 1.2.3":null}"#,
            ),
        ],
    );
}

/// Single-character slips around a key: a doubled colon, and a colon lost between a
/// quoted key and a container with no space (`"c"{"d": 1}`).
#[test]
fn doubled_and_lost_colons() {
    run(
        "colon slips",
        &[RepairKind::InvalidCharacter, RepairKind::MissingColon],
        &[
            (r#"{"a":: 1}"#, r#"{"a":1}"#),
            (r#"{"a":: "x", "b": 2}"#, r#"{"a":"x","b":2}"#),
            (r#"{"a":: {"b": 1}, "c": 2}"#, r#"{"a":{"b":1},"c":2}"#),
            (r#"{"a":"b","c"{"d":1}}"#, r#"{"a":"b","c":{"d":1}}"#),
            (r#"{"a":"b","c"[1]}"#, r#"{"a":"b","c":[1]}"#),
            // In a string, a colon is content.
            (r#"{"a": "::"}"#, r#"{"a":"::"}"#),
        ],
    );
}

/// `=` (TOML, INI) and `=>` (Perl, PHP, Ruby) for the colon, after quoted keys too: the
/// string before them has ended.
#[test]
fn equals_signs_for_colons() {
    run(
        "colons",
        &[RepairKind::MissingColon, RepairKind::InnerQuote],
        &[
            (r#"{"a": "x", "b" = 1}"#, r#"{"a":"x","b":1}"#),
            (r#"{"a" => "x"}"#, r#"{"a":"x"}"#),
            (r#"{"a" => "x", "b" => [1, 2]}"#, r#"{"a":"x","b":[1,2]}"#),
            (r#"{a = 1, b = "two"}"#, r#"{"a":1,"b":"two"}"#),
            // After a string value too, with or without commas.
            (
                "{\n  host = \"localhost\"\n  port = 5432\n  debug = false\n}",
                r#"{"host":"localhost","port":5432,"debug":false}"#,
            ),
            (
                "{\"cmd\": \"a=1 b=2\",\n x = 3}",
                r#"{"cmd":"a=1 b=2","x":3}"#,
            ),
            // SQL and HTML in a string with inner quotes keep them content.
            (
                r#"{"sql": "UPDATE t SET a = "x", b = 2 WHERE id = 7"}"#,
                r#"{"sql":"UPDATE t SET a = \"x\", b = 2 WHERE id = 7"}"#,
            ),
            (
                r#"{"html": "<div class="card" id="main">Hi</div>"}"#,
                r#"{"html":"<div class=\"card\" id=\"main\">Hi</div>"}"#,
            ),
            (
                r#"{ name => "Ana", tags => ["a", "b"] }"#,
                r#"{"name":"Ana","tags":["a","b"]}"#,
            ),
            // `==` inside a string is content.
            (r#"{"a": "x == y", "b": 1}"#, r#"{"a":"x == y","b":1}"#),
        ],
    );
}

/// Small slips around numbers and separators: a negative number as a key after a string,
/// a minus sign parted from its number, full-width `：` and `，` from CJK text.
#[test]
fn negative_keys_parted_minus_and_full_width_separators() {
    run(
        "numbers and full-width separators",
        &[
            RepairKind::UnquotedKey,
            RepairKind::MissingComma,
            RepairKind::NumberFormat,
            RepairKind::UnquotedValue,
        ],
        &[
            (r#"{"a": "x", -2: "y"}"#, r#"{"a":"x","-2":"y"}"#),
            (r#"{1.5: "x", -2: "y"}"#, r#"{"1.5":"x","-2":"y"}"#),
            (
                r#"{"a": "x, -2 is less", "b": 1}"#,
                r#"{"a":"x, -2 is less","b":1}"#,
            ),
            (r#"{"neg": - 5}"#, r#"{"neg":-5}"#),
            (r#"[- 5, 1]"#, r#"[-5,1]"#),
            (r#"{"a": - x}"#, r#"{"a":"- x"}"#),
            (r#"{"a"："b"，"c"："d"}"#, r#"{"a":"b","c":"d"}"#),
            (r#"{"a": "b"，"c": "d"}"#, r#"{"a":"b","c":"d"}"#),
            (r#"["x"，"y"]"#, r#"["x","y"]"#),
            // A trailing one (its repair's span covers all three bytes).
            (r#"["x"，]"#, r#"["x"]"#),
            // Bare keys and values around a full-width colon, at the text's start.
            (r#"{名前：太郎}"#, r#"{"名前":"太郎"}"#),
            (r#"{名前：太郎, 年齢：30}"#, r#"{"名前":"太郎","年齢":30}"#),
            (r#"{name：Taro}"#, r#"{"name":"Taro"}"#),
            // In text they are text.
            (
                r#"{"a": "你好，世界", "b": "x：y"}"#,
                r#"{"a":"你好，世界","b":"x：y"}"#,
            ),
        ],
    );
}
