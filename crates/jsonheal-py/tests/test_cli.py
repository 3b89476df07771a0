"""python -m jsonheal mirrors `jsonheal repair`."""

import json
import subprocess
import sys


def run(*args, stdin=""):
    return subprocess.run(
        [sys.executable, "-m", "jsonheal", *args],
        input=stdin.encode(),
        capture_output=True,
        check=False,
    )


def test_repair_stdin():
    p = run(stdin="Here: {a: 1, b: [1, 2,],}")
    assert p.returncode == 0
    assert p.stdout.decode() == '{"a":1,"b":[1,2]}\n'


def test_valid_input_is_printed_as_it_is_and_pretty_indents():
    p = run(stdin='{"a":  1.50}')
    assert p.stdout.decode() == '{"a":  1.50}\n'
    p = run("--pretty", stdin='{"a":1.50,"b":[1]}')
    assert json.loads(p.stdout) == {"a": 1.5, "b": [1]}
    assert "\n  " in p.stdout.decode() and "1.50" in p.stdout.decode()
    assert run("--compact", stdin='{"a":  1.50}').stdout.decode() == '{"a":1.50}\n'


def test_file_argument_and_explain(tmp_path):
    f = tmp_path / "in.txt"
    f.write_text("{'a': 1,\n b: 2}")
    p = run(str(f), "--explain")
    assert p.returncode == 0
    assert json.loads(p.stdout) == {"a": 1, "b": 2}
    lines = p.stderr.decode().splitlines()
    assert "1:2 single_quotes: turned a single-quoted or backtick string into a JSON string" in lines
    assert "2:2 unquoted_key: quoted a bare key" in lines


def test_strict_and_no_json_exit_1():
    p = run("--strict", stdin="{'a': 1}")
    assert p.returncode == 1
    assert p.stderr.decode().startswith("jsonheal: ") and "line 1 column 2" in p.stderr.decode()
    p = run(stdin="nothing here")
    assert p.returncode == 1 and p.stderr.decode() == "jsonheal: no JSON found\n"


def test_jsonl():
    lines = [
        json.dumps({"id": 1, "input": "{a: 1}"}),
        json.dumps({"id": "x", "input": "prose only"}),
        "not json",
        json.dumps({"id": 3}),
    ]
    p = run("--jsonl", stdin="\n".join(lines) + "\n")
    out = [json.loads(x) for x in p.stdout.decode().splitlines()]
    assert out[0] == {"id": 1, "ok": True, "value": {"a": 1}, "repairs": [{"kind": "unquoted_key", "start": 1, "end": 2}]}
    assert out[1] == {"id": "x", "ok": False, "error": "no JSON found"}
    assert out[2]["ok"] is False and out[2]["error"].startswith("malformed input line")
    assert out[3] == {"id": 3, "ok": False, "error": "malformed input line: missing `input`"}


def test_stream_events():
    p = run("--stream", "--events", stdin='{"a": [1, 2], "b": "xy"}')
    assert p.returncode == 0
    out = [json.loads(x) for x in p.stdout.decode().splitlines()]
    assert out[-1] == {"final": {"a": [1, 2], "b": "xy"}}
    assert out[0] == {"path": "", "set": {}}
    assert {"path": "/a/1", "set": 2} in out


def test_stream_snapshots():
    p = run("--stream", stdin='{"a": [1, 2], "b": "xy"')
    out = [json.loads(x) for x in p.stdout.decode().splitlines()]
    assert out[-1] == {"a": [1, 2], "b": "xy"}
