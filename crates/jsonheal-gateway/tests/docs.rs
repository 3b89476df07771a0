//! The docs cannot drift: every `curl` and Python snippet of `docs/gateway.md` runs against a
//! real gateway on 127.0.0.1 whose scripted upstream gives the model reply the page shows, and
//! where the page shows the output (the next ```json or ```text block), the output must be
//! exactly that.
#![allow(clippy::unwrap_used)]

mod common;

use std::path::PathBuf;
use std::process::Command;

use common::*;
use serde_json::{json, Value};

/// One fenced block: its fence (```` ``` ```` or `~~~`), info string and text.
struct Block {
    fence: &'static str,
    lang: String,
    text: String,
}

fn blocks(markdown: &str) -> Vec<Block> {
    let mut out = Vec::new();
    let mut open: Option<Block> = None;
    for line in markdown.lines() {
        match &mut open {
            Some(b) if line.trim_end() == b.fence => out.extend(open.take()),
            Some(b) => {
                b.text.push_str(line);
                b.text.push('\n');
            }
            None => {
                for fence in ["```", "~~~"] {
                    if let Some(lang) = line.strip_prefix(fence) {
                        open = Some(Block {
                            fence,
                            lang: lang.trim().to_owned(),
                            text: String::new(),
                        });
                    }
                }
            }
        }
    }
    out
}

#[derive(Clone, Copy)]
enum Kind {
    Curl,
    Python,
}

fn kind(b: &Block) -> Option<Kind> {
    match b.lang.as_str() {
        "sh" | "bash" if b.text.contains("curl ") => Some(Kind::Curl),
        "python" => Some(Kind::Python),
        _ => None,
    }
}

/// The output the page shows for snippet `i`: the next ```json / ```text block before any
/// other command.
fn shown_output(all: &[Block], i: usize) -> Option<&Block> {
    for b in &all[i + 1..] {
        if matches!(b.lang.as_str(), "sh" | "bash" | "python") {
            return None;
        }
        if b.fence == "```" && matches!(b.lang.as_str(), "json" | "text") {
            return Some(b);
        }
    }
    None
}

/// What the scripted upstream answers: the reply the page shows, in the envelope its
/// outputs show.
fn upstream_reply(content: &str) -> Reply {
    Reply::Json(
        200,
        json!({
            "id": "chatcmpl-9x2", "object": "chat.completion", "created": 1732950000,
            "model": "llama3.1",
            "choices": [{"index": 0, "message": {"role": "assistant", "content": content},
                "logprobs": null, "finish_reason": "stop"}],
            "usage": {"prompt_tokens": 212, "completion_tokens": 31, "total_tokens": 243}
        }),
        vec![],
    )
}

fn run_snippet(kind: Kind, code: &str, key: &str) -> std::process::Output {
    let mut cmd = match kind {
        Kind::Curl => {
            let mut c = Command::new("bash");
            c.args(["-euo", "pipefail", "-c", code]);
            c
        }
        Kind::Python => {
            let mut c = Command::new("python3");
            c.args(["-c", code]);
            c
        }
    };
    cmd.env("JSONHEAL_KEY", key).output().unwrap()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn every_curl_and_python_snippet_of_the_gateway_docs_runs_as_shown() {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../docs/gateway.md");
    let page = std::fs::read_to_string(&path).unwrap();
    let all = blocks(&page);
    let reply = all
        .iter()
        .find(|b| b.fence == "~~~" && b.lang == "text")
        .expect("the page shows the model's reply in a ~~~text block")
        .text
        .trim_end()
        .to_owned();
    let python = python_openai_available("the Python snippets of docs/gateway.md");
    let has_curl = Command::new("curl").arg("--version").output().is_ok();
    assert!(has_curl, "curl is needed to run the docs' snippets");

    let up = upstream().await;
    let gw = gateway(&up.url, |_| {}).await;
    let mut ran = (0, 0);
    for (i, block) in all.iter().enumerate() {
        let Some(kind) = kind(block) else { continue };
        if matches!(kind, Kind::Python) && !python {
            continue;
        }
        let code = block
            .text
            .replace("http://localhost:8080", &gw.url)
            .replace("http://127.0.0.1:8080", &gw.url);
        up.push(upstream_reply(&reply));
        let key = gw.key.clone();
        let output = tokio::task::spawn_blocking(move || run_snippet(kind, &code, &key))
            .await
            .unwrap();
        let stdout = String::from_utf8_lossy(&output.stdout).into_owned();
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert!(
            output.status.success(),
            "snippet failed:\n{}\n--- stdout\n{stdout}\n--- stderr\n{stderr}",
            block.text
        );
        match kind {
            Kind::Curl => ran.0 += 1,
            Kind::Python => ran.1 += 1,
        }
        match shown_output(&all, i) {
            Some(shown) if shown.lang == "json" => {
                let want: Value = serde_json::from_str(&shown.text).unwrap();
                let got: Value = serde_json::from_str(&stdout)
                    .unwrap_or_else(|e| panic!("not JSON ({e}): {stdout}"));
                assert_eq!(got, want, "the output of:\n{}", block.text);
            }
            Some(shown) => assert_eq!(
                stdout.trim_end(),
                shown.text.trim_end(),
                "the output of:\n{}",
                block.text
            ),
            // No output shown: a curl call must at least not have answered an error.
            None if matches!(kind, Kind::Curl) => {
                let got: Value = serde_json::from_str(&stdout)
                    .unwrap_or_else(|e| panic!("not JSON ({e}): {stdout}"));
                assert!(got.get("error").is_none(), "{got}");
            }
            None => {}
        }
    }
    assert!(ran.0 >= 2, "the page's curl snippets were found: {ran:?}");
    assert!(!python || ran.1 >= 1, "the page's Python snippet was found");
    gw.stop().await;
}
