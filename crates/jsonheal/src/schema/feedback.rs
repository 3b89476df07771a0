//! The message that tells a model what to fix in its reply.

use super::render;
use super::validate::Violation;
use super::HealErrorKind;

/// At most this many errors are listed; the rest are counted.
pub const MAX_FEEDBACK_ERRORS: usize = 20;
/// The message never exceeds this many bytes.
pub const MAX_FEEDBACK_BYTES: usize = 2048;

/// Longest single error line, in characters (a long path or expectation is cut).
const MAX_LINE_CHARS: usize = 240;

const NO_JSON: &str = "Your reply did not contain a JSON value. Reply with only the JSON value \
that the schema describes: no explanations, no Markdown, no code fences.";

const TRUNCATED: &str = "Your reply was cut off before the JSON value was complete. Reply again \
with the complete JSON value only, with no text around it; keep string values short so the \
whole value fits.";

const INVALID_HEAD: &str = "Your JSON reply does not match the required schema. Fix these errors \
and reply with the corrected JSON value only:";

const INVALID_TAIL: &str = "Keep everything else as it was.";

/// The message for the model: plain text, at most [`MAX_FEEDBACK_ERRORS`] errors and
/// [`MAX_FEEDBACK_BYTES`] bytes. Each error is one line, `- PATH: expected …, found …`, values
/// quoted and cut; identical lines are listed once, and the same error at several array
/// indices is one line naming the other places; errors left out are counted. Truncation and
/// "no JSON" have messages of their own.
pub fn feedback(kind: HealErrorKind, violations: &[Violation]) -> String {
    match kind {
        HealErrorKind::NoJson => NO_JSON.to_owned(),
        HealErrorKind::Truncated => TRUNCATED.to_owned(),
        HealErrorKind::Invalid => invalid(violations),
    }
}

fn invalid(violations: &[Violation]) -> String {
    // The same error at several array indices (`/items/0/id`, `/items/7/id`) is one line
    // naming the other places, so one repeated mistake does not crowd out the rest.
    struct Group<'v> {
        shape: (String, &'v str, &'v str),
        first: &'v Violation,
        others: Vec<&'v str>,
    }
    let mut groups: Vec<Group<'_>> = Vec::new();
    for v in violations {
        let shape = (index_free(&v.path), v.keyword.as_str(), v.expected.as_str());
        match groups.iter_mut().find(|g| g.shape == shape) {
            Some(g) => {
                if g.first.path != v.path && !g.others.contains(&v.path.as_str()) {
                    g.others.push(&v.path);
                } else if g.first.message != v.message {
                    // Same place, another complaint of the same kind: keep it as its own line.
                    groups.push(Group {
                        shape: (String::new(), "", ""),
                        first: v,
                        others: Vec::new(),
                    });
                }
            }
            None => groups.push(Group {
                shape,
                first: v,
                others: Vec::new(),
            }),
        }
    }
    let mut lines: Vec<String> = Vec::new();
    for g in &groups {
        let mut line = format!(
            "- {}: {}",
            render::display_path(&g.first.path),
            g.first.message
        );
        if !g.others.is_empty() {
            let shown: Vec<&str> = g.others.iter().take(3).copied().collect();
            line.push_str(&format!(" (the same at {}", shown.join(", ")));
            if g.others.len() > shown.len() {
                line.push_str(&format!(
                    " and {} more places",
                    g.others.len() - shown.len()
                ));
            }
            line.push(')');
        }
        let line = render::cut_chars(&one_line(&line), MAX_LINE_CHARS);
        if !lines.contains(&line) {
            lines.push(line);
        }
    }
    if lines.is_empty() {
        // Invalid without a listed reason (a caller's own check failed): still actionable.
        return format!("{INVALID_HEAD}\n- /: the value does not match the schema\n{INVALID_TAIL}");
    }
    let mut out = String::from(INVALID_HEAD);
    let total = lines.len();
    let mut shown = 0;
    for line in &lines {
        if shown == MAX_FEEDBACK_ERRORS {
            break;
        }
        // Leave room for the "… more" line and the tail, whatever follows.
        let reserve = 1 + omitted_line(total).len() + 1 + INVALID_TAIL.len();
        if out.len() + 1 + line.len() + reserve > MAX_FEEDBACK_BYTES {
            break;
        }
        out.push('\n');
        out.push_str(line);
        shown += 1;
    }
    if shown < total {
        out.push('\n');
        out.push_str(&omitted_line(total - shown));
    }
    out.push('\n');
    out.push_str(INVALID_TAIL);
    out
}

/// Control characters (a newline in a key, say) escaped, so that text from the reply can
/// never start a line of its own in the message.
fn one_line(text: &str) -> String {
    if !text.chars().any(char::is_control) {
        return text.to_owned();
    }
    text.chars()
        .map(|c| {
            if c.is_control() {
                c.escape_default().to_string()
            } else {
                c.to_string()
            }
        })
        .collect()
}

/// A JSON pointer with its array indices blanked (`/items/3/id` → `/items/*/id`).
fn index_free(path: &str) -> String {
    path.split('/')
        .map(|seg| {
            if !seg.is_empty() && seg.bytes().all(|b| b.is_ascii_digit()) {
                "*"
            } else {
                seg
            }
        })
        .collect::<Vec<_>>()
        .join("/")
}

fn omitted_line(n: usize) -> String {
    format!("- … and {n} more error{}", if n == 1 { "" } else { "s" })
}
