//! `jsonheal accounts` and `jsonheal serve` as a user runs them.
#![allow(clippy::unwrap_used)]

mod common;

use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::path::PathBuf;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use common::command as jsonheal;

fn temp_dir(tag: &str) -> PathBuf {
    let nanos = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .unwrap()
        .as_nanos();
    let p = std::env::temp_dir().join(format!("jsonheal-cli-{tag}-{}-{nanos}", std::process::id()));
    std::fs::create_dir_all(&p).unwrap();
    p
}

fn run(args: &[&str]) -> (i32, String, String) {
    let out = jsonheal().args(args).output().unwrap();
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

#[test]
fn accounts_lifecycle() {
    let dir = temp_dir("accounts");
    let db = dir.join("a.db").display().to_string();
    let (code, key, err) = run(&[
        "accounts",
        "--db",
        &db,
        "create",
        "acme",
        "--auto-heal",
        "--max-attempts",
        "4",
    ]);
    assert_eq!(code, 0, "{err}");
    let key = key.trim();
    assert!(
        key.starts_with("jh_") && key.len() == 67,
        "stdout is the key alone: {key:?}"
    );
    assert!(err.contains("shown only once"), "{err}");

    let (code, list, _) = run(&["accounts", "--db", &db, "list", "--json"]);
    assert_eq!(code, 0);
    let a: serde_json::Value = serde_json::from_str(list.trim()).unwrap();
    assert_eq!(a["name"], "acme");
    assert_eq!(a["auto_heal"], true);
    assert_eq!(a["max_attempts"], 4);
    assert_eq!(a["key_prefix"], &key[..11]);
    assert!(!list.contains(key), "the key is never listed");

    let (code, _, err) = run(&["accounts", "--db", &db, "create", "acme"]);
    assert_eq!(code, 2);
    assert!(err.contains("exists already"), "{err}");
    let (code, _, err) = run(&[
        "accounts",
        "--db",
        &db,
        "set",
        "acme",
        "--max-attempts",
        "0",
    ]);
    assert_eq!(code, 2);
    assert!(err.contains("between 1 and 10"), "{err}");
    let (code, out, _) = run(&[
        "accounts",
        "--db",
        &db,
        "set",
        "acme",
        "--auto-heal",
        "false",
    ]);
    assert_eq!(code, 0);
    assert!(out.contains("auto-heal: off"), "{out}");

    let (code, new_key, _) = run(&["accounts", "--db", &db, "rotate-key", "acme"]);
    assert_eq!(code, 0);
    assert_ne!(new_key.trim(), key);
    let (code, _, err) = run(&["accounts", "--db", &db, "delete", "nobody"]);
    assert_eq!(code, 2);
    assert!(err.contains("no account named \"nobody\""), "{err}");
    let (code, _, _) = run(&["accounts", "--db", &db, "delete", "acme"]);
    assert_eq!(code, 0);
    let (_, list, _) = run(&["accounts", "--db", &db, "list"]);
    assert!(list.trim().is_empty(), "{list}");
    let _ = std::fs::remove_dir_all(&dir);
}

fn http(addr: &str, request: &str) -> String {
    let mut s = TcpStream::connect(addr).unwrap();
    s.set_read_timeout(Some(Duration::from_secs(60))).unwrap();
    s.write_all(request.as_bytes()).unwrap();
    let mut out = String::new();
    s.read_to_string(&mut out).unwrap();
    out
}

#[test]
fn serve_answers_and_stops_on_sigterm() {
    let dir = temp_dir("serve");
    let db = dir.join("s.db").display().to_string();
    let (_, key, _) = run(&["accounts", "--db", &db, "create", "t"]);
    let key = key.trim().to_owned();
    let mut child = jsonheal()
        .args([
            "serve",
            "--upstream",
            "http://127.0.0.1:9/v1",
            "--listen",
            "127.0.0.1:0",
            "--db",
            &db,
        ])
        .stderr(Stdio::piped())
        .stdout(Stdio::null())
        .spawn()
        .unwrap();
    let mut lines = BufReader::new(child.stderr.take().unwrap()).lines();
    let started = Instant::now();
    let addr = loop {
        let line = lines.next().expect("serve logs its address").unwrap();
        if let Some(rest) = line.split("addr=").nth(1) {
            break rest.split_whitespace().next().unwrap().to_owned();
        }
        assert!(
            started.elapsed() < Duration::from_secs(60),
            "no address logged"
        );
    };
    let health = http(
        &addr,
        "GET /healthz HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n",
    );
    assert!(health.starts_with("HTTP/1.1 200"), "{health}");
    let body = r#"{"model":"m","prompt":"hi"}"#;
    let unauthorized = http(
        &addr,
        &format!(
            "POST /v1/chat/completions HTTP/1.1\r\nHost: x\r\nConnection: close\r\nContent-Type: application/json\r\nContent-Length: {}\r\n\r\n{body}",
            body.len()
        ),
    );
    assert!(unauthorized.starts_with("HTTP/1.1 401"), "{unauthorized}");
    let refused = http(
        &addr,
        &format!(
            "POST /v1/chat/completions HTTP/1.1\r\nHost: x\r\nConnection: close\r\nAuthorization: Bearer {key}\r\nContent-Type: application/json\r\nContent-Length: {}\r\n\r\n{body}",
            body.len()
        ),
    );
    assert!(refused.starts_with("HTTP/1.1 502"), "{refused}");
    assert!(refused.contains("\"type\":\"upstream_error\""), "{refused}");

    let status = Command::new("kill")
        .args(["-TERM", &child.id().to_string()])
        .status()
        .unwrap();
    assert!(status.success());
    let rest: Vec<String> = lines.map_while(Result::ok).collect();
    let exit = child.wait().unwrap();
    assert!(exit.success(), "{exit:?}: {rest:?}");
    assert!(rest.iter().any(|l| l.contains("shut down")), "{rest:?}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn serve_refuses_a_bad_configuration() {
    let (code, _, err) = run(&["serve"]);
    assert_eq!(code, 2);
    assert!(err.contains("no upstream configured"), "{err}");
    let (code, _, err) = run(&["serve", "--upstream", "localhost:11434"]);
    assert_eq!(code, 2);
    assert!(err.contains("must start with http"), "{err}");
    let dir = temp_dir("badcfg");
    let cfg = dir.join("c.toml");
    std::fs::write(&cfg, "listen = \"127.0.0.1:0\"\nprovders = []\n").unwrap();
    let (code, _, err) = run(&["serve", "--config", cfg.to_str().unwrap()]);
    assert_eq!(code, 2);
    assert!(err.contains("invalid config file"), "{err}");
    let _ = std::fs::remove_dir_all(&dir);
}
