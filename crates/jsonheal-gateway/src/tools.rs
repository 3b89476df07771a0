//! Tool-call arguments: normalised into a JSON-object string in every response, checked
//! against the tool's `parameters` when healing, and recorded.

use std::collections::HashMap;

use serde_json::Value;

use crate::healing;
use crate::request::Tool;
use crate::store::NewToolCall;
use crate::wire::Message;

/// The result of normalising one call.
pub struct Normalized {
    /// The arguments to send to the client (a JSON object as a string, or the raw text
    /// when it cannot become an object — never silently replaced).
    pub arguments: String,
    /// The record for the store (without account and request id filled in by the caller).
    pub record: NewToolCall,
    /// Why the arguments are unusable, when they are (for a re-ask).
    pub problem: Option<String>,
}

/// The strategy of arguments that could not be made a JSON object (forwarded as sent).
const FAILED: &str = "failed";

/// Whether any of these calls' arguments were changed (repaired or coerced).
pub fn any_repaired(calls: &[NewToolCall]) -> bool {
    calls
        .iter()
        .any(|c| c.strategy != healing::valid_strategy() && c.strategy != FAILED)
}

/// Normalise one call's `arguments` (`raw`) for tool `name`.
pub fn normalize_call(
    name: &str,
    call_id: Option<&str>,
    raw: &str,
    tools: &HashMap<String, Tool>,
    check_schema: bool,
) -> Normalized {
    let tool = tools.get(name);
    let parameters = tool.and_then(|t| t.parameters.as_ref());
    let record = |input: String, strategy: String| NewToolCall {
        request_id: String::new(),
        account_id: 0,
        call_id: call_id.map(str::to_owned),
        tool_name: name.to_owned(),
        raw_arguments: raw.to_owned(),
        input,
        strategy,
    };
    match healing::normalize_args(name, raw, parameters) {
        Ok(n) => {
            let value = Value::Object(n.value);
            let mut problem = None;
            if check_schema {
                if n.truncated {
                    problem = Some(format!(
                        "the arguments of the tool call {name:?} were cut off before they were complete"
                    ));
                } else if tool.is_none() && !tools.is_empty() {
                    problem = Some(format!("the tool {name:?} does not exist"));
                } else if let Some(schema) = tool.and_then(|t| t.schema.as_ref()) {
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
            let arguments = serde_json::to_string(&value).unwrap_or_else(|_| "{}".to_owned());
            Normalized {
                arguments,
                record: record(healing::encode_input(&value), n.strategy),
                problem,
            }
        }
        Err(why) => Normalized {
            arguments: raw.to_owned(),
            record: record("{}".to_owned(), FAILED.to_owned()),
            problem: Some(format!(
                "the arguments of the tool call {name:?} are not a JSON object ({why})"
            )),
        },
    }
}

/// Normalise every tool call's arguments of a message in place. Returns the records and
/// the problems found.
pub fn normalize_message(
    message: &mut Message,
    tools: &HashMap<String, Tool>,
    check_schema: bool,
) -> (Vec<NewToolCall>, Vec<String>) {
    let mut records = Vec::new();
    let mut problems = Vec::new();
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
        records.push(n.record);
        if let Some(p) = n.problem {
            problems.push(p);
        }
    }
    (records, problems)
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
        let (records, problems) = normalize_message(&mut msg, &tools(), true);
        assert_eq!(msg.calls()[0].function.arguments, r#"{"file":"a"}"#);
        assert_eq!(msg.calls()[2].function.arguments, "{}");
        assert_eq!(records.len(), 3);
        assert_eq!(records[0].call_id.as_deref(), Some("c1"));
        assert_eq!(records[1].raw_arguments, r#"{"path": "a"}"#);
        assert_eq!(problems.len(), 2, "{problems:?}");
        let (_, problems) = normalize_message(&mut msg, &tools(), false);
        assert!(problems.is_empty());
    }

    #[test]
    fn unusable_arguments_are_kept_not_replaced() {
        let n = normalize_call("read", None, "[1, 2]", &tools(), false);
        assert_eq!(n.arguments, "[1, 2]");
        assert_eq!(n.record.strategy, "failed");
        assert!(n.problem.is_some());
    }
}
