//! `jsonheal args`: normalise a tool call's arguments into a JSON object, one call or a JSON
//! Lines batch.

use std::collections::HashMap;
use std::io::{self, Write};
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use anyhow::{bail, Context};
use jsonheal::args::{normalize_with, Normalized, ToolMap};
use jsonheal::quotes::QuoteMode;
use serde::Deserialize;
use serde_json::Value;

use crate::io::{read_all, read_file};

#[derive(clap::Args)]
pub struct ArgsArgs {
    /// The tool the arguments are for (with --jsonl: the default for lines without "tool").
    #[arg(long, value_name = "NAME")]
    tool: Option<String>,
    /// Input file (stdin when absent or `-`).
    file: Option<PathBuf>,
    /// Print the strategy and every repair to stderr.
    #[arg(long, conflicts_with = "jsonl")]
    explain: bool,
    /// Add tool → field mappings from a TOML (`[tools]` `name = "field"`) or JSON file.
    #[arg(long, value_name = "FILE")]
    map: Option<PathBuf>,
    /// The tool's parameters JSON Schema; an OpenAI or Anthropic tool definition, or a list
    /// of them (then each tool gets its own), is accepted too.
    #[arg(long, value_name = "FILE")]
    schema: Option<PathBuf>,
    /// When typographic quotes inside string values are folded: `code` (when a path-like
    /// argument names a code file), `always` or `never`.
    #[arg(long, value_name = "MODE", default_value = "code", value_parser = parse_quote_mode)]
    quotes: QuoteMode,
    /// Batch mode: input lines `{"id", "input", "tool"}`, output lines
    /// `{"id", "ok", "value" | "error", "strategy", "truncated", "repairs"}`, in input order.
    #[arg(long)]
    jsonl: bool,
}

fn parse_quote_mode(s: &str) -> Result<QuoteMode, String> {
    s.parse()
}

/// The exit status of one call whose arguments were cut off (1 is "no object", 2 a usage or
/// I/O error).
pub const EXIT_TRUNCATED: u8 = 3;

pub fn run(args: ArgsArgs) -> anyhow::Result<ExitCode> {
    let mut map = ToolMap::builtin();
    if let Some(path) = &args.map {
        map.extend(load_map(path)?);
    }
    let schemas = match &args.schema {
        Some(path) => Schemas::load(path)?,
        None => Schemas::default(),
    };
    if args.jsonl {
        let ctx = Batch {
            map: &map,
            schemas: &schemas,
            default_tool: args.tool.as_deref(),
            quotes: args.quotes,
        };
        return run_jsonl(&ctx, args.file.as_deref());
    }
    let Some(tool) = args.tool.as_deref() else {
        bail!("--tool NAME is required (or use --jsonl with a \"tool\" on each line)");
    };
    let parameters = schemas.for_tool(tool, Some(tool));
    if parameters.is_none() && !schemas.by_tool.is_empty() {
        let mut names: Vec<&str> = schemas.by_tool.keys().map(String::as_str).collect();
        names.sort_unstable();
        bail!(
            "the schema file defines no tool {tool:?} (it has: {})",
            names.join(", ")
        );
    }
    let raw = read_all(args.file.as_deref())?;
    match normalize_with(tool, &raw, &map, parameters, args.quotes) {
        Ok(n) => {
            if args.explain {
                explain(&n, &raw);
            }
            let mut out = io::stdout().lock();
            writeln!(out, "{}", n.to_json_string())?;
            out.flush()?;
            if n.truncated {
                // The object is what the text had, completed: usable to inspect, never to
                // run as if the model had finished the call.
                eprintln!(
                    "jsonheal: warning: the arguments were cut off before they were complete; \
                     the object above was completed from what was there"
                );
                return Ok(ExitCode::from(EXIT_TRUNCATED));
            }
            Ok(ExitCode::SUCCESS)
        }
        Err(e) => {
            eprintln!("jsonheal: {e}");
            Ok(ExitCode::from(1))
        }
    }
}

fn explain(n: &Normalized, raw: &str) {
    eprintln!("strategy: {}", n.strategy);
    for r in &n.repairs {
        let pos = jsonheal::Position::of(raw, r.span().start);
        eprintln!(
            "{}:{} {}: {}",
            pos.line,
            pos.column,
            r.kind(),
            r.kind().describe()
        );
    }
    if n.quotes_folded > 0 {
        eprintln!("folded typographic quotes in {} string(s)", n.quotes_folded);
    }
}

fn load_map(path: &Path) -> anyhow::Result<ToolMap> {
    let text = read_file(&path.to_path_buf())?;
    let is_json = match path.extension().and_then(|e| e.to_str()) {
        Some("json") => true,
        Some("toml") => false,
        _ => text.trim_start().starts_with('{'),
    };
    let map = if is_json {
        ToolMap::from_json_str(&text)
    } else {
        ToolMap::from_toml_str(&text)
    };
    map.with_context(|| format!("in {}", path.display()))
}

/// Schemas from `--schema`: one parameters schema, or one per tool from tool definitions.
#[derive(Default)]
struct Schemas {
    single: Option<Value>,
    by_tool: HashMap<String, Value>,
}

impl Schemas {
    fn load(path: &Path) -> anyhow::Result<Schemas> {
        let text = read_file(&path.to_path_buf())?;
        let value: Value = serde_json::from_str(&text)
            .with_context(|| format!("{} is not valid JSON", path.display()))?;
        let mut schemas = Schemas::default();
        let defs = match &value {
            Value::Array(items) => Some(items.as_slice()),
            Value::Object(o) => o.get("tools").and_then(Value::as_array).map(Vec::as_slice),
            _ => None,
        };
        match defs {
            Some(defs) => {
                for def in defs {
                    let (name, params) = tool_definition(def).with_context(|| {
                        format!("{}: a tool definition without a name", path.display())
                    })?;
                    schemas.by_tool.insert(name, params);
                }
            }
            None => match tool_definition(&value) {
                Some((name, params)) => {
                    schemas.by_tool.insert(name, params);
                }
                None if value.is_object() => schemas.single = Some(value),
                None => bail!("{}: a schema must be a JSON object", path.display()),
            },
        }
        Ok(schemas)
    }

    /// The schema for `tool`: its own definition, else the single schema when it is for the
    /// `--tool` (or no `--tool` was given).
    fn for_tool(&self, tool: &str, default_tool: Option<&str>) -> Option<&Value> {
        self.by_tool.get(tool).or_else(|| match default_tool {
            Some(t) if t != tool => None,
            _ => self.single.as_ref(),
        })
    }
}

/// `(name, parameters)` of an OpenAI (`{"type":"function","function":{…}}` or flat
/// `{"name","parameters"}`) or Anthropic (`{"name","input_schema"}`) tool definition.
fn tool_definition(def: &Value) -> Option<(String, Value)> {
    let def = def.get("function").unwrap_or(def);
    let name = def.get("name")?.as_str()?.to_owned();
    let params = def
        .get("parameters")
        .or_else(|| def.get("input_schema"))
        .cloned()
        .unwrap_or(Value::Null);
    Some((name, params))
}

struct Batch<'a> {
    map: &'a ToolMap,
    schemas: &'a Schemas,
    default_tool: Option<&'a str>,
    quotes: QuoteMode,
}

#[derive(Deserialize)]
struct Line<'a> {
    #[serde(default)]
    id: Value,
    input: Option<Value>,
    #[serde(borrow, default)]
    tool: Option<std::borrow::Cow<'a, str>>,
    #[serde(default)]
    parameters: Option<Value>,
}

/// `--jsonl`: one record a line, in input order; a line that fails does not fail the batch.
fn run_jsonl(ctx: &Batch<'_>, path: Option<&Path>) -> anyhow::Result<ExitCode> {
    crate::batch::run(
        path,
        || (),
        |(), line, line_no, out| process_line(ctx, line.trim(), line_no, out),
    )?;
    Ok(ExitCode::SUCCESS)
}

fn process_line(ctx: &Batch<'_>, text: &str, line_no: usize, out: &mut Vec<u8>) -> bool {
    let line: Line<'_> = match serde_json::from_str(text) {
        Ok(line) => line,
        Err(e) => {
            return write_error(
                out,
                &Value::Null,
                &format!("line {line_no}: not a JSON object: {e}"),
            )
        }
    };
    let Some(tool) = line.tool.as_deref().or(ctx.default_tool) else {
        return write_error(
            out,
            &line.id,
            &format!("line {line_no}: no \"tool\" (and no --tool)"),
        );
    };
    let raw_owned;
    let raw: &str = match &line.input {
        None => return write_error(out, &line.id, &format!("line {line_no}: no \"input\"")),
        Some(Value::String(s)) => s,
        Some(other) => {
            raw_owned = other.to_string();
            &raw_owned
        }
    };
    let parameters = line
        .parameters
        .as_ref()
        .or_else(|| ctx.schemas.for_tool(tool, ctx.default_tool));
    match normalize_with(tool, raw, ctx.map, parameters, ctx.quotes) {
        Ok(n) => write_ok(out, &line.id, &n),
        Err(e) => write_error(out, &line.id, &e.to_string()),
    }
}

/// Writes a success record; true, for the batch's count.
fn write_ok(out: &mut Vec<u8>, id: &Value, n: &Normalized) -> bool {
    out.extend_from_slice(b"{\"id\":");
    write_json(out, id);
    out.extend_from_slice(b",\"ok\":true,\"value\":");
    write_json(out, &n.value);
    out.extend_from_slice(b",\"strategy\":\"");
    out.extend_from_slice(n.strategy.name().as_bytes());
    out.extend_from_slice(b"\",\"truncated\":");
    out.extend_from_slice(if n.truncated { b"true" } else { b"false" });
    out.extend_from_slice(b",\"repairs\":[");
    for (i, r) in n.repairs.iter().enumerate() {
        if i > 0 {
            out.push(b',');
        }
        // Names are fixed snake_case ASCII; offsets are numbers: no escaping needed.
        let item = format!(
            "{{\"kind\":\"{}\",\"start\":{},\"end\":{}}}",
            r.kind().name(),
            r.span().start,
            r.span().end
        );
        out.extend_from_slice(item.as_bytes());
    }
    out.extend_from_slice(b"]}");
    true
}

/// Writes a failure record; false, for the batch's count.
fn write_error(out: &mut Vec<u8>, id: &Value, message: &str) -> bool {
    out.extend_from_slice(b"{\"id\":");
    write_json(out, id);
    out.extend_from_slice(b",\"ok\":false,\"error\":");
    write_json(out, message);
    out.extend_from_slice(b",\"strategy\":null,\"truncated\":false,\"repairs\":[]}");
    false
}

fn write_json<T: serde::Serialize + ?Sized>(out: &mut Vec<u8>, value: &T) {
    // Writing JSON values and strings into a Vec cannot fail.
    if serde_json::to_writer(&mut *out, value).is_err() {
        out.extend_from_slice(b"null");
    }
}
