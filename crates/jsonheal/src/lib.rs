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
