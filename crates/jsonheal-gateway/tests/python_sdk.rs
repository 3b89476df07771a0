//! The official `openai` Python package talks to a running gateway
//! (`python/test_openai_sdk.py`). Needs `python3` with `openai` installed: with `CI` set a
//! missing package fails the test; otherwise the test is skipped, loudly.
#![allow(clippy::unwrap_used)]

mod common;

use std::path::PathBuf;
use std::process::Command;

use common::*;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn openai_python_sdk_talks_to_the_gateway() {
    if !python_openai_available("openai_python_sdk_talks_to_the_gateway") {
        return;
    }
    let up = upstream().await;
    let gw = gateway(&up.url, |_| {}).await;
    // The replies the script's three calls consume, in order (see its docstring).
    up.push(ok("Sure:\n```json\n{\"name\": \"Ada\", \"age\": 36,}\n```"));
    up.push(ok("{\"name\": \"Ada\", \"age\": 36}"));
    up.push(ok("I cannot answer that."));
    up.push(ok("Still no JSON here."));
    up.push(ok("Nothing."));
    up.push(ok("Nothing again."));

    let script = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../python/test_openai_sdk.py");
    let base_url = format!("{}/v1", gw.url);
    let key = gw.key.clone();
    let output = tokio::task::spawn_blocking(move || {
        Command::new("python3")
            .arg(script)
            .env("JSONHEAL_BASE_URL", base_url)
            .env("JSONHEAL_API_KEY", key)
            .output()
            .unwrap()
    })
    .await
    .unwrap();
    let stdout = String::from_utf8_lossy(&output.stdout);
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(
        output.status.success(),
        "python SDK test failed:\n{stdout}\n{stderr}"
    );
    assert!(stdout.contains("4 passed, 0 failed"), "{stdout}");
    assert_eq!(
        up.calls(),
        6,
        "no SDK retries: 1 + 1 + 2 + 2 upstream calls"
    );
    gw.stop().await;
}
