"""StreamRepairer: push, snapshot, events, finish."""

import pytest

import jsonheal

TEXT = 'Sure: {"name": "Ada Lovelace", "langs": ["en", "fr"], "n": 1815, "ok": true, "nested": {"k": [1, {"z": null}]}}'


def _apply(root, path, op, value):
    """Apply one event to a tree built from earlier events (JSON pointer paths)."""
    if path == "":
        return value
    *parents, last = [p.replace("~1", "/").replace("~0", "~") for p in path[1:].split("/")]
    node = root
    for p in parents:
        node = node[int(p)] if isinstance(node, list) else node[p]
    if isinstance(node, list):
        i = int(last)
        if op == "append":
            node[i] += value
        elif i == len(node):
            node.append(value)
        else:
            node[i] = value
    elif op == "append":
        node[last] += value
    else:
        node[last] = value
    return root


@pytest.mark.parametrize("size", [1, 2, 5, 16, 1000])
def test_events_rebuild_every_snapshot_and_finish_equals_repair(size):
    s = jsonheal.StreamRepairer()
    tree = None
    for i in range(0, len(TEXT), size):
        s.push(TEXT[i : i + size])
        for path, op, value in s.events():
            assert op in ("set", "append")
            tree = _apply(tree, path, op, value)
        assert tree == s.snapshot()
    final = s.finish()
    assert final.value == jsonheal.repair(TEXT).value
    assert tree == final.value


def test_snapshots_only_grow():
    s = jsonheal.StreamRepairer(events=False)
    seen = []
    for ch in '{"a": "hello", "b": [1, 2, 3], "c": {"d": "e"}}':
        s.push(ch)
        seen.append(s.snapshot())
    assert seen[0] is None
    final = seen[-1]
    for snap in seen[1:]:
        assert snap is not None
        assert list(snap) == list(final)[: len(snap)]
        for k, v in snap.items():
            if isinstance(v, str):
                assert final[k].startswith(v)
            elif isinstance(v, list):
                assert final[k][: len(v)] == v
    assert s.events() == []


def test_bytes_split_inside_a_character():
    data = '{"word": "héllo wörld"}'.encode()
    s = jsonheal.StreamRepairer()
    for i in range(len(data)):
        s.push(data[i : i + 1])
    assert s.finish().value == {"word": "héllo wörld"}


def test_revision_text_and_repairs():
    s = jsonheal.StreamRepairer()
    r0 = s.revision
    s.push("{'a': [1, 2], 'b")
    assert s.revision != r0
    assert s.text == "{'a': [1, 2], 'b"
    assert s.snapshot() == {"a": [1, 2]}
    done = s.finish()
    assert done.truncated
    assert {x.kind for x in done.repairs} >= {"single_quotes", "truncated"}


def test_finished_stream_refuses_more():
    s = jsonheal.StreamRepairer()
    s.push("[1]")
    s.finish()
    with pytest.raises(RuntimeError, match="finished"):
        s.push("x")
    with pytest.raises(RuntimeError, match="finished"):
        s.finish()


def test_stream_of_prose_fails_at_finish():
    s = jsonheal.StreamRepairer()
    s.push("no json in this reply")
    assert s.snapshot() is None
    with pytest.raises(jsonheal.JSONHealError) as e:
        s.finish()
    assert e.value.kind == "no_json"


def test_frozen_stream_keeps_its_snapshot():
    s = jsonheal.StreamRepairer()
    s.push('{"a": 1, "a": 2, "b": [')
    assert s.frozen
    snap = s.snapshot()
    s.push("3]}")
    assert s.snapshot() == snap
    assert s.finish().value == jsonheal.repair('{"a": 1, "a": 2, "b": [3]}').value
