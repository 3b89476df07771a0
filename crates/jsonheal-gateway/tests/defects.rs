//! The defects of issue 25, each over real HTTP against a gateway on 127.0.0.1 in front of
//! the scripted upstream.
#![allow(clippy::unwrap_used)]

mod common;

use common::*;
use serde_json::{json, Value};

fn tools_request(parameters: Value) -> Value {
    json!({
        "model": "stub-model",
        "messages": [{"role": "user", "content": "go"}],
        "tools": [{"type": "function", "function": {"name": "write_file",
            "parameters": parameters}}]
    })
}

fn path_parameters() -> Value {
    json!({"type": "object", "properties": {"path": {"type": "string"}}, "required": ["path"]})
}

fn tool_reply(args: &str, finish_reason: &str) -> Reply {
    Reply::Json(
        200,
        json!({
            "id": "chatcmpl-t", "object": "chat.completion", "created": 1, "model": "stub-model",
            "choices": [{"index": 0, "message": {"role": "assistant", "content": null,
                "tool_calls": [{"id": "call_1", "type": "function",
                    "function": {"name": "write_file", "arguments": args}}]},
                "finish_reason": finish_reason}],
            "usage": {"prompt_tokens": 5, "completion_tokens": 5, "total_tokens": 10}
        }),
        vec![],
    )
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn cut_off_tool_arguments_are_forwarded_unchanged_and_marked() {
    let up = upstream().await;
    let gw = gateway(&up.url, |_| {}).await;
    let cut = r#"{"path": "src/ma"#;
    up.push(tool_reply(cut, "length"));
    let resp = gw
        .post(&tools_request(path_parameters()))
        .send()
        .await
        .unwrap();
    assert_eq!(resp.status(), 200);
    assert_eq!(resp.headers()["x-jsonheal-truncated"], "true");
    assert_eq!(resp.headers()["x-jsonheal-repaired"], "false");
    let body: Value = resp.json().await.unwrap();
    let call = &body["choices"][0]["message"]["tool_calls"][0];
    assert_eq!(call["function"]["arguments"], cut, "never completed");
    assert_eq!(body["choices"][0]["finish_reason"], "length");
    let report = &body["jsonheal"]["tool_calls"][0];
    assert_eq!(report["truncated"], true);
    assert_eq!(report["id"], "call_1");
    let records: Value = gw
        .get("/v1/tool_calls")
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    assert_eq!(records["data"][0]["truncated"], true);
    assert_eq!(records["data"][0]["raw_arguments"], cut);

    // Streamed: the call is sent as it came, and the report says it was cut off.
    up.push(Reply::Sse(vec![
        chunk_event(
            json!([{"index": 0, "delta": {"role": "assistant", "tool_calls": [
            {"index": 0, "id": "call_2", "type": "function",
             "function": {"name": "write_file", "arguments": cut}}]}, "finish_reason": null}]),
        ),
        chunk_event(json!([{"index": 0, "delta": {}, "finish_reason": "length"}])),
        "data: [DONE]\n\n".to_owned(),
    ]));
    let mut req = tools_request(path_parameters());
    req["stream"] = json!(true);
    let text = gw.post(&req).send().await.unwrap().text().await.unwrap();
    let chunks: Vec<Value> = data_lines(&text)
        .iter()
        .filter(|d| *d != "[DONE]")
        .map(|d| serde_json::from_str(d).unwrap())
        .collect();
    let args: Vec<&Value> = chunks
        .iter()
        .filter_map(|c| c["choices"][0]["delta"]["tool_calls"][0]["function"].get("arguments"))
        .collect();
    assert_eq!(args, [cut]);
    let report = chunks.iter().find_map(|c| c.get("jsonheal")).unwrap();
    assert_eq!(report["tool_calls"][0]["truncated"], true);
    gw.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn cut_off_tool_arguments_are_asked_again_when_healing() {
    let up = upstream().await;
    let gw = gateway(&up.url, |_| {}).await;
    up.push(tool_reply(r#"{"path": "src/ma"#, "tool_calls"));
    up.push(tool_reply(r#"{"path": "src/main.rs"}"#, "tool_calls"));
    let mut req = tools_request(path_parameters());
    req["response_schema"] = json!({"type": "object"});
    let resp = gw.post(&req).send().await.unwrap();
    assert_eq!(resp.status(), 200);
    assert_eq!(resp.headers()["x-jsonheal-attempts"], "2");
    assert_eq!(resp.headers()["x-jsonheal-truncated"], "false");
    let body: Value = resp.json().await.unwrap();
    assert_eq!(
        body["choices"][0]["message"]["tool_calls"][0]["function"]["arguments"],
        r#"{"path":"src/main.rs"}"#
    );
    let feedback = up.bodies()[1]["messages"][3]["content"]
        .as_str()
        .unwrap()
        .to_owned();
    assert!(feedback.contains("cut off"), "{feedback}");
    gw.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn tool_arguments_are_coerced_to_the_declared_parameters_healing_off() {
    let up = upstream().await;
    let gw = gateway(&up.url, |_| {}).await;
    let params = json!({"type": "object", "properties": {
        "path": {"type": "string"}, "append": {"type": "boolean"}, "days": {"type": "integer"}},
        "required": ["path"]});
    up.push(tool_reply(
        r#"{"path": "log.txt", "append": "true", "days": "3"}"#,
        "tool_calls",
    ));
    let resp = gw.post(&tools_request(params)).send().await.unwrap();
    assert_eq!(resp.status(), 200);
    assert_eq!(resp.headers()["x-jsonheal-repaired"], "true");
    let body: Value = resp.json().await.unwrap();
    let args = body["choices"][0]["message"]["tool_calls"][0]["function"]["arguments"]
        .as_str()
        .unwrap();
    assert_eq!(
        serde_json::from_str::<Value>(args).unwrap(),
        json!({"path": "log.txt", "append": true, "days": 3})
    );
    let report = &body["jsonheal"];
    assert_eq!(report["repairs"], json!([]));
    let coercions = report["tool_calls"][0]["coercions"].as_array().unwrap();
    let paths: Vec<&str> = coercions
        .iter()
        .filter_map(|c| c["path"].as_str())
        .collect();
    assert_eq!(paths, ["/append", "/days"]);
    assert_eq!(report["tool_calls"][0]["strategy"], "valid");
    gw.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_report_has_one_shape_and_repaired_means_something_changed() {
    let up = upstream().await;
    let gw = gateway(&up.url, |_| {}).await;
    let shape = |r: &Value| {
        let mut keys: Vec<&str> = r.as_object().unwrap().keys().map(String::as_str).collect();
        keys.sort_unstable();
        assert_eq!(
            keys,
            [
                "attempts",
                "candidate",
                "coercions",
                "repairs",
                "tool_calls"
            ],
            "{r}"
        );
        assert!(r["candidate"].is_string(), "{r}");
    };
    // Content from a fence with the same repair twice: listed once.
    up.push(ok(
        "```json\n{\"name\": \"Ada\", \"age\": 36, \"tags\": [1, 2,],}\n```",
    ));
    let schema = json!({"type": "object", "properties": {"name": {"type": "string"},
        "age": {"type": "integer"}, "tags": {"type": "array"}}});
    let resp = gw
        .post(&json!({"model": "m", "prompt": "x", "response_schema": schema}))
        .send()
        .await
        .unwrap();
    assert_eq!(resp.headers()["x-jsonheal-repaired"], "true");
    let body: Value = resp.json().await.unwrap();
    shape(&body["jsonheal"]);
    assert_eq!(body["jsonheal"]["candidate"], "fence");
    assert_eq!(
        body["jsonheal"]["repairs"],
        json!(["stripped_fence", "trailing_comma"])
    );

    // Healing on, only the tool arguments fixed: repaired, and the report says what.
    up.push(tool_reply("{path: 'a.txt'}", "tool_calls"));
    let mut req = tools_request(path_parameters());
    req["response_schema"] = json!({"type": "object"});
    let resp = gw.post(&req).send().await.unwrap();
    assert_eq!(resp.headers()["x-jsonheal-repaired"], "true");
    let body: Value = resp.json().await.unwrap();
    shape(&body["jsonheal"]);
    assert_eq!(body["jsonheal"]["candidate"], "tool_calls");
    assert_eq!(
        body["jsonheal"]["tool_calls"][0]["strategy"],
        "quotes_and_keys"
    );

    // Valid as sent: not repaired.
    up.push(tool_reply(r#"{"path": "a.txt"}"#, "tool_calls"));
    let resp = gw.post(&req).send().await.unwrap();
    assert_eq!(resp.headers()["x-jsonheal-repaired"], "false");
    let body: Value = resp.json().await.unwrap();
    shape(&body["jsonheal"]);
    gw.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_json_schema_without_a_name_gets_one() {
    let up = upstream().await;
    let gw = gateway(&up.url, |_| {}).await;
    let schema = json!({"type": "object"});
    up.push(ok("{}"));
    up.push(ok("{}"));
    let format = |js: Value| {
        json!({"model": "m", "prompt": "x",
            "response_format": {"type": "json_schema", "json_schema": js}})
    };
    let resp = gw
        .post(&format(json!({"schema": schema})))
        .send()
        .await
        .unwrap();
    assert_eq!(resp.status(), 200);
    let resp = gw
        .post(&format(json!({"name": "mine", "schema": schema})))
        .send()
        .await
        .unwrap();
    assert_eq!(resp.status(), 200);
    let bodies = up.bodies();
    assert_eq!(
        bodies[0]["response_format"]["json_schema"],
        json!({"schema": schema, "name": "response"})
    );
    assert_eq!(bodies[1]["response_format"]["json_schema"]["name"], "mine");
    gw.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn client_errors_name_the_request_id_and_leak_no_internals() {
    // Connection refused: the message says so, without the URL or the error chain.
    let dead = dead_url().await;
    let gw = gateway(&dead, |_| {}).await;
    let resp = gw
        .post(&json!({"model": "m", "prompt": "x"}))
        .send()
        .await
        .unwrap();
    assert_eq!(resp.status(), 502);
    let id = resp.headers()["x-request-id"].to_str().unwrap().to_owned();
    let err: Value = resp.json().await.unwrap();
    let message = err["error"]["message"].as_str().unwrap();
    let port = dead.rsplit(':').next().unwrap().trim_end_matches("/v1");
    assert!(message.contains("cannot connect"), "{message}");
    assert!(message.contains(&id), "{message} names {id}");
    for leak in ["http://", "127.0.0.1", port, "error sending request"] {
        assert!(!message.contains(leak), "{leak:?} leaked: {message}");
    }
    gw.stop().await;

    // An upstream 500 body stays in the log.
    let up = upstream().await;
    let gw = gateway(&up.url, |_| {}).await;
    up.push(Reply::Raw(
        500,
        "text/plain",
        "Traceback: KeyError at /srv/model/app.py line 7".to_owned(),
    ));
    let resp = gw
        .post(&json!({"model": "m", "prompt": "x"}))
        .send()
        .await
        .unwrap();
    assert_eq!(resp.status(), 502);
    let text = resp.text().await.unwrap();
    assert!(
        !text.contains("Traceback") && !text.contains("/srv"),
        "{text}"
    );
    assert!(text.contains("HTTP 500"), "{text}");
    gw.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_upstream_auth_failure_is_a_502_not_the_clients_401() {
    let up = upstream().await;
    let gw = gateway(&up.url, |_| {}).await;
    for status in [401, 403] {
        up.push(Reply::Json(
            status,
            json!({"error": {"message": "Incorrect API key provided: sk-abc***",
                "type": "invalid_request_error", "code": "invalid_api_key"}}),
            vec![],
        ));
        let resp = gw
            .post(&json!({"model": "m", "prompt": "x"}))
            .send()
            .await
            .unwrap();
        assert_eq!(resp.status(), 502, "upstream {status}");
        let err: Value = resp.json().await.unwrap();
        assert_eq!(err["error"]["code"], "upstream_auth_failed");
        assert_ne!(err["error"]["type"], "invalid_request_error");
        let message = err["error"]["message"].as_str().unwrap();
        assert!(!message.contains("sk-abc"), "{message}");
        assert!(message.contains(&status.to_string()), "{message}");
    }
    gw.stop().await;
}
