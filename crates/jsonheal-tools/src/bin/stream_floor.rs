//! The floor under the stream bench: what a *minimal* incremental parser costs on the same
//! documents, against one-shot `repair` in the same process (best of N, interleaved).
//!
//! `cargo run --release -p jsonheal-tools --bin stream_floor -- [dense|code] [chunk bytes] [rounds]`
//!
//! The parser here does the least any streaming parser with path events must do: resumable
//! tokenizing of strict JSON (no repairs, no look-ahead rules, no hold-backs, no duplicate
//! check), a node per value, decoded strings in an arena, and an event with its JSON pointer
//! per value and per string growth. It handles only the bench's valid documents. If it is
//! already over 3× one-shot `repair` (which, for valid input, only validates), the gap is in
//! the work every event-emitting stream does, not in the repair rules of `jsonheal::stream`.

use std::hint::black_box;
use std::time::Instant;

#[path = "../../../jsonheal/benches/data/stream_docs.rs"]
#[allow(dead_code)]
mod stream_docs;

#[derive(Clone, Copy, PartialEq)]
enum Mode {
    Key,
    Colon,
    Value,
    After,
    Str,
}

struct Node {
    /// 0 null, 1 true, 2 false, 3 number, 4 string, 5 array, 6 object.
    #[allow(dead_code)]
    kind: u8,
    #[allow(dead_code)]
    key_len: u16,
    #[allow(dead_code)]
    text: u32,
    end: u32,
}

struct Frame {
    node: usize,
    len: usize,
    object: bool,
    ptr_len: usize,
}

struct Event {
    path: (usize, usize),
    /// 0–6 as `Node::kind` for a Set, 9 for an Append.
    kind: u8,
    text: (usize, usize),
}

#[derive(Default)]
struct Floor {
    text: String,
    tail: Vec<u8>,
    pos: usize,
    mode: Option<Mode>,
    stack: Vec<Frame>,
    nodes: Vec<Node>,
    arena: String,
    ptr: String,
    key_start: usize,
    paths: String,
    events: Vec<Event>,
    current: usize,
    sets: usize,
}

impl Floor {
    fn push_bytes(&mut self, chunk: &[u8]) {
        let joined;
        let bytes = if self.tail.is_empty() {
            chunk
        } else {
            joined = [std::mem::take(&mut self.tail).as_slice(), chunk].concat();
            joined.as_slice()
        };
        match std::str::from_utf8(bytes) {
            Ok(s) => self.text.push_str(s),
            Err(e) => {
                let (good, rest) = bytes.split_at(e.valid_up_to());
                self.text
                    .push_str(std::str::from_utf8(good).unwrap_or_default());
                self.tail.extend_from_slice(rest);
            }
        }
        let text = std::mem::take(&mut self.text);
        self.run(&text);
        self.text = text;
    }

    fn attach(&mut self, kind: u8, text: (usize, usize)) -> usize {
        let id = self.nodes.len();
        let mut key = text.0;
        let place = self.stack.last_mut().map(|f| {
            if f.object {
                key = self.key_start;
            }
            f.len += 1;
            (f.object, f.len - 1)
        });
        self.nodes.push(Node {
            kind,
            key_len: (text.0 - key) as u16,
            text: text.0 as u32,
            end: text.1 as u32,
        });
        let start = self.paths.len();
        self.paths.push_str(&self.ptr);
        match place {
            None => {}
            Some((true, _)) => {
                self.paths.push('/');
                self.paths.push_str(&self.arena[key..text.0]);
            }
            Some((false, index)) => {
                self.paths.push('/');
                let mut digits = [0u8; 20];
                let (mut at, mut n) = (digits.len(), index);
                loop {
                    at -= 1;
                    digits[at] = b'0' + (n % 10) as u8;
                    n /= 10;
                    if n == 0 {
                        break;
                    }
                }
                self.paths
                    .push_str(std::str::from_utf8(&digits[at..]).unwrap_or_default());
            }
        }
        self.events.push(Event {
            path: (start, self.paths.len()),
            kind,
            text,
        });
        self.sets += 1;
        id
    }

    /// Strict JSON only; an incomplete token waits for the next push.
    fn run(&mut self, text: &str) {
        let b = text.as_bytes();
        while self.pos < b.len() {
            let mode = *self.mode.get_or_insert(Mode::Value);
            if mode == Mode::Str {
                if !self.string(text) {
                    return;
                }
                continue;
            }
            while self.pos < b.len() && matches!(b[self.pos], b' ' | b'\n' | b'\t' | b'\r') {
                self.pos += 1;
            }
            let Some(&c) = b.get(self.pos) else { return };
            match (mode, c) {
                (Mode::Key, b'"') => {
                    let Some(i) = memchr::memchr(b'"', &b[self.pos + 1..]) else {
                        return;
                    };
                    self.key_start = self.arena.len();
                    self.arena.push_str(&text[self.pos + 1..self.pos + 1 + i]);
                    self.pos += i + 2;
                    self.mode = Some(Mode::Colon);
                }
                (Mode::Colon, _) => {
                    self.pos += 1;
                    self.mode = Some(Mode::Value);
                }
                (Mode::Value, b'{' | b'[') => {
                    let at = self.arena.len();
                    let id = self.attach(if c == b'{' { 6 } else { 5 }, (at, at));
                    let ptr_len = self.ptr.len();
                    let path = self.events.last().map_or((0, 0), |e| e.path);
                    let segment = &self.paths[path.0 + ptr_len..path.1];
                    self.ptr.push_str(segment);
                    self.stack.push(Frame {
                        node: id,
                        len: 0,
                        object: c == b'{',
                        ptr_len,
                    });
                    self.pos += 1;
                    self.mode = Some(if c == b'{' { Mode::Key } else { Mode::Value });
                }
                (Mode::Value, b'"') => {
                    let at = self.arena.len();
                    self.current = self.attach(4, (at, at));
                    self.pos += 1;
                    self.mode = Some(Mode::Str);
                }
                (Mode::Value, _) if c != b']' => {
                    let start = self.pos;
                    let Some(len) = b[start..].iter().position(|&x| {
                        !(x.is_ascii_alphanumeric() || matches!(x, b'-' | b'+' | b'.'))
                    }) else {
                        return;
                    };
                    let word = &text[start..start + len];
                    let at = self.arena.len();
                    let kind = match word {
                        "null" => 0,
                        "true" => 1,
                        "false" => 2,
                        _ => {
                            self.arena.push_str(word);
                            3
                        }
                    };
                    self.attach(kind, (at, self.arena.len()));
                    self.pos = start + len;
                    self.mode = Some(Mode::After);
                }
                (Mode::After, b',') => {
                    self.pos += 1;
                    let object = self.stack.last().is_some_and(|f| f.object);
                    self.mode = Some(if object { Mode::Key } else { Mode::Value });
                }
                _ => {
                    // A closer.
                    self.pos += 1;
                    if let Some(frame) = self.stack.pop() {
                        self.ptr.truncate(frame.ptr_len);
                        let end = self.nodes.len() as u32;
                        if let Some(node) = self.nodes.get_mut(frame.node) {
                            node.end = end;
                        }
                    }
                    self.mode = Some(Mode::After);
                }
            }
        }
    }

    /// Read string content up to the closing quote or the text's end; false when an escape
    /// is cut by the end.
    fn string(&mut self, text: &str) -> bool {
        let b = text.as_bytes();
        let from = self.arena.len();
        let mut whole = true;
        loop {
            let rest = &b[self.pos..];
            let Some(i) = memchr::memchr2(b'"', b'\\', rest) else {
                self.arena.push_str(&text[self.pos..]);
                self.pos = b.len();
                break;
            };
            self.arena.push_str(&text[self.pos..self.pos + i]);
            self.pos += i;
            if b[self.pos] == b'"' {
                self.pos += 1;
                self.mode = Some(Mode::After);
                break;
            }
            let Some(c) = self.escape(text) else {
                whole = false;
                break;
            };
            self.arena.push(c);
        }
        if self.arena.len() > from {
            if let Some(node) = self.nodes.get_mut(self.current) {
                node.end = self.arena.len() as u32;
            }
            self.events.push(Event {
                path: (0, 0),
                kind: 9,
                text: (from, self.arena.len()),
            });
        }
        whole
    }

    /// The escape at `pos`, decoded, and `pos` past it; `None` when the text cuts it.
    fn escape(&mut self, text: &str) -> Option<char> {
        let b = text.as_bytes();
        let hex = |at: usize| u32::from_str_radix(text.get(at..at + 4)?, 16).ok();
        let (c, len) = match *b.get(self.pos + 1)? {
            b'n' => ('\n', 2),
            b't' => ('\t', 2),
            b'u' => {
                let high = hex(self.pos + 2)?;
                if (0xD800..0xDC00).contains(&high) {
                    let low = hex(self.pos + 8)?;
                    let c = char::from_u32(0x10000 + ((high - 0xD800) << 10) + (low - 0xDC00));
                    (c.unwrap_or('\u{FFFD}'), 12)
                } else {
                    (char::from_u32(high).unwrap_or('\u{FFFD}'), 6)
                }
            }
            other => (char::from(other), 2),
        };
        self.pos += len;
        Some(c)
    }
}

fn stream(doc: &str, chunk: usize) -> (usize, usize) {
    let mut floor = Floor::default();
    let mut read = 0;
    for piece in doc.as_bytes().chunks(chunk) {
        floor.push_bytes(piece);
        // Read every event, as the stream bench does.
        for event in floor.events.drain(..) {
            read += event.path.1 - event.path.0 + event.text.1 - event.text.0;
            read += usize::from(event.kind);
        }
        floor.paths.clear();
    }
    (read, floor.sets)
}

fn values(v: &serde_json::Value) -> usize {
    1 + match v {
        serde_json::Value::Array(a) => a.iter().map(values).sum(),
        serde_json::Value::Object(o) => o.values().map(values).sum(),
        _ => 0,
    }
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let kind = args.first().map_or("dense", String::as_str);
    let chunk = args
        .get(1)
        .and_then(|a| a.parse().ok())
        .unwrap_or(16usize)
        .max(1);
    let rounds = args
        .get(2)
        .and_then(|a| a.parse().ok())
        .unwrap_or(20usize)
        .max(1);
    let doc = match kind {
        "code" => stream_docs::code_document(1 << 20),
        _ => stream_docs::document(1 << 20),
    };
    // The floor must see every value, or it would be cheating.
    let value: serde_json::Value = serde_json::from_str(&doc).expect("the bench document is JSON");
    let (_, sets) = stream(&doc, chunk);
    assert_eq!(sets, values(&value), "the floor parser missed values");
    let (mut one_shot, mut floor) = (f64::MAX, f64::MAX);
    for _ in 0..rounds {
        let t = Instant::now();
        black_box(jsonheal::repair(black_box(&doc)).is_ok());
        one_shot = one_shot.min(t.elapsed().as_secs_f64());
        let t = Instant::now();
        black_box(stream(black_box(&doc), chunk));
        floor = floor.min(t.elapsed().as_secs_f64());
    }
    println!(
        "{kind} in {chunk} B chunks: one-shot {:.3} ms, minimal stream {:.3} ms, ratio {:.2}",
        one_shot * 1e3,
        floor * 1e3,
        floor / one_shot
    );
}
