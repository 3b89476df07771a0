//! Streamed tool calls: argument deltas are buffered per (choice, call) and each call is sent
//! whole, its arguments normalised, once it is complete.

use std::collections::{BTreeMap, HashMap};

use bytes::Bytes;

use crate::request::Tool;
use crate::sse;
use crate::store::NewToolCall;
use crate::tools;
use crate::wire::{
    Chunk, ChunkChoice, Delta, FunctionDelta, Report, ToolCallDelta, ToolCallReport,
};

/// A tool call whose argument deltas are being collected.
#[derive(Default)]
struct PendingCall {
    id: Option<String>,
    kind: Option<String>,
    name: String,
    arguments: String,
}

/// The buffer of one stream.
pub(super) struct ToolCallBuffer<'a> {
    tools: &'a HashMap<String, Tool>,
    pending: BTreeMap<(u64, u64), PendingCall>,
    records: Vec<NewToolCall>,
    reports: Vec<ToolCallReport>,
}

impl<'a> ToolCallBuffer<'a> {
    pub fn new(tools: &'a HashMap<String, Tool>) -> ToolCallBuffer<'a> {
        ToolCallBuffer {
            tools,
            pending: BTreeMap::new(),
            records: Vec::new(),
            reports: Vec::new(),
        }
    }

    /// The `jsonheal` report of the calls sent, if there were any.
    pub fn report(&self) -> Option<Report> {
        (!self.reports.is_empty()).then(|| Report {
            attempts: 1,
            candidate: super::heal::TOOL_CALLS_CANDIDATE.to_owned(),
            repairs: Vec::new(),
            coercions: Vec::new(),
            tool_calls: self.reports.clone(),
        })
    }

    /// The records of the calls sent so far.
    pub fn take_records(&mut self) -> Vec<NewToolCall> {
        std::mem::take(&mut self.records)
    }

    /// The completed calls of `choice` (all of them, or those other than `keep`) as
    /// chunks.
    fn flush(&mut self, env: &Chunk, choice: u64, keep: Option<u64>) -> Vec<Bytes> {
        let keys: Vec<(u64, u64)> = self
            .pending
            .keys()
            .filter(|(c, i)| *c == choice && Some(*i) != keep)
            .copied()
            .collect();
        let mut out = Vec::new();
        for key in keys {
            let Some(call) = self.pending.remove(&key) else {
                continue;
            };
            let n = tools::normalize_call(
                &call.name,
                call.id.as_deref(),
                &call.arguments,
                self.tools,
                false,
            );
            self.records.push(n.record);
            self.reports.push(n.report);
            let whole = ToolCallDelta {
                index: key.1,
                id: call.id,
                kind: Some(call.kind.unwrap_or_else(|| "function".to_owned())),
                function: Some(FunctionDelta {
                    name: Some(call.name),
                    arguments: Some(n.arguments),
                }),
            };
            let mut c = Chunk::like(env);
            c.choices.push(ChunkChoice {
                index: choice,
                delta: Delta {
                    tool_calls: Some(vec![whole]),
                    ..Delta::default()
                },
                ..ChunkChoice::default()
            });
            out.push(sse::data(&c));
        }
        out
    }

    /// Everything to send for one upstream chunk: completed calls first, then the chunk
    /// itself (verbatim when it carried no tool-call deltas).
    pub fn process(&mut self, mut chunk: Chunk, raw: Bytes) -> Vec<Bytes> {
        let env = super::stream::envelope_of(&chunk, "");
        let mut out = Vec::new();
        let mut touched = false;
        let mut any_left = false;
        for choice in &mut chunk.choices {
            let idx = choice.index;
            if let Some(deltas) = choice.delta.tool_calls.take() {
                touched = true;
                for d in deltas {
                    if !self.pending.contains_key(&(idx, d.index)) {
                        // A new call starts: the earlier ones of this choice are done.
                        out.extend(self.flush(&env, idx, Some(d.index)));
                    }
                    let call = self.pending.entry((idx, d.index)).or_default();
                    if d.id.is_some() {
                        call.id = d.id;
                    }
                    if d.kind.is_some() {
                        call.kind = d.kind;
                    }
                    if let Some(f) = d.function {
                        call.name.push_str(f.name.as_deref().unwrap_or_default());
                        call.arguments
                            .push_str(f.arguments.as_deref().unwrap_or_default());
                    }
                }
            }
            let finished = choice.finish_reason.is_some();
            if finished {
                out.extend(self.flush(&env, idx, None));
            }
            if finished || !choice.delta.is_empty() {
                any_left = true;
            }
        }
        let has_usage = chunk.usage.as_ref().is_some_and(|u| !u.is_null());
        if !touched {
            out.push(raw);
        } else if any_left || has_usage {
            out.push(sse::data(&chunk));
        }
        out
    }

    /// Every call still pending, as chunks (the stream ended).
    pub fn flush_all(&mut self, env: &Chunk) -> Vec<Bytes> {
        let choices: Vec<u64> = self.pending.keys().map(|(c, _)| *c).collect();
        let mut out = Vec::new();
        for c in choices {
            out.extend(self.flush(env, c, None));
        }
        out
    }
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;
    use serde_json::{json, Value};

    #[test]
    fn tool_call_deltas_are_buffered_until_complete() {
        let tools = HashMap::new();
        let mut b = ToolCallBuffer::new(&tools);
        let env = json!({"id": "c", "object": "chat.completion.chunk", "created": 1, "model": "m"});
        let mk = |choices: Value| {
            let mut v = env.clone();
            v["choices"] = choices;
            serde_json::from_value::<Chunk>(v).unwrap()
        };
        let first = mk(
            json!([{"index": 0, "delta": {"role": "assistant", "content": null,
            "tool_calls": [{"index": 0, "id": "call_1", "type": "function",
            "function": {"name": "read", "arguments": ""}}]}, "finish_reason": null}]),
        );
        let out = b.process(first, Bytes::new());
        assert_eq!(out.len(), 1, "the role survives, the call waits");
        assert!(!String::from_utf8_lossy(&out[0]).contains("tool_calls"));
        let part = mk(json!([{"index": 0, "delta": {"tool_calls": [{"index": 0,
            "function": {"arguments": "{file: 'a"}}]}, "finish_reason": null}]));
        assert!(b.process(part, Bytes::new()).is_empty());
        let part = mk(json!([{"index": 0, "delta": {"tool_calls": [{"index": 0,
            "function": {"arguments": ".txt',}"}}]}, "finish_reason": null}]));
        assert!(b.process(part, Bytes::new()).is_empty());
        let end = mk(json!([{"index": 0, "delta": {}, "finish_reason": "tool_calls"}]));
        let out = b.process(end, Bytes::from_static(b"data: end\n\n"));
        assert_eq!(out.len(), 2);
        let text = String::from_utf8_lossy(&out[0]);
        assert!(
            text.contains("call_1") && text.contains("\"name\":\"read\""),
            "{text}"
        );
        assert_eq!(&out[1][..], b"data: end\n\n");
        assert_eq!(b.records.len(), 1);
        assert_eq!(b.records[0].raw_arguments, "{file: 'a.txt',}");
    }
}
