//! A storage codec for tool inputs: what an app writes to its database and reads back when it
//! replays a conversation.
//!
//! Providers require a tool call's input to be a JSON object; a stored `null`, `[]` or `"42"`
//! breaks the replay with a 400. So [`encode`] is strict and [`decode`] is tolerant:
//!
//! | input | `encode` | `decode` |
//! |---|---|---|
//! | object `{"a":1}` | `{"a":1}` | `{"a":1}` |
//! | JSON string holding an object `"{\"a\":1}"` | `{"a":1}` | `{"a":1}` (unwrapped once) |
//! | `null`, `false`, `true`, `42` | `{}` | `{}` |
//! | `[]`, `[1]`, a string holding a list | `{}` | `{}` |
//! | `"just a string"` | `{}` | `{}` |
//! | missing, empty, invalid text | — | `{}` |
//!
//! `decode(Some(&encode(&x))) == x` for every object `x`. The `_report` forms also say why an
//! input was replaced by `{}`, for logs.

use std::fmt;

use serde_json::{Map, Value};

/// Why an input was replaced by `{}`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Replaced {
    /// Nothing was stored (`decode(None)`).
    Missing,
    /// The stored text is empty or whitespace.
    Empty,
    /// The stored text is not JSON.
    Invalid,
    /// `null`.
    Null,
    /// `true` or `false`.
    Bool,
    /// A number.
    Number,
    /// A list (or a JSON string holding a list).
    List,
    /// A JSON string that does not hold an object.
    String,
}

impl Replaced {
    /// A short lowercase name, stable for logs (`list`).
    pub fn name(self) -> &'static str {
        match self {
            Replaced::Missing => "missing",
            Replaced::Empty => "empty",
            Replaced::Invalid => "invalid",
            Replaced::Null => "null",
            Replaced::Bool => "bool",
            Replaced::Number => "number",
            Replaced::List => "list",
            Replaced::String => "string",
        }
    }

    /// Why the input was replaced, in a few words.
    pub fn describe(self) -> &'static str {
        match self {
            Replaced::Missing => "no input was stored",
            Replaced::Empty => "the input is empty",
            Replaced::Invalid => "the input is not valid JSON",
            Replaced::Null => "the input is null",
            Replaced::Bool => "the input is a boolean, not an object",
            Replaced::Number => "the input is a number, not an object",
            Replaced::List => "the input is a list, not an object",
            Replaced::String => "the input is a string that does not hold an object",
        }
    }
}

impl fmt::Display for Replaced {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.describe())
    }
}

/// Encode a tool input for storage: the compact JSON of an object, `{}` for anything else
/// (see the module table).
pub fn encode(value: &Value) -> String {
    encode_report(value).0
}

/// [`encode`], and why the value was replaced by `{}` when it was.
pub fn encode_report(value: &Value) -> (String, Option<Replaced>) {
    match value {
        Value::Object(map) => (object_text(map), None),
        other => match held_object(other) {
            Ok(object) => (object_text(&object), None),
            Err(why) => (String::from("{}"), Some(why)),
        },
    }
}

/// Decode a stored tool input into an object, tolerantly (see the module table).
pub fn decode(stored: Option<&str>) -> Map<String, Value> {
    decode_report(stored).0
}

/// [`decode`], and why the input was replaced by `{}` when it was.
pub fn decode_report(stored: Option<&str>) -> (Map<String, Value>, Option<Replaced>) {
    let Some(text) = stored else {
        return (Map::new(), Some(Replaced::Missing));
    };
    let text = text.trim();
    if text.is_empty() {
        return (Map::new(), Some(Replaced::Empty));
    }
    let value: Value = match serde_json::from_str(text) {
        Ok(v) => v,
        Err(_) => return (Map::new(), Some(Replaced::Invalid)),
    };
    match value {
        Value::Object(map) => (map, None),
        other => match held_object(&other) {
            Ok(object) => (object, None),
            Err(why) => (Map::new(), Some(why)),
        },
    }
}

/// The object a value that is not itself an object stands for: the object a JSON string
/// holds, or the reason there is none.
fn held_object(value: &Value) -> Result<Map<String, Value>, Replaced> {
    match value {
        Value::Object(map) => Ok(map.clone()),
        Value::Null => Err(Replaced::Null),
        Value::Bool(_) => Err(Replaced::Bool),
        Value::Number(_) => Err(Replaced::Number),
        Value::Array(_) => Err(Replaced::List),
        Value::String(s) => {
            let inner = s.trim();
            if inner.is_empty() {
                return Err(Replaced::Empty);
            }
            // Unwrap once: a string inside the string is not unwrapped again.
            match serde_json::from_str::<Value>(inner) {
                Ok(Value::Object(map)) => Ok(map),
                Ok(Value::Array(_)) => Err(Replaced::List),
                _ => Err(Replaced::String),
            }
        }
    }
}

fn object_text(map: &Map<String, Value>) -> String {
    // Serialising a map of `Value`s cannot fail: keys are strings, numbers are finite.
    serde_json::to_string(map).unwrap_or_else(|_| String::from("{}"))
}
