//! Reading a chat completion request: validation, routing, and the decision whether (and
//! how) to heal. Pure: no I/O, so every rule here is unit-tested.

use std::collections::HashMap;
use std::sync::Arc;

use serde_json::{json, Map, Value};

use crate::config::{Config, Provider};
use crate::error::ApiError;
use crate::healing::{CompiledSchema, SchemaCache};
use crate::store::Account;

/// The largest `max_attempts` a request may ask for.
pub const MAX_ATTEMPTS_LIMIT: u64 = 10;
/// The `response_format.json_schema.name` the gateway gives a schema that has none.
pub const SCHEMA_NAME: &str = "response";
/// The OpenRouter plugin id that turns healing on.
pub const HEALING_PLUGIN: &str = "response-healing";

/// What healing a request asked for.
pub struct Healing {
    pub schema: Arc<CompiledSchema>,
    pub max_attempts: u32,
    /// Where the schema came from, for messages (`response_schema`, …).
    pub source: &'static str,
}

/// A tool the request declared.
pub struct Tool {
    pub parameters: Option<Value>,
    /// The compiled `parameters`: arguments are coerced to it, and checked when healing.
    pub schema: Option<Arc<CompiledSchema>>,
}

/// A validated request, ready to forward.
pub struct ChatRequest {
    /// The body to send upstream (model rewritten, gateway-only fields removed; when
    /// healing, instructions added and `stream` off).
    pub upstream_body: Map<String, Value>,
    /// The model as the client wrote it.
    pub model: String,
    pub provider: Provider,
    pub stream: bool,
    pub include_usage: bool,
    pub healing: Option<Healing>,
    pub tools: Arc<HashMap<String, Tool>>,
}

fn bad(message: impl Into<String>, param: &str) -> ApiError {
    ApiError::invalid(message, Some(param))
}

/// Check `body` and decide how to serve it.
pub fn prepare(
    body: Value,
    account: &Account,
    config: &Config,
    schemas: &SchemaCache,
) -> Result<ChatRequest, ApiError> {
    let Value::Object(mut body) = body else {
        return Err(ApiError::invalid(
            "the request body must be a JSON object",
            None,
        ));
    };
    let model = match body.get("model") {
        None | Some(Value::Null) => {
            return Err(bad("you must provide a model parameter", "model"));
        }
        Some(Value::String(m)) if !m.is_empty() => m.clone(),
        Some(_) => return Err(bad("'model' must be a non-empty string", "model")),
    };
    let (provider, upstream_model) = config.route(&model).map_err(|why| bad(why, "model"))?;
    let provider = provider.clone();
    body.insert("model".to_owned(), Value::String(upstream_model.to_owned()));

    if let Some(prompt) = body.remove("prompt") {
        let Value::String(prompt) = prompt else {
            return Err(bad("'prompt' must be a string", "prompt"));
        };
        if body.contains_key("messages") {
            return Err(bad(
                "give either 'prompt' or 'messages', not both",
                "prompt",
            ));
        }
        body.insert(
            "messages".to_owned(),
            json!([{"role": "user", "content": prompt}]),
        );
    }
    match body.get("messages") {
        None | Some(Value::Null) => {
            return Err(bad("missing required parameter: 'messages'", "messages"));
        }
        Some(Value::Array(m)) if !m.is_empty() => {
            if let Some(i) = m.iter().position(|msg| !msg.is_object()) {
                return Err(bad(
                    format!("'messages[{i}]' must be an object"),
                    &format!("messages[{i}]"),
                ));
            }
        }
        Some(_) => return Err(bad("'messages' must be a non-empty array", "messages")),
    }

    let stream = match body.get("stream") {
        None | Some(Value::Null) => false,
        Some(Value::Bool(b)) => *b,
        Some(_) => return Err(bad("'stream' must be a boolean", "stream")),
    };
    let include_usage = body
        .get("stream_options")
        .and_then(|o| o.get("include_usage"))
        .and_then(Value::as_bool)
        .unwrap_or(false);

    // --- when healing runs ---
    let response_schema = body.remove("response_schema");
    let top_options = body.remove("healing_options");
    let mut max_attempts: Option<u32> = None;
    if let Some(opts) = &top_options {
        max_attempts = read_max_attempts(opts, "healing_options.max_attempts")?;
    }
    let format_type = body
        .get("response_format")
        .and_then(|f| f.get("type"))
        .and_then(Value::as_str)
        .map(str::to_owned);
    let mut format_schema: Option<Value> = None;
    let mut format_has_options = false;
    if format_type.as_deref() == Some("json_schema") {
        let js = body
            .get_mut("response_format")
            .and_then(|f| f.get_mut("json_schema"))
            .and_then(Value::as_object_mut)
            .ok_or_else(|| {
                bad(
                    "'response_format.json_schema' must be an object",
                    "response_format.json_schema",
                )
            })?;
        // OpenAI refuses a `json_schema` without a name; clients often leave it out.
        if js.get("name").is_none_or(Value::is_null) {
            js.insert("name".to_owned(), Value::String(SCHEMA_NAME.to_owned()));
        }
        if let Some(opts) = js.remove("healing_options") {
            format_has_options = true;
            let n = read_max_attempts(
                &opts,
                "response_format.json_schema.healing_options.max_attempts",
            )?;
            max_attempts = n.or(max_attempts);
        }
        format_schema = js.get("schema").cloned();
    }
    let plugin = take_healing_plugin(&mut body)?;

    let wants_healing = response_schema.is_some()
        || top_options.is_some()
        || format_has_options
        || (account.auto_heal && format_type.as_deref() == Some("json_schema"))
        || (plugin
            && matches!(
                format_type.as_deref(),
                Some("json_schema") | Some("json_object")
            ));

    let tools = Arc::new(read_tools(&body, schemas)?);

    let healing = if wants_healing {
        let (schema_value, source) = match (response_schema, format_schema) {
            (Some(s), _) => (s, "response_schema"),
            (None, Some(s)) => (s, "response_format.json_schema.schema"),
            (None, None) if format_type.as_deref() == Some("json_schema") => {
                return Err(bad(
                    "'response_format.json_schema.schema' is required for healing",
                    "response_format.json_schema.schema",
                ))
            }
            // `json_object` (plugin) or healing options without a schema: any object.
            (None, None) => (json!({"type": "object"}), "response_format"),
        };
        let schema = schemas.get_or_compile(&schema_value).map_err(|why| {
            bad(
                format!("'{source}' is not a valid JSON Schema: {why}"),
                source,
            )
        })?;
        if let Some(n) = body.get("n") {
            if n.as_u64() != Some(1) && !n.is_null() {
                return Err(bad("'n' must be 1 when the response is healed", "n"));
            }
        }
        Some(Healing {
            schema,
            max_attempts: max_attempts.unwrap_or(account.max_attempts),
            source,
        })
    } else {
        None
    };

    if let Some(h) = &healing {
        shape_for_healing(&mut body, h, &provider, format_type.as_deref());
    }

    Ok(ChatRequest {
        upstream_body: body,
        model,
        provider,
        stream,
        include_usage,
        healing,
        tools,
    })
}

fn read_max_attempts(opts: &Value, param: &str) -> Result<Option<u32>, ApiError> {
    let Some(opts) = opts.as_object() else {
        let parent = param.rsplit_once('.').map_or(param, |(p, _)| p);
        return Err(bad(format!("'{parent}' must be an object"), parent));
    };
    match opts.get("max_attempts") {
        None | Some(Value::Null) => Ok(None),
        Some(v) => match v.as_u64() {
            Some(n) if (1..=MAX_ATTEMPTS_LIMIT).contains(&n) => Ok(Some(n as u32)),
            _ => Err(bad(
                format!(
                    "'max_attempts' must be an integer from 1 to {MAX_ATTEMPTS_LIMIT}, not {v}"
                ),
                param,
            )),
        },
    }
}

/// Remove `{"id": "response-healing"}` from `plugins` (no provider but OpenRouter knows it);
/// whether it was there.
fn take_healing_plugin(body: &mut Map<String, Value>) -> Result<bool, ApiError> {
    let Some(plugins) = body.get_mut("plugins") else {
        return Ok(false);
    };
    let Some(list) = plugins.as_array_mut() else {
        return Err(bad("'plugins' must be an array", "plugins"));
    };
    let before = list.len();
    list.retain(|p| p.get("id").and_then(Value::as_str) != Some(HEALING_PLUGIN));
    let found = list.len() != before;
    if list.is_empty() {
        body.remove("plugins");
    }
    Ok(found)
}

fn read_tools(
    body: &Map<String, Value>,
    schemas: &SchemaCache,
) -> Result<HashMap<String, Tool>, ApiError> {
    let mut tools = HashMap::new();
    let Some(list) = body.get("tools") else {
        return Ok(tools);
    };
    let Some(list) = list.as_array() else {
        return Err(bad("'tools' must be an array", "tools"));
    };
    for (i, t) in list.iter().enumerate() {
        let Some(f) = t.get("function") else { continue };
        let Some(name) = f.get("name").and_then(Value::as_str) else {
            return Err(bad(
                format!("'tools[{i}].function.name' must be a string"),
                &format!("tools[{i}].function.name"),
            ));
        };
        let parameters = f.get("parameters").cloned();
        // A schema the validator cannot compile only loses the argument check; the
        // upstream decides whether the tool itself is acceptable.
        let schema = parameters
            .as_ref()
            .and_then(|p| schemas.get_or_compile(p).ok());
        tools.insert(name.to_owned(), Tool { parameters, schema });
    }
    Ok(tools)
}

/// Add the instructions, choose the native `response_format`, and turn streaming off: the
/// attempts run as plain calls and the gateway streams the validated answer itself.
fn shape_for_healing(
    body: &mut Map<String, Value>,
    healing: &Healing,
    provider: &Provider,
    format_type: Option<&str>,
) {
    if let Some(Value::Array(messages)) = body.get_mut("messages") {
        messages.insert(
            0,
            json!({"role": "system", "content": healing.schema.instructions()}),
        );
    }
    if provider.native_json_schema {
        if format_type.is_none() {
            body.insert(
                "response_format".to_owned(),
                json!({"type": "json_schema", "json_schema": {
                    "name": SCHEMA_NAME, "schema": healing.schema.raw()}}),
            );
        }
    } else if format_type == Some("json_schema") {
        body.remove("response_format");
    }
    body.insert("stream".to_owned(), Value::Bool(false));
    body.remove("stream_options");
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;

    fn account(auto_heal: bool) -> Account {
        Account {
            id: 1,
            name: "a".into(),
            auto_heal,
            max_attempts: 3,
            rpm: None,
            tokens_per_day: None,
            key_prefix: None,
            created_at: 0,
        }
    }

    fn config() -> Config {
        Config::with_upstream("http://up.test/v1")
    }

    fn prep(body: Value) -> Result<ChatRequest, ApiError> {
        prepare(body, &account(false), &config(), &SchemaCache::default())
    }

    fn param_of(e: ApiError) -> (u16, Option<String>, String) {
        let obj = e.error_object(None);
        (
            e.status().as_u16(),
            obj["param"].as_str().map(str::to_owned),
            obj["message"].as_str().unwrap_or_default().to_owned(),
        )
    }

    #[test]
    fn healing_triggers() {
        let schema = json!({"type": "object"});
        let msgs = json!([{"role": "user", "content": "hi"}]);
        let cases = [
            (
                json!({"model": "m", "messages": msgs, "response_schema": schema}),
                false,
                true,
            ),
            (
                json!({"model": "m", "messages": msgs, "response_format": {"type": "json_schema",
                    "json_schema": {"name": "x", "schema": schema, "healing_options": {"max_attempts": 2}}}}),
                false,
                true,
            ),
            (
                json!({"model": "m", "messages": msgs, "response_format": {"type": "json_schema",
                    "json_schema": {"name": "x", "schema": schema}}}),
                false,
                false,
            ),
            (
                json!({"model": "m", "messages": msgs, "response_format": {"type": "json_schema",
                    "json_schema": {"name": "x", "schema": schema}}}),
                true,
                true,
            ),
            (
                json!({"model": "m", "messages": msgs, "plugins": [{"id": "response-healing"}],
                    "response_format": {"type": "json_object"}}),
                false,
                true,
            ),
            (
                json!({"model": "m", "messages": msgs, "plugins": [{"id": "response-healing"}]}),
                false,
                false,
            ),
            (json!({"model": "m", "messages": msgs}), true, false),
        ];
        for (i, (body, auto, heals)) in cases.into_iter().enumerate() {
            let r =
                prepare(body, &account(auto), &config(), &SchemaCache::default()).expect("valid");
            assert_eq!(r.healing.is_some(), heals, "case {i}");
            let up = Value::Object(r.upstream_body);
            assert!(up.get("response_schema").is_none(), "case {i}");
            assert!(up.get("plugins").is_none(), "case {i}");
            assert!(
                up.pointer("/response_format/json_schema/healing_options")
                    .is_none(),
                "case {i}"
            );
            if heals {
                assert_eq!(up["messages"][0]["role"], "system", "case {i}");
                assert_eq!(up["stream"], false);
            }
        }
    }

    #[test]
    fn max_attempts_is_checked() {
        for bad_n in [json!(0), json!(11), json!(2.5), json!("3"), json!(-1)] {
            let e = prep(json!({"model": "m", "prompt": "x", "response_format": {
                "type": "json_schema", "json_schema": {"schema": {}, "healing_options": {"max_attempts": bad_n}}}}))
            .err()
            .expect("rejected");
            let (status, param, msg) = param_of(e);
            assert_eq!(status, 400);
            assert_eq!(
                param.as_deref(),
                Some("response_format.json_schema.healing_options.max_attempts")
            );
            assert!(msg.contains("max_attempts"), "{msg}");
        }
        let r = prep(json!({"model": "m", "prompt": "x", "response_schema": {}, "healing_options": {"max_attempts": 10}}))
            .expect("valid");
        assert_eq!(r.healing.map(|h| h.max_attempts), Some(10));
        let r = prep(json!({"model": "m", "prompt": "x", "response_schema": {}})).expect("valid");
        assert_eq!(r.healing.map(|h| h.max_attempts), Some(3));
    }

    #[test]
    fn bad_requests_name_the_problem() {
        let cases = [
            (json!([1]), None, "JSON object"),
            (json!({"messages": []}), Some("model"), "model"),
            (json!({"model": "m"}), Some("messages"), "messages"),
            (
                json!({"model": "m", "messages": []}),
                Some("messages"),
                "non-empty",
            ),
            (
                json!({"model": "m", "messages": [1]}),
                Some("messages[0]"),
                "object",
            ),
            (json!({"model": "m", "prompt": 1}), Some("prompt"), "string"),
            (
                json!({"model": "m", "prompt": "x", "response_schema": {"type": "nope"}}),
                Some("response_schema"),
                "not a valid JSON Schema",
            ),
            (
                json!({"model": "m", "prompt": "x", "response_schema": 3}),
                Some("response_schema"),
                "JSON Schema",
            ),
            (
                json!({"model": "@nope/x", "prompt": "x"}),
                Some("model"),
                "unknown provider",
            ),
            (
                json!({"model": "m", "prompt": "x", "stream": "yes"}),
                Some("stream"),
                "boolean",
            ),
            (
                json!({"model": "m", "prompt": "x", "response_schema": {}, "n": 2}),
                Some("n"),
                "'n'",
            ),
        ];
        for (body, want_param, want_msg) in cases {
            let e = prep(body.clone())
                .err()
                .unwrap_or_else(|| panic!("{body} accepted"));
            let (status, param, msg) = param_of(e);
            assert_eq!(status, 400, "{body}");
            assert_eq!(param.as_deref(), want_param, "{body}");
            assert!(msg.contains(want_msg), "{body}: {msg}");
        }
    }

    #[test]
    fn prompt_routing_and_native_format() {
        let mut cfg = config();
        cfg.providers[0].native_json_schema = true;
        let r = prepare(
            json!({"model": "@upstream/llama", "prompt": "hi", "response_schema": {"type": "object"}}),
            &account(false),
            &cfg,
            &SchemaCache::default(),
        )
        .expect("valid");
        let up = Value::Object(r.upstream_body);
        assert_eq!(up["model"], "llama");
        assert_eq!(r.model, "@upstream/llama");
        assert_eq!(up["messages"][1], json!({"role": "user", "content": "hi"}));
        assert_eq!(up["response_format"]["type"], "json_schema");
        assert_eq!(
            up["response_format"]["json_schema"]["schema"],
            json!({"type": "object"})
        );

        // Not native: the json_schema format is not forwarded, the instructions carry it.
        let r = prep(
            json!({"model": "m", "prompt": "hi", "response_format": {"type": "json_schema",
            "json_schema": {"schema": {}, "healing_options": {}}}}),
        )
        .expect("valid");
        assert!(r.upstream_body.get("response_format").is_none());
    }
}
