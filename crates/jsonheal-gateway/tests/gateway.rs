//! The gateway end to end: a real server on 127.0.0.1 in front of a scripted upstream.
#![allow(clippy::unwrap_used)]

mod common;

use std::time::Duration;

use common::*;
use jsonheal_gateway::store::Store;
use serde_json::{json, Value};

const EXACT_503: &str = r#"{"error":{"message":"Failed to generate a valid JSON response. Please, try again later.","type":"service_unavailable","param":null,"code":"service_unavailable"}}"#;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn heals_a_fenced_prose_reply_on_the_first_attempt() {
    let up = upstream().await;
    let gw = gateway(&up.url, |_| {}).await;
    up.push(ok(
        "Sure! Here it is:\n```json\n{\"name\": 'Ada', \"age\": 36,}\n```\nAnything else?",
    ));
    let resp = gw
        .post(&heal_request(person_schema()))
        .send()
        .await
        .unwrap();
    assert_eq!(resp.status(), 200);
    assert_eq!(resp.headers()["x-jsonheal-attempts"], "1");
    assert_eq!(resp.headers()["x-jsonheal-repaired"], "true");
    assert!(resp.headers().contains_key("x-request-id"));
    let body: Value = resp.json().await.unwrap();
    assert_eq!(
        body["choices"][0]["message"]["content"],
        r#"{"name":"Ada","age":36}"#
    );
    assert_eq!(body["choices"][0]["finish_reason"], "stop");
    assert_eq!(body["id"], "chatcmpl-up1");
    assert_eq!(body["jsonheal"]["attempts"], 1);
    assert!(!body["jsonheal"]["repairs"].as_array().unwrap().is_empty());
    assert_eq!(body["jsonheal"]["candidate"], "fence");

    // What the upstream saw: instructions first, the schema never as `response_schema`.
    let sent = &up.bodies()[0];
    assert!(sent.get("response_schema").is_none());
    assert_eq!(sent["messages"][0]["role"], "system");
    let instructions = sent["messages"][0]["content"].as_str().unwrap();
    assert!(instructions.contains("JSON"), "{instructions}");
    assert!(instructions.contains("\"age\""), "{instructions}");
    assert_eq!(
        sent["messages"][1]["content"],
        "Who wrote the first program?"
    );
    assert_eq!(sent["stream"], false);
    gw.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn heals_on_the_second_attempt_after_feedback_and_sums_usage() {
    let up = upstream().await;
    let gw = gateway(&up.url, |_| {}).await;
    up.push(Reply::Json(
        200,
        completion("{\"name\": \"Ada\"}", "stop", (100, 7)),
        vec![],
    ));
    up.push(Reply::Json(
        200,
        completion("{\"name\": \"Ada\", \"age\": 36}", "stop", (130, 9)),
        vec![],
    ));
    let resp = gw
        .post(&heal_request(person_schema()))
        .send()
        .await
        .unwrap();
    assert_eq!(resp.status(), 200);
    assert_eq!(resp.headers()["x-jsonheal-attempts"], "2");
    let body: Value = resp.json().await.unwrap();
    assert_eq!(
        body["choices"][0]["message"]["content"],
        r#"{"name":"Ada","age":36}"#
    );
    assert_eq!(
        body["usage"],
        json!({"prompt_tokens": 230, "completion_tokens": 16, "total_tokens": 246})
    );
    assert_eq!(body["jsonheal"]["attempts"], 2);

    let bodies = up.bodies();
    assert_eq!(bodies.len(), 2);
    let second = bodies[1]["messages"].as_array().unwrap();
    assert_eq!(
        second.len(),
        4,
        "system, user, the model's reply, the feedback"
    );
    assert_eq!(
        second[2],
        json!({"role": "assistant", "content": "{\"name\": \"Ada\"}"})
    );
    assert_eq!(second[3]["role"], "user");
    let feedback = second[3]["content"].as_str().unwrap();
    assert!(
        feedback.contains("age"),
        "the feedback names the missing property: {feedback}"
    );
    gw.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn fails_after_max_attempts_with_the_exact_503() {
    let up = upstream().await;
    let gw = gateway(&up.url, |_| {}).await;
    for _ in 0..2 {
        up.push(ok("I'm sorry, I can't do that."));
    }
    let mut req = heal_request(person_schema());
    req["healing_options"] = json!({"max_attempts": 2});
    let resp = gw.post(&req).send().await.unwrap();
    assert_eq!(resp.status(), 503);
    assert_eq!(resp.headers()["retry-after"], "5");
    assert_eq!(resp.headers()["content-type"], "application/json");
    assert!(resp.headers().get("x-should-retry").is_none());
    assert_eq!(resp.text().await.unwrap(), EXACT_503);
    assert_eq!(up.calls(), 2, "exactly max_attempts upstream calls");
    gw.stop().await;

    // The switch for SDKs that would retry the 503.
    let up = upstream().await;
    let gw = gateway(&up.url, |c| c.x_should_retry_false = true).await;
    up.push(ok("no"));
    let mut req = heal_request(person_schema());
    req["healing_options"] = json!({"max_attempts": 1});
    let resp = gw.post(&req).send().await.unwrap();
    assert_eq!(resp.status(), 503);
    assert_eq!(resp.headers()["x-should-retry"], "false");
    assert_eq!(resp.text().await.unwrap(), EXACT_503);
    gw.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_truncated_reply_is_never_repaired_into_an_answer() {
    let up = upstream().await;
    let gw = gateway(&up.url, |_| {}).await;
    // Cut by max_tokens: the prefix would repair into a valid-looking object.
    up.push(Reply::Json(
        200,
        completion("{\"name\": \"Ada\", \"age\": 36", "length", (10, 5)),
        vec![],
    ));
    up.push(ok("{\"name\": \"Ada\", \"age\": 36}"));
    let resp = gw
        .post(&heal_request(person_schema()))
        .send()
        .await
        .unwrap();
    assert_eq!(resp.status(), 200);
    assert_eq!(resp.headers()["x-jsonheal-attempts"], "2");
    let feedback = up.bodies()[1]["messages"][3]["content"]
        .as_str()
        .unwrap()
        .to_owned();
    assert!(feedback.contains("cut off"), "{feedback}");

    // With one attempt it is a failure, not a completed object.
    up.push(Reply::Json(
        200,
        completion("{\"name\": \"Ada\", \"age\": 36", "length", (10, 5)),
        vec![],
    ));
    let mut req = heal_request(person_schema());
    req["healing_options"] = json!({"max_attempts": 1});
    let resp = gw.post(&req).send().await.unwrap();
    assert_eq!(resp.status(), 503);

    // A reply cut short without finish_reason "length" (a stream that stopped) too.
    up.push(ok(
        "{\"name\": \"Ada\", \"age\": 36, \"bio\": \"wrote the first",
    ));
    let resp = gw.post(&req).send().await.unwrap();
    assert_eq!(resp.status(), 503);
    gw.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn max_attempts_out_of_range_is_a_400_naming_the_parameter() {
    let up = upstream().await;
    let gw = gateway(&up.url, |_| {}).await;
    for n in [0, 11] {
        let req = json!({
            "model": "stub-model",
            "messages": [{"role": "user", "content": "x"}],
            "response_format": {"type": "json_schema", "json_schema": {
                "name": "person", "schema": person_schema(),
                "healing_options": {"max_attempts": n}}}
        });
        let resp = gw.post(&req).send().await.unwrap();
        assert_eq!(resp.status(), 400, "max_attempts {n}");
        let body: Value = resp.json().await.unwrap();
        assert_eq!(body["error"]["type"], "invalid_request_error");
        assert_eq!(
            body["error"]["param"],
            "response_format.json_schema.healing_options.max_attempts"
        );
        assert!(body["error"]["message"]
            .as_str()
            .unwrap()
            .contains("max_attempts"));
    }
    assert_eq!(up.calls(), 0);
    gw.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn response_format_with_healing_options_heals_and_is_forwarded_without_them() {
    let up = upstream().await;
    let gw = gateway(&up.url, |c| c.providers[0].native_json_schema = true).await;
    up.push(ok("```json\n{\"name\": \"Ada\", \"age\": 36}\n```"));
    let req = json!({
        "model": "stub-model",
        "messages": [{"role": "user", "content": "x"}],
        "response_format": {"type": "json_schema", "json_schema": {
            "name": "person", "schema": person_schema(),
            "healing_options": {"max_attempts": 2}}}
    });
    let resp = gw.post(&req).send().await.unwrap();
    assert_eq!(resp.status(), 200);
    let body: Value = resp.json().await.unwrap();
    assert_eq!(
        body["choices"][0]["message"]["content"],
        r#"{"name":"Ada","age":36}"#
    );
    let sent = &up.bodies()[0];
    assert_eq!(sent["response_format"]["type"], "json_schema");
    assert_eq!(
        sent["response_format"]["json_schema"]["schema"],
        person_schema()
    );
    assert!(sent["response_format"]["json_schema"]
        .get("healing_options")
        .is_none());
    gw.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn automatic_healing_follows_the_account_setting() {
    let up = upstream().await;
    let gw = gateway(&up.url, |_| {}).await;
    let req = json!({
        "model": "stub-model",
        "messages": [{"role": "user", "content": "x"}],
        "response_format": {"type": "json_schema", "json_schema": {
            "name": "person", "schema": person_schema()}}
    });
    let fenced = "```json\n{\"name\": \"Ada\", \"age\": 36}\n```";
    // Off: passed through untouched.
    up.push(ok(fenced));
    let resp = gw.post(&req).send().await.unwrap();
    assert_eq!(resp.status(), 200);
    assert!(resp.headers().get("x-jsonheal-attempts").is_none());
    let body: Value = resp.json().await.unwrap();
    assert_eq!(body["choices"][0]["message"]["content"], fenced);

    // On: healed.
    let (_, key) = gw.store.create_account("auto", true, 2).unwrap();
    up.push(ok(fenced));
    let resp = gw
        .client
        .post(format!("{}/v1/chat/completions", gw.url))
        .bearer_auth(&key.0)
        .json(&req)
        .send()
        .await
        .unwrap();
    assert_eq!(resp.status(), 200);
    assert_eq!(resp.headers()["x-jsonheal-attempts"], "1");
    let body: Value = resp.json().await.unwrap();
    assert_eq!(
        body["choices"][0]["message"]["content"],
        r#"{"name":"Ada","age":36}"#
    );
    gw.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_response_healing_plugin_turns_healing_on() {
    let up = upstream().await;
    let gw = gateway(&up.url, |_| {}).await;
    up.push(ok("Here you go: {'name': 'Ada', 'age': 36}"));
    let req = json!({
        "model": "stub-model",
        "prompt": "x",
        "plugins": [{"id": "response-healing"}],
        "response_format": {"type": "json_object"}
    });
    let resp = gw.post(&req).send().await.unwrap();
    assert_eq!(resp.status(), 200);
    assert_eq!(resp.headers()["x-jsonheal-attempts"], "1");
    let body: Value = resp.json().await.unwrap();
    assert_eq!(
        body["choices"][0]["message"]["content"],
        r#"{"name":"Ada","age":36}"#
    );
    let sent = &up.bodies()[0];
    assert!(sent.get("plugins").is_none(), "the plugin is not forwarded");
    assert_eq!(
        sent["messages"][1],
        json!({"role": "user", "content": "x"}),
        "prompt is a single user message"
    );
    gw.stop().await;
}

fn chunk(id_fields: &str, choices: &str, extra: &str) -> String {
    format!("data: {{{id_fields},\"choices\":{choices}{extra}}}\n\n")
}

const ENV: &str = r#""id":"chatcmpl-up1","object":"chat.completion.chunk","created":1700000000,"model":"stub-model""#;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn streamed_healing_success_byte_for_byte() {
    let up = upstream().await;
    let gw = gateway(&up.url, |_| {}).await;
    up.push(Reply::Json(
        200,
        completion("{\"name\": \"Ada\"}", "stop", (10, 5)),
        vec![],
    ));
    up.push(Reply::Json(
        200,
        completion("{\"name\": \"Ada\", \"age\": 36}", "stop", (20, 6)),
        vec![],
    ));
    let mut req = heal_request(person_schema());
    req["stream"] = json!(true);
    req["stream_options"] = json!({"include_usage": true});
    let resp = gw.post(&req).send().await.unwrap();
    assert_eq!(resp.status(), 200);
    assert_eq!(resp.headers()["content-type"], "text/event-stream");
    let text = resp.text().await.unwrap();
    let expected = [
        ": jsonheal: healing\n\n".to_owned(),
        chunk(
            ENV,
            r#"[{"index":0,"delta":{"role":"assistant","content":""},"finish_reason":null}]"#,
            r#","usage":null"#,
        ),
        chunk(
            ENV,
            r#"[{"index":0,"delta":{"content":"{\"name\":\"Ada\",\"age\":36}"},"finish_reason":null}]"#,
            r#","usage":null"#,
        ),
        chunk(
            ENV,
            r#"[{"index":0,"delta":{},"finish_reason":"stop"}]"#,
            r#","usage":null,"jsonheal":{"attempts":2,"candidate":"whole","repairs":[],"coercions":[],"tool_calls":[]}"#,
        ),
        chunk(
            ENV,
            "[]",
            r#","usage":{"prompt_tokens":30,"completion_tokens":11,"total_tokens":41}"#,
        ),
        "data: [DONE]\n\n".to_owned(),
    ]
    .concat();
    assert_eq!(text, expected);
    // The upstream was called without streaming; the gateway streams the validated answer.
    assert_eq!(up.bodies()[0]["stream"], false);
    assert!(up.bodies()[0].get("stream_options").is_none());
    gw.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn streamed_healing_failure_byte_for_byte() {
    let up = upstream().await;
    let gw = gateway(&up.url, |_| {}).await;
    up.push(Reply::Json(
        200,
        completion("nope", "stop", (10, 5)),
        vec![],
    ));
    up.push(Reply::Json(
        200,
        completion("still no", "stop", (11, 6)),
        vec![],
    ));
    let mut req = heal_request(person_schema());
    req["stream"] = json!(true);
    req["stream_options"] = json!({"include_usage": true});
    req["healing_options"] = json!({"max_attempts": 2});
    let resp = gw.post(&req).send().await.unwrap();
    assert_eq!(resp.status(), 200);
    let text = resp.text().await.unwrap();
    let expected = [
        ": jsonheal: healing\n\n".to_owned(),
        chunk(
            ENV,
            "[]",
            r#","usage":{"prompt_tokens":21,"completion_tokens":11,"total_tokens":32}"#,
        ),
        chunk(
            ENV,
            r#"[{"index":0,"delta":{},"finish_reason":"error"}]"#,
            &format!(r#","error":{}"#, &EXACT_503[9..EXACT_503.len() - 1]),
        ),
        "data: [DONE]\n\n".to_owned(),
    ]
    .concat();
    assert_eq!(text, expected);
    gw.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn streamed_healing_sends_keepalives_while_attempts_run() {
    let up = upstream().await;
    let gw = gateway(&up.url, |c| c.keepalive = Duration::from_millis(100)).await;
    up.push(Reply::Delay(
        Duration::from_millis(1000),
        Box::new(ok("{\"name\": \"Ada\", \"age\": 36}")),
    ));
    let mut req = heal_request(person_schema());
    req["stream"] = json!(true);
    let text = gw.post(&req).send().await.unwrap().text().await.unwrap();
    assert!(text.matches(": keep-alive\n\n").count() >= 2, "{text}");
    let data = data_lines(&text);
    assert_eq!(data.last().unwrap(), "[DONE]");
    let content: String = data[..data.len() - 1]
        .iter()
        .filter_map(|d| serde_json::from_str::<Value>(d).ok())
        .filter_map(|v| {
            v["choices"][0]["delta"]["content"]
                .as_str()
                .map(str::to_owned)
        })
        .collect();
    assert_eq!(content, r#"{"name":"Ada","age":36}"#);
    gw.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn streaming_without_healing_passes_through_chunk_by_chunk() {
    let up = upstream().await;
    let gw = gateway(&up.url, |_| {}).await;
    let chunks: Vec<String> = vec![
        event(
            &json!({"id": "c1", "object": "chat.completion.chunk", "created": 1, "model": "m",
            "choices": [{"index": 0, "delta": {"role": "assistant", "content": ""}, "finish_reason": null}]}),
        ),
        event(
            &json!({"id": "c1", "object": "chat.completion.chunk", "created": 1, "model": "m",
            "choices": [{"index": 0, "delta": {"content": "{name: 'not healed'"}, "finish_reason": null}]}),
        ),
        ": upstream comment\n\n".to_owned(),
        event(
            &json!({"id": "c1", "object": "chat.completion.chunk", "created": 1, "model": "m",
            "choices": [{"index": 0, "delta": {}, "finish_reason": "stop"}]}),
        ),
        "data: [DONE]\n\n".to_owned(),
    ];
    up.push(Reply::Sse(chunks.clone()));
    let req = json!({"model": "stub-model", "prompt": "x", "stream": true});
    let text = gw.post(&req).send().await.unwrap().text().await.unwrap();
    assert_eq!(text, chunks.concat(), "forwarded verbatim");
    assert_eq!(up.bodies()[0]["stream"], true);
    gw.stop().await;
}

fn tools_request() -> Value {
    json!({
        "model": "stub-model",
        "messages": [{"role": "user", "content": "read a.txt"}],
        "tools": [{"type": "function", "function": {"name": "read_file",
            "parameters": {"type": "object", "properties": {"path": {"type": "string"}},
                           "required": ["path"]}}}]
    })
}

fn tool_completion(args: &str) -> Value {
    json!({
        "id": "chatcmpl-t", "object": "chat.completion", "created": 1, "model": "stub-model",
        "choices": [{"index": 0, "message": {"role": "assistant", "content": null,
            "tool_calls": [{"id": "call_1", "type": "function",
                "function": {"name": "read_file", "arguments": args}}]},
            "finish_reason": "tool_calls"}],
        "usage": {"prompt_tokens": 5, "completion_tokens": 5, "total_tokens": 10}
    })
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn tool_call_arguments_are_repaired_and_recorded_and_replayable() {
    let up = upstream().await;
    let gw = gateway(&up.url, |_| {}).await;
    up.push(Reply::Json(
        200,
        tool_completion("{path: 'a.txt',}"),
        vec![],
    ));
    let resp = gw.post(&tools_request()).send().await.unwrap();
    assert_eq!(resp.status(), 200);
    let body: Value = resp.json().await.unwrap();
    let args = body["choices"][0]["message"]["tool_calls"][0]["function"]["arguments"]
        .as_str()
        .unwrap();
    assert_eq!(args, r#"{"path":"a.txt"}"#);

    // Replay: the account sees its record with the decoded input.
    let list: Value = gw
        .get("/v1/tool_calls")
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    let records = list["data"].as_array().unwrap();
    assert_eq!(records.len(), 1);
    let r = &records[0];
    assert_eq!(r["tool"], "read_file");
    assert_eq!(r["raw_arguments"], "{path: 'a.txt',}");
    assert_eq!(r["input"], json!({"path": "a.txt"}));
    assert_eq!(r["call_id"], "call_1");
    assert!(r["strategy"].as_str().is_some_and(|s| s != "valid"));
    let id = r["id"].as_i64().unwrap();
    let one: Value = gw
        .get(&format!("/v1/tool_calls/{id}"))
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    assert_eq!(one["input"], json!({"path": "a.txt"}));

    // Another account sees none of it.
    let (_, other) = gw.store.create_account("other", false, 3).unwrap();
    let list: Value = gw
        .client
        .get(format!("{}/v1/tool_calls", gw.url))
        .bearer_auth(&other.0)
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    assert_eq!(list["data"], json!([]));
    let resp = gw
        .client
        .get(format!("{}/v1/tool_calls/{id}", gw.url))
        .bearer_auth(&other.0)
        .send()
        .await
        .unwrap();
    assert_eq!(resp.status(), 404);
    gw.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn tool_call_arguments_that_fail_the_schema_trigger_a_reask_when_healing() {
    let up = upstream().await;
    let gw = gateway(&up.url, |_| {}).await;
    up.push(Reply::Json(200, tool_completion("{\"file\": 3}"), vec![]));
    up.push(Reply::Json(
        200,
        tool_completion("{\"path\": \"a.txt\"}"),
        vec![],
    ));
    let mut req = tools_request();
    req["response_schema"] = json!({"type": "object"});
    let resp = gw.post(&req).send().await.unwrap();
    assert_eq!(resp.status(), 200);
    assert_eq!(resp.headers()["x-jsonheal-attempts"], "2");
    let body: Value = resp.json().await.unwrap();
    assert_eq!(
        body["choices"][0]["message"]["tool_calls"][0]["function"]["arguments"],
        r#"{"path":"a.txt"}"#
    );
    assert_eq!(body["choices"][0]["finish_reason"], "tool_calls");
    let feedback = up.bodies()[1]["messages"][3]["content"]
        .as_str()
        .unwrap()
        .to_owned();
    assert!(feedback.contains("read_file"), "{feedback}");
    gw.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn streamed_tool_call_arguments_are_buffered_and_sent_repaired() {
    let up = upstream().await;
    let gw = gateway(&up.url, |_| {}).await;
    up.push(Reply::Sse(vec![
        chunk_event(
            json!([{"index": 0, "delta": {"role": "assistant", "content": null, "tool_calls": [
            {"index": 0, "id": "call_9", "type": "function",
             "function": {"name": "read_file", "arguments": ""}}]}, "finish_reason": null}]),
        ),
        chunk_event(json!([{"index": 0, "delta": {"tool_calls": [
            {"index": 0, "function": {"arguments": "{path: 'a"}}]}, "finish_reason": null}])),
        chunk_event(json!([{"index": 0, "delta": {"tool_calls": [
            {"index": 0, "function": {"arguments": ".txt'}"}}]}, "finish_reason": null}])),
        chunk_event(json!([{"index": 0, "delta": {}, "finish_reason": "tool_calls"}])),
        "data: [DONE]\n\n".to_owned(),
    ]));
    let mut req = tools_request();
    req["stream"] = json!(true);
    let text = gw.post(&req).send().await.unwrap().text().await.unwrap();
    let data = data_lines(&text);
    let chunks: Vec<Value> = data
        .iter()
        .filter(|d| *d != "[DONE]")
        .map(|d| serde_json::from_str(d).unwrap())
        .collect();
    let calls: Vec<&Value> = chunks
        .iter()
        .filter_map(|c| c["choices"][0]["delta"].get("tool_calls"))
        .collect();
    assert_eq!(calls.len(), 1, "one whole call, not fragments: {text}");
    assert_eq!(calls[0][0]["id"], "call_9");
    assert_eq!(calls[0][0]["function"]["name"], "read_file");
    assert_eq!(calls[0][0]["function"]["arguments"], r#"{"path":"a.txt"}"#);
    let n = chunks.len();
    assert_eq!(chunks[n - 2]["choices"][0]["finish_reason"], "tool_calls");
    // The report follows the last choice, in the one `jsonheal` shape.
    assert_eq!(chunks[n - 1]["choices"], json!([]));
    let report = &chunks[n - 1]["jsonheal"];
    assert_eq!(report["candidate"], "tool_calls");
    assert_eq!(report["tool_calls"][0]["strategy"], "quotes_and_keys");
    assert_eq!(report["tool_calls"][0]["truncated"], false);
    assert_eq!(data.last().unwrap(), "[DONE]");
    // Recorded once the stream ends.
    let mut records = Value::Null;
    for _ in 0..50 {
        records = gw
            .get("/v1/tool_calls")
            .send()
            .await
            .unwrap()
            .json()
            .await
            .unwrap();
        if !records["data"].as_array().unwrap().is_empty() {
            break;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    assert_eq!(records["data"][0]["input"], json!({"path": "a.txt"}));
    gw.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn models_health_metrics_and_routing() {
    let up = upstream().await;
    let second = upstream().await;
    let second_url = second.url.clone();
    let gw = gateway(&up.url, move |c| {
        let mut p = c.providers[0].clone();
        p.name = "local".to_owned();
        p.base_url = second_url;
        c.providers.push(p);
    })
    .await;
    let health: Value = gw
        .get("/healthz")
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    assert_eq!(health["status"], "ok");

    let models: Value = gw
        .get("/v1/models")
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    let ids: Vec<&str> = models["data"]
        .as_array()
        .unwrap()
        .iter()
        .filter_map(|m| m["id"].as_str())
        .collect();
    assert_eq!(ids, ["stub-model", "@local/stub-model"]);

    // @provider/model routes, with the provider prefix removed.
    second.push(ok("from the second"));
    let resp: Value = gw
        .post(&json!({"model": "@local/llama3", "prompt": "x"}))
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    assert_eq!(resp["choices"][0]["message"]["content"], "from the second");
    assert_eq!(second.bodies()[0]["model"], "llama3");
    assert_eq!(up.calls(), 0);

    up.push(ok("nope"));
    up.push(ok("{\"name\": \"Ada\", \"age\": 36}"));
    assert_eq!(
        gw.post(&heal_request(person_schema()))
            .send()
            .await
            .unwrap()
            .status(),
        200
    );
    let metrics = gw
        .get("/metrics")
        .send()
        .await
        .unwrap()
        .text()
        .await
        .unwrap();
    assert!(
        metrics.contains("jsonheal_requests_total{outcome=\"passthrough\"} 1"),
        "{metrics}"
    );
    assert!(
        metrics.contains("jsonheal_requests_total{outcome=\"healed\"} 1"),
        "{metrics}"
    );
    assert!(metrics.contains("jsonheal_attempts_total 2"), "{metrics}");
    assert!(
        metrics.contains("jsonheal_healing_attempts_total{result=\"no_json\"} 1"),
        "{metrics}"
    );
    assert!(
        metrics.contains("jsonheal_upstream_latency_seconds_count 3"),
        "{metrics}"
    );
    gw.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn shutdown_finishes_in_flight_requests_and_writes_the_request_log() {
    let up = upstream().await;
    let gw = gateway(&up.url, |_| {}).await;
    up.push(Reply::Delay(
        Duration::from_millis(800),
        Box::new(ok("slow answer")),
    ));
    let req = gw.post(&json!({"model": "m", "prompt": "x"}));
    let in_flight = tokio::spawn(async move { req.send().await });
    // Stop only once the request is in flight (it reached the upstream).
    let waiting = std::time::Instant::now();
    while up.calls() == 0 {
        assert!(
            waiting.elapsed() < Duration::from_secs(30),
            "the request never arrived"
        );
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
    let store = std::sync::Arc::clone(&gw.store);
    gw.stop().await;
    let resp = in_flight.await.unwrap().unwrap();
    assert_eq!(resp.status(), 200);
    let body: Value = resp.json().await.unwrap();
    assert_eq!(body["choices"][0]["message"]["content"], "slow answer");
    assert_eq!(store.request_count().unwrap(), 1);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn no_auth_runs_requests_as_the_local_account() {
    let up = upstream().await;
    let gw = gateway(&up.url, |c| c.auth = false).await;
    up.push(ok("hi"));
    let resp = gw
        .client
        .post(format!("{}/v1/chat/completions", gw.url))
        .json(&json!({"model": "m", "prompt": "x"}))
        .send()
        .await
        .unwrap();
    assert_eq!(resp.status(), 200);
    gw.stop().await;
}
