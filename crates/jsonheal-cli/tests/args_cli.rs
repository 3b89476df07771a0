//! `jsonheal args`, `quotes` and `tool-input` run as a user would: exit codes, stdout,
//! stderr, and the `--jsonl` batch.
#![allow(clippy::unwrap_used)]

use serde_json::{json, Value};

mod common;

use common::{jsonheal, stderr, stdout};

fn tmp(name: &str, content: &str) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("jsonheal-args-cli-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join(name);
    std::fs::write(&path, content).unwrap();
    path
}

#[test]
fn args_prints_the_object_and_exits_0() {
    let o = jsonheal(&["args", "--tool", "read_file"], "main.go\n");
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert_eq!(stdout(&o), "{\"file\":\"main.go\"}\n");
    assert_eq!(stderr(&o), "");
}

#[test]
fn explain_names_strategy_and_repairs() {
    let o = jsonheal(&["args", "--tool", "fs", "--explain"], "{cmd: 'read'}");
    assert_eq!(o.status.code(), Some(0));
    assert_eq!(stdout(&o), "{\"cmd\":\"read\"}\n");
    let err = stderr(&o);
    assert!(err.contains("strategy: quotes_and_keys"), "{err}");
    assert!(err.contains("unquoted_key"), "{err}");
    assert!(err.contains("single_quotes"), "{err}");
}

#[test]
fn no_honest_object_exits_1_with_a_message() {
    let o = jsonheal(&["args", "--tool", "read_file"], "[1, 2]");
    assert_eq!(o.status.code(), Some(1));
    assert_eq!(stdout(&o), "");
    assert!(
        stderr(&o).contains("arguments are not an object"),
        "{}",
        stderr(&o)
    );
    let o = jsonheal(&["args", "--tool", "mystery"], "hello");
    assert_eq!(o.status.code(), Some(1));
}

#[test]
fn usage_and_io_errors_exit_2() {
    let o = jsonheal(&["args"], "x");
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("--tool"), "{}", stderr(&o));
    let o = jsonheal(&["args", "--tool", "x", "/no/such/file"], "");
    assert_eq!(o.status.code(), Some(2));
    let o = jsonheal(&["args", "--tool", "x", "--quotes", "sometimes"], "");
    assert_eq!(o.status.code(), Some(2));
    let bad_map = tmp("bad.toml", "[tools]\nx = 3\n");
    let o = jsonheal(
        &["args", "--tool", "x", "--map", bad_map.to_str().unwrap()],
        "a",
    );
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("invalid tool map"), "{}", stderr(&o));
}

#[test]
fn map_and_schema_files() {
    let map = tmp("map.toml", "[tools]\nmy_tool = \"target\"\n");
    let o = jsonheal(
        &["args", "--tool", "my_tool", "--map", map.to_str().unwrap()],
        "x.go",
    );
    assert_eq!(stdout(&o), "{\"target\":\"x.go\"}\n", "{}", stderr(&o));
    let map = tmp("map.json", r#"{"tools": {"my_tool": "dest"}}"#);
    let o = jsonheal(
        &["args", "--tool", "my_tool", "--map", map.to_str().unwrap()],
        "x.go",
    );
    assert_eq!(stdout(&o), "{\"dest\":\"x.go\"}\n");

    // A bare parameters schema, an OpenAI tool definition, a list of them.
    let params =
        json!({"type":"object","properties":{"path":{"type":"string"}},"required":["path"]});
    let bare = tmp("params.json", &params.to_string());
    let def = tmp(
        "def.json",
        &json!({"type":"function","function":{"name":"read_file","parameters":params}}).to_string(),
    );
    let list = tmp(
        "tools.json",
        &json!([{"type":"function","function":{"name":"read_file","parameters":params}},
                {"name":"other","input_schema":{"type":"object","properties":{"q":{"type":"string"}}}}])
        .to_string(),
    );
    let o = jsonheal(
        &["args", "--tool", "nope", "--schema", def.to_str().unwrap()],
        "a.go",
    );
    assert_eq!(o.status.code(), Some(2));
    assert!(
        stderr(&o).contains("defines no tool \"nope\""),
        "{}",
        stderr(&o)
    );
    for schema in [&bare, &def, &list] {
        let o = jsonheal(
            &[
                "args",
                "--tool",
                "read_file",
                "--schema",
                schema.to_str().unwrap(),
            ],
            "a.go",
        );
        assert_eq!(stdout(&o), "{\"path\":\"a.go\"}\n", "{}", stderr(&o));
    }
}

#[test]
fn quotes_mode_flag() {
    let input = r#"{"file_path": "notes.md", "content": "say “hi”"}"#;
    let o = jsonheal(&["args", "--tool", "Write"], input);
    assert!(stdout(&o).contains("say “hi”"));
    let o = jsonheal(&["args", "--tool", "Write", "--quotes", "always"], input);
    assert!(stdout(&o).contains(r#"say \"hi\""#), "{}", stdout(&o));
}

#[test]
fn jsonl_batch_keeps_order_and_survives_bad_lines() {
    let input = [
        r#"{"id": 1, "tool": "read_file", "input": "main.go"}"#,
        "this is not json",
        r#"{"id": "b", "tool": "fs", "input": "{cmd: 'read'}"}"#,
        "",
        r#"{"id": 3, "tool": "read_file", "input": "[1, 2]"}"#,
        r#"{"id": 4, "tool": "Read", "input": {"file_path": "/a"}}"#,
        r#"{"id": 5, "input": "x"}"#,
        r#"{"id": 6, "tool": "fs"}"#,
    ]
    .join("\n");
    let o = jsonheal(&["args", "--jsonl"], &input);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let lines: Vec<Value> = stdout(&o)
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(
        lines.len(),
        7,
        "blank lines are skipped, every other line answered"
    );
    assert_eq!(
        lines[0],
        json!({"id":1,"ok":true,"value":{"file":"main.go"},"strategy":"plain_wrap","truncated":false,"repairs":[]})
    );
    assert_eq!(lines[1]["ok"], json!(false));
    assert_eq!(lines[1]["id"], Value::Null);
    assert!(lines[1]["error"].as_str().unwrap().starts_with("line 2:"));
    assert_eq!(lines[2]["id"], json!("b"));
    assert_eq!(lines[2]["strategy"], json!("quotes_and_keys"));
    assert_eq!(lines[2]["repairs"][0]["kind"], json!("unquoted_key"));
    assert_eq!(lines[3]["ok"], json!(false));
    assert!(lines[3]["error"]
        .as_str()
        .unwrap()
        .contains("not an object"));
    assert_eq!(lines[4]["value"], json!({"file_path": "/a"}));
    assert!(lines[5]["error"].as_str().unwrap().contains("no \"tool\""));
    assert!(lines[6]["error"].as_str().unwrap().contains("no \"input\""));

    // --tool is the default tool of the batch.
    let o = jsonheal(
        &["args", "--jsonl", "--tool", "read_file"],
        r#"{"id": 5, "input": "x"}"#,
    );
    assert!(
        stdout(&o).contains(r#""value":{"file":"x"}"#),
        "{}",
        stdout(&o)
    );
}

#[test]
fn jsonl_large_batch_in_order_across_chunks() {
    let n = 10_000;
    let mut input = String::new();
    for i in 0..n {
        input.push_str(&format!(
            "{{\"id\":{i},\"tool\":\"read_file\",\"input\":\"f{i}.go\"}}\n"
        ));
    }
    let o = jsonheal(&["args", "--jsonl"], &input);
    assert_eq!(o.status.code(), Some(0));
    let out = stdout(&o);
    let mut count = 0;
    for (i, line) in out.lines().enumerate() {
        let v: Value = serde_json::from_str(line).unwrap();
        assert_eq!(v["id"], json!(i));
        assert_eq!(v["value"]["file"], json!(format!("f{i}.go")));
        count += 1;
    }
    assert_eq!(count, n);
}

#[test]
fn quotes_command_folds_a_file() {
    let o = jsonheal(&["quotes"], "print(“hi”) # it’s «x»\n");
    assert_eq!(o.status.code(), Some(0));
    assert_eq!(stdout(&o), "print(\"hi\") # it's <<x>>\n");
}

#[test]
fn tool_input_encode_and_decode() {
    let cases = [
        ("encode", r#"{"a": 1}"#, "{\"a\":1}\n", 0),
        ("encode", r#""{\"a\":1}""#, "{\"a\":1}\n", 0),
        ("encode", "[1]", "{}\n", 1),
        ("encode", "not json", "{}\n", 1),
        ("encode", "", "{}\n", 1),
        ("decode", r#"{"a": 1}"#, "{\"a\":1}\n", 0),
        ("decode", r#""{\"a\":1}""#, "{\"a\":1}\n", 0),
        ("decode", "42", "{}\n", 1),
        ("decode", "", "{}\n", 1),
    ];
    for (dir, input, want, code) in cases {
        let o = jsonheal(&["tool-input", dir], input);
        assert_eq!(stdout(&o), want, "{dir} {input:?}");
        assert_eq!(o.status.code(), Some(code), "{dir} {input:?}");
        if code == 1 {
            assert!(stderr(&o).contains("replaced by {}"), "{}", stderr(&o));
        }
    }
    let o = jsonheal(&["tool-input", "sideways"], "");
    assert_eq!(o.status.code(), Some(2));
}

#[test]
fn cut_off_arguments_warn_and_exit_3_and_are_flagged_in_jsonl() {
    let o = jsonheal(&["args", "--tool", "read_file"], r#"{"path": "src/ma"#);
    assert_eq!(o.status.code(), Some(3), "{}", stderr(&o));
    assert_eq!(stdout(&o), "{\"path\":\"src/ma\"}\n");
    assert!(stderr(&o).contains("cut off"), "{}", stderr(&o));

    let input = [
        json!({"id": 1, "tool": "read_file", "input": "{\"path\": \"src/ma"}),
        json!({"id": 2, "tool": "read_file", "input": "{\"path\": \"a.rs\"}"}),
        json!({"id": 3, "tool": "read_file", "input": "[1]"}),
    ]
    .map(|v| v.to_string())
    .join("\n");
    let o = jsonheal(&["args", "--jsonl"], &input);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let lines: Vec<Value> = stdout(&o)
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(lines[0]["truncated"], true);
    assert_eq!(lines[1]["truncated"], false);
    assert_eq!(lines[2]["truncated"], false);
    assert_eq!(lines[2]["ok"], false);
}
