//! Running the built `jsonheal` binary from the CLI tests.
#![allow(dead_code, clippy::unwrap_used)]

use std::io::Write;
use std::process::{Child, Command, Output, Stdio};

/// The built `jsonheal`, blind to a developer's configuration.
pub fn command() -> Command {
    let mut c = Command::new(env!("CARGO_BIN_EXE_jsonheal"));
    for var in [
        "JSONHEAL_CONFIG",
        "JSONHEAL_DATABASE",
        "JSONHEAL_DB",
        "JSONHEAL_UPSTREAM",
    ] {
        c.env_remove(var);
    }
    c
}

/// Start `jsonheal ARGS` with all three streams piped.
pub fn spawn(args: &[&str]) -> Child {
    command()
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap()
}

/// Run `jsonheal ARGS` with `stdin` as its input and collect everything it wrote.
pub fn jsonheal(args: &[&str], stdin: &str) -> Output {
    let mut child = spawn(args);
    let mut input = child.stdin.take().unwrap();
    let data = stdin.as_bytes().to_vec();
    // Write from a thread: a large batch fills the output pipe before its input is written.
    let writer = std::thread::spawn(move || {
        let _ = input.write_all(&data);
    });
    let out = child.wait_with_output().unwrap();
    writer.join().unwrap();
    out
}

pub fn stdout(o: &Output) -> String {
    String::from_utf8(o.stdout.clone()).unwrap()
}

pub fn stderr(o: &Output) -> String {
    String::from_utf8(o.stderr.clone()).unwrap()
}
