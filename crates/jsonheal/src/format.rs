//! New layout for JSON text, with every lexeme kept: strings and numbers are copied as they
//! are written (`1e2` stays `1e2`, `"\u00e9"` stays escaped), only the whitespace between
//! tokens changes. Going through `serde_json::Value` instead would rewrite numbers (`1e2`
//! becomes `1e+2` under `arbitrary_precision`) and escapes.
//!
//! ```
//! let text = "{\n  \"n\": 1e2,\n  \"s\": \"caf\\u00e9\", \"a\": [ ]\n}";
//! assert_eq!(jsonheal::format::compact(text), r#"{"n":1e2,"s":"caf\u00e9","a":[]}"#);
//! assert_eq!(
//!     jsonheal::format::pretty(r#"{"n":1e2,"a":[1,{}]}"#),
//!     "{\n  \"n\": 1e2,\n  \"a\": [\n    1,\n    {}\n  ]\n}"
//! );
//! ```
//!
//! The input is meant to be JSON (such as [`Repaired::text`](crate::Repaired::text)); other
//! text is re-spaced the same way, token by token, without a panic.

/// `json` with no whitespace between tokens (what `serde_json::to_string` writes).
pub fn compact(json: &str) -> String {
    layout(json, None)
}

/// `json` indented by two spaces, one member or element a line, `": "` after keys, empty
/// containers as `{}` and `[]` (what `serde_json::to_string_pretty` writes).
pub fn pretty(json: &str) -> String {
    layout(json, Some("  "))
}

fn layout(json: &str, indent: Option<&str>) -> String {
    let b = json.as_bytes();
    let mut out = String::with_capacity(json.len());
    let mut depth = 0usize;
    let newline = |out: &mut String, depth: usize| {
        if let Some(unit) = indent {
            out.push('\n');
            for _ in 0..depth {
                out.push_str(unit);
            }
        }
    };
    let mut i = 0;
    while i < b.len() {
        match b[i] {
            b' ' | b'\t' | b'\n' | b'\r' => i += 1,
            b'"' => {
                let end = string_end(b, i);
                // Both ends are at ASCII quotes (or the text's end): char boundaries.
                out.push_str(json.get(i..end).unwrap_or_default());
                i = end;
            }
            c @ (b'{' | b'[') => {
                out.push(char::from(c));
                i += 1;
                let next = skip_ws(b, i);
                if matches!(b.get(next), Some(b'}' | b']')) {
                    // An empty container stays on one line.
                    continue;
                }
                depth += 1;
                newline(&mut out, depth);
            }
            c @ (b'}' | b']') => {
                let opened = matches!(out.as_bytes().last(), Some(b'{' | b'['));
                if !opened {
                    depth = depth.saturating_sub(1);
                    newline(&mut out, depth);
                }
                out.push(char::from(c));
                i += 1;
            }
            b',' => {
                out.push(',');
                newline(&mut out, depth);
                i += 1;
            }
            b':' => {
                out.push(':');
                if indent.is_some() {
                    out.push(' ');
                }
                i += 1;
            }
            _ => {
                // A number or literal: copy up to the next delimiter.
                let end = lexeme_end(b, i);
                out.push_str(json.get(i..end).unwrap_or_default());
                i = end.max(i + 1);
            }
        }
    }
    out
}

/// Just past the number or literal that starts at `b[start]`: the next delimiter, or the
/// text's end.
pub(crate) fn lexeme_end(b: &[u8], start: usize) -> usize {
    b[start..]
        .iter()
        .position(|&c| {
            matches!(
                c,
                b' ' | b'\t' | b'\n' | b'\r' | b',' | b':' | b'{' | b'}' | b'[' | b']' | b'"'
            )
        })
        .map_or(b.len(), |n| start + n)
}

/// Just past the string that opens at `b[start]` (escapes honoured), or the text's end.
pub(crate) fn string_end(b: &[u8], start: usize) -> usize {
    let mut i = start + 1;
    while let Some(n) = memchr::memchr2(b'"', b'\\', &b[i.min(b.len())..]) {
        let at = i + n;
        if b[at] == b'"' {
            return at + 1;
        }
        i = at + 2;
    }
    b.len()
}

fn skip_ws(b: &[u8], mut i: usize) -> usize {
    while matches!(b.get(i), Some(b' ' | b'\t' | b'\n' | b'\r')) {
        i += 1;
    }
    i
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lexemes_are_kept() {
        let cases = [
            ("{ \"a\" : 1e2 }", r#"{"a":1e2}"#),
            ("[ -0.0 , 1E5, 1.10 ]", "[-0.0,1E5,1.10]"),
            (
                r#"{"s": "a \" , : { [ b", "t": "\\"}"#,
                r#"{"s":"a \" , : { [ b","t":"\\"}"#,
            ),
            ("[ {} , [ ] , { \"k\" : [ ] } ]", r#"[{},[],{"k":[]}]"#),
            ("  \"x\"  ", r#""x""#),
            ("true", "true"),
        ];
        for (input, want) in cases {
            assert_eq!(compact(input), want, "{input:?}");
        }
    }

    #[test]
    fn odd_text_neither_panics_nor_loops() {
        for input in ["\"open", "\"a\\", "]]}{", "{\"a\":", "é ü", ":::", "[1 2]"] {
            let _ = compact(input);
            let _ = pretty(input);
        }
    }
}
