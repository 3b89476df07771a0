//! Pick the JSON answer out of an LLM reply.
//!
//! A reply is prose, reasoning, code fences and JSON in any mix. [`candidates`] lists every
//! value a reader could mean, best first; [`extract`] takes the first; [`crate::heal`] takes
//! the first that validates against a schema.
//!
//! # The reader's rule (the order of [`candidates`])
//!
//! Reasoning is skipped first: everything up to the last closed `<think>`, `<thinking>` or
//! `<reasoning>` block (a block still open there means the reply was cut off while
//! reasoning: no answer), and everything up to the last line that starts with a
//! `final answer` marker (`Final answer:`, `**Final Answer**`, `## Final answer`). What is
//! left is the *answer*. Then, best first:
//!
//! 1. **`Whole`**: the answer is itself one JSON document (perhaps broken or cut off; the
//!    repair engine fixes it), with no prose or fence around it.
//! 2. **`Fence(i)`**: fenced blocks (```` ``` ````, ```` ```json ````, `~~~`; `i` counts
//!    fences from 0 in the reply). Blocks tagged `json` (or `jsonc`, `json5`) first, then
//!    untagged ones, then those tagged with another language; within each group the **last**
//!    block first, since a reply that shows an example and then the answer ends with the
//!    answer. An unclosed last fence runs to the end of the reply (cut-off output).
//! 3. **`Span`**: balanced `{…}` and `[…]` in the prose outside fences (string-aware, one
//!    linear scan). Spans that are already valid JSON come before spans that needed repairs;
//!    within each group the last first. When a stray bracket in the prose never closes, the
//!    values directly inside it are still found.
//! 4. **`Repaired`**: what the repair engine makes of the whole answer (missing braces,
//!    several values, truncation).
//!
//! The same value found twice is listed once, under its first source. At most
//! [`MAX_CANDIDATES`] candidates are listed; [`Candidates`] computes them one at a time, so
//! a caller that stops at the first good one pays for no more. A candidate whose repairs include
//! [`crate::RepairKind::Truncated`] has `truncated` set.

use std::collections::hash_map::DefaultHasher;
use std::collections::VecDeque;
use std::hash::Hasher;
use std::ops::Range;

use serde::Serialize;
use serde_json::Value;

use crate::error::Error;
use crate::text::{reasoning_closer, reasoning_opener};
use crate::{Repair, RepairKind};

/// The most candidates [`candidates`] returns. The repair engine runs on the whole answer,
/// each fence and at most this many prose spans: disjoint parts of the reply, plus the fallback
/// values inside one unclosed bracket, so the work stays linear in the reply.
pub const MAX_CANDIDATES: usize = 16;

/// Where in the reply a candidate value came from.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum CandidateSource {
    /// The whole answer is the JSON document.
    Whole,
    /// The fenced block with this index (0 = first fence in the reply).
    Fence(usize),
    /// A balanced `{…}` or `[…]` found in the prose.
    Span,
    /// The repair engine's reading of the whole answer.
    Repaired,
}

impl std::fmt::Display for CandidateSource {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            CandidateSource::Whole => f.write_str("whole"),
            CandidateSource::Fence(i) => write!(f, "fence {i}"),
            CandidateSource::Span => f.write_str("span"),
            CandidateSource::Repaired => f.write_str("repaired"),
        }
    }
}

/// One value a reader could mean.
#[derive(Debug, Clone, PartialEq)]
pub struct Candidate {
    /// Which part of the reply it is.
    pub source: CandidateSource,
    /// The bytes of the reply the value was read from.
    pub span: Range<usize>,
    /// The repaired value.
    pub value: Value,
    /// Repairs made, with offsets into the whole reply, in input order (including the
    /// prose, fences and reasoning left out).
    pub repairs: Vec<Repair>,
    /// The value was cut off and completed by the repair engine.
    pub truncated: bool,
}

/// The answer [`extract`] picked.
#[derive(Debug, Clone, PartialEq)]
pub struct Extracted {
    /// The repaired value.
    pub value: Value,
    /// Which part of the reply it came from.
    pub source: CandidateSource,
    /// The bytes of the reply the value was read from.
    pub span: Range<usize>,
    pub repairs: Vec<Repair>,
}

impl Extracted {
    /// Whether the value was cut off and completed.
    pub fn is_truncated(&self) -> bool {
        self.repairs
            .iter()
            .any(|r| r.kind() == RepairKind::Truncated)
    }
}

/// The value a reader would pick (the first of [`candidates`]); `ErrorKind::NoJson` when the
/// reply holds none.
pub fn extract(text: &str) -> Result<Extracted, Error> {
    candidates(text)
        .into_iter()
        .next()
        .map(|c| Extracted {
            value: c.value,
            source: c.source,
            span: c.span,
            repairs: c.repairs,
        })
        .ok_or_else(Error::no_json)
}

/// Every value a reader could mean, best first (see the module documentation for the rule).
pub fn candidates(text: &str) -> Vec<Candidate> {
    Candidates::new(text).collect()
}

/// The candidates of a reply, best first, computed as they are asked for: a caller that
/// stops at the first good one (as [`crate::heal`] does) pays for no more.
pub struct Candidates<'t> {
    text: &'t str,
    answer_start: usize,
    fences: Vec<Fence>,
    /// Bracketed spans of the prose, in reply order (fallback spans after).
    spans: Vec<Range<usize>>,
    steps: VecDeque<Step>,
    /// Hashes of the values already given out, to list each value once.
    seen: Vec<u64>,
    /// The JSON text of the first candidate given, hashed only if a second is asked for.
    unhashed: Option<String>,
    given: usize,
}

/// A candidate whose JSON text is known, not yet parsed.
struct Pending {
    source: CandidateSource,
    span: Range<usize>,
    json: String,
    repairs: Vec<Repair>,
}

enum Step {
    Ready(Pending),
    /// The fence with this index in `fences`.
    Fence(usize),
    /// All the prose spans (run together: their order depends on which needed repairs).
    Spans,
    /// The engine's reading of the whole answer, not run yet.
    Repaired,
}

impl<'t> Candidates<'t> {
    /// Plan the candidates of `text`: find reasoning, fences and prose spans (linear scans)
    /// and run the repair engine once on the whole answer, which decides whether the answer
    /// is a bare document.
    pub fn new(text: &'t str) -> Candidates<'t> {
        let answer_start = answer_start(text);
        let fences = find_fences(&text[answer_start..], answer_start);
        // An answer that opens like a sentence is not a bare document: the engine's reading
        // of it comes last, so it runs only if asked for.
        let prose = opens_like_prose(&text[answer_start..]);
        let whole = if prose {
            None
        } else {
            run_engine(text, answer_start..text.len())
        };
        let whole_is_bare = whole.as_ref().is_some_and(|(_, repairs)| {
            !repairs.iter().any(|r| {
                matches!(
                    r.kind(),
                    RepairKind::StrippedProse
                        | RepairKind::StrippedFence
                        | RepairKind::SkippedReasoning
                )
            })
        });
        let whole_truncated = whole
            .as_ref()
            .is_some_and(|(_, repairs)| repairs.iter().any(|r| r.kind() == RepairKind::Truncated));

        let mut spans = Vec::new();
        let mut fallback = Vec::new();
        let mut from = answer_start;
        for fence in &fences {
            scan_spans(text, from..fence.open.start, &mut spans, &mut fallback);
            from = fence.close.as_ref().map_or(text.len(), |c| c.end);
        }
        let cut_at = scan_spans(text, from..text.len(), &mut spans, &mut fallback);
        // A cut-off bare document holds complete inner values; they are not answers.
        if !(whole_is_bare && whole_truncated) {
            spans.extend(fallback);
        }
        // `Example: {…}\nAnswer: {"status": "pending", "cou`: the reply was cut inside a
        // document that comes after the complete ones, so that one is the reader's pick
        // (and cut off), not the example before it.
        let cut_pick = cut_at
            .filter(|&at| {
                !whole_is_bare
                    && spans.last().is_some_and(|s| s.end <= at)
                    && matches!(
                        text.as_bytes().get(at..at + 2),
                        Some(b"{\"" | b"{'" | b"[{" | b"[\"")
                    )
            })
            .and_then(|at| run_engine(text, at..text.len()).map(|found| (at, found)))
            .filter(|(_, (_, repairs))| repairs.iter().any(|r| r.kind() == RepairKind::Truncated))
            .map(|(at, (json, repairs))| Pending {
                source: CandidateSource::Span,
                span: at..text.len(),
                json,
                repairs,
            });

        let mut steps = VecDeque::new();
        let whole = whole.map(|(json, repairs)| Pending {
            source: if whole_is_bare {
                CandidateSource::Whole
            } else {
                CandidateSource::Repaired
            },
            span: answer_start..text.len(),
            json,
            repairs,
        });
        let (first, last) = if whole_is_bare {
            (whole, None)
        } else {
            (None, whole)
        };
        steps.extend(cut_pick.map(Step::Ready));
        steps.extend(first.map(Step::Ready));
        // Fences: json-tagged, untagged, other languages; last first within each.
        let mut ranked: Vec<usize> = (0..fences.len()).collect();
        ranked.sort_by_key(|&i| (fences[i].rank, std::cmp::Reverse(i)));
        steps.extend(ranked.into_iter().map(Step::Fence));
        if !spans.is_empty() {
            steps.push_back(Step::Spans);
        }
        steps.extend(last.map(Step::Ready));
        if prose {
            steps.push_back(Step::Repaired);
        }
        Candidates {
            text,
            answer_start,
            fences,
            spans,
            steps,
            seen: Vec::new(),
            unhashed: None,
            given: 0,
        }
    }

    fn fence(&self, i: usize) -> Option<Pending> {
        let fence = self.fences.get(i)?;
        let (json, mut repairs) = run_engine(self.text, fence.content.clone())?;
        repairs.push(Repair::new(RepairKind::StrippedFence, fence.open.clone()));
        if let Some(close) = &fence.close {
            repairs.push(Repair::new(RepairKind::StrippedFence, close.clone()));
        }
        let outer = fence.open.start..fence.close.as_ref().map_or(self.text.len(), |c| c.end);
        add_prose(self.text, self.answer_start, outer, &mut repairs);
        Some(Pending {
            source: CandidateSource::Fence(fence.index),
            span: fence.content.clone(),
            json,
            repairs,
        })
    }

    /// The prose spans, last first, those that were valid JSON before those that needed
    /// repairs. At most `MAX_CANDIDATES` engine runs.
    fn spans(&mut self) -> Vec<Pending> {
        let mut clean = Vec::new();
        let mut fixed = Vec::new();
        // `[]`, `{}` and a checkbox `[ ]` mentioned in prose come after every span that
        // holds something: `If none, the list is []` does not replace the answer before it.
        let mut empty = Vec::new();
        for span in std::mem::take(&mut self.spans).into_iter().rev() {
            if clean.len() + fixed.len() >= MAX_CANDIDATES {
                break;
            }
            if let Some((json, mut repairs)) = run_engine(self.text, span.clone()) {
                let was_clean = repairs.is_empty();
                add_prose(self.text, self.answer_start, span.clone(), &mut repairs);
                let pending = Pending {
                    source: CandidateSource::Span,
                    span,
                    json,
                    repairs,
                };
                let bare: Vec<u8> = pending
                    .json
                    .bytes()
                    .filter(|b| !b.is_ascii_whitespace())
                    .take(3)
                    .collect();
                if bare == b"[]" || bare == b"{}" {
                    empty.push(pending);
                } else if was_clean {
                    clean.push(pending);
                } else {
                    fixed.push(pending);
                }
            }
        }
        clean.extend(fixed);
        clean.extend(empty);
        clean
    }
}

impl Iterator for Candidates<'_> {
    type Item = Candidate;

    fn next(&mut self) -> Option<Candidate> {
        while self.given < MAX_CANDIDATES {
            let pending = match self.steps.pop_front()? {
                Step::Ready(p) => p,
                Step::Fence(i) => match self.fence(i) {
                    Some(p) => p,
                    None => continue,
                },
                Step::Repaired => {
                    let range = self.answer_start..self.text.len();
                    match run_engine(self.text, range.clone()) {
                        Some((json, repairs)) => Pending {
                            source: CandidateSource::Repaired,
                            span: range,
                            json,
                            repairs,
                        },
                        None => continue,
                    }
                }
                Step::Spans => {
                    for p in self.spans().into_iter().rev() {
                        self.steps.push_front(Step::Ready(p));
                    }
                    continue;
                }
            };
            if let Some(first) = self.unhashed.take() {
                self.seen.push(json_hash(&first));
            }
            let hash = (self.given > 0).then(|| json_hash(&pending.json));
            if hash.is_some_and(|h| self.seen.contains(&h)) {
                continue;
            }
            let Ok(value) = serde_json::from_str::<Value>(&pending.json) else {
                continue;
            };
            match hash {
                Some(h) => self.seen.push(h),
                None => self.unhashed = Some(pending.json),
            }
            self.given += 1;
            let mut repairs = pending.repairs;
            if self.answer_start > 0 {
                repairs.push(Repair::new(
                    RepairKind::SkippedReasoning,
                    0..self.answer_start,
                ));
            }
            repairs.sort_by_key(|r| (r.span().start, r.span().end));
            let truncated = repairs.iter().any(|r| r.kind() == RepairKind::Truncated);
            return Some(Candidate {
                source: pending.source,
                span: pending.span,
                value,
                repairs,
                truncated,
            });
        }
        None
    }
}

/// Run the repair engine on `range` of the reply: the JSON text and the repairs, with reply
/// offsets.
fn run_engine(text: &str, range: Range<usize>) -> Option<(String, Vec<Repair>)> {
    let slice = text.get(range.clone())?;
    if slice.trim().is_empty() {
        return None;
    }
    let repaired = crate::repair(slice).ok()?;
    let repairs = repaired
        .repairs
        .into_iter()
        .map(|r| r.shifted(range.start))
        .collect();
    Some((repaired.text, repairs))
}

/// Whether `answer` starts like a sentence (`Sure! …`, `Here is …`) rather than like a
/// document, even a broken one (`name: Ada, …`, `True`, `answer = {…}`).
fn opens_like_prose(answer: &str) -> bool {
    let trimmed = answer.trim_start();
    let word_len = trimmed
        .bytes()
        .take_while(|b| b.is_ascii_alphanumeric() || *b == b'_')
        .count();
    if word_len == 0 || !trimmed.as_bytes()[0].is_ascii_alphabetic() {
        return false;
    }
    let word = &trimmed[..word_len];
    const LITERALS: &[&str] = &[
        "true",
        "false",
        "null",
        "none",
        "nan",
        "infinity",
        "undefined",
    ];
    if LITERALS.iter().any(|l| word.eq_ignore_ascii_case(l)) {
        return false;
    }
    matches!(
        trimmed.as_bytes().get(word_len),
        Some(b' ' | b'!' | b',' | b'.' | b'?' | b'\'')
    )
}

/// A hash of JSON text without its insignificant whitespace, to tell candidates apart
/// without keeping copies of their values (`{"a": 1}` and `{"a":1}` hash alike).
fn json_hash(json: &str) -> u64 {
    let mut hasher = DefaultHasher::new();
    let bytes = json.as_bytes();
    let mut in_string = false;
    let mut escaped = false;
    let mut run_start = 0;
    for (i, &b) in bytes.iter().enumerate() {
        if in_string {
            if escaped {
                escaped = false;
            } else if b == b'\\' {
                escaped = true;
            } else if b == b'"' {
                in_string = false;
            }
        } else if b == b'"' {
            in_string = true;
        } else if matches!(b, b' ' | b'\n' | b'\r' | b'\t') {
            hasher.write(&bytes[run_start..i]);
            run_start = i + 1;
        }
    }
    hasher.write(&bytes[run_start..]);
    hasher.finish()
}

/// Record the prose around `kept` (within the answer) as stripped, where there is any.
fn add_prose(text: &str, answer_start: usize, kept: Range<usize>, repairs: &mut Vec<Repair>) {
    let before = answer_start..kept.start.max(answer_start);
    let after = kept.end.min(text.len())..text.len();
    for range in [before, after] {
        if text
            .get(range.clone())
            .is_some_and(|s| !s.trim().is_empty())
        {
            repairs.push(Repair::new(RepairKind::StrippedProse, range));
        }
    }
}

/// Where the answer starts: after the last closed reasoning block, then after the last line
/// that starts with a "final answer" marker.
fn answer_start(text: &str) -> usize {
    let bytes = text.as_bytes();
    let start = reasoning_end(text);
    // A reasoning block still open where the answer should start: the reply was cut off
    // while thinking, and holds no answer (the engine agrees).
    if opens_reasoning(&text[start..]) {
        return text.len();
    }
    // The last line from there on that starts with the marker (after Markdown decoration).
    let marker = b"final answer";
    let mut line_end = bytes.len();
    loop {
        let line_start =
            memchr::memrchr(b'\n', &bytes[start..line_end]).map_or(start, |i| start + i + 1);
        let line = &bytes[line_start..line_end];
        let lead = line
            .iter()
            .take_while(|b| matches!(b, b' ' | b'\t' | b'#' | b'*' | b'_' | b'>'))
            .count();
        if line
            .get(lead..lead + marker.len())
            .is_some_and(|w| w.eq_ignore_ascii_case(marker))
        {
            let mut end = line_start + lead + marker.len();
            while end < bytes.len()
                && matches!(bytes[end], b':' | b'*' | b'_' | b' ' | b'\t' | b'-')
            {
                end += 1;
            }
            return end;
        }
        if line_start == start {
            return start;
        }
        line_end = line_start - 1;
    }
}

/// The end of the last closed reasoning block (0 if none).
fn reasoning_end(text: &str) -> usize {
    let bytes = text.as_bytes();
    for at in memchr::memrchr_iter(b'<', bytes) {
        if let Some(closer) = reasoning_closer(&bytes[at..]) {
            return at + closer.len();
        }
    }
    0
}

/// Whether `rest` starts (after whitespace) with a reasoning opener.
fn opens_reasoning(rest: &str) -> bool {
    matches!(
        reasoning_opener(rest.trim_start().as_bytes(), true),
        Some(Some(_))
    )
}

/// Whether the reply stops inside a reasoning block (cut off while the model was thinking).
pub(crate) fn cut_while_reasoning(text: &str) -> bool {
    opens_reasoning(&text[reasoning_end(text)..])
}

/// A fenced block of the reply.
struct Fence {
    index: usize,
    /// 0: tagged json; 1: untagged; 2: another language.
    rank: u8,
    /// The opening marker with its info string.
    open: Range<usize>,
    content: Range<usize>,
    /// The closing marker; `None` when the reply ends inside the fence.
    close: Option<Range<usize>>,
}

/// Find fences (```` ``` ```` or `~~~`, three or more) in `answer`, whose offset in the reply
/// is `base`. Markers pair up in order: open, close, open, close. A marker starts its line
/// (after spaces), or, for a fence on one line, its closer ends that line: three backticks
/// inside a sentence or a JSON string (`"use ``` for code"`) are content.
fn find_fences(answer: &str, base: usize) -> Vec<Fence> {
    let bytes = answer.as_bytes();
    let mut fences = Vec::new();
    let mut i = 0;
    while let Some(rel) = memchr::memchr2(b'`', b'~', &bytes[i..]) {
        let at = i + rel;
        let ch = bytes[at];
        let run = bytes[at..].iter().take_while(|&&b| b == ch).count();
        if run < 3 {
            i = at + run;
            continue;
        }
        // The info string: the rest of the line, if it is a single word.
        let after = at + run;
        let line_end = memchr::memchr(b'\n', &bytes[after..]).map_or(bytes.len(), |e| after + e);
        if !starts_line(bytes, at) && !closer_ends_line(bytes, after, line_end, ch, run) {
            i = after;
            continue;
        }
        let info = answer[after..line_end].trim();
        let single_word = info
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || "+-_.".contains(c));
        // After an info string (or none), the content starts on the next line; otherwise the
        // fence is inline and the content starts right after the marker.
        let (content_start, tag) = if single_word {
            ((line_end + 1).min(bytes.len()), info.to_ascii_lowercase())
        } else {
            (after, String::new())
        };
        let rank = match tag.as_str() {
            "json" | "jsonc" | "json5" | "jsonl" => 0,
            "" => 1,
            _ => 2,
        };
        // The closer: the next run of at least `run` of the same character.
        let mut j = content_start;
        let mut close = None;
        while let Some(rel) = memchr::memchr(ch, &bytes[j..]) {
            let c_at = j + rel;
            let c_run = bytes[c_at..].iter().take_while(|&&b| b == ch).count();
            if c_run >= run && (starts_line(bytes, c_at) || ends_line(bytes, c_at + c_run)) {
                close = Some(c_at..c_at + c_run);
                break;
            }
            j = c_at + c_run;
        }
        let content_end = close.as_ref().map_or(bytes.len(), |c| c.start);
        fences.push(Fence {
            index: fences.len(),
            rank,
            open: base + at..base + content_start,
            content: base + content_start..base + content_end,
            close: close.as_ref().map(|c| base + c.start..base + c.end),
        });
        match close {
            Some(c) => i = c.end,
            None => break,
        }
    }
    fences
}

/// Whether only spaces stand between the line's start and `at`.
fn starts_line(bytes: &[u8], at: usize) -> bool {
    bytes[..at]
        .iter()
        .rev()
        .take_while(|&&b| b != b'\n')
        .all(|&b| b == b' ' || b == b'\t')
}

/// Whether only spaces stand between `at` and the line's end.
fn ends_line(bytes: &[u8], at: usize) -> bool {
    bytes[at..]
        .iter()
        .take_while(|&&b| b != b'\n')
        .all(|b| b.is_ascii_whitespace())
}

/// For a marker in the middle of a line (`Here: ```json {"a": 1}```), whether a closer of
/// `run` or more `ch` between `after` and `line_end` ends the line: a fence on one line.
fn closer_ends_line(bytes: &[u8], after: usize, line_end: usize, ch: u8, run: usize) -> bool {
    let line = &bytes[after..line_end];
    let trimmed = line.trim_ascii_end();
    trimmed.len() >= run
        && trimmed[trimmed.len() - run..].iter().all(|&b| b == ch)
        && trimmed.len() > run
}

/// Balanced `{…}` / `[…]` spans in `range` of `text`: the outermost complete ones go to
/// `spans`; when the range ends inside an unclosed bracket, the complete values directly
/// inside it go to `fallback`. Quotes count only inside brackets (prose has apostrophes);
/// a closer that does not match drops what was open (it was prose).
fn scan_spans(
    text: &str,
    range: Range<usize>,
    spans: &mut Vec<Range<usize>>,
    fallback: &mut Vec<Range<usize>>,
) -> Option<usize> {
    let slice = text.get(range.clone())?;
    let bytes = slice.as_bytes();
    let mut stack: Vec<(u8, usize)> = Vec::new();
    let mut inner: Vec<Range<usize>> = Vec::new();
    let mut in_string = false;
    let mut escaped = false;
    for (i, &b) in bytes.iter().enumerate() {
        if in_string {
            if escaped {
                escaped = false;
            } else if b == b'\\' {
                escaped = true;
            } else if b == b'"' {
                in_string = false;
            }
            continue;
        }
        match b {
            b'"' if !stack.is_empty() => in_string = true,
            b'{' | b'[' => stack.push((b, i)),
            b'}' | b']' => {
                let Some(&(open, start)) = stack.last() else {
                    continue;
                };
                if (open == b'{') != (b == b'}') {
                    stack.clear();
                    inner.clear();
                    continue;
                }
                stack.pop();
                let found = range.start + start..range.start + i + 1;
                match stack.len() {
                    0 => {
                        inner.clear();
                        if worth_trying(&bytes[start..=i]) && !checkbox(bytes, start, i) {
                            spans.push(found);
                        }
                    }
                    1 => inner.push(found),
                    _ => {}
                }
            }
            _ => {}
        }
    }
    let unclosed = stack.first().map(|&(_, start)| range.start + start);
    if unclosed.is_some() && !inner.is_empty() {
        fallback.extend(inner);
        // A stray bracket around complete values: those are the answers.
        return None;
    }
    unclosed
}

/// A Markdown task-list box, `- [ ] write tests`: `[ ]` right after a list marker.
fn checkbox(bytes: &[u8], start: usize, end: usize) -> bool {
    let line_start = bytes[..start]
        .iter()
        .rposition(|&b| b == b'\n')
        .map_or(0, |n| n + 1);
    let before = bytes[line_start..start].trim_ascii();
    end == start + 2 && bytes[start + 1] == b' ' && matches!(before, b"-" | b"*" | b"+")
}

/// Whether a bracketed span of prose could be a JSON answer: objects always; arrays only if
/// they hold something structured (a string, a container or several items), so that
/// citations like `[1]` are not taken for answers.
fn worth_trying(span: &[u8]) -> bool {
    span.first() == Some(&b'{')
        || span
            .get(1..span.len().saturating_sub(1))
            .is_some_and(|inside| {
                inside.trim_ascii().is_empty()
                    || inside
                        .iter()
                        .any(|b| matches!(b, b'"' | b'{' | b'[' | b','))
            })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn finds_answer_start_after_reasoning_and_markers() {
        assert_eq!(answer_start("{\"a\":1}"), 0);
        let t = "<think>x</think> {\"a\":1}";
        assert_eq!(&t[answer_start(t)..], " {\"a\":1}");
        let t = "I think...\n**Final answer:** {\"a\":1}";
        assert_eq!(&t[answer_start(t)..], "{\"a\":1}");
        // "final answer" inside a value is not a marker.
        let t = "{\"t\": \"the final answer\"}";
        assert_eq!(answer_start(t), 0);
    }

    #[test]
    fn tells_sentences_from_documents() {
        for prose in [
            "Sure! {",
            "Here is the JSON:",
            "I think, so",
            "Okay. [",
            "Don't",
        ] {
            assert!(opens_like_prose(prose), "{prose}");
        }
        for doc in [
            "{\"a\":1}",
            "name: Ada",
            "True",
            "None, 3",
            "\"a\": 1}",
            "x",
        ] {
            assert!(!opens_like_prose(doc), "{doc}");
        }
    }

    #[test]
    fn hashes_ignore_only_insignificant_whitespace() {
        assert_eq!(json_hash("{\"a\": 1}"), json_hash("{\"a\":1}"));
        assert_eq!(json_hash("[1,\n 2]"), json_hash("[1,2]"));
        assert_ne!(json_hash("{\"a\":\"x y\"}"), json_hash("{\"a\":\"xy\"}"));
        assert_ne!(
            json_hash("{\"a\":\"\\\" \"}"),
            json_hash("{\"a\":\"\\\"\"}")
        );
        assert_ne!(json_hash("[12]"), json_hash("[1,2]"));
    }

    #[test]
    fn scans_spans_string_aware() {
        let text = r#"see {"a": "}"} and [1, 2] and [3] and {"b": [1]}"#;
        let mut spans = Vec::new();
        let mut fallback = Vec::new();
        scan_spans(text, 0..text.len(), &mut spans, &mut fallback);
        let got: Vec<&str> = spans.iter().map(|r| &text[r.clone()]).collect();
        assert_eq!(got, vec![r#"{"a": "}"}"#, "[1, 2]", r#"{"b": [1]}"#]);
        assert!(fallback.is_empty());
    }

    #[test]
    fn stray_opener_keeps_inner_values_as_fallback() {
        let text = r#"Note { see below. {"a": 1}"#;
        let mut spans = Vec::new();
        let mut fallback = Vec::new();
        scan_spans(text, 0..text.len(), &mut spans, &mut fallback);
        assert!(spans.is_empty());
        let got: Vec<&str> = fallback.iter().map(|r| &text[r.clone()]).collect();
        assert_eq!(got, vec![r#"{"a": 1}"#]);
    }

    #[test]
    fn finds_fences_with_tags_and_unclosed_tail() {
        let text =
            "a\n```json\n{\"a\":1}\n```\nb\n~~~\n[1]\n~~~\nc\n```python\nx\n```\nd\n```\n{\"z\"";
        let fences = find_fences(text, 0);
        let got: Vec<(u8, &str, bool)> = fences
            .iter()
            .map(|f| (f.rank, &text[f.content.clone()], f.close.is_some()))
            .collect();
        assert_eq!(
            got,
            vec![
                (0, "{\"a\":1}\n", true),
                (1, "[1]\n", true),
                (2, "x\n", true),
                (1, "{\"z\"", false)
            ]
        );
    }

    #[test]
    fn backticks_inside_a_line_are_no_fence() {
        // Three backticks inside a JSON string or a sentence are content; a fence on one
        // line is one.
        let text = "```json\n{\"tip\": \"use ``` for code\"}\n```";
        let fences = find_fences(text, 0);
        assert_eq!(fences.len(), 1);
        assert_eq!(
            &text[fences[0].content.clone()],
            "{\"tip\": \"use ``` for code\"}\n"
        );
        assert!(find_fences("Reply: {\"tip\": \"use ``` here\"}", 0).is_empty());
        let one_line = "Here: ```json {\"a\": 1}```";
        assert_eq!(find_fences(one_line, 0).len(), 1);
    }
}
