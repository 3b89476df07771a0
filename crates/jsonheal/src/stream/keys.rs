//! Keys and colons: quoted, bare and prefixed keys, lost colons, members with no value and
//! duplicate keys.

use super::bytes::{is_typographic, quote_len};
use super::containers::{fnv1a, key_mix};
use super::lookahead::windows_path;
use super::parser::{Mode, Parser, Step};
use super::tree::{children, Kind};
use crate::text::{is_ident, is_python_prefix, is_raw_prefix, KEY_LIKE_LEN};

impl Parser {
    /// `{"a": }`, `{"a": , "b": 1}`, `{"a" }`: a member with no value is null to the
    /// engine. It waits, as a literal does, for what follows to show that it is no first
    /// element of an array that lost its `[` (`{"a": , 1, 2]}` is `{"a": [null, 1, 2]}`).
    pub(super) fn empty_member_value(&mut self) -> Step {
        self.repaired = true;
        self.word_start = self.arena.len();
        self.pending = Some(Kind::Null);
        self.mode = Mode::AfterValue;
        Step::Go
    }

    /// A quoted key at `pos` (its opening quote), read as a string.
    pub(super) fn quoted_key(&mut self, text: &str, quote: u8) -> Step {
        let Some(windows) = windows_path(&text.as_bytes()[self.pos + quote_len(quote)..]) else {
            return Step::Wait;
        };
        if windows && is_typographic(quote) {
            return self.freeze();
        }
        self.key_start = self.arena.len();
        self.pos += quote_len(quote);
        self.key_open = self.pos;
        self.double_quote_seen = false;
        // A Windows path holds an escape JSON does not know: not JSON either.
        self.repaired |= quote != b'"' || windows;
        self.mode = Mode::Str {
            quote,
            key: true,
            windows,
        };
        self.string(text, quote, true, windows)
    }

    /// The held-back string value of a member, a `:` at `pos`: the string is the first key
    /// of an object that lost its `{`, the member's value. Its content is the arena's end,
    /// right where the new object's key belongs.
    pub(super) fn member_value_is_a_key(&mut self) -> Step {
        let Some((open, start)) = self.deferred.take() else {
            return self.freeze();
        };
        self.key_open = open + 1;
        if self.stack.len() >= self.depth_limit {
            // The engine drops the colon then.
            return self.freeze();
        }
        self.release_held();
        self.string_end = None;
        if !self.push_container(true, start) {
            return self.freeze();
        }
        self.key_start = start;
        if !self.complete_key() {
            return self.freeze();
        }
        self.repaired = true;
        self.pos += 1;
        self.mode = Mode::MemberValue;
        Step::Go
    }

    /// `{"tool: "bash"`, at the word after the key's closing quote: the engine's
    /// `close_key_at_colon` ends the key at its colon when it is a plain word (no escape,
    /// quote or control character, ASCII here), a space follows the colon and only spaces
    /// the quote, or a container opens there. If so, the key is cut there and read on from
    /// its colon.
    pub(super) fn key_holds_its_colon(&mut self, bytes: &[u8]) -> bool {
        let quote = self.pos - 1;
        let Some(raw) = bytes.get(self.key_open..quote) else {
            return false;
        };
        if bytes.get(self.key_open.wrapping_sub(1)) != Some(&b'"')
            || bytes[quote] != b'"'
            || self.arena.as_bytes().get(self.key_start..) != Some(raw)
        {
            return false;
        }
        let Some(colon) = memchr::memchr(b':', raw) else {
            return false;
        };
        let key = &raw[..colon];
        let plain = !key.is_empty()
            && key.len() <= KEY_LIKE_LEN
            && key
                .iter()
                .all(|&c| c.is_ascii() && c >= 0x20 && !matches!(c, b'\\' | b'"' | b'\''));
        // Only spaces up to the quote, or a container that opens after them (`"skills:
        // ["go"]`, which the engine reads on as the value).
        let between = raw[colon + 1..].trim_ascii();
        if !plain
            || !matches!(raw.get(colon + 1), Some(b' ' | b'\t'))
            || !(between.is_empty() || matches!(between[0], b'{' | b'['))
        {
            return false;
        }
        self.arena.truncate(self.key_start + colon);
        self.pos = self.key_open + colon;
        self.repaired = true;
        if !self.complete_key() {
            self.freeze();
        }
        true
    }

    pub(super) fn key_word(&mut self, text: &str) -> Step {
        for (i, c) in text[self.pos..].char_indices() {
            match c {
                ':' => {
                    self.pos += i + 1;
                    if !self.end_bare_key() {
                        return self.freeze();
                    }
                    self.mode = Mode::MemberValue;
                    return Step::Go;
                }
                c if c.is_alphanumeric() || matches!(c, '_' | '$' | '-' | '.' | ' ' | '\t') => {
                    self.arena.push(c);
                }
                // `{count 2}`: a key that lost its colon, its last word a number or literal,
                // which is the value (the engine's `value_after_bare_key`).
                ',' | '}' | '\n' | '\r' => {
                    let at = self.pos + i;
                    return match self.bare_key_value(at) {
                        Some(word) => {
                            self.pos = word;
                            self.mode = Mode::MemberValue;
                            Step::Go
                        }
                        None => {
                            self.pos = at;
                            self.freeze()
                        }
                    };
                }
                // `{name "Ada"}`, `{tags [1]}`: a bracket, or a quote after a space, ends
                // the key, which lost its colon: it opens the value (the engine's
                // `parse_unquoted_key`, then `step_colon`). `{host = "x"}`, `{a => 1}`: `=`
                // ends the key too, and `Colon` reads it (or `=>`) as the colon.
                '"' | '\'' | '[' | '{' | '='
                    if (c != '"' && c != '\'') || self.arena.ends_with([' ', '\t']) =>
                {
                    self.pos += i;
                    if !self.end_bare_key() {
                        return self.freeze();
                    }
                    self.repaired = true;
                    self.mode = Mode::Colon;
                    return Step::Go;
                }
                // `{model": 1}`: a key that lost its opening quote ends at the closing one,
                // when its colon follows (the engine's rule; not after a space: `{a ": 1}`).
                // `{u'name': 1}`: otherwise a Python string prefix before a quoted key.
                '"' | '\'' if !self.arena.ends_with([' ', '\t']) => {
                    let after = self.pos + i + 1;
                    let rest = text.as_bytes().get(after..).unwrap_or_default();
                    let Some(k) = rest.iter().position(|&c| c != b' ' && c != b'\t') else {
                        self.pos += i;
                        return Step::Wait;
                    };
                    if rest[k] != b':' || c == '\'' {
                        self.pos += i;
                        // (A comment may hide the colon: the engine skips it.)
                        if matches!(rest[k], b':' | b'/' | b'#' | b'\n' | b'\r') {
                            return self.freeze();
                        }
                        return self.prefixed_key(text, c as u8);
                    }
                    self.pos = after + k + 1;
                    if !self.complete_key() {
                        return self.freeze();
                    }
                    self.mode = Mode::MemberValue;
                    return Step::Go;
                }
                _ => {
                    self.pos += i;
                    return self.freeze();
                }
            }
        }
        self.pos = text.len();
        Step::Go
    }

    /// The bare key read into the arena ends here: its trailing layout is dropped and it
    /// is recorded as complete; false for an empty key or a duplicate.
    fn end_bare_key(&mut self) -> bool {
        let key = self.arena.get(self.key_start..).unwrap_or_default();
        let trimmed = key.trim_end().len();
        self.arena.truncate(self.key_start + trimmed);
        trimmed > 0 && self.complete_key()
    }

    /// At the quote (`pos`) right after the bare word read into the arena as a key, which no
    /// colon follows: when the word is a Python string prefix (`u'name'`), the quoted key
    /// starts here, as the engine reads it; anything else is the engine's call.
    fn prefixed_key(&mut self, text: &str, quote: u8) -> Step {
        let word = self
            .arena
            .as_bytes()
            .get(self.key_start..)
            .unwrap_or_default();
        // A raw string's backslashes are content (`r'\d'`): left to the engine.
        if !is_python_prefix(word) || is_raw_prefix(word) {
            return self.freeze();
        }
        // (`quoted_key` may wait for bytes that tell a Windows path: the prefix stays in
        // the arena until it can read on.)
        if windows_path(text.as_bytes().get(self.pos + 1..).unwrap_or_default()).is_none() {
            return Step::Wait;
        }
        self.arena.truncate(self.key_start);
        self.quoted_key(text, quote)
    }

    /// The bare key read into the arena ends at `at` (a `,`, `}` or line break) with no
    /// colon: when its last word is a number or literal after plain words, the engine
    /// (`value_after_bare_key`) makes those words the key and that word its value. Cuts the
    /// key and returns where the word starts in the text; `None` otherwise.
    fn bare_key_value(&mut self, at: usize) -> Option<usize> {
        let key = self.arena.as_bytes().get(self.key_start..)?;
        let end = key.trim_ascii_end().len();
        let space = key[..end].iter().rposition(|&c| c == b' ' || c == b'\t')?;
        let word = &key[space + 1..end];
        let name = key[..space].trim_ascii_end().len();
        let is_value = crate::text::json_number_end(word, 0, word.len()) == Some(word.len())
            || crate::text::literal_word(word).is_some();
        if !is_value
            || name == 0
            || !key[..space]
                .iter()
                .all(|&c| is_ident(c) || c == b' ' || c == b'\t')
        {
            return None;
        }
        // The key's bytes are the text's, up to `at`.
        let word_at = at - (key.len() - (space + 1));
        self.arena.truncate(self.key_start + name);
        if !self.complete_key() {
            return None;
        }
        self.repaired = true;
        Some(word_at)
    }

    /// Record the key just read as complete (it waits in `key` for its value); false for a
    /// duplicate in the innermost object.
    pub(super) fn complete_key(&mut self) -> bool {
        /// Objects up to this wide are scanned for a duplicate; wider ones keep hashes.
        const SCAN: usize = 16;
        let Some(frame) = self.stack.last_mut().filter(|f| f.object) else {
            return false;
        };
        let (nodes, arena) = (&self.nodes, &self.arena);
        let key = arena.get(self.key_start..).unwrap_or_default();
        // `"status”: "ok"`: the engine closes the key at a typographic quote before a colon;
        // the stream read on past it.
        if !key.is_ascii() && typographic_before_colon(key) {
            return false;
        }
        let container = frame.node;
        let keys =
            || children(nodes, container).filter_map(|(_, node)| arena.get(node.key_range()));
        // One bit per key of a cheap hash: a key whose bit is clear is new, which is most keys,
        // so most are told apart without a look at their siblings.
        let bit = 1u64 << key_mix(key);
        let seen = frame.key_bits & bit != 0;
        frame.key_bits |= bit;
        if frame.len < SCAN {
            // Lengths first: most sibling keys differ in length, and comparing those costs
            // no look at the text.
            if seen
                && children(nodes, container).any(|(_, node)| {
                    usize::from(node.key_len) == key.len()
                        && arena.as_bytes().get(node.key_range()) == Some(key.as_bytes())
                })
            {
                return false;
            }
        } else {
            let hashes = frame
                .key_hashes
                .get_or_insert_with(|| keys().map(fnv1a).collect());
            // A hash seen before is confirmed by a scan: collisions are rare.
            if !hashes.insert(fnv1a(key)) && keys().any(|k| k == key) {
                return false;
            }
        }
        self.pending_key = true;
        true
    }
}

/// Whether `key` holds a `”` or `’` followed (spaces aside) by a `:`.
fn typographic_before_colon(key: &str) -> bool {
    key.match_indices(['\u{201D}', '\u{2019}']).any(|(i, q)| {
        key[i + q.len()..]
            .trim_start_matches([' ', '\t', '\n', '\r'])
            .starts_with(':')
    })
}
