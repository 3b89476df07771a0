//! Errors end to end: authentication, upstream faults, bad requests. A real server on
//! 127.0.0.1 in front of a scripted upstream.
#![allow(clippy::unwrap_used)]

mod common;

use std::time::Duration;

use common::*;
use jsonheal_gateway::store::Store;
use serde_json::{json, Value};

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_missing_or_wrong_key_is_401_in_openai_shape() {
    let up = upstream().await;
    let gw = gateway(&up.url, |_| {}).await;
    let body = json!({"model": "stub-model", "prompt": "x"});
    for auth in [None, Some("Bearer jh_wrong"), Some("Basic abc")] {
        let mut req = gw
            .client
            .post(format!("{}/v1/chat/completions", gw.url))
            .json(&body);
        if let Some(a) = auth {
            req = req.header("authorization", a);
        }
        let resp = req.send().await.unwrap();
        assert_eq!(resp.status(), 401, "{auth:?}");
        let err: Value = resp.json().await.unwrap();
        assert_eq!(err["error"]["type"], "invalid_request_error");
        assert_eq!(err["error"]["code"], "invalid_api_key");
        assert!(err["error"]["param"].is_null());
    }
    assert_eq!(
        gw.client
            .get(format!("{}/v1/tool_calls", gw.url))
            .send()
            .await
            .unwrap()
            .status(),
        401
    );
    assert_eq!(up.calls(), 0);
    // A rotated key stops working.
    let new_key = gw.store.rotate_key("test").unwrap();
    let resp = gw.post(&body).send().await.unwrap();
    assert_eq!(resp.status(), 401);
    up.push(ok("hi"));
    let resp = gw
        .client
        .post(format!("{}/v1/chat/completions", gw.url))
        .bearer_auth(&new_key.0)
        .json(&body)
        .send()
        .await
        .unwrap();
    assert_eq!(resp.status(), 200);
    gw.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn upstream_faults_map_to_gateway_errors() {
    // Connection refused.
    let gw = gateway(&dead_url().await, |_| {}).await;
    let resp = gw
        .post(&json!({"model": "m", "prompt": "x"}))
        .send()
        .await
        .unwrap();
    assert_eq!(resp.status(), 502);
    let err: Value = resp.json().await.unwrap();
    assert!(
        err["error"]["message"]
            .as_str()
            .unwrap()
            .contains("connect"),
        "{err}"
    );
    gw.stop().await;

    let up = upstream().await;
    let gw = gateway(&up.url, |c| c.timeouts.request = Duration::from_millis(500)).await;
    let plain = json!({"model": "m", "prompt": "x"});
    let healed = heal_request(person_schema());

    // Reset mid-body.
    up.push(Reply::Reset);
    let resp = gw.post(&plain).send().await.unwrap();
    assert_eq!(resp.status(), 502);
    up.push(Reply::Reset);
    assert_eq!(gw.post(&healed).send().await.unwrap().status(), 502);

    // Timeout.
    up.push(Reply::Delay(Duration::from_secs(3), Box::new(ok("late"))));
    let resp = gw.post(&plain).send().await.unwrap();
    assert_eq!(resp.status(), 504);
    let err: Value = resp.json().await.unwrap();
    assert!(
        err["error"]["message"]
            .as_str()
            .unwrap()
            .contains("timed out"),
        "{err}"
    );

    // 4xx passed through with its body.
    let upstream_err = json!({"error": {"message": "model not found", "type": "invalid_request_error",
        "param": "model", "code": "model_not_found"}});
    up.push(Reply::Json(404, upstream_err.clone(), vec![]));
    let resp = gw.post(&plain).send().await.unwrap();
    assert_eq!(resp.status(), 404);
    assert_eq!(resp.json::<Value>().await.unwrap(), upstream_err);
    up.push(Reply::Json(400, upstream_err.clone(), vec![]));
    let resp = gw.post(&healed).send().await.unwrap();
    assert_eq!(resp.status(), 400, "also inside the healing loop");

    // 429 with its Retry-After.
    up.push(Reply::Json(
        429,
        json!({"error": {"message": "slow down"}}),
        vec![("retry-after", "17")],
    ));
    let resp = gw.post(&plain).send().await.unwrap();
    assert_eq!(resp.status(), 429);
    assert_eq!(resp.headers()["retry-after"], "17");

    // A body that is not JSON.
    up.push(Reply::Raw(
        200,
        "text/html",
        "<html>gateway error</html>".to_owned(),
    ));
    let resp = gw.post(&plain).send().await.unwrap();
    assert_eq!(resp.status(), 502);
    let err: Value = resp.json().await.unwrap();
    assert!(
        err["error"]["message"]
            .as_str()
            .unwrap()
            .contains("not JSON"),
        "{err}"
    );

    // Upstream 5xx.
    up.push(Reply::Raw(500, "text/plain", "boom".to_owned()));
    assert_eq!(gw.post(&plain).send().await.unwrap().status(), 502);

    // A broken SSE stream: from the start, it is a 502 ...
    let streaming = json!({"model": "m", "prompt": "x", "stream": true});
    up.push(Reply::Sse(vec!["data: {not json\n\n".to_owned()]));
    assert_eq!(gw.post(&streaming).send().await.unwrap().status(), 502);
    up.push(Reply::SseBroken(vec![]));
    assert_eq!(gw.post(&streaming).send().await.unwrap().status(), 502);
    // ... midway, the status is sent: the stream ends with an error chunk and [DONE].
    up.push(Reply::SseBroken(vec![event(
        &json!({"id": "c", "object": "chat.completion.chunk",
        "created": 1, "model": "m",
        "choices": [{"index": 0, "delta": {"content": "partial"}, "finish_reason": null}]}),
    )]));
    let resp = gw.post(&streaming).send().await.unwrap();
    assert_eq!(resp.status(), 200);
    let data = data_lines(&resp.text().await.unwrap());
    assert_eq!(data.last().unwrap(), "[DONE]");
    let last: Value = serde_json::from_str(&data[data.len() - 2]).unwrap();
    assert_eq!(last["choices"][0]["finish_reason"], "error");
    assert_eq!(last["error"]["type"], "upstream_error");
    assert_eq!(last["id"], "c");
    gw.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn bad_requests_are_400_or_413_naming_the_problem() {
    let up = upstream().await;
    let gw = gateway(&up.url, |c| c.body_limit = 2000).await;
    let post_raw = |body: String| {
        gw.client
            .post(format!("{}/v1/chat/completions", gw.url))
            .bearer_auth(&gw.key)
            .header("content-type", "application/json")
            .body(body)
    };
    let cases = [
        ("{not json".to_owned(), 400, "not valid JSON"),
        (
            json!({"messages": [{"role": "user", "content": "x"}]}).to_string(),
            400,
            "model",
        ),
        (json!({"model": "m"}).to_string(), 400, "messages"),
        (
            json!({"model": "m", "prompt": "x", "response_schema": {"type": "strange"}})
                .to_string(),
            400,
            "response_schema",
        ),
        (
            json!({"model": "m", "prompt": "x".repeat(3000)}).to_string(),
            413,
            "2000 bytes",
        ),
    ];
    for (body, status, needle) in cases {
        let resp = post_raw(body.clone()).send().await.unwrap();
        assert_eq!(resp.status(), status, "{body:.80}");
        let err: Value = resp.json().await.unwrap();
        assert_eq!(err["error"]["type"], "invalid_request_error");
        let msg = err["error"]["message"].as_str().unwrap();
        assert!(msg.contains(needle), "{needle:?} not in {msg:?}");
    }
    assert_eq!(up.calls(), 0);
    let resp = gw.get("/v1/nothing").send().await.unwrap();
    assert_eq!(resp.status(), 404);
    let resp = gw.get("/v1/chat/completions").send().await.unwrap();
    assert_eq!(resp.status(), 405);
    let err: Value = resp.json().await.unwrap();
    assert_eq!(err["error"]["code"], "method_not_allowed");
    let resp = gw.get("/v1/tool_calls?limit=lots").send().await.unwrap();
    assert_eq!(resp.status(), 400);
    let err: Value = resp.json().await.unwrap();
    assert_eq!(err["error"]["param"], "limit");
    gw.stop().await;
}
