//! `jsonheal::args`: every example of the issue with the strategy it must report, plus the
//! shape rules of the contract, the tool map and the schema-derived primary field.
#![allow(clippy::unwrap_used)]

use jsonheal::args::{
    normalize, primary_field_from_schema, ArgsOptions, Normalized, Strategy, ToolMap,
};
use jsonheal::quotes::QuoteMode;
use jsonheal::{ErrorKind, RepairKind};
use serde_json::{json, Value};

fn run(tool: &str, raw: &str) -> Normalized {
    normalize(tool, raw, &ArgsOptions::default())
        .unwrap_or_else(|e| panic!("{tool} {raw:?}: unexpected error {e}"))
}

fn check(tool: &str, raw: &str, want: Value, strategy: Strategy) {
    let got = run(tool, raw);
    assert_eq!(
        Value::Object(got.value.clone()),
        want,
        "{tool} {raw:?} (strategy {})",
        got.strategy
    );
    assert_eq!(got.strategy, strategy, "{tool} {raw:?}: strategy");
}

#[test]
fn issue_examples_with_their_strategies() {
    let cases: &[(&str, &str, Value, Strategy)] = &[
        // 1. valid JSON
        (
            "fs",
            r#"{"cmd":"read","file":"main.go"}"#,
            json!({"cmd":"read","file":"main.go"}),
            Strategy::Valid,
        ),
        // 2. single quotes
        (
            "fs",
            "{'cmd':'read','file':'main.go'}",
            json!({"cmd":"read","file":"main.go"}),
            Strategy::SingleQuotes,
        ),
        // 3. unquoted keys
        (
            "fs",
            r#"{cmd: "read", file: "main.go"}"#,
            json!({"cmd":"read","file":"main.go"}),
            Strategy::UnquotedKeys,
        ),
        // 4. both
        (
            "fs",
            "{cmd: 'read', file: 'main.go'}",
            json!({"cmd":"read","file":"main.go"}),
            Strategy::QuotesAndKeys,
        ),
        // 5. trailing commas
        (
            "fs",
            r#"{"cmd":"read","file":"main.go",}"#,
            json!({"cmd":"read","file":"main.go"}),
            Strategy::TrailingCommas,
        ),
        // 6. plain-value wrapping
        (
            "read_file",
            "main.go",
            json!({"file":"main.go"}),
            Strategy::PlainWrap,
        ),
        (
            "run_command",
            "ls -la",
            json!({"cmd":"ls -la"}),
            Strategy::PlainWrap,
        ),
        (
            "search_files",
            "TODO",
            json!({"term":"TODO"}),
            Strategy::PlainWrap,
        ),
        // 7. object literal with bare values
        (
            "fs",
            "{cmd: read, file: main.go, append: true}",
            json!({"cmd":"read","file":"main.go","append":true}),
            Strategy::ObjectLiteral,
        ),
        (
            "fs",
            "{cmd: read, n: 3, ratio: 0.5, x: null, y: None, z: 'quoted', w: \"dq\"}",
            json!({"cmd":"read","n":3,"ratio":0.5,"x":null,"y":null,"z":"quoted","w":"dq"}),
            Strategy::ObjectLiteral,
        ),
        // 8. CLI text
        (
            "fs",
            "read --file main.go",
            json!({"cmd":"read","file":"main.go"}),
            Strategy::CliArgs,
        ),
        (
            "fs",
            "read --file main.go --force",
            json!({"cmd":"read","file":"main.go","force":true}),
            Strategy::CliArgs,
        ),
        (
            "fs",
            "read --file=main.go",
            json!({"cmd":"read","file":"main.go"}),
            Strategy::CliArgs,
        ),
        (
            "fs",
            r#"write --file "my notes.go" --content 'a b'"#,
            json!({"cmd":"write","file":"my notes.go","content":"a b"}),
            Strategy::CliArgs,
        ),
        (
            "fs",
            "copy --force a.go b.go",
            json!({"cmd":"copy","force":"a.go","args":["b.go"]}),
            Strategy::CliArgs,
        ),
        (
            "fs",
            "copy a.go b.go --force",
            json!({"cmd":"copy","force":true,"args":["a.go","b.go"]}),
            Strategy::CliArgs,
        ),
        // command fields: the whole text is the command, flags included
        (
            "run_command",
            "grep -rn --include=*.go TODO .",
            json!({"cmd":"grep -rn --include=*.go TODO ."}),
            Strategy::PlainWrap,
        ),
        (
            "bash",
            "git status --short",
            json!({"command":"git status --short"}),
            Strategy::PlainWrap,
        ),
        // a JSON string is unquoted before wrapping
        (
            "read_file",
            r#""main.go""#,
            json!({"file":"main.go"}),
            Strategy::PlainWrap,
        ),
        (
            "run_command",
            r#""ls -la""#,
            json!({"cmd":"ls -la"}),
            Strategy::PlainWrap,
        ),
        // a double-encoded object is unwrapped once
        (
            "fs",
            r#""{\"cmd\":\"read\",\"file\":\"main.go\"}""#,
            json!({"cmd":"read","file":"main.go"}),
            Strategy::Unwrapped,
        ),
        // empty, null, [] → {}
        ("read_file", "", json!({}), Strategy::Empty),
        ("read_file", "  \n ", json!({}), Strategy::Empty),
        ("read_file", "null", json!({}), Strategy::Empty),
        ("read_file", "[]", json!({}), Strategy::Empty),
        ("read_file", "{}", json!({}), Strategy::Empty),
        // Python's null, and a fence holding only null, for a tool with no primary field too
        ("workspace", "None", json!({}), Strategy::Empty),
        (
            "workspace",
            "```json\nnull\n```",
            json!({}),
            Strategy::Empty,
        ),
        ("read_file", r#""""#, json!({}), Strategy::Empty),
    ];
    for (tool, raw, want, strategy) in cases {
        check(tool, raw, want.clone(), *strategy);
    }
}

#[test]
fn builtin_map_covers_the_issue_names() {
    let map = ToolMap::builtin();
    let cases = [
        ("read_file", "file"),
        ("write_file", "file"),
        ("list_directory", "dir"),
        ("search_files", "term"),
        ("run_command", "cmd"),
        ("run_tests", "dir"),
        ("read", "file"),
        ("write", "file"),
        ("exec", "cmd"),
        ("search", "term"),
        ("tree", "dir"),
        ("bash", "command"),
        ("shell", "command"),
        ("Bash", "command"),
        ("Read", "file_path"),
        ("Write", "file_path"),
        ("Edit", "file_path"),
        ("Glob", "pattern"),
        ("Grep", "pattern"),
        ("web_search", "query"),
        ("fetch", "url"),
        ("functions.read_file", "file"),
        ("mcp__fs__read_file", "file"),
    ];
    for (tool, field) in cases {
        assert_eq!(map.primary_field(tool), Some(field), "{tool}");
    }
    assert_eq!(map.primary_field("send_email"), None);
    assert_eq!(map.primary_field("no_such_tool"), None);
    assert!(map.entries().len() >= 30);
}

#[test]
fn user_maps_extend_and_override() {
    let toml = "[tools]\nmy_tool = \"target\"\nread_file = \"path\"\nbash = \"\"\n";
    let json = r#"{"tools": {"my_tool": "target", "read_file": "path", "bash": ""}}"#;
    let flat = r#"{"my_tool": "target", "read_file": "path", "bash": ""}"#;
    for user in [
        ToolMap::from_toml_str(toml).unwrap(),
        ToolMap::from_json_str(json).unwrap(),
        ToolMap::from_json_str(flat).unwrap(),
    ] {
        assert_eq!(user.primary_field("my_tool"), Some("target"));
        assert_eq!(
            user.primary_field("write_file"),
            None,
            "a user map alone has no built-ins"
        );
        let mut map = ToolMap::builtin();
        map.extend(user);
        assert_eq!(map.primary_field("my_tool"), Some("target"));
        assert_eq!(map.primary_field("read_file"), Some("path"));
        assert_eq!(map.primary_field("write_file"), Some("file"));
        assert_eq!(
            map.primary_field("bash"),
            None,
            "an empty field removes the entry"
        );
    }
    for bad in ["[tools]\nx = 3\n", "not = [toml", ""] {
        if bad.is_empty() {
            assert!(ToolMap::from_toml_str(bad).unwrap().entries().is_empty());
            continue;
        }
        let err = ToolMap::from_toml_str(bad).unwrap_err();
        assert!(err.to_string().starts_with("invalid tool map"), "{err}");
    }
    for bad in [r#"{"x": 3}"#, "[1]", "{"] {
        let err = ToolMap::from_json_str(bad).unwrap_err();
        assert!(err.to_string().starts_with("invalid tool map"), "{err}");
    }
}

#[test]
fn schema_derives_the_primary_field() {
    let cases = [
        (
            json!({"type":"object","properties":{"q":{"type":"string"}},"required":["q"]}),
            Some("q"),
        ),
        (
            json!({"type":"object","properties":{"q":{"type":"string"}}}),
            Some("q"),
        ),
        (
            json!({"type":"object","properties":{"path":{"type":"string"},"limit":{"type":"integer"}},"required":["path","limit"]}),
            Some("path"),
        ),
        (
            json!({"type":"object","properties":{"a":{"type":"string"},"b":{"type":"string"}},"required":["a","b"]}),
            None,
        ),
        (
            json!({"type":"object","properties":{"a":{"type":"string"},"b":{"type":"string"}}}),
            None,
        ),
        (json!({"type":"object"}), None),
        (
            json!({"type":"object","properties":{"n":{"type":["string","null"]},"m":{}},"required":["n"]}),
            Some("n"),
        ),
    ];
    for (schema, want) in cases {
        assert_eq!(
            primary_field_from_schema(&schema).as_deref(),
            want,
            "{schema}"
        );
    }
}

fn with_schema(schema: Value) -> ArgsOptions {
    ArgsOptions {
        parameters: Some(schema),
        ..ArgsOptions::default()
    }
}

#[test]
fn schema_field_wins_over_the_map() {
    let opts = with_schema(json!({
        "type": "object",
        "properties": {"path": {"type": "string"}, "offset": {"type": "integer"}},
        "required": ["path"]
    }));
    let n = normalize("read_file", "main.go", &opts).unwrap();
    assert_eq!(n.to_json_string(), r#"{"path":"main.go"}"#);

    // CLI flags follow the schema's types: a boolean flag takes no value, a string stays text.
    let opts = with_schema(json!({
        "type": "object",
        "properties": {
            "path": {"type": "string"}, "recursive": {"type": "boolean"},
            "depth": {"type": "integer"}, "name": {"type": "string"}
        },
        "required": ["path"]
    }));
    let n = normalize("list", "--recursive src --depth 2 --name 007", &opts).unwrap();
    assert_eq!(
        n.to_json_string(),
        r#"{"path":"src","recursive":true,"depth":2,"name":"007"}"#
    );
    assert_eq!(n.strategy, Strategy::CliArgs);

    // A map field the schema does not have is not used.
    let opts = with_schema(json!({
        "type": "object",
        "properties": {"a": {"type": "string"}, "b": {"type": "string"}},
        "required": ["a", "b"]
    }));
    let err = normalize("read_file", "main.go", &opts).unwrap_err();
    assert!(matches!(err.kind(), ErrorKind::NotAnObject(_)), "{err}");
}

#[test]
fn typed_wrap_and_lists_follow_the_schema() {
    let opts = with_schema(json!({
        "type": "object",
        "properties": {"files": {"type": "array", "items": {"type": "string"}}},
        "required": ["files"]
    }));
    let n = normalize("open", r#"["a.go", "b.go"]"#, &opts).unwrap();
    assert_eq!(n.to_json_string(), r#"{"files":["a.go","b.go"]}"#);
    assert_eq!(n.strategy, Strategy::PlainWrap);
    let n = normalize("open", "a.go", &opts).unwrap();
    assert_eq!(n.to_json_string(), r#"{"files":["a.go"]}"#);

    let opts = with_schema(json!({"type":"object","properties":{"page":{"type":"integer"}}}));
    let n = normalize("goto_page", "12", &opts).unwrap();
    assert_eq!(n.to_json_string(), r#"{"page":12}"#);
}

#[test]
fn shapes_that_cannot_be_objects_are_errors() {
    let opts = ArgsOptions::default();
    let cases = [
        ("read_file", "[1, 2]"),
        ("read_file", r#"[{"file": "a"}]"#),
        ("no_such_tool", "main.go"),
        ("no_such_tool", "42"),
        ("send_email", "hello"),
        ("read_file", r#""[1, 2]""#),
    ];
    for (tool, raw) in cases {
        let err = normalize(tool, raw, &opts).unwrap_err();
        assert!(
            matches!(err.kind(), ErrorKind::NotAnObject(_)),
            "{tool} {raw:?}: {err}"
        );
        let msg = err.to_string();
        assert!(msg.starts_with("arguments are not an object: "), "{msg}");
    }
}

#[test]
fn command_tools_keep_shell_syntax() {
    let cases = [
        ("bash", "{ echo a; echo b; } > out.txt"),
        ("run_command", "[ -f go.mod ] && go build ./..."),
        ("bash", "echo: hello"),
        ("bash", "'unbalanced"),
    ];
    for (tool, raw) in cases {
        let n = run(tool, raw);
        let field = ToolMap::builtin().primary_field(tool).unwrap().to_owned();
        assert_eq!(n.value.get(&field), Some(&json!(raw)), "{tool} {raw:?}");
        assert_eq!(n.value.len(), 1);
        assert_eq!(n.strategy, Strategy::PlainWrap);
    }
    // A real object for a command tool is still an object.
    check(
        "bash",
        r#"{command: "ls -la", timeout: 30}"#,
        json!({"command":"ls -la","timeout":30}),
        Strategy::UnquotedKeys,
    );
    check(
        "bash",
        "{'command': 'ls'}",
        json!({"command":"ls"}),
        Strategy::SingleQuotes,
    );
}

#[test]
fn members_without_braces_and_quoted_plain_values() {
    check(
        "read_file",
        r#""file": "main.go""#,
        json!({"file":"main.go"}),
        Strategy::Repaired,
    );
    check(
        "read_file",
        "file: main.go",
        json!({"file":"main.go"}),
        Strategy::ObjectLiteral,
    );
    check(
        "read_file",
        "'main.go'",
        json!({"file":"main.go"}),
        Strategy::PlainWrap,
    );
    check(
        "read_file",
        "\u{201C}main.go\u{201D}",
        json!({"file":"main.go"}),
        Strategy::PlainWrap,
    );
    check(
        "fetch",
        "https://example.com/a?b=c",
        json!({"url":"https://example.com/a?b=c"}),
        Strategy::PlainWrap,
    );
    check(
        "search_files",
        "TODO: fix",
        json!({"term":"TODO: fix"}),
        Strategy::PlainWrap,
    );
    check(
        "read_file",
        "```json\n{\"file\": \"a.go\"}\n```",
        json!({"file":"a.go"}),
        Strategy::Repaired,
    );
}

#[test]
fn typographic_quotes_as_delimiters_are_repaired() {
    let n = run("fs", "{\u{201C}cmd\u{201D}: \u{201C}read\u{201D}, \u{201C}file\u{201D}: \u{201C}main.go\u{201D}}");
    assert_eq!(n.to_json_string(), r#"{"cmd":"read","file":"main.go"}"#);
    assert!(n
        .repairs
        .iter()
        .any(|r| r.kind() == RepairKind::TypographicQuotes));
}

#[test]
fn quotes_inside_values_follow_the_mode() {
    let raw = r#"{"file_path": "main.go", "content": "fmt.Println(“hi”)"}"#;
    let prose = r#"{"file_path": "notes.md", "content": "She said “hi”"}"#;
    let mode = |quotes| ArgsOptions {
        quotes,
        ..ArgsOptions::default()
    };
    let n = normalize("Write", raw, &mode(QuoteMode::Code)).unwrap();
    assert_eq!(n.value["content"], json!("fmt.Println(\"hi\")"));
    assert_eq!(n.quotes_folded, 1);
    let n = normalize("Write", prose, &mode(QuoteMode::Code)).unwrap();
    assert_eq!(n.value["content"], json!("She said “hi”"));
    assert_eq!(n.quotes_folded, 0);
    let n = normalize("Write", prose, &mode(QuoteMode::Always)).unwrap();
    assert_eq!(n.value["content"], json!("She said \"hi\""));
    let n = normalize("Write", raw, &mode(QuoteMode::Never)).unwrap();
    assert_eq!(n.value["content"], json!("fmt.Println(“hi”)"));
    // Escaped in the JSON text, folded all the same.
    let escaped = r#"{"path": "a.py", "code": "print(\u201chi\u201d)"}"#;
    let n = normalize("edit", escaped, &mode(QuoteMode::Code)).unwrap();
    assert_eq!(n.value["code"], json!("print(\"hi\")"));
}

#[test]
fn repairs_point_into_the_raw_input() {
    let raw = "  {'cmd': 'read'}";
    let n = run("fs", raw);
    assert!(!n.repairs.is_empty());
    for r in &n.repairs {
        assert!(
            r.span().end <= raw.len() && r.span().start <= r.span().end,
            "{r:?}"
        );
    }
    assert!(
        n.repairs.iter().all(|r| r.span().start >= 2),
        "{:?}",
        n.repairs
    );
}

#[test]
fn strategy_names_are_snake_case_and_round_trip() {
    for s in Strategy::ALL {
        assert_eq!(Strategy::from_name(s.name()), Some(s));
        assert_eq!(serde_json::to_value(s).unwrap(), json!(s.name()));
    }
    assert_eq!(Strategy::QuotesAndKeys.name(), "quotes_and_keys");
}

#[test]
fn truncated_arguments_are_completed_and_flagged() {
    let n = run("fs", r#"{"cmd": "read", "file": "main"#);
    assert_eq!(n.value["cmd"], json!("read"));
    assert!(n.is_truncated());
}

#[test]
fn deep_nesting_is_an_error_not_a_panic() {
    let deep = format!("{}{}", "{\"a\":".repeat(5000), "1");
    let res = normalize("fs", &deep, &ArgsOptions::default());
    if let Err(e) = res {
        assert!(matches!(e.kind(), ErrorKind::TooDeep), "{e}");
    }
}

#[test]
fn fences_and_objects_with_prose() {
    check(
        "bash",
        "```bash\nls -la\n```",
        json!({"command":"ls -la"}),
        Strategy::PlainWrap,
    );
    check(
        "read_file",
        "```\nmain.go\n```",
        json!({"file":"main.go"}),
        Strategy::PlainWrap,
    );
    check(
        "bash",
        r#"{"command": "ls -la"} -- this lists the files"#,
        json!({"command":"ls -la"}),
        Strategy::Repaired,
    );
    check(
        "bash",
        "```json\n{\"command\": \"ls\"}\n```",
        json!({"command":"ls"}),
        Strategy::Repaired,
    );
}

/// Found by the blind corpus: arguments wrapped in prose, a comment, a reasoning block or a
/// fence are taken for command tools too; a fenced double-encoded object is unwrapped; an
/// empty fence is no arguments.
#[test]
fn wrapped_arguments_for_command_tools_and_fenced_strings() {
    for raw in [
        r#"/* args */ {"cmd": "ls"}"#,
        r#"Sure! {"cmd": "ls"}"#,
        r#"<think>list files</think>{"cmd": "ls"}"#,
        "Running:\n```json\n{\"cmd\": \"ls\"}\n```",
    ] {
        check("run_command", raw, json!({"cmd":"ls"}), Strategy::Repaired);
    }
    // A command line holding JSON does not end with it: a command.
    check(
        "run_command",
        r#"echo '{"cmd": 1}' | jq .cmd"#,
        json!({"cmd": r#"echo '{"cmd": 1}' | jq .cmd"#}),
        Strategy::PlainWrap,
    );
    check(
        "read_file",
        "```json\n\"{\\\"file\\\": \\\"main.go\\\"}\"\n```",
        json!({"file":"main.go"}),
        Strategy::Unwrapped,
    );
    check("read_file", "```json\n\n```", json!({}), Strategy::Empty);
    check("run_command", "```\n```", json!({}), Strategy::Empty);
}

/// `--k="v"`: a flag whose value after `=` is quoted.
#[test]
fn cli_flags_with_quoted_values_after_equals() {
    check(
        "workspace",
        r#"note --text="multi word value" --tag work"#,
        json!({"cmd":"note","text":"multi word value","tag":"work"}),
        Strategy::CliArgs,
    );
    check(
        "search_files",
        r#"--term="fn main" --path src"#,
        json!({"term":"fn main","path":"src"}),
        Strategy::CliArgs,
    );
    check(
        "workspace",
        "run --n='5'",
        json!({"cmd":"run","n":"5"}),
        Strategy::CliArgs,
    );
}

#[test]
fn cli_args_flag_and_positionals_merge() {
    check(
        "fs",
        "run --args x a b",
        json!({"cmd":"run","args":["x","a","b"]}),
        Strategy::CliArgs,
    );
}

#[test]
fn prose_around_arguments_and_cut_strings() {
    check(
        "read_file",
        r#"Sure! Here: {"file": "a.go"} hope it helps"#,
        json!({"file":"a.go"}),
        Strategy::Repaired,
    );
    check(
        "fs",
        "<think>which file?</think>{\"cmd\": \"read\"}",
        json!({"cmd":"read"}),
        Strategy::Repaired,
    );
    // Code that contains an object literal stays code.
    check(
        "python",
        r#"d = {"a": 1}"#,
        json!({"code":"d = {\"a\": 1}"}),
        Strategy::PlainWrap,
    );
    check(
        "search_files",
        "'it's'",
        json!({"term":"it's"}),
        Strategy::PlainWrap,
    );
    let n = run("read_file", "\"main.go");
    assert_eq!(n.to_json_string(), r#"{"file":"main.go"}"#);
    assert!(n.is_truncated());
}

#[test]
fn braces_in_prose_are_not_objects() {
    let err = normalize("mystery", "please set {x} here", &ArgsOptions::default()).unwrap_err();
    assert!(matches!(err.kind(), ErrorKind::NotAnObject(_)), "{err}");
    check(
        "Glob",
        "src/**/*.{ts,tsx}",
        json!({"pattern":"src/**/*.{ts,tsx}"}),
        Strategy::PlainWrap,
    );
}
