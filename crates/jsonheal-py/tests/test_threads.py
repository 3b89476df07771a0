"""Several threads repairing at once get the same answers as one thread."""

import json
from concurrent.futures import ThreadPoolExecutor

import jsonheal


def _inputs():
    small = [f"{{id: {i}, name: 'n{i}', tags: ['a', 'b',],}}" for i in range(200)]
    # Long enough that the repair runs without the GIL.
    big = [
        json.dumps({"rows": [{"k": j, "v": "x" * (i % 7)} for j in range(3000)]}).replace('"k"', "k")
        for i in range(8)
    ]
    return small + big


def test_threads_agree_with_sequential_results():
    inputs = _inputs()
    want = [jsonheal.repair(t).value for t in inputs]
    want_loads = [jsonheal.loads(t) for t in inputs]
    with ThreadPoolExecutor(max_workers=8) as pool:
        for _ in range(3):
            got = list(pool.map(lambda t: jsonheal.repair(t).value, inputs))
            assert got == want
            assert list(pool.map(jsonheal.loads, inputs)) == want_loads


def test_one_stream_per_thread():
    text = '{"a": [1, 2, 3], "b": "' + "x" * 5000 + '", "c": {d: 1}}'

    def run(n):
        s = jsonheal.StreamRepairer()
        for i in range(0, len(text), n):
            s.push(text[i : i + n])
        return s.finish().value

    want = jsonheal.repair(text).value
    with ThreadPoolExecutor(max_workers=4) as pool:
        assert list(pool.map(run, [1, 3, 7, 64, 1000, 5000])) == [want] * 6
