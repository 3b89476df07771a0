//! The text that tells a model without native structured output how to answer.

use serde_json::Value;

use super::compact;
use super::validate::describe_schema;
use super::Schema;

/// How [`instructions_with`] writes the instructions.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct InstructionOptions {
    /// The most tokens the whole text should take, estimated as one token per
    /// [`CHARS_PER_TOKEN`] characters (JSON Schema text tokenizes densely). A schema larger
    /// than that is rendered compactly: examples and long descriptions go first, then
    /// `$defs` used once are inlined, then every annotation goes. Constraints are never
    /// dropped, so a schema whose constraints alone exceed the budget still comes whole.
    pub budget_tokens: usize,
}

/// Characters per token in the budget's estimate.
pub const CHARS_PER_TOKEN: usize = 3;

impl InstructionOptions {
    /// The default budget, in tokens.
    pub const DEFAULT_BUDGET_TOKENS: usize = 4000;

    /// The budget in characters.
    pub fn budget_chars(&self) -> usize {
        self.budget_tokens.saturating_mul(CHARS_PER_TOKEN)
    }
}

impl Default for InstructionOptions {
    fn default() -> InstructionOptions {
        InstructionOptions {
            budget_tokens: InstructionOptions::DEFAULT_BUDGET_TOKENS,
        }
    }
}

/// [`instructions_with`] the default budget.
pub fn instructions(schema: &Schema) -> String {
    instructions_with(schema, &InstructionOptions::default())
}

/// The system-message text for a model that has no native structured output: the output
/// rules, the top-level required properties in a line, and the schema itself, compact
/// enough to fit `opts.budget_tokens` when its constraints do. The text is kept with the
/// schema: asking again with the same options costs a copy.
pub fn instructions_with(schema: &Schema, opts: &InstructionOptions) -> String {
    schema
        .memo_instructions(opts, || write(schema, opts))
        .to_string()
}

fn write(schema: &Schema, opts: &InstructionOptions) -> String {
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
    let room = opts.budget_chars().saturating_sub(out.chars().count() + 1);
    out.push_str(&compact::render(raw, room));
    out.push('\n');
    out
}
