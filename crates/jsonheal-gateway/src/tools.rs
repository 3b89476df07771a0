//! Tool-call arguments: normalised into a JSON-object string in every response, checked
//! against the tool's `parameters` when healing, and recorded.

use std::collections::HashMap;

use serde_json::Value;

use crate::healing;
use crate::request::Tool;
use crate::store::NewToolCall;
use crate::wire::{Message, ToolCallReport};

/// The strategy of arguments that could not become an object (passed on as they came).
pub const FAILED_STRATEGY: &str = "failed";

/// The result of normalising one call.
pub struct Normalized {
    /// The arguments to send to the client: a JSON object as a string; the raw text when
    /// it cannot become an object or was cut off (never silently replaced or completed).
    pub arguments: String,
    /// The record for the store (without account and request id filled in by the caller).
    pub record: NewToolCall,
    /// What was done, for the `jsonheal` report.
    pub report: ToolCallReport,
    /// Why the arguments are unusable, when they are (for a re-ask).
    pub problem: Option<String>,
}

/// Whether any of these calls' arguments were changed (repaired or coerced).
pub fn any_repaired(calls: &[NewToolCall]) -> bool {
    calls
        .iter()
        .any(|c| c.strategy != healing::valid_strategy() && c.strategy != FAILED_STRATEGY)
}

/// Normalise one call's `arguments` (`raw`) for tool `name`: into an object, coerced to the
/// tool's declared `parameters` when the request declared them; with `check_schema`
/// (healing), anything unusable is a problem to re-ask about.
pub fn normalize_call(
    name: &str,
    call_id: Option<&str>,
    raw: &str,
    tools: &HashMap<String, Tool>,
    check_schema: bool,
) -> Normalized {
    let tool = tools.get(name);
    let record = |input: String, strategy: &str, truncated: bool| NewToolCall {
        request_id: String::new(),
        account_id: 0,
        call_id: call_id.map(str::to_owned),
        tool_name: name.to_owned(),
        raw_arguments: raw.to_owned(),
        input,
        strategy: strategy.to_owned(),
        truncated,
    };
    let report = |strategy: &str, truncated: bool, coercions: Vec<Value>| ToolCallReport {
        id: call_id.map(str::to_owned),
        name: name.to_owned(),
        strategy: strategy.to_owned(),
        truncated,
        coercions,
    };
    let parameters = tool.and_then(|t| t.parameters.as_ref());
    let n = match healing::normalize_args(name, raw, parameters) {
        Ok(n) => n,
        Err(why) => {
            return Normalized {
                arguments: raw.to_owned(),
                record: record("{}".to_owned(), FAILED_STRATEGY, false),
                report: report(FAILED_STRATEGY, false, Vec::new()),
                problem: Some(format!(
                    "the arguments of the tool call {name:?} are not a JSON object ({why})"
                )),
            }
        }
    };
    let mut value = Value::Object(n.value);
    let schema = tool.and_then(|t| t.schema.as_ref());
    let coercions = match schema {
        Some(schema) if !n.truncated => schema.coerce(&mut value),
        _ => Vec::new(),
    };
    if !coercions.is_empty() {
        tracing::info!(tool = name, coercions = %serde_json::Value::Array(coercions.clone()),
            "tool-call arguments coerced to the tool's parameters");
    }
    let mut problem = None;
    if n.truncated {
        tracing::warn!(
            tool = name,
            "tool-call arguments were cut off; they are passed on as they came"
        );
        problem = Some(format!(
            "the arguments of the tool call {name:?} were cut off before they were complete"
        ));
    } else if check_schema {
        if tool.is_none() && !tools.is_empty() {
            problem = Some(format!("the tool {name:?} does not exist"));
        } else if let Some(schema) = schema {
            let violations = schema.violations(&value);
            if !violations.is_empty() {
                problem = Some(format!(
                    "the arguments of the tool call {name:?} do not match its parameters \
                     schema:\n- {}",
                    violations.join("\n- ")
                ));
            }
        }
    }
    // Cut-off arguments are never presented as complete: the client gets the raw text.
    let arguments = if n.truncated {
        raw.to_owned()
    } else {
        serde_json::to_string(&value).unwrap_or_else(|_| "{}".to_owned())
    };
    Normalized {
        arguments,
        record: record(healing::encode_input(&value), &n.strategy, n.truncated),
        report: report(&n.strategy, n.truncated, coercions),
        problem,
    }
}

/// Normalise every tool call's arguments of a message in place. Returns the records and
/// the problems found.
pub fn normalize_message(
    message: &mut Message,
    tools: &HashMap<String, Tool>,
    check_schema: bool,
) -> Calls {
    let mut out = Calls::default();
    for call in message.tool_calls.iter_mut().flatten() {
        let f = &mut call.function;
        let n = normalize_call(
            &f.name,
            call.id.as_deref(),
            &f.arguments,
            tools,
            check_schema,
        );
        f.arguments = n.arguments;
        out.records.push(n.record);
        out.reports.push(n.report);
        if let Some(p) = n.problem {
            out.problems.push(p);
        }
    }
    out
}

/// What normalising a message's tool calls found.
#[derive(Default)]
pub struct Calls {
    /// The records to store.
    pub records: Vec<NewToolCall>,
    /// One report per call.
    pub reports: Vec<ToolCallReport>,
    /// Why some are unusable (for a re-ask).
    pub problems: Vec<String>,
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;
    use crate::healing::CompiledSchema;
    use serde_json::json;

    fn tools() -> HashMap<String, Tool> {
        let params = json!({"type": "object", "properties": {"file": {"type": "string"}},
            "required": ["file"]});
        let mut m = HashMap::new();
        m.insert(
            "read".to_owned(),
            Tool {
                schema: CompiledSchema::compile(&params)
                    .ok()
                    .map(std::sync::Arc::new),
                parameters: Some(params),
            },
        );
        m
    }

    #[test]
    fn normalises_and_checks() {
        let msg = json!({"role": "assistant", "content": null, "tool_calls": [
            {"id": "c1", "type": "function", "function": {"name": "read", "arguments": "{\"file\": \"a\"}"}},
            {"id": "c2", "type": "function", "function": {"name": "read", "arguments": "{\"path\": \"a\"}"}},
            {"id": "c3", "type": "function", "function": {"name": "read", "arguments": ""}}
        ]});
        let mut msg: Message = serde_json::from_value(msg).unwrap();
        let Calls {
            records, problems, ..
        } = normalize_message(&mut msg, &tools(), true);
        assert_eq!(msg.calls()[0].function.arguments, r#"{"file":"a"}"#);
        assert_eq!(msg.calls()[2].function.arguments, "{}");
        assert_eq!(records.len(), 3);
        assert_eq!(records[0].call_id.as_deref(), Some("c1"));
        assert_eq!(records[1].raw_arguments, r#"{"path": "a"}"#);
        assert_eq!(problems.len(), 2, "{problems:?}");
        let calls = normalize_message(&mut msg, &tools(), false);
        assert!(calls.problems.is_empty());
    }

    #[test]
    fn unusable_arguments_are_kept_not_replaced() {
        let n = normalize_call("read", None, "[1, 2]", &tools(), false);
        assert_eq!(n.arguments, "[1, 2]");
        assert_eq!(n.record.strategy, "failed");
        assert!(n.problem.is_some());
    }
}
