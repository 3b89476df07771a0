//! Strings: quoted values and keys, their escapes and content, the hold-back of a value's
//! end, and what a closing quote's next bytes decide.

use super::bytes::{
    is_typographic, plain_stop, quote_len, string_stop, third_stop, typo_quote_at, TYPO,
    TYPO_SINGLE,
};
use super::lookahead::{
    comma_then_member, double_quote_closes_value, ellipsis_then_colon, key_closer_later,
    key_follows, quote_after_closers, typographic_may_close, value_starts_at, windows_path,
    word_after_quoted, words_to_a_quote, After,
};
use super::parser::{Comment, Mode, Parser, Step};
use super::tree::Kind;
use crate::text::{escape, is_ws, Escape, KEY_LIKE_LEN, LOOKAHEAD};

/// How `Parser::plain_value_run` stopped.
pub(super) enum PlainRun {
    /// At the text's end.
    End,
    /// At an escape the text's end cuts: the next push completes it.
    Wait,
    /// At a quote, for `string_run`.
    Stop,
}

impl Parser {
    /// A value that starts with 0xE2 (no `…`): a string in typographic quotes.
    pub(super) fn typographic_value(&mut self, text: &str) -> Step {
        let bytes = text.as_bytes();
        match typo_quote_at(&bytes[self.pos..]) {
            None => Step::Wait,
            Some(None) => self.freeze(),
            // A Windows path in typographic quotes is left to the engine.
            Some(Some(quote)) => match windows_path(&bytes[self.pos + 3..]) {
                None => Step::Wait,
                Some(true) => self.freeze(),
                Some(false) => {
                    self.repaired = true;
                    match self.open_string(quote, false) {
                        Step::Go if self.mode != Mode::Frozen => {
                            self.string(text, quote, false, false)
                        }
                        step => step,
                    }
                }
            },
        }
    }

    /// What follows a string value's closing quote decides whether it closes the string
    /// (the one-shot engine's rule): `}` or `]`; in an array `,`; in an object `,` followed
    /// by a key, a closer or a comment; a comment after whitespace. Anything else may make
    /// the quote content (`"He said "hi""`) or is a repair the stream leaves to `finish`.
    /// `self.pos` is at the first non-space byte after the quote.
    pub(super) fn after_string(&mut self, bytes: &[u8], after: usize) -> Step {
        let object = self.stack.last().is_some_and(|f| f.object);
        // An array's next element follows with its comma lost.
        let mut lost_comma = false;
        let closes = match bytes[self.pos] {
            // Unless a quote right after the closers ends the string (the engine's rule).
            // Either way the withheld end is content: show it while that is undecided.
            // A wrong closer after a held-back string: the engine drops it and may read
            // the string as a key after all (`{"a": "b"]: 1}` is `{"a": {"b": 1}}`).
            b'}' | b']' if self.deferred.is_some() && (bytes[self.pos] == b'}') != object => {
                return self.freeze();
            }
            b'}' | b']' => {
                // A held-back string is no key and no first element of an array: its
                // quote closes it, or it is content, and then the string holds an inner
                // quote, which no key and no such element does (the engine's rule).
                self.show_deferred();
                let from = self.arena.len();
                self.release_held();
                self.grew(from);
                match quote_after_closers(bytes, self.pos) {
                    Some(false) => {
                        // `"x "y" ]] z"`: closers, then words, then a quote that may end
                        // the string make the closers content (the engine's rule).
                        let open = self
                            .stack
                            .iter()
                            .rev()
                            .map(|f| if f.object { b'}' } else { b']' });
                        crate::rules::words_after_closers(bytes, self.pos, open, false)
                            .map(|content| !content)
                    }
                    later => later.map(|later| !later),
                }
            }
            // A comment after a held-back string that the quote closes: whether the string
            // is a key (`["a" // c` then `: 1]`) is for what follows the comment to tell, so
            // the comment is skipped with the decision still open.
            b'/' if self.deferred.is_some() => {
                let (closes, comment) = match bytes.get(self.pos + 1) {
                    None => (None, Comment::Block),
                    Some(b'*') => (Some(self.pos > after), Comment::Block),
                    Some(b'/') if self.pos > after => (
                        crate::rules::string_end_on_line(bytes, self.pos, false, false)
                            .map(|content| !content),
                        Comment::Line,
                    ),
                    Some(_) => (Some(false), Comment::Block),
                };
                if closes == Some(true) {
                    self.pos += 2;
                    self.comment = Some(comment);
                    self.repaired = true;
                    return Step::Go;
                }
                closes
            }
            b'/' => match bytes.get(self.pos + 1) {
                None => None,
                // A comment after spaces ends the string; a line comment not if a quote
                // later on its line may (the engine's rule).
                Some(b'*') => Some(self.pos > after),
                Some(b'/') if self.pos > after => {
                    crate::rules::string_end_on_line(bytes, self.pos, false, false)
                        .map(|content| !content)
                }
                Some(_) => Some(false),
            },
            // `["p", ...: "q"]`: the engine reads an ellipsis and a colon after a string
            // element as that string's colon (a key, so the array lost its `]`).
            b',' if !object && self.deferred.is_some() => {
                ellipsis_then_colon(bytes, self.pos + 1).map(|colon| !colon)
            }
            b',' if !object => Some(true),
            // `"name": "Bob"\n  "age": 25`, `"name": "search" "arguments": {…}`: the next
            // member's key and colon: the comma was lost, and the quote closes the string
            // (the engine's rule; the stream froze at any inner quote before).
            // (A held-back string is then no key and no first element of a lost array.)
            // (After an inner quote, the engine may read words and a quote as the sentence
            // going on: its call.)
            b'"' if object && self.inner_quote && self.pos > after => Some(false),
            // `"Nike Air Max 90 "Infrared"", "price": 140}`: a quote right before another,
            // where the string that one opens is followed by a word: no key follows
            // either quote (the engine's `key_follows`), so the first is content and the
            // second closes the string or not, as any quote does.
            b'"' if object
                && self.pos == after
                && self.value_quote == b'"'
                && !matches!(bytes[after - 2], b'{' | b'[')
                && !matches!(
                    bytes[..after - 1]
                        .iter()
                        .rev()
                        .find(|&&c| c != b' ' && c != b'\t'),
                    Some(b',' | b'\n')
                ) =>
            {
                match word_after_quoted(bytes, self.pos) {
                    None => None,
                    Some(true) => return self.inner_double_quote(after),
                    Some(false) => key_follows(bytes, self.pos),
                }
            }
            b'"' if object => key_follows(bytes, self.pos),
            // `["a" "b"]`: layout, then the next element's quote: the comma was lost.
            b'"' if self.pos > after => {
                lost_comma = true;
                Some(true)
            }
            b',' => comma_then_member(bytes, self.pos + 1, After::String),
            // `"hello " + "world"`: a concatenation, joined into one string by the engine.
            b'+' => {
                let mut k = self.pos + 1;
                while bytes.get(k).copied().is_some_and(is_ws) && k < self.pos + LOOKAHEAD {
                    k += 1;
                }
                match bytes.get(k) {
                    None => None,
                    // (Only the first `"` may close a single-quoted string: a part after
                    // one is left to the engine.)
                    Some(&q @ (b'"' | b'\'')) if !self.double_quote_seen && !self.inner_quote => {
                        return self.concatenation(bytes, k, q);
                    }
                    Some(_) => Some(false),
                }
            }
            // `"The "Best" movie"`, `"say "no".`: a quote that a word follows is content
            // to the engine (`value_string_end`) unless a key follows it (in an object, after
            // layout) or a comma or line break comes before it, where it may open the next
            // member or element.
            c if (c.is_ascii_alphanumeric() || b".!?-_@$%&*~^|".contains(&c))
                && self.value_quote == b'"'
                && (object || self.pos == after) =>
            {
                let key = if object && self.pos > after {
                    words_to_a_quote(bytes, self.pos).map(|words| !words)
                } else {
                    Some(false)
                };
                let quote = after - 1;
                let mut k = quote;
                while matches!(bytes[k - 1], b' ' | b'\t') {
                    k -= 1;
                }
                // A quote right after `{` or `[` starts JSON inside the string to the engine
                // (its `EmbeddedJson`), whose quotes before `, "key"` it keeps as content
                // later on: not mirrored, so the stream does not read one as content.
                let embedded = matches!(bytes[quote - 1], b'{' | b'[');
                match key {
                    None => None,
                    Some(false) if !embedded && !matches!(bytes[k - 1], b',' | b'\n') => {
                        return self.inner_double_quote(after);
                    }
                    Some(false) if object && !embedded && self.pos == after => {
                        return self.lost_closing_quote(bytes, quote);
                    }
                    Some(_) => Some(false),
                }
            }
            // `"arguments": "path": "a.rs"}}`: a member's short string value, then a colon
            // and a value: the string is the first key of an object that lost its `{` (the
            // engine's `key_like_string_before` and `open_object_in_member`). Only for
            // straight quotes, whose content the engine and `deferred` measure alike, and
            // no quote inside, which may have been an inner one to the engine.
            // `["name": "Alice", …}]`: in an array with no object around it, such a string
            // element is the first key of an object in the array that lost its `{` (the
            // engine's `key_in_array`; with an object around, the closers to the text's end
            // decide).
            b':' if (object || !self.stack.iter().any(|f| f.object))
                && self.deferred.is_some_and(|(open, start)| {
                    matches!(bytes.get(open), Some(b'"' | b'\'' | b'`'))
                        && !self.arena.as_bytes()[start..]
                            .iter()
                            .any(|&c| matches!(c, b'"' | b'\''))
                        && !self.held.contains(['"', '\''])
                }) =>
            {
                let mut m = self.pos + 1;
                while bytes.get(m).copied().is_some_and(is_ws) && m < self.pos + LOOKAHEAD {
                    m += 1;
                }
                match value_starts_at(bytes, m) {
                    None => None,
                    Some(true) => return self.member_value_is_a_key(),
                    // The engine may read the quote as content (`"b":: 1`, `"b": }`).
                    Some(false) => Some(false),
                }
            }
            _ => Some(false),
        };
        match closes {
            None => Step::Wait,
            Some(false) => self.freeze(),
            Some(true) => {
                // A held-back string is a value after all: no `:` follows it, and nothing
                // after it makes it the first element of an array that lost its `[`.
                self.show_deferred();
                self.string_end = None;
                let from = self.arena.len();
                self.release_held();
                self.grew(from);
                if lost_comma {
                    self.repaired = true;
                    self.mode = Mode::Element;
                }
                Step::Go
            }
        }
    }

    /// `"role": "designer, "skills": []`: a quote after a separator (a comma or a line
    /// break, then spaces) opens the next key, so the string value lost its closing quote
    /// before the separator. The engine (`StrEnd::Unterminated`) ends the string there,
    /// without the layout and the one comma before the quote, and reads the key. Left to
    /// `finish` where it reads the quote otherwise: after an inner quote, in JSON inside the
    /// string (an opener in it), or after closers (the open containers may end there).
    fn lost_closing_quote(&mut self, bytes: &[u8], quote: usize) -> Step {
        let start = match self.deferred {
            Some((_, start)) => start,
            None => self.nodes.get(self.current).map_or(0, |n| n.text as usize),
        };
        let content = self.arena.as_bytes().get(start..).unwrap_or_default();
        if self.inner_quote
            || content
                .iter()
                .chain(self.held.as_bytes())
                .any(|&c| c == b'{' || c == b'[')
        {
            return self.freeze();
        }
        let mut k = quote;
        while matches!(bytes[k - 1], b' ' | b'\t') {
            k -= 1;
        }
        if bytes[k - 1] == b',' {
            let mut c = k - 1;
            while matches!(bytes[c - 1], b' ' | b'\t') {
                c -= 1;
            }
            if matches!(bytes[c - 1], b'}' | b']') {
                return self.freeze();
            }
        }
        match key_follows(bytes, quote) {
            None => return Step::Wait,
            Some(false) => return self.freeze(),
            Some(true) => {}
        }
        // What the engine trims (`trim_separator_before`): raw layout, then one comma. The
        // string's raw end is held back, so that is at most what `held` holds.
        let mut t = quote;
        while matches!(bytes[t - 1], b' ' | b'\t' | b'\n' | b'\r') {
            t -= 1;
        }
        if bytes[t - 1] == b',' {
            t -= 1;
        }
        let Some(keep) = self.held.len().checked_sub(quote - t) else {
            return self.freeze();
        };
        self.show_deferred();
        if self.mode == Mode::Frozen {
            return Step::Go;
        }
        self.string_end = None;
        let from = self.arena.len();
        let held = std::mem::take(&mut self.held);
        self.arena.push_str(held.get(..keep).unwrap_or_default());
        self.held = held;
        self.held.clear();
        self.grew(from);
        self.repaired = true;
        self.pos = quote;
        self.mode = Mode::Key;
        Step::Go
    }

    /// The quote before `after` did not close the string value: it is content, and the
    /// string goes on from `after`.
    fn inner_double_quote(&mut self, after: usize) -> Step {
        let from = self.arena.len();
        self.release_held();
        self.arena.push('"');
        self.grew(from);
        self.string_end = None;
        self.inner_quote = true;
        self.repaired = true;
        self.pos = after;
        self.mode = Mode::Str {
            quote: b'"',
            key: false,
            windows: false,
        };
        Step::Go
    }

    /// The string value that closed last goes on with the part `q` opens at `k`, after a
    /// `+`: its content grows in place, as one string.
    fn concatenation(&mut self, bytes: &[u8], k: usize, q: u8) -> Step {
        match windows_path(&bytes[k + 1..]) {
            None => return Step::Wait,
            Some(true) => return self.freeze(),
            Some(false) => {}
        }
        // (From the closing quote on: `"a"\n + "b"` has its line break before the `+`;
        // found by fuzzing.)
        let from = self.string_end.unwrap_or(self.pos).min(self.pos);
        if self.deferred.is_some() && bytes[from..k].contains(&b'\n') {
            // The engine's key-length check spans all parts and what lies between them:
            // a line break there makes the string a value.
            self.show_deferred();
        }
        let from = self.arena.len();
        self.release_held();
        self.grew(from);
        self.string_end = None;
        self.repaired = true;
        self.value_quote = q;
        self.pos = k + 1;
        self.mode = Mode::Str {
            quote: q,
            key: false,
            windows: false,
        };
        Step::Go
    }

    // ----- tokens -----------------------------------------------------------------------

    /// Read a string up to its closing quote or the end of the text. Content and escapes go
    /// into the arena in one run, and the node and the events learn of the growth once.
    pub(super) fn string(&mut self, text: &str, quote: u8, key: bool, windows: bool) -> Step {
        let from = self.arena.len();
        let read_from = self.pos;
        let deferred = self.deferred.is_some();
        let plain = quote == b'"' && !key && !windows && self.plain_allowed();
        let step = match plain && self.plain_start(text) {
            true => match self.plain_value_run(text) {
                PlainRun::Wait => Step::Wait,
                PlainRun::End => Step::Go,
                PlainRun::Stop => self.string_run(text, quote, key, windows),
            },
            false => self.string_run(text, quote, key, windows),
        };
        if !key && deferred {
            // (A freeze inside the run dropped the held-back element: nothing to show.)
            if let Some((open, _)) = self.deferred {
                // Raw content so far (the closing quote, if read, aside), as the engine
                // measures it.
                let end = self.pos - usize::from(self.string_end.is_some());
                // Only this run's part can hold a new line break: earlier runs were checked.
                let new = text.as_bytes().get(read_from.min(end)..end);
                if end.saturating_sub(open + 1) > KEY_LIKE_LEN
                    || new.is_some_and(|b| b.contains(&b'\n'))
                {
                    self.show_deferred();
                }
            }
        } else if !key {
            self.grew(from);
        }
        step
    }

    /// The bulk of a string value (a tool call's code, say): plain content and escapes, read
    /// in a tight loop, exactly as `string_run` reads them. It stops at anything else (the
    /// closing quote, a typographic quote) for `string_run`. Only for a straight-quoted value
    /// that is no Windows path, from a point where nothing is held back (`plain_start`).
    pub(super) fn plain_value_run(&mut self, text: &str) -> PlainRun {
        let bytes = text.as_bytes();
        loop {
            let rest = &bytes[self.pos..];
            let Some(i) = plain_stop::<false>(rest) else {
                let tail = &text[self.pos..];
                if rest.last().is_some_and(|&b| !cuttable(b)) {
                    // Nothing the engine could cut: all of it is content now.
                    self.arena.push_str(tail);
                } else {
                    self.content(tail, false);
                }
                self.pos = bytes.len();
                return PlainRun::End;
            };
            if rest[i] != b'\\' {
                return PlainRun::Stop;
            }
            // `"`, `\` and 0xE2 start characters: `pos + i` is a char boundary.
            let end = self.pos + i;
            // The escapes of code and prose, decoded here; `escape` has the rest.
            let common = match rest.get(i + 1) {
                Some(b'n') => Some('\n'),
                Some(b'"') => Some('"'),
                Some(b'\\') => Some('\\'),
                Some(b't') => Some('\t'),
                _ => None,
            };
            if let Some(c) = common {
                self.arena.push_str(&text[self.pos..end]);
                self.arena.push(c);
                self.pos = end + 2;
                continue;
            }
            if !self.take_escape(text, end, escape(&rest[i..]), false) {
                return PlainRun::Wait;
            }
        }
    }

    /// The escape at `end`, decoded as `escape`, and the content before it, which is content
    /// whatever the escape turns out to be: straight into the arena, past the hold-back of
    /// `content`. False when the text's end cuts the escape (`pos` stays at it).
    fn take_escape(&mut self, text: &str, end: usize, escape: Escape, key: bool) -> bool {
        match escape {
            Escape::Wait => {
                self.content(&text[self.pos..end], key);
                self.pos = end;
                return false;
            }
            Escape::Char(c, len, json) => {
                self.repaired |= !json;
                self.release_held();
                self.arena.push_str(&text[self.pos..end]);
                self.arena.push(c);
                self.pos = end + len;
            }
            Escape::KeepBackslash => {
                self.repaired = true;
                self.release_held();
                self.arena.push_str(&text[self.pos..=end]);
                self.pos = end + 1;
            }
        }
        true
    }

    /// Inside a straight-quoted string value that `plain_value_run` may read on from `pos`
    /// (see `string`) once `plain_start` agrees, with nothing else pending: no comment, no
    /// string element held back as a possible key, no escaped-document check.
    #[inline]
    pub(super) fn in_plain_value(&self) -> bool {
        matches!(
            self.mode,
            Mode::Str {
                quote: b'"',
                key: false,
                windows: false
            }
        ) && self.comment.is_none()
            && self.deferred.is_none()
            && self.escape_check.is_none()
            && self.plain_allowed()
    }

    #[cfg(test)]
    fn plain_allowed(&self) -> bool {
        self.plain_fast
    }

    #[cfg(not(test))]
    #[inline(always)]
    fn plain_allowed(&self) -> bool {
        true
    }

    /// Whether `plain_value_run` may read on from `pos`: nothing is held back, or what comes
    /// next is plain content, which shows the held-back end is content (as `content` and
    /// `string_run` would decide).
    pub(super) fn plain_start(&mut self, text: &str) -> bool {
        if self.held.is_empty() {
            return true;
        }
        // `content` and `string_run` show the held-back end once plain content or a whole
        // escape follows the run of bytes the engine could cut with it.
        let rest = &text.as_bytes()[self.pos..];
        let Some(k) = rest.iter().position(|&b| !cuttable(b)) else {
            return false;
        };
        let shows = match rest[k] {
            b'"' | 0xE2 | b'\'' => false,
            b'\\' => !matches!(escape(&rest[k..]), Escape::Wait),
            _ => true,
        };
        if shows {
            self.release_held();
        }
        shows
    }

    fn string_run(&mut self, text: &str, quote: u8, key: bool, windows: bool) -> Step {
        let bytes = text.as_bytes();
        // The engine may close a string with another quote (`third_stop`): look at those too.
        let third = third_stop(quote, key);
        loop {
            let rest = &bytes[self.pos..];
            // (Both typographic quotes start with 0xE2.)
            let stop = if quote == TYPO_SINGLE { TYPO } else { quote };
            let mut found = string_stop(rest, stop, third);
            if quote == b'"' && !key && !self.inner_quote {
                // A `'` may close a value too (`apostrophe_closes`, unless an inner quote
                // came before): looked for only up to the next stop, so the scans stay
                // linear.
                let upto = found.unwrap_or(rest.len());
                // (Stops are mostly near: a loop beats memchr's setup there.)
                let apostrophe = if upto <= 32 {
                    rest[..upto].iter().position(|&c| c == b'\'')
                } else {
                    memchr::memchr(b'\'', &rest[..upto])
                };
                if apostrophe.is_some() {
                    found = apostrophe;
                }
            }
            let Some(i) = found else {
                self.content(&text[self.pos..], key);
                self.pos = bytes.len();
                return Step::Go;
            };
            // `quote`, `\` and 0xE2 start characters, so `pos + i` is a char boundary.
            let end = self.pos + i;
            if rest[i] == b'\\' && !windows {
                if !self.take_escape(text, end, escape(&bytes[end..]), key) {
                    return Step::Wait;
                }
                continue;
            }
            let other_quote = match (quote, key) {
                (b'"', true) => Some(b'\''),
                (b'\'', _) => Some(b'"'),
                _ => None,
            };
            if Some(rest[i]) == other_quote {
                // The engine closes a string at its first quote of the other kind that a `:`
                // follows in a key (`"a': 1`, `'id": 1`, unless the key's own quote comes
                // later on the line: `"':": 1`), or, in a single-quoted value, its
                // container's closer or a comma and the next member (`'x", "b": 1`); so
                // does the stream, where it mirrors what the engine looks at.
                self.content(&text[self.pos..end], key);
                self.pos = end;
                let first = !std::mem::replace(&mut self.double_quote_seen, true);
                let next = bytes[end + 1..].iter().position(|&c| !is_ws(c));
                let colon = next.is_some_and(|k| bytes[end + 1 + k] == b':');
                let may_close = next.map(|k| {
                    let c = bytes[end + 1 + k];
                    first && (c == b':' || (quote == b'\'' && matches!(c, b',' | b'}' | b']')))
                });
                // A key closes at the colon only; the rest `may_close` sees in a key (a
                // closer after `'k"`) freezes as before.
                let key_colon = key && colon;
                let object = self.stack.last().is_some_and(|f| f.object);
                let closes = match may_close {
                    _ if !key && first => match double_quote_closes_value(bytes, end + 1, object) {
                        None => None,
                        Some(None) => return self.freeze(),
                        Some(Some(closes)) => Some(closes),
                    },
                    None if first => None,
                    None => Some(false),
                    // (The engine looks for the colon as far as `LOOKAHEAD`.)
                    Some(true) if key_colon && next.is_some_and(|k| k >= LOOKAHEAD) => Some(false),
                    Some(true) if key_colon => {
                        key_closer_later(bytes, end + 1, quote).map(|later| !later)
                    }
                    decided => decided,
                };
                match closes {
                    None => {
                        self.double_quote_seen = false;
                        return Step::Wait;
                    }
                    Some(true) if key_colon || !key => {
                        self.repaired = true;
                        self.pos = end + 1;
                        return self.close_quote(key);
                    }
                    Some(true) => return self.freeze(),
                    Some(false) => {
                        self.release_held();
                        self.arena.push(char::from(rest[i]));
                        self.pos = end + 1;
                        continue;
                    }
                }
            }
            if rest[i] == b'\'' && quote == b'"' && !key && !self.inner_quote {
                self.content(&text[self.pos..end], key);
                self.pos = end;
                let object = self.stack.last().is_some_and(|f| f.object);
                match crate::rules::apostrophe_closes(bytes, end + 1, object, false) {
                    None => return Step::Wait,
                    // `"array', "items": …`: opened by `"`, closed by `'` (the engine's rule);
                    // what follows is judged as after any closing quote.
                    Some(true) => {
                        self.repaired = true;
                        self.pos = end + 1;
                        return self.close_quote(false);
                    }
                    Some(false) => {
                        self.release_held();
                        self.arena.push('\'');
                        self.pos = end + 1;
                        continue;
                    }
                }
            }
            if is_typographic(quote) && (rest[i] == b'"' || rest[i] == 0xE2) {
                // Either quote of the string's own kind, or a straight `"`, may close it.
                let Some(close) = (match typo_quote_at(&rest[i..]) {
                    None => None,
                    Some(Some(kind)) if kind == quote => Some(Some(3)),
                    Some(_) => Some((rest[i] == b'"').then_some(1)),
                }) else {
                    self.content(&text[self.pos..end], key);
                    self.pos = end;
                    return Step::Wait;
                };
                match close {
                    Some(len) => {
                        self.content(&text[self.pos..end], key);
                        self.pos = end + len;
                        return self.close_quote(key);
                    }
                    None => {
                        // Another character starting with 0xE2: content, and nothing the
                        // engine may cut.
                        self.release_held();
                        self.arena.push_str(&text[self.pos..end + 3]);
                        self.pos = end + 3;
                        continue;
                    }
                }
            }
            if rest[i] == 0xE2 {
                let Some(tail) = rest.get(i..i + 3) else {
                    self.content(&text[self.pos..end], key);
                    self.pos = end;
                    return Step::Wait;
                };
                // (`’` too, which the engine also reads as a closer before a separator.)
                if tail == "\u{201D}".as_bytes() || tail == "\u{2019}".as_bytes() {
                    self.content(&text[self.pos..end], key);
                    self.pos = end;
                    match typographic_may_close(bytes, end + 3) {
                        None => return Step::Wait,
                        Some(true) => return self.freeze(),
                        Some(false) => {}
                    }
                }
                // Any other character starting with 0xE2 is three bytes long, and no byte the
                // engine may cut: the content up to it is certain.
                self.release_held();
                self.arena.push_str(&text[self.pos..end + 3]);
                self.pos = end + 3;
                continue;
            }
            if rest[i] == b'\'' && quote == b'\'' && !key {
                // `'don't'`: a `'` right before a letter or digit is content to the engine
                // (its `value_string_end`), an inner quote.
                match bytes.get(end + 1) {
                    None => {
                        self.content(&text[self.pos..end], key);
                        self.pos = end;
                        return Step::Wait;
                    }
                    Some(c) if c.is_ascii_alphanumeric() => {
                        self.content(&text[self.pos..end], key);
                        self.release_held();
                        self.arena.push('\'');
                        self.pos = end + 1;
                        self.inner_quote = true;
                        continue;
                    }
                    Some(_) => {}
                }
            }
            self.content(&text[self.pos..end], key);
            self.pos = end;
            if rest[i] == quote {
                self.pos += 1;
                return self.close_quote(key);
            }
            let escape = if windows {
                match bytes.get(self.pos + 1) {
                    None => Escape::Wait,
                    // `"C:\dir\"}`: the engine ends the path at a quote that a separator, a
                    // closer or the end follows; left to it.
                    Some(b'"') => match bytes[self.pos + 2..].iter().find(|&&c| !is_ws(c)) {
                        None => Escape::Wait,
                        Some(b',' | b'}' | b']') => return self.freeze(),
                        Some(_) => escape(&bytes[self.pos..]),
                    },
                    Some(b'\\') => escape(&bytes[self.pos..]),
                    Some(_) => Escape::KeepBackslash,
                }
            } else {
                escape(&bytes[self.pos..])
            };
            match escape {
                Escape::Wait => return Step::Wait,
                Escape::Char(c, len, json) => {
                    self.repaired |= !json;
                    self.release_held();
                    self.arena.push(c);
                    self.pos += len;
                }
                Escape::KeepBackslash => {
                    self.repaired = true;
                    self.release_held();
                    self.arena.push('\\');
                    self.pos += 1;
                }
            }
        }
    }

    /// A closing quote was read (`pos` is past it).
    fn close_quote(&mut self, key: bool) -> Step {
        if key {
            // A key's quote closes it (`Colon` reads what follows, a lost colon too).
            if !self.complete_key() {
                return self.freeze();
            }
            self.mode = Mode::Colon;
        } else {
            // Only a candidate: `after_string` looks at what follows.
            self.string_end = Some(self.pos);
            self.mode = Mode::AfterValue;
        }
        Step::Go
    }

    /// Raw string content (no quote, no backslash). The end of a value's content waits in
    /// `held` while the engine could still cut the string there: from a raw line break
    /// followed only by spaces, closers and commas (at the end of the input, `"bar\n}` ends
    /// the string at its line break), trailing layout (`["x ]` ends it before the space),
    /// a trailing `,` and layout (`{"a": "x, "b": 1}` ends the string before them), and a run
    /// of closers and commas (see `held_from`).
    ///
    /// The content goes to the arena only; the caller reports the growth (`grew`).
    fn content(&mut self, s: &str, key: bool) {
        if key || s.is_empty() {
            self.arena.push_str(s);
            return;
        }
        if !self.held.is_empty() {
            // Held text only ever grows by bytes the engine could cut with it.
            let extends = s.bytes().all(cuttable);
            if extends {
                self.held.push_str(s);
                return;
            }
            self.release_held();
        }
        let keep = held_from(s);
        match s.split_at_checked(keep) {
            Some((shown, "")) => self.arena.push_str(shown),
            Some((shown, held)) => {
                self.arena.push_str(shown);
                self.held.push_str(held);
            }
            None => self.arena.push_str(s),
        }
    }

    /// The withheld end is content after all (into the arena; see `content`).
    pub(super) fn release_held(&mut self) {
        if !self.held.is_empty() {
            self.arena.push_str(&self.held);
            self.held.clear();
        }
    }

    pub(super) fn open_string(&mut self, quote: u8, windows: bool) -> Step {
        let at = self.arena.len();
        if !self.stack.is_empty() {
            // A short string may turn out to be a key (see `KEY_LIKE_LEN`).
            // (Where the content starts, less one: as after a straight quote.)
            self.deferred = Some((self.pos + quote_len(quote) - 1, at));
        } else {
            let Some(id) = self.attach(Kind::Str, (at, at)) else {
                return self.freeze();
            };
            self.current = id;
            self.current_path_known = false;
        }
        self.double_quote_seen = false;
        self.inner_quote = false;
        self.value_quote = if windows { 0 } else { quote };
        self.held.clear();
        self.pos += quote_len(quote);
        self.mode = Mode::Str {
            quote,
            key: false,
            windows,
        };
        Step::Go
    }

    /// The held-back string element is a string after all: show it, with its content so far.
    fn show_deferred(&mut self) {
        let Some((_, start)) = self.deferred.take() else {
            return;
        };
        match self.attach(Kind::Str, (start, self.arena.len())) {
            Some(id) => {
                self.current = id;
                self.current_path_known = false;
            }
            None => {
                self.freeze();
            }
        }
    }
}

/// Bytes the engine may cut from the end of a string after a raw line break.
pub(super) fn cuttable(b: u8) -> bool {
    matches!(b, b' ' | b'\t' | b'\r' | b'\n' | b'}' | b']' | b',')
}

/// Where the withheld end of raw content `s` starts (see `Parser::content`). Every rule
/// holds back part of the run of cuttable bytes at the very end, so one backward pass over
/// that run decides them all:
/// - from the first line break after which only cuttable bytes follow;
/// - from the trailing layout and a `,` before it (`"Ada,\n  "age": 3` in an object,
///   `"two,\n  "three"` in an array);
/// - from the trailing layout (should a closer end the text after it: `["value ]`);
/// - from the trailing run of layout, closers and commas, when it holds a closer (the closers
///   may end the text, or come before the next key of an object around: `"y], "b": 1`).
pub(super) fn held_from(s: &str) -> usize {
    let b = s.as_bytes();
    let mut keep = b.len();
    let mut first_line_break = None;
    // Where the trailing layout starts, and the whole trailing run.
    let (mut layout, mut closers) = (b.len(), b.len());
    let (mut in_layout, mut closer_seen) = (true, false);
    for (i, &c) in b.iter().enumerate().rev() {
        if !cuttable(c) {
            break;
        }
        // The run's first line break: the engine ends a string that never closes there
        // when only layout, closers and commas follow (`"x\n,\n]`).
        if c == b'\n' {
            first_line_break = Some(i);
        }
        in_layout &= matches!(c, b' ' | b'\t' | b'\r' | b'\n');
        if in_layout {
            layout = i;
        }
        closers = i;
        closer_seen |= matches!(c, b'}' | b']');
    }
    if let Some(line_break) = first_line_break {
        keep = line_break;
    }
    if layout > 0 && b[layout - 1] == b',' {
        keep = keep.min(layout - 1);
    }
    if closer_seen {
        keep = keep.min(closers);
    }
    keep.min(layout)
}
