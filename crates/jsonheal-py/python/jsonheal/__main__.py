"""``python -m jsonheal``: the ``jsonheal repair`` command for users who only have pip.

Same options and output as ``jsonheal repair`` (see ``python -m jsonheal --help``):
the repaired text on stdout, ``--explain`` lines on stderr, exit status 1 with the reason
when the text cannot be repaired.
"""

from __future__ import annotations

import argparse
import json
import sys
from typing import IO, Any, Sequence

from . import JSONHealError, Repaired, StreamRepairer, repair
from ._jsonheal import _compact, _pretty

_READ_SIZE = 4096


def _parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(
        prog="python -m jsonheal",
        description="Repair the broken JSON that LLMs emit (the `jsonheal repair` command).",
    )
    p.add_argument("file", nargs="?", help="input file (stdin when absent or -)")
    layout = p.add_mutually_exclusive_group()
    layout.add_argument("--pretty", action="store_true", help="indent the output")
    layout.add_argument(
        "--compact",
        action="store_true",
        help="minify the output (default: the repaired text as it is, which for valid input "
        "is the input itself)",
    )
    p.add_argument(
        "--explain", action="store_true", help="print every repair to stderr as `line:col kind: what`"
    )
    p.add_argument(
        "--strict",
        action="store_true",
        help="repair nothing: exit 1 with the line and column of the first fault",
    )
    p.add_argument(
        "--jsonl",
        action="store_true",
        help='batch mode: each input line is {"id": ..., "input": "<raw text>"}, each output line '
        '{"id", "ok", "value", "repairs"} or {"id", "ok": false, "error"}',
    )
    p.add_argument(
        "--stream",
        action="store_true",
        help="read the input as it arrives and print a snapshot line each time the value changes",
    )
    p.add_argument(
        "--events",
        action="store_true",
        help="with --stream: print each change as a path event line, then {\"final\": value}",
    )
    p.add_argument("--multiple", choices=["array", "first", "last", "error"], default="array")
    p.add_argument(
        "--duplicate-keys", choices=["keep", "first", "last", "error"], default="keep"
    )
    p.add_argument("--non-finite", choices=["null", "string", "error"], default="null")
    p.add_argument("--max-depth", type=int, default=127, help="deepest nesting accepted")
    return p


def _options(a: argparse.Namespace) -> dict[str, Any]:
    return {
        "multiple": a.multiple,
        "duplicate_keys": a.duplicate_keys,
        "non_finite": a.non_finite,
        "max_depth": a.max_depth,
    }


def _open(path: str | None) -> IO[bytes]:
    if path is None or path == "-":
        return sys.stdin.buffer
    return open(path, "rb")  # noqa: SIM115 - closed by the caller


def _line_col(text: str, offset: int) -> tuple[int, int]:
    line = text.count("\n", 0, offset) + 1
    return line, offset - (text.rfind("\n", 0, offset) + 1) + 1


def _explain(text: str, fixed: Repaired) -> None:
    if not fixed.repairs:
        print("no repairs: the input is valid JSON", file=sys.stderr)
    for r in fixed.repairs:
        line, col = _line_col(text, r.start)
        print(f"{line}:{col} {r.kind}: {r.message}", file=sys.stderr)


def _dump(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"))


def _decode(data: bytes) -> str:
    return data.decode("utf-8", "replace")


def _one(a: argparse.Namespace) -> int:
    with _open(a.file) as f:
        data = f.read()
    try:
        fixed = repair(data, strict=a.strict, **_options(a))
    except JSONHealError as e:
        print(f"jsonheal: {e}", file=sys.stderr)
        return 1
    if a.explain:
        _explain(_decode(data), fixed)
    text = fixed.text
    if a.pretty:
        text = _pretty(text)
    elif a.compact:
        text = _compact(text)
    sys.stdout.write(text + "\n")
    return 0


def _jsonl(a: argparse.Namespace) -> int:
    out = sys.stdout
    with _open(a.file) as f:
        for raw in f:
            line = _decode(raw).rstrip("\r\n")
            if not line.strip():
                continue
            try:
                record = json.loads(line)
                if not isinstance(record, dict):
                    raise ValueError("expected an object")
            except ValueError as e:
                out.write(_dump({"id": None, "ok": False, "error": f"malformed input line: {e}"}) + "\n")
                continue
            rid = record.get("id")
            if not isinstance(record.get("input"), str):
                out.write(_dump({"id": rid, "ok": False, "error": "malformed input line: missing `input`"}) + "\n")
                continue
            try:
                fixed = repair(record["input"], strict=a.strict, **_options(a))
            except JSONHealError as e:
                out.write(_dump({"id": rid, "ok": False, "error": str(e)}) + "\n")
                continue
            repairs = [{"kind": r.kind, "start": r.start, "end": r.end} for r in fixed.repairs]
            # The value's own text (number text kept), on one line.
            out.write(
                '{"id":%s,"ok":true,"value":%s,"repairs":%s}\n'
                % (_dump(rid), _compact(fixed.text), _dump(repairs))
            )
    return 0


def _stream(a: argparse.Namespace) -> int:
    events = a.events
    s = StreamRepairer(events=events, **_options(a))
    out = sys.stdout
    shown = s.revision
    frozen_told = False
    with _open(a.file) as f:
        read = getattr(f, "read1", f.read)
        while True:
            chunk = read(_READ_SIZE)
            if not chunk:
                break
            s.push(chunk)
            if not events:
                if s.revision != shown:
                    shown = s.revision
                    snap = s.snapshot()
                    if snap is not None:
                        out.write(_dump(snap) + "\n")
                        out.flush()
                continue
            for path, op, value in s.events():
                out.write(_dump({"path": path, op: value}) + "\n")
            if s.frozen and not frozen_told:
                frozen_told = True
                out.write(_dump({"frozen": True}) + "\n")
            out.flush()
    text = s.text
    try:
        fixed = s.finish()
    except JSONHealError as e:
        out.flush()
        print(f"jsonheal: {e}", file=sys.stderr)
        return 1
    if a.explain:
        _explain(text, fixed)
    final = _compact(fixed.text)
    out.write(('{"final":%s}' % final if events else final) + "\n")
    return 0


def main(argv: Sequence[str] | None = None) -> int:
    p = _parser()
    a = p.parse_args(argv)
    if a.events and not a.stream:
        p.error("--events requires --stream")
    if a.jsonl and (a.pretty or a.explain or a.stream):
        p.error("--jsonl cannot be used with --pretty, --explain or --stream")
    if a.stream and (a.pretty or a.compact or a.strict):
        p.error("--stream cannot be used with --pretty, --compact or --strict")
    try:
        if a.stream:
            return _stream(a)
        if a.jsonl:
            return _jsonl(a)
        return _one(a)
    except OSError as e:
        print(f"jsonheal: {e}", file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        return 130


if __name__ == "__main__":
    sys.exit(main())
