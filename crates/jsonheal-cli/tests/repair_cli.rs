//! `jsonheal repair` end to end: the real binary, its output, messages and exit codes.
#![allow(clippy::unwrap_used)]

use std::io::Write;

mod common;

use common::{jsonheal, spawn, stderr, stdout};

#[test]
fn repairs_stdin_and_exits_zero() {
    let o = jsonheal(&["repair"], "{a: 'x', b: [1, 2,],}");
    assert_eq!(o.status.code(), Some(0));
    assert_eq!(stdout(&o), "{\"a\":\"x\",\"b\":[1,2]}\n");
}

#[test]
fn valid_input_is_printed_as_it_is() {
    let doc = "{\n  \"a\": 1.10,\n  \"b\": 1e2\n}";
    let o = jsonheal(&["repair", "-"], doc);
    assert_eq!(stdout(&o), format!("{doc}\n"));
}

#[test]
fn pretty_and_compact() {
    let o = jsonheal(&["repair", "--pretty"], "{'a': [1]}");
    assert_eq!(stdout(&o), "{\n  \"a\": [\n    1\n  ]\n}\n");
    let o = jsonheal(&["repair", "--compact"], "{ \"a\" : [ 1 ] }");
    assert_eq!(stdout(&o), "{\"a\":[1]}\n");
    // Numbers and escapes stay as written: only the layout changes.
    let doc = "{\"n\": 1e2, \"m\": 1E5, \"f\": 1.10, \"s\": \"caf\\u00e9\"}";
    let o = jsonheal(&["repair", "--compact"], doc);
    assert_eq!(
        stdout(&o),
        "{\"n\":1e2,\"m\":1E5,\"f\":1.10,\"s\":\"caf\\u00e9\"}\n"
    );
    let o = jsonheal(&["repair", "--pretty"], doc);
    assert!(
        stdout(&o).contains("  \"n\": 1e2,\n  \"m\": 1E5,"),
        "{}",
        stdout(&o)
    );
}

#[test]
fn explain_lists_repairs_with_line_and_column() {
    let o = jsonheal(&["repair", "--explain"], "{\n  a: 1,\n}");
    assert_eq!(o.status.code(), Some(0));
    let err = stderr(&o);
    assert!(err.contains("2:3 unquoted_key: quoted a bare key"), "{err}");
    assert!(
        err.contains("2:7 trailing_comma: removed a trailing comma"),
        "{err}"
    );
}

#[test]
fn no_json_exits_one_with_a_message() {
    let o = jsonheal(&["repair"], "I'm sorry, I can't do that.");
    assert_eq!(o.status.code(), Some(1));
    assert_eq!(stdout(&o), "");
    assert_eq!(stderr(&o), "jsonheal: no JSON found\n");
}

#[test]
fn strict_reports_the_first_fault() {
    let o = jsonheal(&["repair", "--strict"], "{\"a\" 1}");
    assert_eq!(o.status.code(), Some(1));
    assert_eq!(stderr(&o), "jsonheal: expected `:` at line 1 column 6\n");
    let ok = jsonheal(&["repair", "--strict"], "[1]");
    assert_eq!(ok.status.code(), Some(0));
}

#[test]
fn usage_errors_exit_two() {
    let o = jsonheal(&["repair", "--no-such-flag"], "");
    assert_eq!(o.status.code(), Some(2));
    let o = jsonheal(&["repair", "/no/such/file.json"], "");
    assert_eq!(o.status.code(), Some(2));
    assert!(
        stderr(&o).contains("cannot open /no/such/file.json"),
        "{}",
        stderr(&o)
    );
}

#[test]
fn policies_are_flags() {
    let o = jsonheal(&["repair", "--multiple", "last"], "{\"a\":1}\n{\"a\":2}");
    assert_eq!(stdout(&o), "{\"a\":2}\n");
    let o = jsonheal(&["repair", "--non-finite", "error"], "[NaN]");
    assert_eq!(o.status.code(), Some(1));
    let o = jsonheal(
        &["repair", "--duplicate-keys", "first"],
        "{\"a\":1,\"a\":2}",
    );
    assert_eq!(stdout(&o), "{\"a\":1}\n");
}

#[test]
fn jsonl_batch_keeps_order_and_survives_bad_lines() {
    let mut input = String::new();
    for i in 0..10_000 {
        input.push_str(&format!("{{\"id\": {i}, \"input\": \"{{a: {i},}}\"}}\n"));
    }
    input.push_str("this line is not JSON\n");
    input.push_str("{\"id\": \"x\", \"input\": \"no json here\"}\n");
    input.push_str("{\"id\": \"y\"}\n");
    let o = jsonheal(&["repair", "--jsonl"], &input);
    assert_eq!(o.status.code(), Some(0));
    let out = stdout(&o);
    let lines: Vec<serde_json::Value> = out
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(lines.len(), 10_003);
    for (i, line) in lines.iter().take(10_000).enumerate() {
        assert_eq!(line["id"], i);
        assert_eq!(line["ok"], true);
        assert_eq!(line["value"]["a"], i);
        assert_eq!(line["repairs"][0]["kind"], "unquoted_key");
    }
    assert_eq!(lines[10_000]["ok"], false);
    assert!(lines[10_000]["error"]
        .as_str()
        .unwrap()
        .starts_with("malformed input line"));
    assert_eq!(lines[10_001]["id"], "x");
    assert_eq!(lines[10_001]["error"], "no JSON found");
    assert_eq!(lines[10_002]["id"], "y");
    assert_eq!(lines[10_002]["ok"], false);
}

#[test]
fn jsonl_output_stays_one_record_per_line() {
    let input = "{\"id\": 1, \"input\": \"{\\n  \\\"a\\\": 1\\n}\"}\n";
    let o = jsonheal(&["repair", "--jsonl"], input);
    let out = stdout(&o);
    assert_eq!(out.lines().count(), 1, "{out}");
    let v: serde_json::Value = serde_json::from_str(out.trim()).unwrap();
    assert_eq!(v["value"]["a"], 1);
}

#[test]
fn closed_pipe_is_not_an_error() {
    let mut input = String::new();
    for i in 0..200_000 {
        input.push_str(&format!("{{\"id\": {i}, \"input\": \"[1, 2,]\"}}\n"));
    }
    let mut child = spawn(&["repair", "--jsonl"]);
    let mut stdin = child.stdin.take().unwrap();
    let writer = std::thread::spawn(move || {
        let _ = stdin.write_all(input.as_bytes());
    });
    // Read one line, then close our end of the pipe.
    let mut out = child.stdout.take().unwrap();
    let mut buf = [0u8; 64];
    let _ = std::io::Read::read(&mut out, &mut buf).unwrap();
    drop(out);
    let status = child.wait().unwrap();
    let _ = writer.join();
    assert_eq!(status.code(), Some(0));
}

/// `--stream` prints a line for what has arrived while the input is still open: the first
/// piece's line comes back before the second piece is written.
fn stream_lines_arrive_before_the_input_ends(args: &[&str], first_line: &str, rest: &[&str]) {
    use std::io::BufRead;
    let mut child = spawn(args);
    let mut stdin = child.stdin.take().unwrap();
    let mut out = std::io::BufReader::new(child.stdout.take().unwrap());
    stdin
        .write_all(b"Here you go: {\"name\": \"Ada\", \"tags\": [")
        .unwrap();
    stdin.flush().unwrap();
    let mut line = String::new();
    out.read_line(&mut line).unwrap();
    assert_eq!(line, first_line);
    stdin.write_all(b"'x'], \"n\": 7}").unwrap();
    drop(stdin);
    let lines: Vec<String> = out.lines().map(Result::unwrap).collect();
    assert_eq!(lines, rest);
    assert_eq!(child.wait().unwrap().code(), Some(0));
}

#[test]
fn stream_prints_snapshots_as_the_input_arrives() {
    stream_lines_arrive_before_the_input_ends(
        &["repair", "--stream"],
        "{\"name\":\"Ada\",\"tags\":[]}\n",
        &[
            "{\"name\":\"Ada\",\"tags\":[\"x\"],\"n\":7}",
            "{\"name\":\"Ada\",\"tags\":[\"x\"],\"n\":7}",
        ],
    );
}

#[test]
fn stream_events_print_changes_as_the_input_arrives() {
    // The first read brings three events; the line read first is the root's.
    stream_lines_arrive_before_the_input_ends(
        &["repair", "--stream", "--events"],
        "{\"path\":\"\",\"set\":{}}\n",
        &[
            "{\"path\":\"/name\",\"set\":\"Ada\"}",
            "{\"path\":\"/tags\",\"set\":[]}",
            "{\"path\":\"/tags/0\",\"set\":\"x\"}",
            "{\"path\":\"/n\",\"set\":7}",
            "{\"final\":{\"name\":\"Ada\",\"tags\":[\"x\"],\"n\":7}}",
        ],
    );
}

#[test]
fn stream_takes_the_policies_and_explain() {
    let o = jsonheal(
        &[
            "repair",
            "--stream",
            "--explain",
            "--duplicate-keys",
            "first",
        ],
        "{'a': 1, 'a': 2}",
    );
    assert_eq!(o.status.code(), Some(0));
    assert_eq!(stdout(&o).lines().last(), Some("{\"a\":1}"));
    assert!(stderr(&o).contains("1:2 single_quotes"), "{}", stderr(&o));
    // `--events` belongs to `--stream`.
    let o = jsonheal(&["repair", "--events"], "{}");
    assert_eq!(o.status.code(), Some(2));
}
