"""Unit tests of the frame codec (docs/protocol.md, "Frames")."""

from __future__ import annotations

from typing import Any

import msgpack
import pytest
from craits.protocol.wire import (
    MAX_DEPTH,
    ProtocolError,
    decode,
    encode,
    frame,
    frame_length,
    map_entries,
    map_header,
    pack,
)


def nested(depth: int, leaf: Any = 1) -> dict[str, Any]:
    """A message whose deepest container sits at ``depth`` (the message is depth 0)."""
    value: Any = leaf
    for i in range(depth):
        value = [value] if i % 2 else {"k": value}
    return {"type": "x", "v": value}


def test_nesting_up_to_the_limit_is_accepted_and_one_more_is_refused() -> None:
    ok = nested(MAX_DEPTH - 1)
    assert decode(encode(ok)[4:]) == ok
    with pytest.raises(ProtocolError, match="nesting deeper than 8") as err:
        decode(encode(nested(MAX_DEPTH))[4:])
    assert err.value.code == "bad_frame"


@pytest.mark.parametrize(
    ("value", "problem"),
    [
        ({"a": [1, {"b": 1.5}]}, "floats are not allowed"),
        ({"a": [{"b": [2.0]}]}, "floats are not allowed"),
        ({"a": {1: "x"}}, "map key"),
        ([1, 2], "a message must be a msgpack map"),
    ],
)
def test_values_deep_inside_are_checked(value: Any, problem: str) -> None:
    body = msgpack.packb(value, use_bin_type=True, strict_types=False)
    with pytest.raises(ProtocolError, match=problem) as err:
        decode(body)
    assert err.value.code == "bad_frame"


def test_plain_values_of_every_kind_pass_unchanged() -> None:
    message = {
        "type": "t",
        "n": [None, True, False, 0, -1, 2**63 - 1, "é", b"\x00\xff", [], {}],
        "m": {"a": {"b": [{"c": "d"}]}},
    }
    assert decode(encode(message)[4:]) == message


def test_frame_length_limits() -> None:
    assert frame_length(b"\x00\x00\x00\x05") == 5
    with pytest.raises(ProtocolError) as err:
        frame_length(b"\x00\x00\x00\x00")
    assert err.value.code == "bad_frame"
    with pytest.raises(ProtocolError) as err:
        frame_length(b"\x00\x01\x00\x01")
    assert err.value.code == "frame_too_large"


@pytest.mark.parametrize("sizes", [(0, 0), (3, 4), (15, 1), (14, 2), (20, 30), (70000, 1)])
def test_maps_taken_apart_and_joined_encode_their_union(sizes: tuple[int, int]) -> None:
    """Maps encoded apart, taken apart with map_entries and joined under one
    map_header decode as one map, across the fixmap, map 16 and map 32
    headers (16 and 65,536 entries)."""
    a = {f"a{i}": i for i in range(sizes[0])}
    b = {f"b{i}": [i, {"x": None}] for i in range(sizes[1])}
    (na, ea), (nb, eb) = map_entries(pack(a)), map_entries(pack(b))
    assert (na, nb) == sizes
    joined = map_header(na + nb + 1) + ea + eb + pack("raw") + pack({"k": [1, 2]})
    want = {**a, **b, "raw": {"k": [1, 2]}}
    assert msgpack.unpackb(joined) == want
    assert decode(frame(joined)[4:], limit=len(joined)) == want


def test_map_header_matches_msgpack() -> None:
    for n in (0, 1, 15, 16, 65535, 65536):
        body = pack({str(i): 0 for i in range(n)})
        assert body.startswith(map_header(n)), n


def test_map_entries_refuses_what_is_not_a_map() -> None:
    with pytest.raises(ValueError, match="not an encoded msgpack map"):
        map_entries(pack([1, 2]))
    with pytest.raises(ValueError, match="not an encoded msgpack map"):
        map_entries(b"")


@pytest.mark.parametrize(
    "body",
    [
        b"\x82\xa4type\xa4ping\xa4type\xa4pong",  # the message map
        b"\x82\xa4type\xa1x\xa1m\x82\xa1k\x01\xa1k\x02",  # a nested map
        b"\x82\xa4type\xa1x\xa1a\x91\x82\xa1k\x01\xa1k\x01",  # a map in an array, same value
        b"\xde\x00\x02\xa4type\xa4ping\xa4type\xa4ping",  # map 16
    ],
)
def test_a_key_given_twice_in_any_map_is_refused(body: bytes) -> None:
    with pytest.raises(ProtocolError, match="a map holds a key twice") as err:
        decode(body)
    assert err.value.code == "bad_frame"
    # a reader of the server's frames that skips the checks takes the last key
    assert isinstance(decode(body, check_values=False), dict)


def test_a_body_longer_than_the_limit_keeps_the_length_limits() -> None:
    body = pack({"type": "x", "s": "y" * 100})
    assert decode(body) == {"type": "x", "s": "y" * 100}
    with pytest.raises(ProtocolError) as err:
        decode(body, limit=50)
    assert err.value.code == "bad_frame"
