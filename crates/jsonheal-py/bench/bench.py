"""jsonheal against json_repair, fast-json-repair and json.loads, side by side in one run.

    pip install json_repair fast-json-repair     # the competitors (optional: missing = skipped)
    python crates/jsonheal-py/bench/bench.py [--quick]

Each row times one library on one workload (best of several rounds, each round long enough
to measure) and prints the time per call and how many times slower than jsonheal it is
("x jsonheal": above 1 means jsonheal is faster). Inputs are generated here, seeded, so a
run is reproducible; every library's result is checked against json.loads of the clean
document where one exists, and mismatches are counted, not hidden.
"""

from __future__ import annotations

import argparse
import gc
import json
import random
import sys
import time
from typing import Any, Callable

import jsonheal

try:
    import json_repair
except ImportError:  # pragma: no cover - optional competitor
    json_repair = None
try:
    import fast_json_repair
except ImportError:  # pragma: no cover - optional competitor
    fast_json_repair = None

WORDS = "alpha beta gamma delta epsilon zeta eta theta iota kappa lambda mu nu xi omicron pi".split()


def make_doc(rng: random.Random, target_bytes: int) -> Any:
    """A JSON-ish record list of about `target_bytes` once dumped: strings, ints, floats,
    booleans, nulls, nested objects and arrays, non-ASCII text."""
    items = []
    size = 0
    i = 0
    while size < target_bytes:
        item = {
            "id": i,
            "name": " ".join(rng.choice(WORDS) for _ in range(rng.randint(1, 4))),
            "score": round(rng.uniform(-1000, 1000), 3),
            "active": rng.random() < 0.5,
            "parent": None if rng.random() < 0.3 else rng.randint(0, 10**6),
            "tags": [rng.choice(WORDS) for _ in range(rng.randint(0, 4))],
            "meta": {"city": rng.choice(["Paris", "Zürich", "東京", "São Paulo"]), "n": rng.randint(0, 99)},
        }
        items.append(item)
        size += len(json.dumps(item)) + 2
        i += 1
    return {"count": len(items), "items": items}


def llm_style(rng: random.Random, doc: Any) -> str:
    """`doc` written the way models break JSON: prose and a fence around it, single quotes,
    bare keys, Python literals, trailing commas, comments, a missing comma, and cut off."""

    def w(v: Any, depth: int) -> str:
        if isinstance(v, dict):
            parts = []
            for k, x in v.items():
                key = k if rng.random() < 0.4 else (f"'{k}'" if rng.random() < 0.5 else json.dumps(k))
                parts.append(f"{key}: {w(x, depth + 1)}")
            sep = ", " if rng.random() < 0.97 else " "
            tail = "," if rng.random() < 0.3 else ""
            return "{" + sep.join(parts) + tail + "}"
        if isinstance(v, list):
            tail = "," if v and rng.random() < 0.3 else ""
            return "[" + ", ".join(w(x, depth + 1) for x in v) + tail + "]"
        if isinstance(v, bool):
            return ("True" if v else "False") if rng.random() < 0.5 else json.dumps(v)
        if v is None:
            return "None" if rng.random() < 0.5 else "null"
        if isinstance(v, str):
            if rng.random() < 0.4 and "'" not in v:
                return f"'{v}'"
            return json.dumps(v, ensure_ascii=False)
        text = json.dumps(v)
        if depth > 2 and rng.random() < 0.05:
            text += " // checked"
            text += "\n"
        return text

    body = w(doc, 0)
    return f"Sure! Here is the data you asked for:\n```json\n{body}\n```\nLet me know if you need more."


def truncated(rng: random.Random, doc: Any) -> str:
    text = json.dumps(doc)
    return text[: int(len(text) * rng.uniform(0.6, 0.95))]


def tool_calls(rng: random.Random, n: int) -> list[str]:
    """Small tool-call argument payloads as models send them: mostly valid, some broken."""
    shapes = [
        lambda: json.dumps({"command": f"ls -la /{rng.choice(WORDS)}"}),
        lambda: json.dumps({"path": f"src/{rng.choice(WORDS)}.py", "line": rng.randint(1, 999)}),
        lambda: "{'query': '%s', 'limit': %d}" % (rng.choice(WORDS), rng.randint(1, 50)),
        lambda: '{path: "src/%s.rs", recursive: true,}' % rng.choice(WORDS),
        lambda: '{"city": "%s", "units": "metric"' % rng.choice(["Paris", "Zürich", "Lima"]),
        lambda: json.dumps({"todo": [{"id": i, "done": i % 2 == 0} for i in range(3)]}),
    ]
    return [rng.choice(shapes)() for _ in range(n)]


def timeit(fn: Callable[[], Any], min_round: float, rounds: int) -> float:
    """Best time of `rounds` rounds, each repeating `fn` for at least `min_round` seconds."""
    reps = 1
    while True:
        t0 = time.perf_counter()
        for _ in range(reps):
            fn()
        dt = time.perf_counter() - t0
        if dt >= min_round:
            break
        reps = max(reps * 2, int(reps * min_round / max(dt, 1e-9)))
    best = dt / reps
    for _ in range(rounds - 1):
        gc.collect()
        t0 = time.perf_counter()
        for _ in range(reps):
            fn()
        best = min(best, (time.perf_counter() - t0) / reps)
    return best


def fmt_time(s: float) -> str:
    for unit, scale in (("s", 1), ("ms", 1e-3), ("µs", 1e-6), ("ns", 1e-9)):
        if s >= scale:
            return f"{s / scale:8.2f} {unit}"
    return f"{s * 1e9:8.2f} ns"


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--quick", action="store_true", help="smaller inputs and fewer rounds")
    ap.add_argument(
        "--dump-wrong",
        metavar="FILE",
        help="write the inputs jsonheal gets wrong to FILE, one JSON line each (input, want, got)",
    )
    a = ap.parse_args()
    rng = random.Random(20260101)
    rounds = 3 if a.quick else 5
    min_round = 0.05 if a.quick else 0.2
    n_calls = 10_000 if a.quick else 100_000

    loaders: dict[str, Callable[[str], Any]] = {"jsonheal": jsonheal.loads}
    if fast_json_repair is not None:
        loaders["fast-json-repair"] = fast_json_repair.loads
    if json_repair is not None:
        loaders["json_repair"] = json_repair.loads

    print(f"python {sys.version.split()[0]}, jsonheal {jsonheal.__version__}", end="")
    for name, mod in (("json_repair", json_repair), ("fast-json-repair", fast_json_repair)):
        print(f", {name} {getattr(mod, '__version__', 'installed') if mod else 'missing'}", end="")
    print("\n")
    print(f"{'workload':<34} {'library':<18} {'per call':>12} {'MB/s':>9} {'x jsonheal':>11} {'wrong':>6}")

    def row(workload: str, name: str, per_call: float, nbytes: int, base: float, wrong: int) -> None:
        mbs = nbytes / per_call / 1e6
        print(f"{workload:<34} {name:<18} {fmt_time(per_call):>12} {mbs:9.1f} {per_call / base:11.2f} {wrong:>6}")

    def compare(workload: str, texts: list[str], want: list[Any] | None, libs: dict[str, Callable[[str], Any]]) -> None:
        nbytes = sum(len(t.encode()) for t in texts)
        results = {}
        for name, fn in libs.items():
            wrong = 0
            if want is not None:
                for t, w in zip(texts, want):
                    try:
                        got = fn(t)
                    except Exception:  # noqa: BLE001 - a failure is a wrong answer here
                        got = object()
                    wrong += got != w
                    if got != w and name == "jsonheal" and a.dump_wrong:
                        with open(a.dump_wrong, "a", encoding="utf-8") as f:
                            record = {"workload": workload, "input": t, "want": w, "got": got}
                            f.write(json.dumps(record, ensure_ascii=False, default=repr) + "\n")
            per = timeit(lambda fn=fn: [fn(t) for t in texts], min_round, rounds) / len(texts)
            results[name] = (per, wrong)
        base = results["jsonheal"][0]
        for name, (per, wrong) in results.items():
            row(workload, name, per, nbytes // len(texts), base, wrong)
        print()

    # Valid documents: json.loads is the bar.
    valid_libs = {"jsonheal": jsonheal.loads, "json.loads": json.loads, **{k: v for k, v in loaders.items() if k != "jsonheal"}}
    sizes = [("valid 1 KB", 1_000), ("valid 100 KB", 100_000), ("valid 10 MB", 10_000_000)]
    if a.quick:
        sizes[-1] = ("valid 1 MB", 1_000_000)
    for label, size in sizes:
        doc = make_doc(rng, size)
        text = json.dumps(doc, ensure_ascii=False)
        libs = valid_libs
        if size >= 10_000_000:
            # json_repair takes seconds per call here; one round of one call is enough to
            # see the ratio, but it would dominate the run.
            libs = {k: v for k, v in valid_libs.items() if k != "json_repair"}
        compare(f"{label} ({len(text.encode()) // 1000} KB)", [text], [doc], libs)

    # Malformed, LLM-style replies.
    for label, size, count in (("malformed 1 KB x50", 1_000, 50), ("malformed 100 KB", 100_000, 1)):
        docs = [make_doc(rng, size) for _ in range(count)]
        texts = [llm_style(rng, d) for d in docs]
        compare(label, texts, docs, loaders)
    docs = [make_doc(rng, 2_000) for _ in range(50)]
    compare("truncated 2 KB x50", [truncated(rng, d) for d in docs], None, loaders)

    # Many small tool-call payloads: the call overhead is most of the cost.
    calls = tool_calls(rng, n_calls)
    want = [jsonheal.loads(t) for t in calls]
    compare(f"{n_calls:,} tool-call payloads", calls, want, loaders)
    print("wrong: results that differ from the clean document (from jsonheal's for tool calls).")
    return 0


if __name__ == "__main__":
    sys.exit(main())
