//! Typed OpenAI wire shapes: the parts of a chat completion, a stream chunk and the gateway's
//! `jsonheal` report that the gateway reads or writes. Fields it does not act on are kept in
//! `rest` and sent on as they came.
//!
//! Numbers the gateway reads are taken leniently (through [`Value`]): the workspace enables
//! serde_json's `arbitrary_precision`, under which a number inside a struct with a flattened
//! map cannot deserialize straight into an integer.

use serde::{Deserialize, Deserializer, Serialize};
use serde_json::{Map, Value};

/// A non-streaming chat completion.
#[derive(Debug, Clone, Default, Serialize, Deserialize)]
pub struct ChatCompletion {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub id: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub object: Option<String>,
    #[serde(default, skip_serializing_if = "Value::is_null")]
    pub created: Value,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub model: Option<String>,
    #[serde(default)]
    pub choices: Vec<Choice>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub usage: Option<Usage>,
    #[serde(flatten)]
    pub rest: Map<String, Value>,
    /// What the gateway did (only in its answers).
    #[serde(default, skip_deserializing, skip_serializing_if = "Option::is_none")]
    pub jsonheal: Option<Report>,
}

/// One choice of a completion.
#[derive(Debug, Clone, Default, Serialize, Deserialize)]
pub struct Choice {
    #[serde(default, deserialize_with = "lenient_u64")]
    pub index: u64,
    #[serde(default)]
    pub message: Message,
    #[serde(default)]
    pub logprobs: Value,
    #[serde(default)]
    pub finish_reason: Option<String>,
    #[serde(flatten)]
    pub rest: Map<String, Value>,
}

/// An assistant message.
#[derive(Debug, Clone, Default, Serialize, Deserialize)]
pub struct Message {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub role: Option<String>,
    #[serde(default)]
    pub content: Option<Content>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tool_calls: Option<Vec<ToolCall>>,
    #[serde(flatten)]
    pub rest: Map<String, Value>,
}

impl Message {
    /// The text of `content` (a string, or the text parts of an array).
    pub fn text(&self) -> Option<String> {
        match &self.content {
            Some(Content::Text(s)) => Some(s.clone()),
            Some(Content::Parts(parts)) => Some(
                parts
                    .iter()
                    .filter_map(|p| p.get("text").and_then(Value::as_str))
                    .collect(),
            ),
            None => None,
        }
    }

    /// The tool calls (none when absent).
    pub fn calls(&self) -> &[ToolCall] {
        self.tool_calls.as_deref().unwrap_or_default()
    }
}

/// A message's `content`.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
#[serde(untagged)]
pub enum Content {
    Text(String),
    Parts(Vec<Value>),
}

/// One tool call of a message.
#[derive(Debug, Clone, Default, Serialize, Deserialize)]
pub struct ToolCall {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub id: Option<String>,
    #[serde(rename = "type", default = "function_type")]
    pub kind: String,
    #[serde(default)]
    pub function: FunctionCall,
    #[serde(flatten)]
    pub rest: Map<String, Value>,
}

fn function_type() -> String {
    "function".to_owned()
}

/// The function of a tool call.
#[derive(Debug, Clone, Default, Serialize, Deserialize)]
pub struct FunctionCall {
    #[serde(default)]
    pub name: String,
    /// The arguments as text (some providers send an object; it is kept as its JSON text).
    #[serde(default, deserialize_with = "arguments_text")]
    pub arguments: String,
    #[serde(flatten)]
    pub rest: Map<String, Value>,
}

/// Token counts, of one call or summed over several.
#[derive(Debug, Default, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct Usage {
    pub prompt_tokens: u64,
    pub completion_tokens: u64,
    pub total_tokens: u64,
}

impl<'de> Deserialize<'de> for Usage {
    /// Lenient: a missing count is 0, a missing total is the sum of the others.
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Usage, D::Error> {
        let m = Map::<String, Value>::deserialize(d)?;
        let get = |k: &str| m.get(k).and_then(Value::as_u64);
        let (p, c) = (
            get("prompt_tokens").unwrap_or(0),
            get("completion_tokens").unwrap_or(0),
        );
        Ok(Usage {
            prompt_tokens: p,
            completion_tokens: c,
            total_tokens: get("total_tokens").unwrap_or(p + c),
        })
    }
}

impl Usage {
    /// Add `more` to the running `sum` (which stays `None` until some call reports usage).
    pub fn accumulate(sum: &mut Option<Usage>, more: Option<&Usage>) {
        let Some(more) = more else { return };
        let s = sum.get_or_insert_with(Usage::default);
        s.prompt_tokens += more.prompt_tokens;
        s.completion_tokens += more.completion_tokens;
        s.total_tokens += more.total_tokens;
    }
}

/// One streamed chunk (`chat.completion.chunk`).
#[derive(Debug, Clone, Default, Serialize, Deserialize)]
pub struct Chunk {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub id: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub object: Option<String>,
    #[serde(default, skip_serializing_if = "Value::is_null")]
    pub created: Value,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub model: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub system_fingerprint: Option<String>,
    #[serde(default)]
    pub choices: Vec<ChunkChoice>,
    /// Absent, `null` (announced but not yet known) or the counts.
    #[serde(
        default,
        skip_serializing_if = "Option::is_none",
        deserialize_with = "present"
    )]
    pub usage: Option<Value>,
    #[serde(flatten)]
    pub rest: Map<String, Value>,
    #[serde(default, skip_deserializing, skip_serializing_if = "Option::is_none")]
    pub jsonheal: Option<Report>,
    #[serde(default, skip_deserializing, skip_serializing_if = "Option::is_none")]
    pub error: Option<Value>,
}

impl Chunk {
    /// A chunk with `envelope`'s `id`, `object`, `created`, `model` (and fingerprint) and
    /// nothing else.
    pub fn like(envelope: &Chunk) -> Chunk {
        Chunk {
            id: envelope.id.clone(),
            object: envelope.object.clone(),
            created: envelope.created.clone(),
            model: envelope.model.clone(),
            system_fingerprint: envelope.system_fingerprint.clone(),
            ..Chunk::default()
        }
    }

    /// This chunk with one choice.
    pub fn choice(mut self, delta: Delta, finish_reason: Option<String>) -> Chunk {
        self.choices.push(ChunkChoice {
            index: 0,
            delta,
            finish_reason,
            rest: Map::new(),
        });
        self
    }
}

/// One choice of a chunk.
#[derive(Debug, Clone, Default, Serialize, Deserialize)]
pub struct ChunkChoice {
    #[serde(default, deserialize_with = "lenient_u64")]
    pub index: u64,
    #[serde(default)]
    pub delta: Delta,
    #[serde(default)]
    pub finish_reason: Option<String>,
    #[serde(flatten)]
    pub rest: Map<String, Value>,
}

/// What a chunk adds to the message.
#[derive(Debug, Clone, Default, Serialize, Deserialize)]
pub struct Delta {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub role: Option<String>,
    /// Absent, `null` or text.
    #[serde(
        default,
        skip_serializing_if = "Option::is_none",
        deserialize_with = "present"
    )]
    pub content: Option<Value>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tool_calls: Option<Vec<ToolCallDelta>>,
    #[serde(flatten)]
    pub rest: Map<String, Value>,
}

impl Delta {
    /// Whether the delta says anything (a `null` says nothing).
    pub fn is_empty(&self) -> bool {
        self.role.is_none()
            && self.content.as_ref().is_none_or(Value::is_null)
            && self.tool_calls.is_none()
            && self.rest.values().all(Value::is_null)
    }
}

/// A piece of a streamed tool call (or, as the gateway sends them, a whole one).
#[derive(Debug, Clone, Default, Serialize, Deserialize)]
pub struct ToolCallDelta {
    #[serde(default, deserialize_with = "lenient_u64")]
    pub index: u64,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub id: Option<String>,
    #[serde(rename = "type", default, skip_serializing_if = "Option::is_none")]
    pub kind: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub function: Option<FunctionDelta>,
}

/// A piece of a streamed function.
#[derive(Debug, Clone, Default, Serialize, Deserialize)]
pub struct FunctionDelta {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub name: Option<String>,
    #[serde(default, deserialize_with = "arguments_piece")]
    pub arguments: Option<String>,
}

/// The `jsonheal` object: what the gateway did to an answer. One shape everywhere (healed
/// answers, and pass-through answers whose tool calls it normalised); documented in
/// `docs/gateway.md`.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Report {
    /// Upstream calls made.
    pub attempts: u32,
    /// Where the answer was found: `whole`, `fence`, `span` or `repaired` for content,
    /// `tool_calls` for an answer made of tool calls.
    pub candidate: String,
    /// Syntax repairs made to the content, each name once.
    pub repairs: Vec<String>,
    /// Coercions made to fit the content to the schema.
    pub coercions: Vec<Value>,
    /// One entry per tool call of the answer.
    pub tool_calls: Vec<ToolCallReport>,
}

impl Report {
    /// Whether anything was changed: the `x-jsonheal-repaired` header.
    pub fn repaired(&self) -> bool {
        !self.repairs.is_empty()
            || !self.coercions.is_empty()
            || self.tool_calls.iter().any(ToolCallReport::changed)
    }

    /// Whether some tool call's arguments were cut off: the `x-jsonheal-truncated` header.
    pub fn truncated(&self) -> bool {
        self.tool_calls.iter().any(|c| c.truncated)
    }
}

/// What was done to one tool call's arguments.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct ToolCallReport {
    /// The call's `id`.
    pub id: Option<String>,
    /// The tool.
    pub name: String,
    /// How the arguments became an object (`valid`, `single_quotes`, …, or `failed`).
    pub strategy: String,
    /// The arguments were cut off: they are passed on unchanged, not completed.
    pub truncated: bool,
    /// Coercions made to fit the tool's declared `parameters`.
    pub coercions: Vec<Value>,
}

impl ToolCallReport {
    /// Whether the arguments sent on differ from the model's.
    pub fn changed(&self) -> bool {
        !self.truncated
            && self.strategy != crate::tools::FAILED_STRATEGY
            && (self.strategy != crate::healing::valid_strategy() || !self.coercions.is_empty())
    }
}

fn lenient_u64<'de, D: Deserializer<'de>>(d: D) -> Result<u64, D::Error> {
    Ok(Value::deserialize(d)?.as_u64().unwrap_or(0))
}

/// `Some` for any value that is present, `null` included (with `#[serde(default)]`, an
/// absent field stays `None`).
fn present<'de, D: Deserializer<'de>>(d: D) -> Result<Option<Value>, D::Error> {
    Value::deserialize(d).map(Some)
}

fn arguments_text<'de, D: Deserializer<'de>>(d: D) -> Result<String, D::Error> {
    Ok(arguments_piece(d)?.unwrap_or_default())
}

fn arguments_piece<'de, D: Deserializer<'de>>(d: D) -> Result<Option<String>, D::Error> {
    Ok(match Value::deserialize(d)? {
        Value::Null => None,
        Value::String(s) => Some(s),
        other => Some(other.to_string()),
    })
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn a_completion_round_trips_with_unknown_fields() {
        let text = json!({"id": "c", "object": "chat.completion", "created": 1700000000,
            "model": "m", "choices": [{"index": 0, "message": {"role": "assistant",
            "content": null, "tool_calls": [{"id": "t", "type": "function",
            "function": {"name": "f", "arguments": {"a": 1}}}], "refusal": null},
            "logprobs": null, "finish_reason": "tool_calls"}],
            "usage": {"prompt_tokens": 3, "completion_tokens": 4}, "service_tier": "x"})
        .to_string();
        let c: ChatCompletion = serde_json::from_str(&text).unwrap();
        assert_eq!(
            c.choices[0].message.calls()[0].function.arguments,
            r#"{"a":1}"#
        );
        assert_eq!(c.usage.unwrap().total_tokens, 7);
        assert_eq!(c.created, json!(1700000000));
        let back = serde_json::to_value(&c).unwrap();
        assert_eq!(back["service_tier"], "x");
        assert_eq!(back["choices"][0]["message"]["refusal"], Value::Null);
        assert_eq!(back["choices"][0]["message"]["content"], Value::Null);
    }

    #[test]
    fn a_chunk_keeps_null_usage_and_content_apart_from_absent() {
        let c: Chunk = serde_json::from_str(
            r#"{"id":"c","choices":[{"index":1,"delta":{"content":null},"finish_reason":null}],"usage":null}"#,
        )
        .unwrap();
        assert_eq!(c.usage, Some(Value::Null));
        assert_eq!(c.choices[0].index, 1);
        assert_eq!(c.choices[0].delta.content, Some(Value::Null));
        assert!(c.choices[0].delta.is_empty());
        let c: Chunk = serde_json::from_str(r#"{"choices":[{"delta":{}}]}"#).unwrap();
        assert_eq!(c.usage, None);
        assert_eq!(c.choices[0].delta.content, None);
    }
}
