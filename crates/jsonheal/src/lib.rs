//! jsonheal turns the broken JSON that language models emit into valid JSON, in one tolerant
//! pass over the bytes, and tells you every repair it made. Single quotes, unquoted keys,
//! trailing commas, comments, Python literals, prose and code fences around the answer,
//! truncated output: all repaired; a valid document comes back byte for byte; text that holds
//! no JSON is an error, never a made-up value.
//!
//! ```
//! let fixed = jsonheal::repair("Sure! ```json\n{name: 'Ada', tags: ['x',], ok: True,}\n```")?;
//! assert_eq!(fixed.text, r#"{"name":"Ada","tags":["x"],"ok":true}"#);
//! assert!(!fixed.repairs.is_empty());
//! # Ok::<(), jsonheal::Error>(())
//! ```
//!
//! Beyond the repair engine the crate holds the layers built on it: [`args`] normalises a
//! tool call's arguments into an object, [`tool_input`] is a storage codec for them,
//! [`quotes`] folds typographic quotes, [`extract`] picks the answer out of a reply,
//! [`schema`] coerces and validates against a JSON Schema, [`stream`] repairs as the text
//! arrives, and [`format`](mod@format) re-spaces JSON text without touching its numbers or strings.

mod engine;
mod error;

mod rules;
mod text;

/// The engine's former path, kept only so that `stream` (being split on another branch)
/// still resolves the `crate::repair::NAME` it calls, now homed in `rules` and `text`.
/// Temporary: a later step points the stream at `rules` and `text` directly and removes
/// this module.
mod repair {
    pub(crate) use crate::rules::{
        apostrophe_closes, citation_at, control_token, elements_then_array_closer_at,
        escaped_document_at, lost_brace_key_at, member_value_string_at, number_element_at,
        separator_after_quote, string_end_on_line, task_box_at, words_after_closers,
    };
    pub(crate) use crate::text::{
        escaped_at, find_ignore_ascii_case, first_on_line, json_number_end, literal_word,
        template_placeholder, unescaped_byte, TEMPLATE_SIGILS,
    };
}

pub mod args;
pub mod extract;
pub mod format;
pub mod quotes;
pub mod schema;
pub mod stream;
pub mod tool_input;

pub use engine::{
    repair, repair_with, DuplicateKeys, Multiple, NonFinite, Options, Repair, RepairKind, Repaired,
};
pub use error::{Error, ErrorKind, Position};
pub use schema::{heal, HealError, HealOptions, Healed, Schema};
