//! Look-ahead judgements: functions of the bytes and a position that decide how to read
//! what is there (does this quote end its string? does this `[` open an array?). Written
//! once here; the engine calls them with the whole text, the stream with what has arrived.
//!
//! Those that take `complete: bool` return `Option<bool>`: `None` means *need more bytes*
//! (the text so far ends before the rule can tell), which only the stream sees: with
//! `complete` true they always decide.
//!
//! Nothing here imports `engine` or `stream`; rules build on [`crate::text`] only.

mod array;
mod document;
mod string_end;

pub(crate) use array::{elements_then_array_closer_at, number_element_at};
pub(crate) use document::{
    citation_at, control_token, escaped_document_at, lost_brace_key_at, task_box_at,
};
pub(crate) use string_end::{
    apostrophe_closes, closers_then_next, member_value_string_at, quote_then_separator,
    separator_after_quote, string_end_on_line, words_after_closers,
};
