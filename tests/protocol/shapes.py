"""A run-time check of decoded data against the types of ``craits.protocol.types``
(for tests: the types are for type checkers, this holds them to what a real
server sends)."""

from __future__ import annotations

import types
import typing
from enum import Enum


def problems(value: object, expected: object, path: str = "msg") -> list[str]:
    """Why ``value`` is not of the type ``expected``, one line per fault (empty: it is).

    Understands what the protocol's types use: TypedDicts (required, optional
    and unknown keys), unions, ``Literal``, the vocabulary's enums, ``list``,
    ``dict``, fixed ``tuple`` (a list of that length on the wire), ``int``,
    ``bool``, ``str`` and ``None``.
    """
    origin = typing.get_origin(expected)
    if expected is None or expected is type(None):
        return [] if value is None else [f"{path}: {value!r} is not nil"]
    if origin is typing.Literal:
        return _literal(value, typing.get_args(expected), path)
    if origin is typing.Union or origin is types.UnionType:
        return _union(value, typing.get_args(expected), path)
    if origin is list:
        if type(value) is not list:
            return [f"{path}: {type(value).__name__} is not an array"]
        (item,) = typing.get_args(expected)
        return [p for i, v in enumerate(value) for p in problems(v, item, f"{path}[{i}]")]
    if origin is tuple:
        items = typing.get_args(expected)
        if not isinstance(value, list | tuple) or len(value) != len(items):
            return [f"{path}: {value!r} is not an array of {len(items)}"]
        pairs = enumerate(zip(value, items, strict=True))
        return [p for i, (v, e) in pairs for p in problems(v, e, f"{path}[{i}]")]
    if origin is dict:
        return _map(value, typing.get_args(expected), path)
    if typing.is_typeddict(expected):
        return _typed_dict(value, expected, path)
    if isinstance(expected, type) and issubclass(expected, Enum):
        ok = type(value) is str and value in {m.value for m in expected}
        return [] if ok else [f"{path}: {value!r} is not a {expected.__name__}"]
    if expected in (int, bool, str):
        ok = type(value) is expected
        return [] if ok else [f"{path}: {value!r} is not {expected}"]
    raise TypeError(f"{path}: cannot check against {expected!r}")


def _literal(value: object, allowed: tuple[object, ...], path: str) -> list[str]:
    for a in allowed:
        same_kind = isinstance(a, str) == isinstance(value, str) and isinstance(
            a, bool
        ) == isinstance(value, bool)
        if same_kind and value == a:
            return []
    return [f"{path}: {value!r} is not one of {[str(a) for a in allowed]}"]


def _union(value: object, alternatives: tuple[object, ...], path: str) -> list[str]:
    best: list[str] | None = None
    for alternative in alternatives:
        found = problems(value, alternative, path)
        if not found:
            return []
        if best is None or len(found) < len(best):
            best = found
    return best or [f"{path}: matches no alternative"]


def _map(value: object, args: tuple[object, ...], path: str) -> list[str]:
    if type(value) is not dict:
        return [f"{path}: {type(value).__name__} is not a map"]
    key_type, value_type = args
    out: list[str] = []
    for k, v in value.items():
        out += problems(k, key_type, f"{path} key")
        out += problems(v, value_type, f"{path}.{k}")
    return out


def _typed_dict(value: object, expected: type, path: str) -> list[str]:
    if type(value) is not dict:
        return [f"{path}: {type(value).__name__} is not a {expected.__name__}"]
    hints = typing.get_type_hints(expected)
    required: frozenset[str] = vars(expected)["__required_keys__"]
    out = [f"{path}: {expected.__name__} lacks {key!r}" for key in sorted(required - value.keys())]
    out += [
        f"{path}: {expected.__name__} has no key {key!r}" for key in value.keys() - hints.keys()
    ]
    for key, v in value.items():
        if key in hints:
            out += problems(v, hints[key], f"{path}.{key}")
    return out
