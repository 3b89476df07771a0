"""Tool-call arguments: turn whatever a model sent as a tool's arguments into an object.

>>> from jsonheal import args
>>> args.normalize("{cmd: 'ls -la'}", tool="bash").value
{'cmd': 'ls -la'}
"""

from ._jsonheal import Normalized, normalize

__all__ = ["Normalized", "normalize"]
