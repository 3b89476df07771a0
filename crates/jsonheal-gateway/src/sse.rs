//! Server-sent events: an incremental parser for upstream streams and the writers for what
//! the gateway sends.

use bytes::Bytes;
use serde::Serialize;

/// One event of an upstream stream.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Event {
    /// The event's `data:` lines joined by `\n` (`None` for a comment-only block).
    pub data: Option<String>,
    /// The event's bytes as received, blank-line terminator included, for verbatim
    /// forwarding.
    pub raw: Bytes,
}

/// Splits a byte stream into events; feed it chunks as they arrive.
#[derive(Default)]
pub struct Parser {
    buf: Vec<u8>,
    /// How far `buf` has been searched for a blank line, so a long event arriving in many
    /// small chunks is scanned once, not once per chunk.
    scanned: usize,
}

/// Largest event the parser buffers; a longer one means a broken upstream.
pub const MAX_EVENT_BYTES: usize = 16 << 20;

impl Parser {
    /// Add bytes; returns the events they complete.
    pub fn push(&mut self, chunk: &[u8]) -> Result<Vec<Event>, String> {
        self.buf.extend_from_slice(chunk);
        let mut events = Vec::new();
        loop {
            let from = self.scanned.saturating_sub(2);
            let Some((end, sep)) = find_blank_line(&self.buf, from) else {
                self.scanned = self.buf.len();
                break;
            };
            self.scanned = 0;
            let raw: Vec<u8> = self.buf.drain(..end + sep).collect();
            let block = &raw[..end];
            events.push(parse_block(block, Bytes::from(raw.clone()))?);
        }
        if self.buf.len() > MAX_EVENT_BYTES {
            return Err(format!("an event is longer than {MAX_EVENT_BYTES} bytes"));
        }
        Ok(events)
    }

    /// Bytes received after the last complete event (a stream that ends with some is
    /// broken).
    pub fn leftover(&self) -> &[u8] {
        &self.buf
    }
}

/// The end of the first event block and the length of its blank-line separator.
fn find_blank_line(buf: &[u8], from: usize) -> Option<(usize, usize)> {
    let mut i = from;
    while i < buf.len() {
        if buf[i] == b'\n' {
            if buf.get(i + 1) == Some(&b'\n') {
                return Some((i, 2));
            }
            if buf.get(i + 1) == Some(&b'\r') && buf.get(i + 2) == Some(&b'\n') {
                return Some((i, 3));
            }
        }
        i += 1;
    }
    None
}

fn parse_block(block: &[u8], raw: Bytes) -> Result<Event, String> {
    let text = std::str::from_utf8(block).map_err(|_| "an event is not UTF-8".to_owned())?;
    let mut data: Option<String> = None;
    for line in text.split('\n') {
        let line = line.strip_suffix('\r').unwrap_or(line);
        if line.is_empty() || line.starts_with(':') {
            continue;
        }
        let (field, value) = match line.split_once(':') {
            Some((f, v)) => (f, v.strip_prefix(' ').unwrap_or(v)),
            None => (line, ""),
        };
        if field == "data" {
            match &mut data {
                Some(d) => {
                    d.push('\n');
                    d.push_str(value);
                }
                None => data = Some(value.to_owned()),
            }
        }
    }
    Ok(Event { data, raw })
}

/// `data: <json>\n\n`.
pub fn data<T: Serialize + ?Sized>(value: &T) -> Bytes {
    let mut out = Vec::with_capacity(256);
    out.extend_from_slice(b"data: ");
    // The wire types and `Value` always serialise (string keys, no failing impls).
    let _ = serde_json::to_writer(&mut out, value);
    out.extend_from_slice(b"\n\n");
    Bytes::from(out)
}

/// `data: [DONE]\n\n`.
pub fn done() -> Bytes {
    Bytes::from_static(b"data: [DONE]\n\n")
}

/// An SSE comment line, ignored by clients; keeps the connection and proxies alive.
pub fn comment(text: &str) -> Bytes {
    Bytes::from(format!(": {text}\n\n"))
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;

    #[test]
    fn splits_events_across_chunks() {
        let mut p = Parser::default();
        assert!(p.push(b"data: {\"a\"").expect("ok").is_empty());
        let ev = p
            .push(b":1}\n\n: ping\n\ndata: [DONE]\r\n\r\n")
            .expect("ok");
        assert_eq!(ev.len(), 3);
        assert_eq!(ev[0].data.as_deref(), Some("{\"a\":1}"));
        assert_eq!(&ev[0].raw[..], b"data: {\"a\":1}\n\n");
        assert_eq!(ev[1].data, None);
        assert_eq!(ev[2].data.as_deref(), Some("[DONE]"));
        assert!(p.leftover().is_empty());
        p.push(b"data: x").expect("ok");
        assert_eq!(p.leftover(), b"data: x");
    }

    #[test]
    fn joins_multiline_data() {
        let mut p = Parser::default();
        let ev = p.push(b"event: m\ndata: a\ndata:b\n\n").expect("ok");
        assert_eq!(ev[0].data.as_deref(), Some("a\nb"));
    }
}
