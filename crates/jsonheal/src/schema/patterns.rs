//! Regular expressions as JSON Schema means them: ECMA-262. The `jsonschema` crate translates
//! ECMA-262 to the Rust engines' syntax; a few spellings that ECMA-262 (with its Annex B, the
//! web-compatibility rules every JavaScript engine follows) reads differently are rewritten
//! here first, to what the schema's author meant. A pattern invalid in ECMA-262 too is refused
//! with a message that names the pattern and the reason.

use std::borrow::Cow;

use serde_json::Value;

use super::index;
use super::render;

/// `pattern` rewritten where ECMA-262 and the Rust engines disagree:
/// - `\<` and `\>` are the literal `<` and `>` (word boundaries in Rust);
/// - `[^]` is any character and `[]` no character (errors in Rust);
/// - a `{` that starts no quantifier is a literal brace (`a{`, `{x}`);
/// - a `-` after a class escape in a character class is a literal (`[\w-.]`).
pub(crate) fn to_ecma(pattern: &str) -> Cow<'_, str> {
    let b = pattern.as_bytes();
    // Most patterns hold none of these; copy only when one does.
    if !pattern.contains(['\\', '[', '{']) {
        return Cow::Borrowed(pattern);
    }
    let mut out = String::with_capacity(pattern.len() + 4);
    let mut in_class = false;
    let mut i = 0;
    let mut changed = false;
    while i < b.len() {
        let c = b[i];
        if c == b'\\' {
            let Some(&next) = b.get(i + 1) else {
                out.push('\\');
                break;
            };
            if next == b'<' || next == b'>' {
                out.push(next as char);
                changed = true;
                i += 2;
                continue;
            }
            let class_escape = matches!(next, b'd' | b'D' | b'w' | b'W' | b's' | b'S');
            // Copy the escape whole (its second byte may start a multi-byte character).
            let end = i + 1 + char_len(pattern, i + 1);
            out.push_str(&pattern[i..end.min(b.len())]);
            i = end;
            if in_class && class_escape && b.get(i) == Some(&b'-') && b.get(i + 1) != Some(&b']') {
                out.push_str("\\-");
                changed = true;
                i += 1;
            }
            continue;
        }
        if in_class {
            if c == b']' {
                in_class = false;
            }
        } else if c == b'[' {
            if pattern[i..].starts_with("[^]") {
                out.push_str("[\\s\\S]");
                changed = true;
                i += 3;
                continue;
            }
            if pattern[i..].starts_with("[]") {
                out.push_str("[^\\s\\S]");
                changed = true;
                i += 2;
                continue;
            }
            in_class = true;
            // A `]` first in a class is a literal in Rust but ends an empty class in
            // ECMA-262; handled above.
            if b.get(i + 1) == Some(&b'^') {
                out.push_str("[^");
                i += 2;
                continue;
            }
        } else if c == b'{' && !quantifier_at(&b[i..]) {
            out.push_str("\\{");
            changed = true;
            i += 1;
            continue;
        }
        let end = i + char_len(pattern, i);
        out.push_str(&pattern[i..end.min(b.len())]);
        i = end;
    }
    if changed {
        Cow::Owned(out)
    } else {
        Cow::Borrowed(pattern)
    }
}

/// The length in bytes of the character at byte `at` (a character boundary).
fn char_len(text: &str, at: usize) -> usize {
    text.get(at..)
        .and_then(|rest| rest.chars().next())
        .map_or(1, char::len_utf8)
}

/// Whether `b` starts with `{n}`, `{n,}` or `{n,m}`.
fn quantifier_at(b: &[u8]) -> bool {
    let mut i = 1;
    let digits = |i: &mut usize| {
        let start = *i;
        while b.get(*i).is_some_and(u8::is_ascii_digit) {
            *i += 1;
        }
        *i > start
    };
    if !digits(&mut i) {
        return false;
    }
    if b.get(i) == Some(&b',') {
        i += 1;
        digits(&mut i);
    }
    b.get(i) == Some(&b'}')
}

/// Rewrite every `pattern` and `patternProperties` key of `schema` with [`to_ecma`].
pub(crate) fn translate(schema: &mut Value) {
    if let Some(obj) = schema.as_object_mut() {
        if let Some(Value::String(p)) = obj.get_mut("pattern") {
            if let Cow::Owned(fixed) = to_ecma(p) {
                *p = fixed;
            }
        }
        if let Some(Value::Object(props)) = obj.get_mut("patternProperties") {
            if props.keys().any(|k| matches!(to_ecma(k), Cow::Owned(_))) {
                let old = std::mem::take(props);
                for (k, v) in old {
                    props.insert(to_ecma(&k).into_owned(), v);
                }
            }
        }
    }
    index::children_mut(schema, &mut translate);
}

/// The first `pattern` or `patternProperties` key of `schema` that is not a regular
/// expression, as an error naming the pattern, the reason and where it is.
pub(crate) fn check_all(schema: &Value) -> Result<(), String> {
    let mut stack = vec![(schema, String::new())];
    while let Some((node, at)) = stack.pop() {
        if let Some(Value::String(p)) = node.get("pattern") {
            check(p, &render::child(&at, "pattern"))?;
        }
        if let Some(Value::Object(props)) = node.get("patternProperties") {
            let here = render::child(&at, "patternProperties");
            for k in props.keys() {
                check(k, &render::child(&here, k))?;
            }
        }
        for (keyword, segment, child) in index::children(node) {
            stack.push((
                child,
                index::child_pointer(&at, keyword, segment.as_deref()),
            ));
        }
    }
    Ok(())
}

/// Refuse a pattern that is not a valid ECMA-262 regular expression, saying why.
fn check(pattern: &str, at: &str) -> Result<(), String> {
    if jsonschema_regex::is_valid_ecma_regex(pattern) {
        return Ok(());
    }
    let reason = match regex_syntax::ast::parse::Parser::new().parse(pattern) {
        Err(e) => e.kind().to_string(),
        Ok(_) => "not valid in ECMA-262".to_owned(),
    };
    Err(format!(
        "the pattern {} is not a valid regular expression: {reason} (at {})",
        render::quote(pattern),
        render::display_path(at)
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rewrites_only_what_ecma_reads_differently() {
        for (from, to) in [
            (r"^.+\<.+@.+\..+\>$", r"^.+<.+@.+\..+>$"),
            (r"[^]", r"[\s\S]"),
            (r"a[]b", r"a[^\s\S]b"),
            (r"a{", r"a\{"),
            (r"^\$\{[a-z]+}$", r"^\$\{[a-z]+}$"),
            (r"x{2,}y{1,3}z{4}", r"x{2,}y{1,3}z{4}"),
            (r"{x}", r"\{x}"),
            (r"[\w-.]", r"[\w\-.]"),
            (r"[\w-]", r"[\w-]"),
            (r"[a-z]", r"[a-z]"),
            (r"\\<", r"\\<"),
            (r"é{", r"é\{"),
            (r"\é", r"\é"),
        ] {
            assert_eq!(to_ecma(from), to, "{from}");
        }
    }

    #[test]
    fn refuses_real_errors_with_the_reason() {
        let bad = serde_json::json!({"properties": {"a": {"pattern": "(ab"}}});
        let e = check_all(&bad).expect_err("invalid");
        assert!(e.ends_with("(at /properties/a/pattern)"), "{e}");
        assert!(
            e.starts_with(r#"the pattern "(ab" is not a valid regular expression: "#),
            "{e}"
        );
        assert!(e.contains("unclosed group"), "{e}");
    }
}
