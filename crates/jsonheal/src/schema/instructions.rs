//! The text that tells a model without native structured output how to answer.

use serde_json::Value;

use super::validate::describe_schema;
use super::Schema;

/// The system-message text for a model that has no native structured output: the output
/// rules, the top-level required properties in a line, and the schema itself.
pub fn instructions(schema: &Schema) -> String {
    let raw = schema.raw();
    let mut out = String::from(
        "Answer with a single JSON value that conforms to the JSON Schema below.\n\
         Rules:\n\
         - Output only the JSON value: no explanations, no Markdown, no code fences, no comments.\n\
         - Use double quotes for every key and string; no trailing commas; no NaN, Infinity or undefined.\n\
         - Use the exact property names of the schema and the exact values of any enum.\n\
         - Give numbers and booleans as JSON numbers and booleans, not as strings.\n",
    );
    let top = describe_schema(raw, raw, 0);
    if top != "a value" {
        out.push_str(&format!("- The top-level value is: {top}.\n"));
    }
    if let Some(required) = raw.get("required").and_then(Value::as_array) {
        let names: Vec<String> = required
            .iter()
            .filter_map(Value::as_str)
            .map(|name| {
                let shape = raw
                    .get("properties")
                    .and_then(|p| p.get(name))
                    .map(|s| describe_schema(s, raw, 0));
                match shape {
                    Some(shape) => format!("{name} ({shape})"),
                    None => name.to_owned(),
                }
            })
            .collect();
        if !names.is_empty() {
            out.push_str(&format!(
                "- Always include these properties: {}.\n",
                names.join(", ")
            ));
        }
    }
    if raw.get("additionalProperties") == Some(&Value::Bool(false)) {
        out.push_str("- Do not add properties the schema does not list.\n");
    }
    out.push_str("JSON Schema:\n");
    // Compact: a pretty-printed schema costs the model several times the tokens.
    out.push_str(&raw.to_string());
    out.push('\n');
    out
}
