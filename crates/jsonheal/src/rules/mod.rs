//! Look-ahead judgements: functions of the bytes and a position that decide how to read
//! what is there (does this quote end its string? does this `[` open an array?). Written
//! once here; the engine calls them with the whole text, the stream with what has arrived.
//!
//! Those that take `complete: bool` return `Option<bool>`: `None` means *need more bytes*
//! (the text so far ends before the rule can tell), which only the stream sees: with
//! `complete` true they always decide.
//!
//! Nothing here imports `engine` or `stream`; rules build on [`crate::text`] only.
//!
//! | rule (what it decides) | `RepairKind` | function | test table (`tests/repair_cases/`) |
//! |---|---|---|---|
//! | a document written with `\"` outside strings | `EscapedJson` | [`escaped_document_at`] | `an_escaped_object_as_a_members_value` |
//! | a text that lost its `{` before a quoted key | `MissingOpener` | [`lost_brace_key_at`] (stream only for now) | `missing_openers_before_scalars_and_bare_keys` |
//! | a `[1]` citation in prose is no answer | `StrippedProse` | [`citation_at`] | `citations_in_prose_are_no_answer` |
//! | a `- [ ]` task box is no answer | `StrippedProse` | [`task_box_at`] | `citations_in_prose_are_no_answer` |
//! | `[TOOL_CALLS]`, `[INST]` are prose | `StrippedProse` | [`control_token`] | `chat_template_control_tokens` |
//! | a `{`/`[` in prose opens JSON | `StrippedProse` (when not) | [`plausible_container`] | `fences_prose_and_reasoning` |
//! | a `{` at the text's start is no prose in braces | `StrippedProse` (when not) | [`object_at_text_start`] | `fences_prose_and_reasoning` |
//! | a `[` before a number opens an array | `StrippedProse` (when not) | [`number_element_at`] | `fences_prose_and_reasoning` |
//! | elements then `]` after a member's value | `MissingArrayOpener` | [`elements_then_array_closer_at`] | `member_values_that_lost_their_opener` |
//! | a `'` closes a `"` string | `SingleQuotes` | [`apostrophe_closes`] | `strings_closed_by_another_kind_of_quote` |
//! | closers after a quote go on as JSON | `InnerQuote` (when not) | [`closers_then_next`] | `strings_closed_by_another_kind_of_quote` |
//! | a quote then a separator ends a string | `MissingQuote` | [`separator_after_quote`], [`quote_then_separator`] | `lost_quotes_before_a_comma_and_a_line_break` |
//! | a quoted member value follows | `MissingColon` / `UnquotedKey` (when not) | [`member_value_string_at`] | `bare_paths_and_colons_inside_strings` |
//! | a later quote on the line ends the string | `InnerQuote` | [`string_end_on_line`] | `closers_and_comments_after_inner_quotes` |
//! | closers then words are string content | `InnerQuote` | [`words_after_closers`] | `closers_and_comments_after_inner_quotes` |
//!
//! Every rule also runs through the stream's tests (`tests/stream*.rs`), which feed the
//! same texts in chunks and compare with the engine.

mod array;
mod document;
mod string_end;

pub(crate) use array::{elements_then_array_closer_at, number_element_at};
pub(crate) use document::{
    citation_at, control_token, escaped_document_at, lost_brace_key_at, object_at_text_start,
    plausible_container, task_box_at,
};
pub(crate) use string_end::{
    apostrophe_closes, closers_then_next, member_value_string_at, quote_then_separator,
    separator_after_quote, string_end_on_line, words_after_closers,
};
