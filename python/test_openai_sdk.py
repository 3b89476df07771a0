"""The official `openai` Python package against a running jsonheal gateway.

Run by `crates/jsonheal-gateway/tests/python_sdk.rs`, which starts the gateway in front of a
scripted upstream and queues the replies these calls consume, in this order:

1. a fenced reply with a trailing comma        -> healed, non-streaming
2. a valid reply                                -> healed, streamed
3. two replies that hold no JSON                -> 503 after max_attempts=2 (retries off)
4. two replies that hold no JSON                -> streamed: the error chunk raises APIError

Environment: JSONHEAL_BASE_URL (e.g. http://127.0.0.1:PORT/v1), JSONHEAL_API_KEY.
Prints `N passed, M failed` and exits non-zero on any failure.
"""

import json
import os
import sys
import traceback

import openai
from openai import OpenAI

SCHEMA = {
    "type": "object",
    "properties": {"name": {"type": "string"}, "age": {"type": "integer"}},
    "required": ["name", "age"],
    "additionalProperties": False,
}
EXPECTED = {"name": "Ada", "age": 36}


def client():
    return OpenAI(
        base_url=os.environ["JSONHEAL_BASE_URL"],
        api_key=os.environ["JSONHEAL_API_KEY"],
        max_retries=0,
        timeout=60,
    )


def test_non_streaming_healed_call():
    resp = client().chat.completions.create(
        model="stub-model",
        messages=[{"role": "user", "content": "Who wrote the first program?"}],
        extra_body={"response_schema": SCHEMA},
    )
    assert json.loads(resp.choices[0].message.content) == EXPECTED, resp
    assert resp.choices[0].finish_reason == "stop"
    assert resp.usage.total_tokens == resp.usage.prompt_tokens + resp.usage.completion_tokens


def test_streamed_healed_call():
    stream = client().chat.completions.create(
        model="stub-model",
        messages=[{"role": "user", "content": "Who wrote the first program?"}],
        response_format={
            "type": "json_schema",
            "json_schema": {
                "name": "person",
                "schema": SCHEMA,
                "healing_options": {"max_attempts": 2},
            },
        },
        stream=True,
        stream_options={"include_usage": True},
    )
    content, finish, usage = "", None, None
    for chunk in stream:
        if chunk.usage is not None:
            usage = chunk.usage
        for choice in chunk.choices:
            content += choice.delta.content or ""
            finish = choice.finish_reason or finish
    assert json.loads(content) == EXPECTED, content
    assert finish == "stop", finish
    assert usage is not None and usage.total_tokens > 0, usage


def test_failing_call_raises_503():
    try:
        client().chat.completions.create(
            model="stub-model",
            messages=[{"role": "user", "content": "Who wrote the first program?"}],
            response_format={
                "type": "json_schema",
                "json_schema": {
                    "name": "person",
                    "schema": SCHEMA,
                    "healing_options": {"max_attempts": 2},
                },
            },
        )
    except openai.APIStatusError as e:
        assert e.status_code == 503, e.status_code
        assert e.response.headers.get("retry-after") == "5"
        body = e.response.json()
        assert body["error"]["code"] == "service_unavailable", body
        assert body["error"]["message"] == (
            "Failed to generate a valid JSON response. Please, try again later."
        )
        return
    raise AssertionError("expected openai.APIStatusError with status 503")


def test_streamed_failing_call_raises_api_error():
    stream = client().chat.completions.create(
        model="stub-model",
        messages=[{"role": "user", "content": "Who wrote the first program?"}],
        extra_body={"response_schema": SCHEMA, "healing_options": {"max_attempts": 2}},
        stream=True,
    )
    content = ""
    try:
        for chunk in stream:
            for choice in chunk.choices:
                content += choice.delta.content or ""
    except openai.APIError as e:
        assert "Failed to generate a valid JSON response" in e.message, e.message
        assert content == "", "nothing unvalidated was streamed"
        return
    raise AssertionError("expected the stream's error chunk to raise openai.APIError")


def main():
    tests = [
        test_non_streaming_healed_call,
        test_streamed_healed_call,
        test_failing_call_raises_503,
        test_streamed_failing_call_raises_api_error,
    ]
    passed = failed = 0
    for t in tests:
        try:
            t()
            passed += 1
            print(f"ok   {t.__name__}")
        except Exception:  # noqa: BLE001 - report every failure, keep going
            failed += 1
            print(f"FAIL {t.__name__}")
            traceback.print_exc()
    print(f"{passed} passed, {failed} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
