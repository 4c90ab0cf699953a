"""The one frame reader (docs/protocol.md §2): bytes in as they arrive, bodies out."""

from __future__ import annotations

import pytest
from craits.protocol.wire import (
    HEADER,
    MAX_FRAME,
    MAX_SERVER_FRAME,
    FrameReader,
    ProtocolError,
    encode,
)

MESSAGES = [
    {"type": "ping"},
    {"type": "act", "id": 7, "action": {"play": "8S", "suit": "D"}, "seq": 12},
    {"type": "chat", "text": "é" * 200},
    {"type": "pong", "nonce": 2**53},
]
STREAM = b"".join(encode(m) for m in MESSAGES)
BODIES = [encode(m)[4:] for m in MESSAGES]


def test_several_frames_in_one_feed_come_out_in_order() -> None:
    reader = FrameReader()
    assert reader.feed(STREAM) == BODIES
    assert reader.pending == 0


@pytest.mark.parametrize("cut", range(1, len(STREAM)))
def test_a_stream_split_anywhere_gives_the_same_frames(cut: int) -> None:
    reader = FrameReader()
    got = reader.feed(STREAM[:cut])
    assert reader.pending == cut - sum(4 + len(b) for b in got)
    got += reader.feed(STREAM[cut:])
    assert got == BODIES
    assert reader.pending == 0


def test_a_stream_fed_byte_by_byte_gives_the_same_frames() -> None:
    reader = FrameReader()
    got: list[bytes] = []
    for i in range(len(STREAM)):
        got += reader.feed(STREAM[i : i + 1])
    assert got == BODIES


def test_an_empty_feed_gives_nothing() -> None:
    reader = FrameReader()
    assert reader.feed(b"") == []
    assert reader.feed(STREAM[:3]) == []
    assert reader.feed(b"") == []
    assert reader.pending == 3


@pytest.mark.parametrize("held", [b"\x7f", b"\x7f\x00", b"\x00\x00\x00", b"\x00"])
def test_a_header_stalled_half_way_is_not_read_as_zeros(held: bytes) -> None:
    """A partial header waits for its other bytes: ``7f`` is not a huge length
    (``7f 00 00 00``) nor ``00 00 00`` an empty frame (issue 11 item 3: the
    server's frame timer must see a frame begun, and time it out)."""
    reader = FrameReader()
    assert reader.feed(held) == []
    assert reader.pending == len(held)


@pytest.mark.parametrize("k", [1, 2, 3])
def test_a_header_completed_later_reads_its_frame(k: int) -> None:
    frame = encode(MESSAGES[1])
    reader = FrameReader()
    assert reader.feed(frame[:k]) == []
    assert reader.feed(frame[k:]) == [BODIES[1]]
    assert reader.pending == 0


def test_a_header_over_the_limit_is_refused_before_its_body() -> None:
    reader = FrameReader()
    with pytest.raises(ProtocolError) as err:
        reader.feed(HEADER.pack(MAX_FRAME + 1))
    assert err.value.code == "frame_too_large"
    assert "65537" in err.value.message
    exactly = FrameReader()
    assert exactly.feed(HEADER.pack(MAX_FRAME)) == []  # the body may follow
    assert exactly.pending == 4


def test_the_limit_is_the_readers_own() -> None:
    """A client reads server frames up to 1 MiB; a server, client frames up to 64 KiB."""
    big = b"x" * (MAX_FRAME + 1)
    assert FrameReader(MAX_SERVER_FRAME).feed(HEADER.pack(len(big)) + big) == [big]
    with pytest.raises(ProtocolError) as err:
        FrameReader().feed(HEADER.pack(len(big)))
    assert err.value.code == "frame_too_large"
    with pytest.raises(ProtocolError) as err:
        FrameReader(MAX_SERVER_FRAME).feed(HEADER.pack(MAX_SERVER_FRAME + 1))
    assert err.value.code == "frame_too_large"


def test_an_empty_frame_is_a_bad_frame() -> None:
    with pytest.raises(ProtocolError) as err:
        FrameReader().feed(b"\x00\x00\x00\x00")
    assert err.value.code == "bad_frame"
    assert err.value.message == "empty frame"


def test_frames_hands_out_the_good_frames_before_a_bad_header() -> None:
    """What a server does: handle each message as it comes, then refuse the
    bad header that follows them in the same read."""
    reader = FrameReader()
    got: list[bytes] = []
    with pytest.raises(ProtocolError) as err:
        for body in reader.frames(STREAM + HEADER.pack(MAX_FRAME + 1)):
            got.append(body)
    assert err.value.code == "frame_too_large"
    assert got == BODIES


def test_feed_loses_the_good_frames_before_a_bad_header() -> None:
    reader = FrameReader()
    with pytest.raises(ProtocolError):
        reader.feed(encode(MESSAGES[0]) + b"\x00\x00\x00\x00")


def test_frames_takes_the_data_at_once_and_keeps_what_was_not_taken() -> None:
    reader = FrameReader()
    frames = reader.frames(STREAM)
    assert reader.pending == len(STREAM)  # taken before iterating
    assert next(frames) == BODIES[0]
    frames.close()  # the caller stops: the connection closed, say
    assert reader.pending == len(STREAM) - 4 - len(BODIES[0])
    assert reader.feed(b"") == BODIES[1:]


def test_clear_forgets_a_partial_frame() -> None:
    reader = FrameReader()
    reader.feed(STREAM[:10])
    reader.clear()
    assert reader.pending == 0
    assert reader.feed(STREAM) == BODIES
