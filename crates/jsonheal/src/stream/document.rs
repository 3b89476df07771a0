//! The document level: the prose, code fences and reasoning blocks before the value, and
//! comments between tokens.

use super::bytes::quote_at;
use super::lookahead::{bare_key_at, call_arg_at, fenced_scalar_start};
use super::parser::{Comment, Mode, Parser, Step};
use crate::rules::{object_at_text_start, plausible_container};
use crate::text::{is_ws, reasoning_opener, starts_with_partial};

impl Parser {
    // ----- before the value -------------------------------------------------------------

    /// Skip to the value the way the one-shot engine finds it: reasoning blocks and fence
    /// lines are skipped; a bracket opens the value at the text's start, or later in prose
    /// when what follows it looks like JSON.
    /// `full` is all the text so far, where `bytes` may stop at a bracket while the engine's
    /// escaped-document check is undecided: a control token is told by what follows its `[`.
    pub(super) fn prose(&mut self, bytes: &[u8], full: &[u8]) -> Step {
        while let Some(&c) = bytes.get(self.pos) {
            let rest = &bytes[self.pos..];
            match c {
                b' ' | b'\t' | b'\n' | b'\r' => {
                    self.prose_line_start |= c == b'\n';
                    self.pos += 1;
                    continue;
                }
                // As the engine: a comment at a line's start is skipped whole, JSON and all.
                b'/' if self.prose_line_start => match bytes.get(self.pos + 1) {
                    None => return Step::Wait,
                    Some(&n @ (b'/' | b'*')) => {
                        self.pos += 2;
                        self.comment = Some(if n == b'/' {
                            Comment::Line
                        } else {
                            Comment::Block
                        });
                        self.text_start = false;
                        self.fence_start = false;
                        self.repaired = true;
                        return Step::Go;
                    }
                    Some(_) => {}
                },
                b'<' => match reasoning_opener(rest, false) {
                    None => return Step::Wait,
                    Some(Some((open, close))) => {
                        self.pos += open.len();
                        self.mode = Mode::Think(close);
                        self.repaired = true;
                        return Step::Go;
                    }
                    Some(None) => {}
                },
                b'`' | b'~' => {
                    let fence: &[u8] = if c == b'`' { b"```" } else { b"~~~" };
                    match starts_with_partial(rest, fence) {
                        None => return Step::Wait,
                        Some(true) => {
                            self.mode = Mode::FenceLine;
                            self.in_fence = !self.in_fence;
                            self.repaired = true;
                            return Step::Go;
                        }
                        // A backtick string first: see quotes below.
                        Some(false) if c == b'`' && self.text_start => return self.freeze(),
                        Some(false) => {}
                    }
                }
                // A chat template's control token (`[TOOL_CALLS] [{…}]`): skipped as the
                // engine skips it, and no prose either.
                b'[' if !self.in_fence
                    && crate::rules::control_token(full, self.pos, false) != Some(None) =>
                {
                    match crate::rules::control_token(full, self.pos, false) {
                        Some(Some(len)) => {
                            self.pos += len;
                            self.repaired = true;
                            self.prose_line_start = false;
                            continue;
                        }
                        _ => return Step::Wait,
                    }
                }
                b'{' | b'[' => {
                    if let Some((colon, scanned)) = self.bare_key_start {
                        let first_value = bytes[colon + 1..self.pos].iter().all(|&b| is_ws(b));
                        // A `{` anywhere rules the lost `{` out: the text is prose after all.
                        let from = scanned.max(self.pos);
                        // (A fenced value is the answer whatever comes after the fence.)
                        if first_value
                            || self.in_fence
                            || c == b'{'
                            || memchr::memchr(b'{', &full[from..]).is_some()
                        {
                            self.bare_key_start = None;
                        } else {
                            self.bare_key_start = Some((colon, full.len()));
                            return Step::Wait;
                        }
                    }
                    if let Some(arg) = self.call_arg {
                        if self.pos != arg {
                            // Another bracket than the call's argument: the engine's choice
                            // depends on how the text ends.
                            return self.freeze();
                        }
                    }
                    let open = if self.in_fence || (self.text_start && c == b'[') {
                        Some(true)
                    } else if self.text_start {
                        object_at_text_start(bytes, self.pos, false)
                    } else if c == b'[' && !crate::text::first_on_line(bytes, self.pos) {
                        // As the engine: `see [1].` is a citation and `- [ ] task` a task
                        // box, not the value.
                        match (
                            crate::rules::citation_at(bytes, self.pos, false),
                            crate::rules::task_box_at(bytes, self.pos, false),
                        ) {
                            (None, _) | (_, None) => None,
                            (Some(true), _) | (_, Some(true)) => Some(false),
                            (Some(false), Some(false)) => {
                                plausible_container(bytes, self.pos, false)
                            }
                        }
                    } else {
                        plausible_container(bytes, self.pos, false)
                    };
                    match open {
                        None => return Step::Wait,
                        Some(true) => return self.open(c == b'{'),
                        // The call's argument is the value if the text ends with `)`.
                        Some(false) if self.call_arg.is_some() => return self.freeze(),
                        Some(false) => {}
                    }
                }
                _ => {
                    if self.text_start || self.fence_start {
                        // A quote first (in the text or in a fence): a document that lost
                        // its `{` (`"a": 1}`) when a key and its colon follow, which the
                        // engine reads as an object from here; else a bare string, which it
                        // reads by rules that look at the text's end.
                        match quote_at(rest) {
                            None => return Step::Wait,
                            Some(true) => {
                                return match crate::rules::lost_brace_key_at(bytes, self.pos) {
                                    None => Step::Wait,
                                    Some(true) => {
                                        self.repaired = true;
                                        self.text_start = false;
                                        self.fence_start = false;
                                        self.open_container(true, 0)
                                    }
                                    Some(false) => self.freeze(),
                                };
                            }
                            Some(false) => {}
                        }
                        // A fence that may hold one scalar (```` ```json\n42 ````): the
                        // engine takes it when the fence holds nothing else.
                        if self.fence_start {
                            match fenced_scalar_start(rest) {
                                None => return Step::Wait,
                                Some(true) => return self.freeze(),
                                Some(false) => {}
                            }
                        }
                        match bare_key_at(rest) {
                            None => return Step::Wait,
                            Some(Some(colon)) => {
                                self.bare_key_start = Some((self.pos + colon, self.pos));
                            }
                            Some(None) => {}
                        }
                        if self.text_start {
                            match call_arg_at(rest) {
                                None => return Step::Wait,
                                Some(Some(arg)) => self.call_arg = Some(self.pos + arg),
                                Some(None) => {}
                            }
                        }
                    }
                }
            }
            self.text_start = false;
            self.fence_start = false;
            self.prose_line_start = false;
            self.repaired = true;
            self.pos += 1;
        }
        Step::Go
    }

    pub(super) fn think(&mut self, bytes: &[u8], close: &[u8]) -> Step {
        let rest = &bytes[self.pos..];
        match crate::text::find_ignore_ascii_case(rest, close) {
            Some(i) => {
                self.pos += i + close.len();
                self.mode = Mode::Prose;
                Step::Go
            }
            None => {
                // Keep what may be the start of the closing tag for the next push.
                let keep = (close.len() - 1).min(rest.len());
                self.pos = bytes.len() - keep;
                Step::Wait
            }
        }
    }

    pub(super) fn in_comment(&mut self, bytes: &[u8], comment: Comment) -> Step {
        let rest = &bytes[self.pos..];
        match comment {
            Comment::Line => match memchr::memchr(b'\n', rest) {
                Some(i) => {
                    self.pos += i + 1;
                    self.comment = None;
                }
                None => self.pos = bytes.len(),
            },
            Comment::Block => match memchr::memmem::find(rest, b"*/") {
                Some(i) => {
                    self.pos += i + 2;
                    self.comment = None;
                }
                None => {
                    // Keep a final `*` for the next push: it may be the start of `*/`.
                    let keep = usize::from(rest.last() == Some(&b'*'));
                    self.pos = bytes.len() - keep;
                    if keep == 1 {
                        return Step::Wait;
                    }
                }
            },
        }
        Step::Go
    }
}
