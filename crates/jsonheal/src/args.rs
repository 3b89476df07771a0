//! Tool-call arguments: whatever a model sent as a tool's arguments, the object the tool
//! expects.
//!
//! ```
//! use jsonheal::args::{normalize, ArgsOptions, Strategy};
//! let opts = ArgsOptions::default();
//! let n = normalize("read_file", "main.go", &opts)?;
//! assert_eq!(n.to_json_string(), r#"{"file":"main.go"}"#);
//! assert_eq!(n.strategy, Strategy::PlainWrap);
//! # Ok::<(), jsonheal::Error>(())
//! ```
//!
//! The decisions, in order (first match wins):
//!
//! 1. empty, whitespace, `null`, `[]`, `{}` (also as a JSON string) → `{}` ([`Strategy::Empty`]);
//! 2. text starting with `{` → the repair engine; it must give an object. The strategy is
//!    named from the repair log ([`Strategy::Valid`], [`Strategy::SingleQuotes`],
//!    [`Strategy::UnquotedKeys`], [`Strategy::QuotesAndKeys`], [`Strategy::TrailingCommas`],
//!    [`Strategy::ObjectLiteral`] when a bare value was quoted, else [`Strategy::Repaired`]);
//! 3. text starting with `[` → the engine; an empty list is `{}`; another list is an error
//!    unless the tool's primary field has schema type `array`;
//! 4. a JSON string holding an object (or a list) → unwrapped once ([`Strategy::Unwrapped`]);
//!    any other JSON string is unquoted and goes on as plain text;
//! 5. a fenced block (```` ```json ````) → the engine strips the fence; a fenced command for
//!    a command tool, or a fence with no JSON inside, is plain text without its fence;
//! 6. text that starts like an object member (`"file": "a.go"`, `file: a.go` when `file` is a
//!    known field) → the engine, which inserts the missing braces;
//! 7. command tools (primary field `cmd` or `command`): the whole text is the command,
//!    `--flags` included ([`Strategy::PlainWrap`]);
//! 8. CLI text (`read --file main.go`, `--flag`, `-n 5`) → [`Strategy::CliArgs`];
//! 9. any other plain value → wrapped into the tool's primary field ([`Strategy::PlainWrap`]);
//! 10. no primary field → [`ErrorKind::NotAnObject`].
//!
//! Command tools are also protected from the engine: `{ echo a; }` or `[ -f x ] && make` is a
//! shell command, not a broken object, so when the engine would have to invent a colon, a
//! value or drop text to make an object of it, and the object has none of the tool's fields,
//! the text is taken as the command.
//!
//! ## The primary field
//!
//! When the tool's JSON Schema is given ([`ArgsOptions::parameters`]), the primary field is
//! derived from it ([`primary_field_from_schema`]) and wins over the map; a map field the
//! schema does not list is not used. Otherwise the [`ToolMap`] decides; its built-in entries:
//!
//! | tools | field | why |
//! |---|---|---|
//! | `read_file`, `write_file`, `edit_file`, `create_file`, `delete_file` | `file` | generic file tools |
//! | `read`, `write` | `file` | subcommand-style tools |
//! | `list_directory`, `run_tests`, `tree` | `dir` | a directory |
//! | `search_files`, `search` | `term` | a search term |
//! | `run_command`, `exec` | `cmd` | a command line |
//! | `bash`, `shell`, `Bash`, `terminal`, `run_terminal_cmd`, `run_shell_command`, `execute_command`, `execute_bash` | `command` | shell tools (Claude Code, Cursor, Gemini CLI, Cline) |
//! | `Read`, `Write`, `Edit`, `MultiEdit` | `file_path` | Claude Code file tools |
//! | `Glob`, `Grep`, `glob`, `grep` | `pattern` | file-name and content search |
//! | `LS`, `ls`, `list_dir` | `path` | directory listing |
//! | `WebSearch`, `web_search`, `search_web`, `google_search`, `brave_web_search`, `tavily_search`, `duckduckgo_search`, `internet_search`, `wikipedia`, `wikipedia_search`, `arxiv_search` | `query` | search engines |
//! | `WebFetch`, `fetch`, `web_fetch`, `fetch_url`, `open_url`, `browse` | `url` | page fetchers |
//! | `python`, `run_python`, `execute_python`, `execute_code`, `code_interpreter` | `code` | code runners |
//! | `sql`, `query_db`, `run_sql`, `execute_sql` | `query` | database tools |
//! | `calculator`, `calculate` | `expression` | calculators |
//! | `get_weather` | `location` | the classic example tool |
//! | `think` | `thought` | the "think" scratchpad tool |
//!
//! Deliberately absent: tools whose plain value is ambiguous (`send_email`: recipient,
//! subject or body?). A name not found is retried without a namespace prefix
//! (`functions.read_file`, `mcp__fs__read_file` → `read_file`).
//!
//! ## Quotes inside values
//!
//! Typographic quotes used as delimiters are always repaired. Inside string values they are
//! folded ([`crate::quotes::normalize`]) as [`QuoteMode`] says: by default only when a
//! path-like argument (a key containing `file` or `path`, or `target`, `dest`, `source`,
//! `src`) names a code file ([`crate::quotes::is_code_path`]).

use std::borrow::Cow;
use std::collections::HashMap;
use std::fmt;

use serde::Serialize;
use serde_json::{Map, Value};

use crate::quotes::{self, QuoteMode};
use crate::text::fence_marker;
use crate::{Error, ErrorKind, Repair, RepairKind};

/// How [`normalize`] works for one tool.
#[derive(Debug, Clone, PartialEq)]
pub struct ArgsOptions {
    /// Tool name → primary field.
    pub map: ToolMap,
    /// The tool's JSON Schema (the `parameters` of an OpenAI tool definition), if known.
    pub parameters: Option<Value>,
    /// When typographic quotes inside string values are folded.
    pub quotes: QuoteMode,
}

impl Default for ArgsOptions {
    /// The built-in map, no schema, [`QuoteMode::Code`].
    fn default() -> ArgsOptions {
        ArgsOptions {
            map: ToolMap::builtin(),
            parameters: None,
            quotes: QuoteMode::Code,
        }
    }
}

/// Which recovery produced the object; what callers and logs see.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Strategy {
    /// Valid JSON, returned as is.
    Valid,
    /// Single-quoted strings became JSON strings (`{'cmd':'read'}`).
    SingleQuotes,
    /// Bare keys were quoted (`{cmd: "read"}`).
    UnquotedKeys,
    /// Both of the above (`{cmd: 'read'}`).
    QuotesAndKeys,
    /// Trailing commas were removed.
    TrailingCommas,
    /// A plain value was wrapped into the tool's primary field.
    PlainWrap,
    /// An object literal with bare values (`{cmd: read, n: 3}`), values typed.
    ObjectLiteral,
    /// CLI-style text (`read --file main.go`).
    CliArgs,
    /// Anything else the repair engine fixed (see the repair log).
    Repaired,
    /// A double-encoded object (a JSON string holding one) was unwrapped once.
    Unwrapped,
    /// Empty input, `null`, `[]` or `{}`: the empty object.
    Empty,
}

impl Strategy {
    /// Every strategy, in the order of the docs.
    pub const ALL: [Strategy; 11] = [
        Strategy::Valid,
        Strategy::SingleQuotes,
        Strategy::UnquotedKeys,
        Strategy::QuotesAndKeys,
        Strategy::TrailingCommas,
        Strategy::PlainWrap,
        Strategy::ObjectLiteral,
        Strategy::CliArgs,
        Strategy::Repaired,
        Strategy::Unwrapped,
        Strategy::Empty,
    ];

    /// The snake_case name, stable for logs and JSON (`plain_wrap`).
    pub fn name(self) -> &'static str {
        match self {
            Strategy::Valid => "valid",
            Strategy::SingleQuotes => "single_quotes",
            Strategy::UnquotedKeys => "unquoted_keys",
            Strategy::QuotesAndKeys => "quotes_and_keys",
            Strategy::TrailingCommas => "trailing_commas",
            Strategy::PlainWrap => "plain_wrap",
            Strategy::ObjectLiteral => "object_literal",
            Strategy::CliArgs => "cli_args",
            Strategy::Repaired => "repaired",
            Strategy::Unwrapped => "unwrapped",
            Strategy::Empty => "empty",
        }
    }

    /// The strategy with this [`name`](Strategy::name).
    pub fn from_name(name: &str) -> Option<Strategy> {
        Strategy::ALL.into_iter().find(|s| s.name() == name)
    }
}

impl fmt::Display for Strategy {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// Normalised arguments: always an object.
#[derive(Debug, Clone, PartialEq)]
pub struct Normalized {
    /// The arguments object.
    pub value: Map<String, Value>,
    /// Which recovery produced it.
    pub strategy: Strategy,
    /// The engine's repairs, spans in bytes of the raw input. For an unwrapped double-encoded
    /// object, the inner repairs carry the span of the whole outer string (the inner text
    /// had escapes, so exact offsets would not point at the raw input).
    pub repairs: Vec<Repair>,
    /// How many string values had typographic quotes folded (see [`QuoteMode`]).
    pub quotes_folded: usize,
    /// Whether the input was cut short (a `truncated` repair): the object holds what the
    /// text had, completed, so callers that need whole arguments must not take it as
    /// complete.
    pub truncated: bool,
}

impl Normalized {
    /// The object as compact JSON (key order kept, number text exact).
    pub fn to_json_string(&self) -> String {
        // A map of `Value`s always serialises: keys are strings, numbers are valid.
        serde_json::to_string(&self.value).unwrap_or_else(|_| String::from("{}"))
    }

    /// Whether the input was cut short and completed; callers that need whole arguments
    /// refuse these.
    pub fn is_truncated(&self) -> bool {
        self.truncated
    }
}

/// Normalise `raw`, the arguments a model sent for `tool`, into a JSON object.
///
/// Errors: [`ErrorKind::NotAnObject`] when no honest object exists (a list, or a plain value
/// for a tool without a primary field); [`ErrorKind::TooDeep`] for absurd nesting; the
/// engine's own error when text that starts like an object holds no JSON.
pub fn normalize(tool: &str, raw: &str, opts: &ArgsOptions) -> Result<Normalized, Error> {
    normalize_with(tool, raw, &opts.map, opts.parameters.as_ref(), opts.quotes)
}

/// [`normalize`] with borrowed parts, for callers that keep one map for many tools (a batch
/// with a schema per tool) and do not want to build an [`ArgsOptions`] per call.
pub fn normalize_with(
    tool: &str,
    raw: &str,
    map: &ToolMap,
    parameters: Option<&Value>,
    quotes: QuoteMode,
) -> Result<Normalized, Error> {
    let ctx = Ctx::new(tool, map, parameters);
    let mut out = ctx.run(raw)?;
    out.quotes_folded = fold_quotes(&mut out.value, raw, quotes);
    out.truncated = out
        .repairs
        .iter()
        .any(|r| r.kind() == RepairKind::Truncated);
    Ok(out)
}

/// The primary field of a tool from its JSON Schema (`parameters`): the only required
/// string property, else the only property. `None` when neither exists.
pub fn primary_field_from_schema(parameters: &Value) -> Option<String> {
    let props = parameters.get("properties")?.as_object()?;
    let mut found: Option<&str> = None;
    let mut count = 0;
    if let Some(required) = parameters.get("required").and_then(Value::as_array) {
        for name in required.iter().filter_map(Value::as_str) {
            if props.get(name).is_some_and(accepts_string) && found != Some(name) {
                found = Some(name);
                count += 1;
            }
        }
    }
    if count == 1 {
        return found.map(str::to_owned);
    }
    if props.len() == 1 {
        return props.keys().next().cloned();
    }
    None
}

/// Whether a property schema accepts a string (an untyped property does).
fn accepts_string(schema: &Value) -> bool {
    match schema.get("type") {
        None => schema.get("properties").is_none() && schema.get("items").is_none(),
        Some(Value::String(t)) => t == "string",
        Some(Value::Array(ts)) => ts.iter().any(|t| t == "string"),
        Some(_) => false,
    }
}

/// The `type` of a property schema, the first non-null one when it is a list.
fn schema_type(schema: Option<&Value>) -> Option<&str> {
    match schema?.get("type")? {
        Value::String(t) => Some(t),
        Value::Array(ts) => ts.iter().filter_map(Value::as_str).find(|t| *t != "null"),
        _ => None,
    }
}

// ---------------------------------------------------------------------------------------
// The tool map

/// Tool name → primary field: the field a plain value goes into. Built-in entries (module
/// docs) plus user entries, which win; a user entry with an empty field removes a tool's
/// primary field.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ToolMap {
    entries: HashMap<String, String>,
    builtin: bool,
}

impl Default for ToolMap {
    /// The built-in map.
    fn default() -> ToolMap {
        ToolMap::builtin()
    }
}

/// The built-in entries, in the order of the module docs.
pub const BUILTIN_TOOLS: &[(&str, &str)] = &[
    ("read_file", "file"),
    ("write_file", "file"),
    ("edit_file", "file"),
    ("create_file", "file"),
    ("delete_file", "file"),
    ("read", "file"),
    ("write", "file"),
    ("list_directory", "dir"),
    ("run_tests", "dir"),
    ("tree", "dir"),
    ("search_files", "term"),
    ("search", "term"),
    ("run_command", "cmd"),
    ("exec", "cmd"),
    ("bash", "command"),
    ("shell", "command"),
    ("Bash", "command"),
    ("terminal", "command"),
    ("run_terminal_cmd", "command"),
    ("run_shell_command", "command"),
    ("execute_command", "command"),
    ("execute_bash", "command"),
    ("Read", "file_path"),
    ("Write", "file_path"),
    ("Edit", "file_path"),
    ("MultiEdit", "file_path"),
    ("Glob", "pattern"),
    ("Grep", "pattern"),
    ("glob", "pattern"),
    ("grep", "pattern"),
    ("LS", "path"),
    ("ls", "path"),
    ("list_dir", "path"),
    ("WebSearch", "query"),
    ("web_search", "query"),
    ("search_web", "query"),
    ("google_search", "query"),
    ("brave_web_search", "query"),
    ("tavily_search", "query"),
    ("duckduckgo_search", "query"),
    ("internet_search", "query"),
    ("wikipedia", "query"),
    ("wikipedia_search", "query"),
    ("arxiv_search", "query"),
    ("WebFetch", "url"),
    ("fetch", "url"),
    ("web_fetch", "url"),
    ("fetch_url", "url"),
    ("open_url", "url"),
    ("browse", "url"),
    ("python", "code"),
    ("run_python", "code"),
    ("execute_python", "code"),
    ("execute_code", "code"),
    ("code_interpreter", "code"),
    ("sql", "query"),
    ("query_db", "query"),
    ("run_sql", "query"),
    ("execute_sql", "query"),
    ("calculator", "expression"),
    ("calculate", "expression"),
    ("get_weather", "location"),
    ("think", "thought"),
];

/// The built-in field of `tool` (a `match`: compiled to a length switch, no hashing).
fn builtin_field(tool: &str) -> Option<&'static str> {
    Some(match tool {
        "read_file" | "write_file" | "edit_file" | "create_file" | "delete_file" | "read"
        | "write" => "file",
        "list_directory" | "run_tests" | "tree" => "dir",
        "search_files" | "search" => "term",
        "run_command" | "exec" => "cmd",
        "bash" | "shell" | "Bash" | "terminal" | "run_terminal_cmd" | "run_shell_command"
        | "execute_command" | "execute_bash" => "command",
        "Read" | "Write" | "Edit" | "MultiEdit" => "file_path",
        "Glob" | "Grep" | "glob" | "grep" => "pattern",
        "LS" | "ls" | "list_dir" => "path",
        "WebSearch" | "web_search" | "search_web" | "google_search" | "brave_web_search"
        | "tavily_search" | "duckduckgo_search" | "internet_search" | "wikipedia"
        | "wikipedia_search" | "arxiv_search" => "query",
        "WebFetch" | "fetch" | "web_fetch" | "fetch_url" | "open_url" | "browse" => "url",
        "python" | "run_python" | "execute_python" | "execute_code" | "code_interpreter" => "code",
        "sql" | "query_db" | "run_sql" | "execute_sql" => "query",
        "calculator" | "calculate" => "expression",
        "get_weather" => "location",
        "think" => "thought",
        _ => return None,
    })
}

impl ToolMap {
    /// The built-in map (module docs).
    pub fn builtin() -> ToolMap {
        ToolMap {
            entries: HashMap::new(),
            builtin: true,
        }
    }

    /// A map with no entries at all, not even the built-in ones.
    pub fn empty() -> ToolMap {
        ToolMap {
            entries: HashMap::new(),
            builtin: false,
        }
    }

    /// Map `tool` to `field`; an empty `field` removes the tool's primary field.
    pub fn insert(&mut self, tool: impl Into<String>, field: impl Into<String>) {
        self.entries.insert(tool.into(), field.into());
    }

    /// A user map from TOML: `[tools]` then `my_tool = "field"` lines (top-level
    /// `my_tool = "field"` lines are accepted too). Holds only the file's entries; add it to
    /// [`ToolMap::builtin`] with [`ToolMap::extend`].
    pub fn from_toml_str(text: &str) -> Result<ToolMap, Error> {
        let table: toml::Table = toml::from_str(text)
            .map_err(|e| map_error(format!("not valid TOML: {}", e.message())))?;
        let mut map = ToolMap::empty();
        for (key, value) in &table {
            match (key.as_str(), value) {
                ("tools", toml::Value::Table(tools)) => {
                    for (tool, field) in tools {
                        map.insert_checked(tool, field.as_str())?;
                    }
                }
                (tool, field) => map.insert_checked(tool, field.as_str())?,
            }
        }
        Ok(map)
    }

    /// A user map from JSON: `{"tools": {"my_tool": "field"}}` or flat
    /// `{"my_tool": "field"}`. Holds only the file's entries.
    pub fn from_json_str(text: &str) -> Result<ToolMap, Error> {
        let value: Value =
            serde_json::from_str(text).map_err(|e| map_error(format!("not valid JSON: {e}")))?;
        let Value::Object(object) = value else {
            return Err(map_error(String::from("the top level must be an object")));
        };
        let mut map = ToolMap::empty();
        for (key, value) in &object {
            match (key.as_str(), value) {
                ("tools", Value::Object(tools)) => {
                    for (tool, field) in tools {
                        map.insert_checked(tool, field.as_str())?;
                    }
                }
                (tool, field) => map.insert_checked(tool, field.as_str())?,
            }
        }
        Ok(map)
    }

    fn insert_checked(&mut self, tool: &str, field: Option<&str>) -> Result<(), Error> {
        match field {
            Some(field) => {
                self.insert(tool, field);
                Ok(())
            }
            None => Err(map_error(format!(
                "the field of tool {tool:?} must be a string"
            ))),
        }
    }

    /// Add `other`'s entries; they win over this map's. The built-in entries are kept when
    /// either map has them.
    pub fn extend(&mut self, other: ToolMap) {
        self.builtin |= other.builtin;
        self.entries.extend(other.entries);
    }

    /// The primary field of `tool`. A name not found is retried without a namespace
    /// prefix (`functions.read_file`, `mcp__fs__read_file` → `read_file`).
    pub fn primary_field(&self, tool: &str) -> Option<&str> {
        let found = self.lookup(tool).or_else(|| {
            let short = tool
                .rsplit_once("__")
                .map(|(_, s)| s)
                .or_else(|| tool.rsplit_once('.').map(|(_, s)| s))?;
            self.lookup(short)
        });
        found.filter(|f| !f.is_empty())
    }

    fn lookup(&self, tool: &str) -> Option<&str> {
        if let Some(field) = self.entries.get(tool) {
            return Some(field);
        }
        if self.builtin {
            return builtin_field(tool);
        }
        None
    }

    /// Every entry (built-in ones overridden by user ones), sorted by tool name.
    pub fn entries(&self) -> Vec<(&str, &str)> {
        let mut all: Vec<(&str, &str)> = Vec::new();
        if self.builtin {
            all.extend(
                BUILTIN_TOOLS
                    .iter()
                    .filter(|(t, _)| !self.entries.contains_key(*t))
                    .copied(),
            );
        }
        all.extend(
            self.entries
                .iter()
                .filter(|(_, f)| !f.is_empty())
                .map(|(t, f)| (t.as_str(), f.as_str())),
        );
        all.sort_unstable();
        all
    }
}

fn map_error(why: String) -> Error {
    Error::new(ErrorKind::Syntax(format!("invalid tool map: {why}")))
}

// ---------------------------------------------------------------------------------------
// The decisions

/// What is known about the tool for one call.
struct Ctx<'a> {
    tool: &'a str,
    map: &'a ToolMap,
    schema: Option<&'a Value>,
    props: Option<&'a Map<String, Value>>,
}

/// Kinds of repair that mean the engine had to invent structure: for a command tool, a sign
/// the text was a shell command, not a broken object.
fn invents_structure(kind: RepairKind) -> bool {
    matches!(
        kind,
        RepairKind::StrippedProse
            | RepairKind::MissingColon
            | RepairKind::MissingValue
            | RepairKind::MissingComma
            | RepairKind::MissingOpener
            | RepairKind::MissingCloser
            | RepairKind::RedundantCloser
            | RepairKind::MultipleValues
            | RepairKind::RegexLiteral
            | RepairKind::Wrapper
            | RepairKind::Concatenation
            | RepairKind::TupleToArray
            | RepairKind::Ellipsis
    )
}

fn is_command_field(field: &str) -> bool {
    field == "cmd" || field == "command"
}

impl<'a> Ctx<'a> {
    fn new(tool: &'a str, map: &'a ToolMap, schema: Option<&'a Value>) -> Ctx<'a> {
        let props = schema
            .and_then(|s| s.get("properties"))
            .and_then(Value::as_object);
        Ctx {
            tool,
            map,
            schema,
            props,
        }
    }

    /// The primary field: from the schema when it names one, else from the map when the
    /// schema (if any) has that property.
    fn primary_field(&self) -> Option<Cow<'a, str>> {
        if let Some(schema) = self.schema {
            if let Some(field) = primary_field_from_schema(schema) {
                return Some(Cow::Owned(field));
            }
        }
        let field = self.map.primary_field(self.tool)?;
        match self.props {
            Some(props) if !props.is_empty() && !props.contains_key(field) => None,
            _ => Some(Cow::Borrowed(field)),
        }
    }

    fn property(&self, name: &str) -> Option<&'a Value> {
        self.props?.get(name)
    }

    fn is_command_tool(&self) -> bool {
        self.primary_field().is_some_and(|f| is_command_field(&f))
    }

    fn run(&self, raw: &str) -> Result<Normalized, Error> {
        let text = raw.trim();
        let base = offset_in(raw, text);
        let Some(&first) = text.as_bytes().first() else {
            return Ok(empty(Vec::new()));
        };
        match first {
            b'{' | b'[' => self.structured(text, base, raw.len(), false),
            b'"' => self.json_string(raw, text, base),
            // (`None`: Python's null.)
            _ if is_null_word(text) => Ok(empty(Vec::new())),
            _ if fence_marker(text.as_bytes()).is_some() => self.fenced(text, base),
            _ => self.plain(text, base, Vec::new()),
        }
    }

    /// Text that starts with `{` or `[`. `unwrapped` when it came out of a JSON string:
    /// then repairs get the span of the whole raw input (`outer_end`).
    fn structured(
        &self,
        text: &str,
        base: usize,
        outer_end: usize,
        unwrapped: bool,
    ) -> Result<Normalized, Error> {
        let (value, repairs) = match serde_json::from_str::<Value>(text) {
            Ok(value) => (value, Vec::new()),
            // Deep valid input fails here on serde_json's recursion limit and again below,
            // where it becomes `TooDeep`; checking here would format every error message.
            Err(_) => {
                let repaired = match crate::repair(text) {
                    Ok(r) => r,
                    Err(_) if self.is_command_tool() => return self.command_text(text),
                    Err(e) => return Err(e),
                };
                let value = repaired_value(&repaired.text)?;
                if self.is_command_tool()
                    && (text.starts_with('[')
                        || repaired.repairs.iter().any(|r| invents_structure(r.kind())))
                    && !self.has_known_key(&value)
                {
                    return self.command_text(text);
                }
                let repairs = repaired
                    .repairs
                    .into_iter()
                    .map(|r| {
                        if unwrapped {
                            Repair::new(r.kind(), 0..outer_end)
                        } else {
                            r.shifted(base)
                        }
                    })
                    .collect();
                (value, repairs)
            }
        };
        self.object_from(value, repairs, unwrapped)
    }

    /// The arguments object a parsed value stands for.
    fn object_from(
        &self,
        value: Value,
        repairs: Vec<Repair>,
        unwrapped: bool,
    ) -> Result<Normalized, Error> {
        match value {
            Value::Object(map) if map.is_empty() => Ok(empty(repairs)),
            Value::Object(map) => {
                let strategy = if unwrapped {
                    Strategy::Unwrapped
                } else {
                    strategy_for(&repairs)
                };
                Ok(Normalized {
                    value: map,
                    strategy,
                    repairs,
                    quotes_folded: 0,
                    truncated: false,
                })
            }
            Value::Null => Ok(empty(repairs)),
            Value::Array(items) if items.is_empty() => Ok(empty(repairs)),
            Value::Array(items) => {
                let n = items.len();
                if let Some(field) = self.primary_field() {
                    if schema_type(self.property(&field)) == Some("array") {
                        return Ok(wrap(&field, Value::Array(items), repairs));
                    }
                }
                Err(not_an_object(format!(
                    "a list of {n} value{}; tool {:?} takes an object",
                    if n == 1 { "" } else { "s" },
                    self.tool
                )))
            }
            other => Err(not_an_object(format!(
                "{} is not an object",
                describe_value(&other)
            ))),
        }
    }

    /// Text that starts with `"`.
    fn json_string(&self, raw: &str, text: &str, base: usize) -> Result<Normalized, Error> {
        match serde_json::from_str::<String>(text) {
            Ok(inner) => {
                let trimmed = inner.trim();
                match trimmed.as_bytes().first() {
                    None => Ok(empty(Vec::new())),
                    Some(_) if trimmed == "null" => Ok(empty(Vec::new())),
                    Some(b'{' | b'[') => match self.structured(trimmed, base, raw.len(), true) {
                        Ok(n) => Ok(n),
                        Err(_) if self.is_command_tool() => self.command_text(trimmed),
                        Err(e) => Err(e),
                    },
                    // A JSON string is unquoted before wrapping; its text has no raw
                    // offsets, so plain-text repairs get the whole input's span.
                    Some(_) => {
                        self.plain_text(trimmed, Vec::new(), Spans::Whole(base..base + text.len()))
                    }
                }
            }
            Err(_) => {
                if self.starts_like_member(text) {
                    return self.plain(text, base, Vec::new());
                }
                // Not one JSON string, nor members without braces: a cut-off `"main.go`, an
                // invalid escape, `"ls" -la`. The engine decides; an object is taken, a
                // string only when the engine kept all of its text.
                if let Ok(repaired) = crate::repair(text) {
                    let keeps_text = repaired.repairs.iter().all(|r| {
                        matches!(
                            r.kind(),
                            RepairKind::Truncated
                                | RepairKind::ControlCharacter
                                | RepairKind::InvalidEscape
                                | RepairKind::InnerQuote
                                | RepairKind::LoneSurrogate
                        )
                    });
                    let shifted: Vec<Repair> =
                        repaired.repairs.iter().map(|r| r.shifted(base)).collect();
                    match repaired_value(&repaired.text)? {
                        Value::Object(map)
                            if !self.is_command_tool() || !starts_as_command(text) =>
                        {
                            return self.object_from(Value::Object(map), shifted, false);
                        }
                        Value::String(s) if keeps_text => {
                            return self.plain_text(
                                s.trim(),
                                shifted,
                                Spans::Whole(base..base + text.len()),
                            );
                        }
                        _ => {}
                    }
                }
                // `"main.go`: a string cut before its closing quote keeps its text.
                if let Some(rest) = text.strip_prefix('"').filter(|r| !r.contains('"')) {
                    let end = base + text.len();
                    let cut = Repair::new(RepairKind::Truncated, end..end);
                    return self.plain_text(rest.trim(), vec![cut], Spans::Whole(base..end));
                }
                self.plain(text, base, Vec::new())
            }
        }
    }

    /// A fenced block (```` ```json … ``` ````): the engine strips the fence. A fenced
    /// command (```` ```bash ````) for a command tool, or a fence holding no JSON, is plain
    /// text without its fence.
    fn fenced(&self, text: &str, base: usize) -> Result<Normalized, Error> {
        let inner = strip_fence(text);
        if inner.is_some_and(|inner| inner.is_empty() || is_null_word(inner)) {
            // An empty fence, or one that holds only `null`: no arguments.
            let fence = Repair::new(RepairKind::StrippedFence, base..base + text.len());
            return Ok(empty(vec![fence]));
        }
        if let Some(inner) = inner.filter(|_| self.is_command_tool()) {
            if !inner.starts_with(['{', '[']) {
                let fence = Repair::new(RepairKind::StrippedFence, base..base + text.len());
                return self.plain_text(inner, vec![fence], Spans::Whole(base..base + text.len()));
            }
        }
        match crate::repair(text) {
            Ok(repaired) => {
                let value = repaired_value(&repaired.text)?;
                if let Value::String(s) = &value {
                    // A fenced double-encoded object: unwrapped once, as without the fence.
                    let inner = s.trim();
                    if inner.starts_with(['{', '[']) {
                        if let Ok(n) = self.structured(inner, base, base + text.len(), true) {
                            return Ok(n);
                        }
                    }
                }
                let repairs = repaired
                    .repairs
                    .into_iter()
                    .map(|r| r.shifted(base))
                    .collect();
                self.object_from(value, repairs, false)
            }
            Err(_) => match inner {
                Some(inner) if !inner.is_empty() => {
                    let fence = Repair::new(RepairKind::StrippedFence, base..base + text.len());
                    self.plain_text(inner, vec![fence], Spans::Whole(base..base + text.len()))
                }
                _ => self.plain(text, base, Vec::new()),
            },
        }
    }

    /// Plain text straight from the input (offsets known).
    fn plain(&self, text: &str, base: usize, repairs: Vec<Repair>) -> Result<Normalized, Error> {
        // Members without braces: `file: main.go` (a known field), `'file': 'a.go'`. The
        // braces are ours to add, so the engine sees a whole object and the repair log says
        // where they were missing.
        if self.starts_like_member(text) {
            if let Ok(repaired) = crate::repair(&format!("{{{text}}}")) {
                if let Ok(Value::Object(map)) = repaired_value(&repaired.text) {
                    if !map.is_empty() {
                        let end = base + text.len();
                        let mut shifted = vec![Repair::new(RepairKind::MissingOpener, base..base)];
                        shifted.extend(repaired.repairs.into_iter().map(|r| {
                            Repair::new(
                                r.kind(),
                                (base + r.span().start).saturating_sub(1).min(end)
                                    ..(base + r.span().end).saturating_sub(1).min(end),
                            )
                        }));
                        shifted.push(Repair::new(RepairKind::MissingCloser, end..end));
                        return self.object_from(Value::Object(map), shifted, false);
                    }
                }
            }
        }
        // A value quoted as a whole: 'main.go', “main.go”, `ls -la`.
        if let Some((inner, kind)) = strip_quotes(text) {
            let mut repairs = repairs;
            repairs.push(Repair::new(kind, base..base + text.len()));
            return self.plain_text(inner.trim(), repairs, Spans::Whole(base..base + text.len()));
        }
        self.plain_text(text, repairs, Spans::Offset(base))
    }

    /// The last decisions: command, embedded object, CLI text, wrap, or no object.
    fn plain_text(
        &self,
        text: &str,
        repairs: Vec<Repair>,
        spans: Spans,
    ) -> Result<Normalized, Error> {
        let field = self.primary_field();
        if let Some(field) = field.as_deref() {
            if is_command_field(field) {
                // Prose, a comment, a reasoning block or a fence around an object with the
                // tool's fields (`Sure! {"cmd": "ls"}`): that object. A command line that
                // holds JSON (`echo '{"cmd": 1}' | jq .cmd`) does not end with it.
                let end = text.trim_end();
                if (end.ends_with('}') || end.ends_with("```")) && text.contains('{') {
                    if let Some(mut found) = self.embedded_object(text, false, &spans) {
                        let mut all = repairs;
                        all.append(&mut found.repairs);
                        found.repairs = all;
                        return Ok(found);
                    }
                }
                return Ok(wrap(field, Value::String(text.to_owned()), repairs));
            }
        }
        // Prose or reasoning around the arguments (`Here you go: {"file": "a.go"}`), when
        // the text is not a command line (`post --body '{"a": 1}'`): taken
        // when the object names one of the tool's fields, or when the tool has no primary
        // field to wrap into. `x = {"a": 1}` for a code tool stays code.
        let cli = looks_like_cli(text);
        if !cli && text.contains('{') {
            if let Some(mut found) = self.embedded_object(text, field.is_none(), &spans) {
                let mut all = repairs;
                all.append(&mut found.repairs);
                found.repairs = all;
                return Ok(found);
            }
        }
        if cli {
            return Ok(self.cli(text, field.as_deref(), repairs));
        }
        match field {
            Some(field) => {
                let value = typed_plain(text, self.property(&field));
                Ok(wrap(&field, value, repairs))
            }
            None => Err(not_an_object(format!(
                "tool {:?} has no primary field to hold the plain value {} \
                 (map the tool to a field, or give its schema)",
                self.tool,
                preview(text)
            ))),
        }
    }

    /// The object the engine finds inside `text`, if it is one this tool would take.
    fn embedded_object(&self, text: &str, any_object: bool, spans: &Spans) -> Option<Normalized> {
        let repaired = crate::repair(text).ok()?;
        // `set {x} here` is prose with braces: an object the engine had to invent a colon
        // or a value for is not one the model wrote.
        let invented = repaired.repairs.iter().any(|r| {
            matches!(
                r.kind(),
                RepairKind::MissingColon | RepairKind::MissingValue | RepairKind::MissingOpener
            )
        });
        if invented {
            return None;
        }
        let value = repaired_value(&repaired.text).ok()?;
        let Value::Object(map) = &value else {
            return None;
        };
        if map.is_empty() || !(any_object || self.has_known_key(&value)) {
            return None;
        }
        let Value::Object(map) = value else {
            return None;
        };
        let repairs = repaired
            .repairs
            .into_iter()
            .map(|r| Repair::new(r.kind(), spans.map(r.span())))
            .collect();
        Some(Normalized {
            value: map,
            strategy: Strategy::Repaired,
            repairs,
            quotes_folded: 0,
            truncated: false,
        })
    }

    fn command_text(&self, text: &str) -> Result<Normalized, Error> {
        match self.primary_field() {
            Some(field) => Ok(wrap(&field, Value::String(text.to_owned()), Vec::new())),
            None => Err(Error::new(ErrorKind::Internal(String::from(
                "command text without a command field",
            )))),
        }
    }

    /// Whether `value` is an object with the primary field or a schema property as a key:
    /// then it was meant as arguments, whatever repairs it needed.
    fn has_known_key(&self, value: &Value) -> bool {
        let Value::Object(map) = value else {
            return false;
        };
        let field = self.primary_field();
        map.keys().any(|k| {
            field.as_deref() == Some(k.as_str()) || self.props.is_some_and(|p| p.contains_key(k))
        })
    }

    /// `key:` or `"key":` at the start, where `key` is a field of this tool (a quoted key is
    /// enough on its own for tools that are not command tools).
    fn starts_like_member(&self, text: &str) -> bool {
        let Some((key, quoted)) = leading_key(text) else {
            return false;
        };
        let known = self.props.is_some_and(|p| p.contains_key(key))
            || self.primary_field().is_some_and(|f| f == key);
        known || (quoted && !self.is_command_tool())
    }

    /// CLI-style text → an object.
    fn cli(&self, text: &str, field: Option<&str>, repairs: Vec<Repair>) -> Normalized {
        let tokens = tokenize(text);
        let mut flags: Vec<(String, Value)> = Vec::new();
        let mut positionals: Vec<Token> = Vec::new();
        let mut iter = tokens.into_iter().peekable();
        let mut rest_positional = false;
        while let Some(tok) = iter.next() {
            // `--term="fn main"`: a flag whose value after `=` is quoted.
            let quoted_value = tok.quote_start.is_some_and(|q| {
                q > 0 && tok.text.get(..q).is_some_and(|flag| flag.ends_with('='))
            });
            if rest_positional || (tok.quoted && !quoted_value) || !is_flag(&tok.text) {
                positionals.push(tok);
                continue;
            }
            if tok.text == "--" {
                rest_positional = true;
                continue;
            }
            let body = tok.text.trim_start_matches('-');
            let (name, inline) = match body.split_once('=') {
                Some((n, v)) => (n, Some(v.to_owned())),
                None => (body, None),
            };
            let key = self.flag_key(name);
            let prop = self.property(&key);
            let value = match inline {
                Some(v) => typed_token(&v, quoted_value, prop),
                None => {
                    let takes_value = schema_type(prop) != Some("boolean")
                        && iter
                            .peek()
                            .is_some_and(|next| next.quoted || !is_flag(&next.text));
                    match iter.next_if(|_| takes_value) {
                        Some(next) => typed_token(&next.text, next.quoted, prop),
                        None => Value::Bool(true),
                    }
                }
            };
            flags.push((key, value));
        }

        let mut object = Map::new();
        let mut positionals = positionals.into_iter();
        let flag_set = |k: &str| flags.iter().any(|(f, _)| f == k);
        // The first positional: the primary field if a flag did not fill it, else the
        // subcommand of a subcommand-style tool (`read --file main.go`).
        let mut leftover: Vec<Value> = Vec::new();
        if let Some(first) = positionals.next() {
            let sub_key = if self.property("command").is_some() && self.property("cmd").is_none() {
                "command"
            } else {
                "cmd"
            };
            match field {
                Some(f) if !flag_set(f) => {
                    let prop = self.property(f);
                    object.insert(f.to_owned(), typed_token(&first.text, first.quoted, prop));
                }
                _ if !first.quoted && is_word(&first.text) && !flag_set(sub_key) => {
                    object.insert(sub_key.to_owned(), Value::String(first.text));
                }
                _ => leftover.push(typed_token(&first.text, first.quoted, None)),
            }
        }
        for (key, value) in flags {
            match object.get_mut(&key) {
                // A repeated flag collects its values: `--tag a --tag b`.
                Some(Value::Array(items)) => items.push(value),
                Some(existing) => {
                    let first = existing.take();
                    *existing = Value::Array(vec![first, value]);
                }
                None => {
                    object.insert(key, value);
                }
            }
        }
        leftover.extend(positionals.map(|t| typed_token(&t.text, t.quoted, None)));
        if !leftover.is_empty() {
            // An `--args` flag keeps its values; the positionals join them.
            match object.get_mut("args") {
                Some(Value::Array(items)) => items.extend(leftover),
                Some(existing) => {
                    let mut all = vec![existing.take()];
                    all.extend(leftover);
                    *existing = Value::Array(all);
                }
                None => {
                    object.insert(String::from("args"), Value::Array(leftover));
                }
            }
        }
        Normalized {
            value: object,
            strategy: Strategy::CliArgs,
            repairs,
            quotes_folded: 0,
            truncated: false,
        }
    }

    /// The key of a flag: `--file-path` is `file_path` unless the schema spells it with
    /// dashes.
    fn flag_key(&self, name: &str) -> String {
        if self.props.is_some_and(|p| p.contains_key(name)) || !name.contains('-') {
            return name.to_owned();
        }
        name.replace('-', "_")
    }
}

/// Where the text being decided sits in the raw input, for repair spans.
enum Spans {
    /// It is the raw input from this byte offset on.
    Offset(usize),
    /// It was decoded (unquoted, unfenced): spans cover this range of the raw input.
    Whole(std::ops::Range<usize>),
}

impl Spans {
    fn map(&self, span: std::ops::Range<usize>) -> std::ops::Range<usize> {
        match self {
            Spans::Offset(base) => base + span.start..base + span.end,
            Spans::Whole(range) => range.clone(),
        }
    }
}

fn offset_in(outer: &str, inner: &str) -> usize {
    (inner.as_ptr() as usize).saturating_sub(outer.as_ptr() as usize)
}

fn empty(repairs: Vec<Repair>) -> Normalized {
    Normalized {
        value: Map::new(),
        strategy: Strategy::Empty,
        repairs,
        quotes_folded: 0,
        truncated: false,
    }
}

fn wrap(field: &str, value: Value, repairs: Vec<Repair>) -> Normalized {
    let mut map = Map::new();
    map.insert(field.to_owned(), value);
    Normalized {
        value: map,
        strategy: Strategy::PlainWrap,
        repairs,
        quotes_folded: 0,
        truncated: false,
    }
}

fn not_an_object(why: String) -> Error {
    Error::new(ErrorKind::NotAnObject(why))
}

fn is_depth_error(e: &serde_json::Error) -> bool {
    e.to_string().starts_with("recursion limit exceeded")
}

/// The engine's text as a value. serde_json stops at 128 levels; deeper repaired text is
/// refused as too deep rather than reported as a bug.
fn repaired_value(text: &str) -> Result<Value, Error> {
    serde_json::from_str(text).map_err(|e| {
        if is_depth_error(&e) {
            Error::new(ErrorKind::TooDeep)
        } else {
            Error::new(ErrorKind::Internal(format!(
                "repaired text is not JSON ({e})"
            )))
        }
    })
}

/// Name the strategy from the engine's repair log.
fn strategy_for(repairs: &[Repair]) -> Strategy {
    if repairs.is_empty() {
        return Strategy::Valid;
    }
    let (mut quotes, mut keys, mut commas, mut values, mut other) =
        (false, false, false, false, false);
    for r in repairs {
        match r.kind() {
            RepairKind::SingleQuotes => quotes = true,
            RepairKind::UnquotedKey => keys = true,
            RepairKind::TrailingComma => commas = true,
            RepairKind::UnquotedValue => values = true,
            _ => other = true,
        }
    }
    if values {
        return Strategy::ObjectLiteral;
    }
    if other {
        return Strategy::Repaired;
    }
    match (quotes, keys, commas) {
        (true, false, false) => Strategy::SingleQuotes,
        (false, true, false) => Strategy::UnquotedKeys,
        (true, true, false) => Strategy::QuotesAndKeys,
        (false, false, true) => Strategy::TrailingCommas,
        _ => Strategy::Repaired,
    }
}

fn describe_value(value: &Value) -> &'static str {
    match value {
        Value::Null => "null",
        Value::Bool(_) => "a boolean",
        Value::Number(_) => "a number",
        Value::String(_) => "a string",
        Value::Array(_) => "a list",
        Value::Object(_) => "an object",
    }
}

/// The first 40 characters of `text`, quoted, for error messages.
fn preview(text: &str) -> String {
    match text.char_indices().nth(40) {
        Some((cut, _)) => format!("{:?}…", text.get(..cut).unwrap_or(text)),
        None => format!("{text:?}"),
    }
}

/// `null`, or Python's `None`: arguments that say there are none.
fn is_null_word(text: &str) -> bool {
    matches!(text, "null" | "None")
}

/// The content of a whole fenced block (```` ```lang\n…\n``` ```` or `~~~`), trimmed.
fn strip_fence(text: &str) -> Option<&str> {
    let fence = fence_marker(text.as_bytes())?;
    let (_info, body) = text.split_once('\n')?;
    let body = body
        .trim_end()
        .strip_suffix(std::str::from_utf8(fence).ok()?)?;
    Some(body.trim())
}

/// `'x'`, `“x”`, `‘x’`, `` `x` `` as a whole, with no quote of the same kind inside.
fn strip_quotes(text: &str) -> Option<(&str, RepairKind)> {
    let mut chars = text.chars();
    let open = chars.next()?;
    let close = chars.next_back()?;
    let (kind, closers): (RepairKind, &[char]) = match open {
        '\'' => (RepairKind::SingleQuotes, &['\'']),
        '`' => (RepairKind::SingleQuotes, &['`']),
        '\u{201C}' | '\u{201D}' | '\u{201E}' => {
            (RepairKind::TypographicQuotes, &['\u{201C}', '\u{201D}'])
        }
        '\u{2018}' | '\u{2019}' => (RepairKind::TypographicQuotes, &['\u{2018}', '\u{2019}']),
        _ => return None,
    };
    if !closers.contains(&close) {
        return None;
    }
    let inner = chars.as_str();
    // An apostrophe between letters (`'it's'`) is content, not a closing quote.
    let mut prev: Option<char> = None;
    let mut it = inner.chars().peekable();
    while let Some(c) = it.next() {
        if closers.contains(&c) || c == open {
            let apostrophe = matches!(c, '\'' | '\u{2019}')
                && prev.is_some_and(char::is_alphanumeric)
                && it.peek().is_some_and(|n| n.is_alphanumeric());
            if !apostrophe {
                return None;
            }
        }
        prev = Some(c);
    }
    Some((inner, kind))
}

/// A key at the start of `text` followed by `:` — `file:`, `"file":`, `'file':`, `“file”:`.
fn leading_key(text: &str) -> Option<(&str, bool)> {
    let mut rest = text;
    let open = rest.chars().next()?;
    let quoted = matches!(open, '"' | '\'' | '\u{201C}' | '\u{2018}');
    if quoted {
        rest = &rest[open.len_utf8()..];
    }
    let end = rest
        .find(|c: char| !(c.is_alphanumeric() || c == '_' || c == '-' || c == '$'))
        .unwrap_or(rest.len());
    if end == 0 {
        return None;
    }
    let key = &rest[..end];
    let mut after = &rest[end..];
    if quoted {
        let close = after.chars().next()?;
        if !matches!(close, '"' | '\'' | '\u{201D}' | '\u{2019}') {
            return None;
        }
        after = &after[close.len_utf8()..];
    }
    let after = after.trim_start_matches([' ', '\t']);
    let after = after.strip_prefix(':')?;
    // `http://…`, `C:/…`, `a::b` are not members.
    if after.starts_with('/') || after.starts_with(':') || after.starts_with('\\') {
        return None;
    }
    Some((key, quoted))
}

/// Whether a command that failed as an object should stay a command: the text does not
/// begin with a quoted key.
fn starts_as_command(text: &str) -> bool {
    leading_key(text).is_none()
}

fn is_word(text: &str) -> bool {
    let mut chars = text.chars();
    chars.next().is_some_and(|c| c.is_ascii_alphabetic())
        && chars.all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-')
}

/// `--name`, `--name=v`, `-n`, `-n=v`, and `--` itself; not `-1`, not `-`.
fn is_flag(token: &str) -> bool {
    if token == "--" {
        return true;
    }
    if let Some(body) = token.strip_prefix("--") {
        return body.chars().next().is_some_and(|c| c.is_ascii_alphabetic());
    }
    match token.strip_prefix('-') {
        Some(body) => {
            let mut chars = body.chars();
            chars.next().is_some_and(|c| c.is_ascii_alphabetic())
                && matches!(chars.next(), None | Some('='))
        }
        None => false,
    }
}

/// Whether plain text reads as a command line with flags: one line, a `--name` or `-n`
/// token outside quotes.
fn looks_like_cli(text: &str) -> bool {
    if text.contains('\n') || text.len() > 4096 {
        return false;
    }
    text.split_ascii_whitespace()
        .any(|tok| tok != "--" && is_flag(tok))
}

/// A plain value typed as the field's schema says; a string without a schema.
fn typed_plain(text: &str, schema: Option<&Value>) -> Value {
    match schema_type(schema) {
        Some("integer" | "number" | "boolean") => typed_token(text, false, schema),
        Some("array") => match serde_json::from_str::<Value>(text) {
            Ok(Value::Array(items)) => Value::Array(items),
            _ => Value::Array(vec![Value::String(text.to_owned())]),
        },
        _ => Value::String(text.to_owned()),
    }
}

/// A CLI token typed: quoted → string; `true`/`false` and JSON numbers typed; the schema's
/// `string` type keeps text as text.
fn typed_token(text: &str, quoted: bool, schema: Option<&Value>) -> Value {
    let as_string = || Value::String(text.to_owned());
    let ty = schema_type(schema);
    if quoted && !matches!(ty, Some("integer" | "number" | "boolean")) {
        return as_string();
    }
    if ty == Some("string") {
        return as_string();
    }
    match text {
        "true" | "True" => return Value::Bool(true),
        "false" | "False" => return Value::Bool(false),
        _ => {}
    }
    let numeric = text
        .strip_prefix('-')
        .unwrap_or(text)
        .starts_with(|c: char| c.is_ascii_digit());
    if numeric {
        if let Ok(Value::Number(n)) = serde_json::from_str::<Value>(text) {
            return Value::Number(n);
        }
    }
    as_string()
}

/// One shell-like token; `quoted` when any part of it was quoted (then it is a string).
#[derive(Debug)]
struct Token {
    text: String,
    quoted: bool,
    /// Where in `text` the first quoted part starts (`--term="x"`: after `--term=`).
    quote_start: Option<usize>,
}

/// Split a command line as a POSIX shell would, tolerantly: `'…'` literal, `"…"` with `\"`
/// `\\` `\$` `` \` `` escapes, `\x` outside quotes, typographic quotes as quotes, an
/// apostrophe inside a word (`don't`) literal, an unclosed quote running to the end.
fn tokenize(text: &str) -> Vec<Token> {
    let mut tokens = Vec::new();
    let mut cur = String::new();
    let mut quoted = false;
    let mut quote_start: Option<usize> = None;
    let mut started = false;
    let mut chars = text.chars().peekable();
    let mut prev: Option<char> = None;
    while let Some(c) = chars.next() {
        match c {
            c if c.is_whitespace() => {
                if started {
                    tokens.push(Token {
                        text: std::mem::take(&mut cur),
                        quoted,
                        quote_start: quote_start.take(),
                    });
                    started = false;
                    quoted = false;
                }
            }
            '\'' if prev.is_some_and(char::is_alphanumeric)
                && chars.peek().is_some_and(|n| n.is_alphanumeric()) =>
            {
                cur.push(c);
                started = true;
            }
            '\'' | '\u{2018}' => {
                started = true;
                quoted = true;
                quote_start.get_or_insert(cur.len());
                let closers: &[char] = if c == '\'' {
                    &['\'']
                } else {
                    &['\u{2019}', '\u{2018}']
                };
                for q in chars.by_ref() {
                    if closers.contains(&q) {
                        break;
                    }
                    cur.push(q);
                }
            }
            '"' | '\u{201C}' | '\u{201D}' => {
                started = true;
                quoted = true;
                quote_start.get_or_insert(cur.len());
                let typographic = c != '"';
                while let Some(q) = chars.next() {
                    match q {
                        '"' if !typographic => break,
                        '\u{201C}' | '\u{201D}' if typographic => break,
                        '\\' if !typographic => match chars.peek() {
                            Some(&n @ ('"' | '\\' | '$' | '`')) => {
                                cur.push(n);
                                chars.next();
                            }
                            Some('\n') => {
                                chars.next();
                            }
                            _ => cur.push('\\'),
                        },
                        q => cur.push(q),
                    }
                }
            }
            '\\' => {
                started = true;
                match chars.next() {
                    Some('\n') | None => {}
                    Some(n) => cur.push(n),
                }
            }
            c => {
                cur.push(c);
                started = true;
            }
        }
        prev = Some(c);
    }
    if started {
        tokens.push(Token {
            text: cur,
            quoted,
            quote_start,
        });
    }
    tokens
}

// ---------------------------------------------------------------------------------------
// Quotes inside values

/// Fold typographic quotes in the string values of `value` as `mode` says; the number of
/// strings changed.
fn fold_quotes(value: &mut Map<String, Value>, raw: &str, mode: QuoteMode) -> usize {
    if mode == QuoteMode::Never {
        return 0;
    }
    // Neither a typographic quote nor a `\u` escape in the input: nothing to fold.
    if !may_hold_quotes(raw) {
        return 0;
    }
    if mode == QuoteMode::Code && !targets_code_file(value) {
        return 0;
    }
    let mut folded = 0;
    let mut stack: Vec<&mut Value> = value.values_mut().collect();
    while let Some(v) = stack.pop() {
        match v {
            Value::String(s) => {
                if let Cow::Owned(new) = quotes::normalize(s) {
                    *s = new;
                    folded += 1;
                }
            }
            Value::Array(items) => stack.extend(items.iter_mut()),
            Value::Object(map) => stack.extend(map.values_mut()),
            _ => {}
        }
    }
    folded
}

/// Whether `raw` may decode to text with typographic quotes: one pass for their lead bytes
/// and for `\u` escapes.
fn may_hold_quotes(raw: &str) -> bool {
    let bytes = raw.as_bytes();
    memchr::memchr3_iter(0xC2, 0xE2, b'\\', bytes).any(|i| match bytes.get(i) {
        Some(b'\\') => bytes.get(i + 1) == Some(&b'u'),
        _ => quotes::is_quote_at(bytes, i),
    })
}

fn is_path_key(key: &str) -> bool {
    let key = key.to_ascii_lowercase();
    key.contains("file")
        || key.contains("path")
        || matches!(
            key.as_str(),
            "target" | "dest" | "destination" | "source" | "src" | "notebook"
        )
}

/// Whether a path-like argument, at any depth, names a code file.
fn targets_code_file(value: &Map<String, Value>) -> bool {
    let mut stack: Vec<(&str, &Value)> = value.iter().map(|(k, v)| (k.as_str(), v)).collect();
    while let Some((key, v)) = stack.pop() {
        match v {
            Value::String(s) if is_path_key(key) && quotes::is_code_path(s) => return true,
            Value::Array(items) => stack.extend(items.iter().map(|i| (key, i))),
            Value::Object(map) => stack.extend(map.iter().map(|(k, v)| (k.as_str(), v))),
            _ => {}
        }
    }
    false
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn builtin_table_and_match_agree() {
        for (tool, field) in BUILTIN_TOOLS {
            assert_eq!(builtin_field(tool), Some(*field), "{tool}");
        }
        assert!(BUILTIN_TOOLS.len() >= 30);
    }

    #[test]
    fn tokenizer_follows_shell_rules() {
        let cases: &[(&str, &[&str])] = &[
            ("a b  c", &["a", "b", "c"]),
            ("--msg 'hello world'", &["--msg", "hello world"]),
            (r#"--msg "say \"hi\"""#, &["--msg", r#"say "hi""#]),
            (r"a\ b", &["a b"]),
            ("--m don't", &["--m", "don't"]),
            ("--m \u{201C}x y\u{201D}", &["--m", "x y"]),
            ("'unclosed here", &["unclosed here"]),
            ("''", &[""]),
        ];
        for (input, want) in cases {
            let got: Vec<String> = tokenize(input).into_iter().map(|t| t.text).collect();
            assert_eq!(&got, want, "{input:?}");
        }
    }

    #[test]
    fn flags() {
        for t in ["--file", "--file=x", "-n", "-n=3", "--"] {
            assert!(is_flag(t), "{t}");
        }
        for t in ["-1", "-", "-la", "---", "x--y", "--1"] {
            assert!(!is_flag(t), "{t}");
        }
    }

    #[test]
    fn leading_keys() {
        assert_eq!(leading_key("file: a"), Some(("file", false)));
        assert_eq!(leading_key("\"file\": a"), Some(("file", true)));
        assert_eq!(leading_key("http://x"), None);
        assert_eq!(leading_key("C:\\x"), None);
        assert_eq!(leading_key("no colon"), None);
    }

    #[test]
    fn a_cut_off_input_is_reported_truncated() {
        let opts = ArgsOptions::default();
        let n = normalize("read_file", r#"{"path": "src/ma"#, &opts).expect("an object");
        assert!(n.truncated && n.is_truncated());
        assert_eq!(n.value.get("path"), Some(&Value::from("src/ma")));
        let n = normalize("read_file", r#"{"path": "src/main.rs"}"#, &opts).expect("an object");
        assert!(!n.truncated);
        let n = normalize("read_file", "{path: 'a.txt',}", &opts).expect("an object");
        assert!(!n.truncated, "repaired is not truncated");
    }
}
