"""Type stubs of the native module behind ``jsonheal`` (built from Rust with PyO3)."""

from typing import IO, Any, Literal, Mapping, Union, overload

__version__: str

Text = Union[str, bytes, bytearray]
JSONValue = Union[dict[str, Any], list[Any], str, int, float, bool, None]
Multiple = Literal["array", "first", "last", "error"]
DuplicateKeys = Literal["keep", "first", "last", "error"]
NonFinite = Literal["null", "string", "error"]
Source = Literal["whole", "fence", "span", "repaired"]
LogEntry = dict[str, Any]
"""A drop-in log entry: ``text`` (what was done), ``context`` (the input around it, as in
json_repair), ``kind`` (stable name) and ``span`` (``(start, end)`` character offsets, or
None for a schema coercion, whose ``context`` is the JSON pointer of the value)."""

class JSONHealError(ValueError):
    """The text could not be repaired (or, with ``strict=True``, is not valid JSON)."""

    kind: str
    """Stable name: 'no_json', 'syntax', 'too_deep', 'duplicate_key', 'non_finite',
    'multiple_values', 'not_an_object', 'invalid_schema' or 'internal'."""
    line: int | None
    """1-based line of the fault, when it has a position."""
    column: int | None
    """1-based column (in characters) of the fault, when it has a position."""
    offset: int | None
    """Character offset of the fault in the input, when it has a position."""

class HealError(JSONHealError):
    """No value in the reply satisfies the schema."""

    kind: Literal["no_json", "truncated", "invalid"]  # type: ignore[assignment]
    feedback: str
    """A message to send back to the model (a re-ask)."""
    violations: list[dict[str, str]]
    """For 'invalid': path, keyword, expected, found, message for each violation."""
    rejected: Any
    """The best candidate's value after coercion, or None."""

class Repair:
    """One repair the engine made."""

    @property
    def kind(self) -> str:
        """Stable snake_case name (``trailing_comma``)."""
    @property
    def start(self) -> int:
        """Character offset in the input where the repaired text starts."""
    @property
    def end(self) -> int:
        """Character offset where it ends (exclusive; equal to ``start`` for an insertion)."""
    @property
    def span(self) -> tuple[int, int]:
        """``(start, end)``."""
    @property
    def message(self) -> str:
        """What was done, in a few words."""

class Repaired:
    """A repaired document."""

    @property
    def text(self) -> str:
        """The repaired JSON text: for valid input, the input itself (trimmed); otherwise
        compact JSON keeping number text and string escapes."""
    @property
    def value(self) -> JSONValue:
        """The document as a Python value, built on first access (dicts keep key order,
        integers of any size stay ``int``). The same object on every access."""
    @property
    def repairs(self) -> list[Repair]:
        """Every repair made, in input order; empty for valid JSON."""
    @property
    def truncated(self) -> bool:
        """Whether the input was cut off and completed."""

def repair(
    text: Text,
    *,
    strict: bool = False,
    multiple: Multiple = "array",
    duplicate_keys: DuplicateKeys = "keep",
    non_finite: NonFinite = "null",
    max_depth: int = 127,
) -> Repaired:
    """Repair ``text`` into valid JSON.

    ``strict=True`` repairs nothing and raises on the first fault. ``multiple``: what to do
    with several top-level values; ``duplicate_keys``: with a key that appears twice;
    ``non_finite``: what ``NaN`` and ``Infinity`` become; ``max_depth``: deepest nesting
    repaired. Bytes that are not UTF-8 and lone surrogates become U+FFFD, reported as
    repairs. Raises ``JSONHealError`` when the text holds no JSON.
    """

class Extracted:
    """The answer ``extract`` picked out of a reply."""

    @property
    def value(self) -> JSONValue: ...
    @property
    def source(self) -> Source:
        """Which part of the reply it came from."""
    @property
    def fence(self) -> int | None:
        """For a fenced block, its index among the reply's fences (0 is the first)."""
    @property
    def span(self) -> tuple[int, int]:
        """Character offsets of the part of the reply the value was read from."""
    @property
    def repairs(self) -> list[Repair]: ...
    @property
    def truncated(self) -> bool: ...

def extract(text: Text) -> Extracted:
    """Pick the answer out of an LLM reply: a fenced block, JSON in the prose, or the whole
    reply repaired. Raises ``JSONHealError`` (kind 'no_json') when it holds none."""

class Schema:
    """A compiled JSON Schema, to heal many replies without compiling it each time."""

    def __init__(self, schema: Any) -> None:
        """``schema``: a dict or bool JSON Schema, its JSON text, or a pydantic model class."""
    def is_valid(self, value: Any) -> bool:
        """Whether ``value`` satisfies the schema."""

class Healed:
    """A reply healed against a schema."""

    @property
    def value(self) -> JSONValue:
        """The value, valid against the schema."""
    @property
    def candidate(self) -> Source:
        """Which part of the reply it came from."""
    @property
    def fence(self) -> int | None: ...
    @property
    def repairs(self) -> list[Repair]:
        """Syntax repairs (offsets into the whole reply)."""
    @property
    def coercions(self) -> list[dict[str, str]]:
        """Coercions made to fit the schema: path, kind, from (absent for an added
        property), to."""

def heal(
    text: Text, schema: Any, *, allow_truncated: bool = False, coerce: bool = True
) -> Healed:
    """Heal an LLM reply against a JSON Schema (dict, JSON text, ``Schema`` or pydantic
    model class): extract the candidate values, repair, coerce (``"42"`` to ``42`` where an
    integer is wanted, …) and return the first that validates. Raises ``HealError`` with a
    ``feedback`` message for the model otherwise. A reply cut off is refused unless
    ``allow_truncated``."""

class Normalized:
    """Tool-call arguments normalised into an object."""

    @property
    def value(self) -> dict[str, Any]: ...
    @property
    def strategy(self) -> str:
        """Which recovery produced it: 'valid', 'single_quotes', 'unquoted_keys',
        'quotes_and_keys', 'trailing_commas', 'plain_wrap', 'object_literal', 'cli_args',
        'repaired', 'unwrapped' or 'empty'."""
    @property
    def repairs(self) -> list[Repair]: ...
    @property
    def quotes_folded(self) -> int:
        """How many string values had typographic quotes folded."""
    @property
    def truncated(self) -> bool: ...

def normalize(
    arguments: Text,
    tool: str | None = None,
    schema: Mapping[str, Any] | None = None,
    tool_map: Mapping[str, str] | None = None,
) -> Normalized:
    """Normalise the arguments a model sent for ``tool`` into an object. ``schema`` is the
    tool's parameters (JSON Schema); ``tool_map`` adds tool → primary field entries to the
    built-in map (a plain value is wrapped into that field). Raises ``JSONHealError``
    (kind 'not_an_object') when no honest object exists."""

class StreamRepairer:
    """Repair a token stream as it arrives."""

    def __init__(
        self,
        *,
        multiple: Multiple = "array",
        duplicate_keys: DuplicateKeys = "keep",
        non_finite: NonFinite = "null",
        max_depth: int = 127,
        events: bool = True,
    ) -> None:
        """``events=False`` saves the work of recording events for callers that only read
        snapshots."""
    def push(self, chunk: Text) -> None:
        """Feed the next piece of the stream."""
    def snapshot(self) -> JSONValue:
        """The current best value (None until an object or array opened). Values only grow;
        nothing shown is contradicted by the final value except in the documented cases."""
    def events(self) -> list[tuple[str, Literal["set", "append"], Any]]:
        """Changes since the last call: ``(path, 'set', value)`` (a value appeared at the
        JSON pointer ``path``) or ``(path, 'append', text)`` (the string there grew)."""
    @property
    def revision(self) -> int:
        """Moves whenever the partial value changes."""
    @property
    def frozen(self) -> bool:
        """The stream met something only ``finish`` decides: the snapshot stays as it is."""
    @property
    def text(self) -> str:
        """Everything pushed so far."""
    def finish(self) -> Repaired:
        """The final result: exactly ``repair`` of the whole text. The repairer cannot be
        used afterwards (RuntimeError)."""

@overload
def repair_json(
    json_str: str | bytes = "",
    return_objects: Literal[False] = False,
    skip_json_loads: bool = False,
    logging: Literal[False] = False,
    json_fd: IO[Any] | None = None,
    chunk_length: int = 0,
    stream_stable: bool = False,
    strict: bool = False,
    schema: Any | None = None,
    schema_repair_mode: Literal["standard", "salvage"] = "standard",
    **json_dumps_args: Any,
) -> str: ...
@overload
def repair_json(
    json_str: str | bytes = "",
    return_objects: Literal[True] = True,
    skip_json_loads: bool = False,
    logging: Literal[False] = False,
    json_fd: IO[Any] | None = None,
    chunk_length: int = 0,
    stream_stable: bool = False,
    strict: bool = False,
    schema: Any | None = None,
    schema_repair_mode: Literal["standard", "salvage"] = "standard",
    **json_dumps_args: Any,
) -> JSONValue: ...
@overload
def repair_json(
    json_str: str | bytes = "",
    return_objects: bool = False,
    skip_json_loads: bool = False,
    logging: Literal[True] = True,
    json_fd: IO[Any] | None = None,
    chunk_length: int = 0,
    stream_stable: bool = False,
    strict: bool = False,
    schema: Any | None = None,
    schema_repair_mode: Literal["standard", "salvage"] = "standard",
    **json_dumps_args: Any,
) -> tuple[JSONValue, list[LogEntry]]: ...
def loads(
    json_str: str | bytes,
    skip_json_loads: bool = False,
    logging: bool = False,
    stream_stable: bool = False,
    strict: bool = False,
    schema: Any | None = None,
    schema_repair_mode: Literal["standard", "salvage"] = "standard",
) -> Any:
    """Like ``json.loads``, repairing the text first when it is not valid JSON. Returns
    ``""`` when the text holds no JSON; ``(value, log)`` with ``logging=True``."""

def _pretty(text: str) -> str: ...
def _compact(text: str) -> str: ...
