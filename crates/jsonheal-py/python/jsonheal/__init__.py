"""jsonheal: repair the broken JSON that LLMs emit.

Two APIs share one engine (written in Rust):

* the drop-in API of ``json_repair`` -- ``repair_json``, ``loads``, ``load``, ``from_file``
  with the same parameters and return shapes, so ``import jsonheal as json_repair`` works;
* the native API -- ``repair`` (text, value, repairs), ``heal`` (JSON Schema),
  ``extract``, ``args.normalize`` (tool-call arguments) and ``StreamRepairer`` (token
  streams), raising ``JSONHealError`` (a ``ValueError``) with line and column.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import IO, Any, Literal, Union

from . import args
from ._jsonheal import (
    Extracted,
    HealError,
    Healed,
    JSONHealError,
    Repair,
    Repaired,
    Schema,
    StreamRepairer,
    __version__,
    extract,
    heal,
    loads,
    repair,
    repair_json,
)

JSONReturnType = Union[dict, list, str, int, float, bool, None]

__all__ = [
    "Extracted",
    "HealError",
    "Healed",
    "JSONHealError",
    "JSONReturnType",
    "Repair",
    "Repaired",
    "Schema",
    "StreamRepairer",
    "__version__",
    "args",
    "extract",
    "from_file",
    "heal",
    "load",
    "loads",
    "repair",
    "repair_json",
]


def load(
    fd: IO[Any],
    skip_json_loads: bool = False,
    logging: bool = False,
    chunk_length: int = 0,
    strict: bool = False,
    schema: Any | None = None,
    schema_repair_mode: Literal["standard", "salvage"] = "standard",
) -> Any:
    """Like ``json.load``, repairing the text first when it is not valid JSON.

    Reads the whole file object (text or binary); ``chunk_length`` is accepted for
    json_repair's signature and ignored. Returns what ``loads`` returns.
    """
    del chunk_length  # the engine reads the whole text in one pass
    return loads(
        fd.read(),
        skip_json_loads=skip_json_loads,
        logging=logging,
        strict=strict,
        schema=schema,
        schema_repair_mode=schema_repair_mode,
    )


def from_file(
    filename: str | os.PathLike[str],
    skip_json_loads: bool = False,
    logging: bool = False,
    chunk_length: int = 0,
    strict: bool = False,
    schema: Any | None = None,
    schema_repair_mode: Literal["standard", "salvage"] = "standard",
) -> Any:
    """``load`` on the file at ``filename``.

    The file is read as bytes and decoded as UTF-8; bytes that are not UTF-8 become U+FFFD
    and are reported in the log (json_repair would use the locale's encoding).
    """
    with Path(filename).open("rb") as fd:
        return load(fd, skip_json_loads, logging, chunk_length, strict, schema, schema_repair_mode)
