//! Pure byte facts: what a byte or a short run of bytes is (layout, identifier, quote,
//! number, escape, markup), with no state and no repair policy. Written once here and used
//! by the engine, the stream's rules, `extract`, `args` and `quotes`.
//!
//! Nothing here imports `engine`, `rules` or `stream`.

mod bytes;
mod escape;
mod markup;
mod number;
mod quote;
#[cfg(test)]
mod tests;

pub(crate) use bytes::{
    find_ignore_ascii_case, first_on_line, is_ident, is_ident_start, is_ws, layout_len,
    scan_bare_word, skip_ws, starts_with_partial, unicode_space_len, utf8_len, ELLIPSIS,
    FULL_WIDTH_COLON, FULL_WIDTH_COMMA, IDENT_OR_SPACE, KEY_LIKE_LEN, LOOKAHEAD,
};
pub(crate) use escape::{escape, hex4, unescaped_byte, unicode_escape_len, Escape};
pub(crate) use markup::{
    closing_tags_to_end, comment_end, fence_marker, fence_value_start, reasoning_closer,
    reasoning_opener, template_placeholder,
};
pub(crate) use number::{
    is_json_integer, is_json_number, json_number_end, literal_json, literal_word, non_finite_word,
    parse_number_like, scan_number,
};
pub(crate) use quote::{
    escaped_at, has_unescaped, is_python_prefix, is_raw_prefix, plain_run_end,
    python_string_prefix, quote_at, quoted_end, typographic_quote, Quote, TypoQuote,
};
