"""Faults at the wire, the connection and the table: each refused or contained, nothing else hurt.

Every test runs a real :class:`Server` on a loopback port and talks to it over
real sockets: hand-made bytes through a :class:`Raw` connection where the
fault is in the framing, real clients (:class:`Player`) elsewhere. The
numbers in the test names follow the fault checklist of the server issue.
"""

from __future__ import annotations

import asyncio
import logging
import random
import socket
import struct
import time
import tracemalloc
from typing import Any

import msgpack
import pytest
from craits.protocol.client import ConnectError, Connection
from craits.protocol.wire import HEADER, MAX_FRAME, encode
from craits.server.app import Server
from craits.server.bots import timeout_action
from craits.server.engine import Game, view
from craits.server.engine.actions import Play, action_from_dict, action_to_dict
from craits.server.table.actor import Table

from tests.support.net import (
    CARD,
    HOST,
    Net,
    Raw,
    body_with,
    find_seed,
    own_view,
    plain_turn,
    quiet,
    start_table,
    turn_events,
)
from tests.support.server import Player, play_until, settle, strip_seat


async def test_01_bytes_not_msgpack_get_bad_frame_and_close(net: Net) -> None:
    srv = await net.server()
    bystander = await net.player(srv, "Bystander")
    for body in (b"\xc1", b"GET / HTTP/1.1\r\n", b"\x82\xa4type\xa4ping", b"\x81\xa4type\xa4pi"):
        raw = await net.raw(srv)
        await raw.send_body(body)
        assert await raw.error_then_close() == ["bad_frame"], body
        # after the hello too
        raw = await net.raw(srv)
        await raw.hello()
        await raw.send_body(body)
        assert await raw.error_then_close() == ["bad_frame"], body
    await bystander.send({"type": "list_tables"})
    await bystander.expect("tables")


async def test_01_truncated_frame_then_eof_gets_bad_frame_and_close(net: Net) -> None:
    srv = await net.server()
    bystander = await net.player(srv, "Bystander")
    frame = encode({"type": "list_tables"})
    for cut in (2, 4, 7, len(frame) - 1):  # inside the header, after it, inside the body
        for greet in (False, True):
            raw = await net.raw(srv)
            if greet:
                await raw.hello()
            await raw.write(frame[:cut])
            raw.writer.write_eof()
            assert await raw.error_then_close() == ["bad_frame"], (cut, greet)
    # an end of stream between frames is a plain goodbye, not an error
    raw = await net.raw(srv)
    await raw.hello()
    raw.writer.write_eof()
    assert await raw.error_then_close() == []
    await bystander.send({"type": "list_tables"})
    await bystander.expect("tables")
    other = await net.player(srv, "Later")
    await other.send({"type": "ping", "nonce": 7})
    assert (await other.expect("pong"))["nonce"] == 7


# ------------------------------------------------------- 2. frame too large


async def test_02_length_over_the_maximum_closes_before_the_body(net: Net) -> None:
    # answered at once, not after waiting for a body: the frame timeout (60 s) is
    # far past error_then_close's ceiling (10 s)
    srv = await net.server(frame_timeout=60.0)
    for greet in (False, True):
        for length in (MAX_FRAME + 1, 10 * 1024 * 1024, 2**32 - 1):
            raw = await net.raw(srv)
            if greet:
                await raw.hello()
            await raw.write(HEADER.pack(length))  # the header alone: no body follows
            assert await raw.error_then_close() == ["frame_too_large"]
    # bytes that are not a frame at all: an HTTP request reads as a 1.2 GB length
    raw = await net.raw(srv)
    await raw.write(b"GET / HTTP/1.1\r\nHost: x\r\n\r\n")
    assert await raw.error_then_close() == ["frame_too_large"]
    # exactly the maximum is accepted: a chat line padded out to MAX_FRAME bytes is read,
    # then refused by its schema (too long), and the connection stays open
    raw = await net.raw(srv)
    await raw.hello()
    overhead = len(msgpack.packb({"type": "chat", "text": ""})) + 2  # str16 length
    text = "x" * (MAX_FRAME - overhead)
    body = msgpack.packb({"type": "chat", "text": text})
    assert len(body) == MAX_FRAME
    await raw.send_body(body)
    reply = await raw.expect("error")
    assert reply["code"] == "bad_message"
    await raw.send({"type": "ping", "nonce": 1})
    await raw.expect("pong")


# ---------------------------------- 3. huge element counts, deep nesting: flat


async def test_03_huge_headers_and_deep_nesting_refused_memory_flat_nothing_logged(
    net: Net, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.DEBUG)
    srv = await net.server()
    marker = "Zq7-payload-marker-Zq7"
    head = {"type": "chat", "text": marker}
    bodies = {
        "array32": body_with(b"\xdd\xff\xff\xff\xff", **head),
        "array32-16M": body_with(b"\xdd\x00\xff\xff\xff", **head),  # 128 MB if allocated
        "map32-16M": body_with(b"\xdf\x00\xff\xff\xff", **head),
        "map32": body_with(b"\xdf\xff\xff\xff\xff", **head),
        "str32": body_with(b"\xdb\xff\xff\xff\xff", **head),
        "bin32": body_with(b"\xc6\xff\xff\xff\xff", **head),
        "array32-top": b"\xdd\xff\xff\xff\xff" + msgpack.packb(marker),
        "map32-top": b"\xdf\xff\xff\xff\xff" + msgpack.packb(marker) * 2,
        "nest-1000": body_with(b"\x91" * 1000 + msgpack.packb(marker), **head),
        "nest-1000-maps": body_with(b"\x81\xa1k" * 1000 + b"\xc0", **head),
        "nest-60000": body_with(b"\x91" * 60000 + b"\xc0", **head),
    }
    for body in bodies.values():
        assert len(body) <= MAX_FRAME
    bystander = await net.player(srv, "Bystander")
    raws = []
    for _ in bodies:
        raw = await net.raw(srv)
        await raw.hello()
        raws.append(raw)
    tracemalloc.start()
    try:
        base, _ = tracemalloc.get_traced_memory()
        tracemalloc.reset_peak()
        replies: dict[str, list[dict[str, Any]]] = {}
        for (label, body), raw in zip(bodies.items(), raws, strict=True):
            await raw.send_body(body)
            replies[label] = await raw.until_closed()
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    for label, got in replies.items():
        assert [m["code"] for m in got] == ["bad_frame"], label
        assert marker not in got[0]["message"], label
    assert peak - base < 2 * 1024 * 1024, f"peak {peak - base} bytes over the baseline"
    for record in caplog.records:
        text = record.getMessage() + (record.exc_text or "")
        assert marker not in text
        assert "\\xdd\\xff" not in text and "\\x91\\x91" not in text
    await bystander.send({"type": "ping", "nonce": 3})
    await bystander.expect("pong")


# ------------------ 4. non-string keys, bad UTF-8, ext, floats, huge integers


BAD_BODIES: dict[str, tuple[bytes, str, str]] = {
    # label: (frame body, error code, a word the error message must hold)
    "int key": (msgpack.packb({"type": "act", "id": 1, "action": {1: "AS"}}), "bad_frame", "key"),
    "bin key": (msgpack.packb({"type": "act", b"id": 1}, use_bin_type=True), "bad_frame", "key"),
    "nil key": (b"\x82\xa4type\xa3act\xc0\x01", "bad_frame", "key"),
    "bad utf-8": (body_with(b"\xa2\xff\xfe", type="chat", text="hi"), "bad_frame", "UTF-8"),
    "bad utf-8 type": (b"\x81\xa4type\xa3a\xc3\x28", "bad_frame", "UTF-8"),
    "ext": (msgpack.packb({"type": "act", "id": msgpack.ExtType(5, b"abc")}), "bad_frame", "ext"),
    "timestamp": (
        msgpack.packb({"type": "act", "id": msgpack.Timestamp(0, 5)}),
        "bad_frame",
        "ext",
    ),
    "timestamp32": (msgpack.packb({"type": "act", "id": msgpack.Timestamp(5)}), "bad_frame", "ext"),
    "float64": (
        body_with(b"\xcb" + struct.pack(">d", 1.0), type="act", id=1),
        "bad_frame",
        "float",
    ),
    "float32 id": (b"\x82\xa4type\xa3act\xa2id\xca" + struct.pack(">f", 1.0), "bad_frame", "float"),
    "uint64 id": (
        b"\x83\xa4type\xa3act\xa2id\xcf" + b"\xff" * 8 + b"\xa6action\x81\xa4draw\xc3",
        "bad_message",
        "act.id",
    ),
    "int64 id": (
        b"\x83\xa4type\xa3act\xa2id\xd3\x80" + b"\x00" * 7 + b"\xa6action\x81\xa4draw\xc3",
        "bad_message",
        "act.id",
    ),
    "uint64 idiot seat": (
        b"\x83\xa4type\xa3act\xa2id\x05\xa6action\x81\xa5idiot\xcf" + b"\xff" * 8,
        "bad_message",
        "idiot",
    ),
    "uint64 seq": (
        b"\x84\xa4type\xa3act\xa2id\x06\xa6action\x81\xa4draw\xc3\xa3seq\xcf" + b"\xff" * 8,
        "bad_message",
        "act.seq",
    ),
}


async def test_04_bad_values_refused_and_the_game_unchanged(net: Net) -> None:
    srv = await net.server()
    ana, ben = await start_table(net, srv, "t", ["Ana", "Ben"], seed=find_seed(2, plain_turn))
    table = srv.tables["t"]
    assert table.game is not None
    actor = [ana, ben][table.game.turn]
    other = [ana, ben][1 - table.game.turn]
    before = table.game.to_position()
    view_before = await own_view(actor)
    seq = table.seq
    for label, (body, code, word) in BAD_BODIES.items():
        # the seat's player, on a new connection, sends the bad frame
        raw = await net.raw(srv)
        await raw.hello(actor.name)
        await raw.send({"type": "resume", "token": actor.token})
        await raw.expect("state")
        await raw.send_body(body)
        if code == "bad_frame":
            got = await raw.until_closed()
            errors = [m for m in got if m["type"] == "error"]
            assert [m["code"] for m in errors] == ["bad_frame"], label
            assert word in errors[0]["message"], (label, errors[0])
        else:
            reply = await raw.expect("error")
            assert reply["code"] == code, (label, reply)
            assert word in reply["message"], (label, reply)
            # the connection stays open, the seat still held
            await raw.send({"type": "ping", "nonce": 2})
            await raw.expect("pong")
            await raw.close()
        assert table.game.to_position() == before, label
        assert table.seq == seq, label
    # the seat is resumed by a proper client: it sees exactly the view it had
    conn = await net.player(srv, actor.name)
    conn.token, conn.seat = actor.token, actor.seat
    assert await own_view(conn) == view_before
    got = await quiet([other])
    assert not [m for m in got if m["type"] == "update"]
    assert table.game.to_position() == before


# --------------------------------------- 5. schema errors, hello first, abuse


async def test_05_schema_errors_get_their_codes_and_the_connection_stays(net: Net) -> None:
    srv = await net.server(max_errors=100)
    raw = await net.raw(srv)
    before_hello: list[tuple[dict[str, Any], str]] = [
        ({"type": "list_tables"}, "hello_first"),
        ({"type": "join", "table": "t", "name": "x"}, "hello_first"),
        ({"type": "act", "id": 1, "action": {"draw": True}}, "hello_first"),
        ({"type": "chat", "text": "hi"}, "hello_first"),
        ({"type": "resume", "token": "abc"}, "hello_first"),
        ({"type": "shout"}, "unknown_type"),
        ({"type": "hello"}, "bad_message"),  # missing version
    ]
    for message, code in before_hello:
        await raw.send(message)
        reply = await raw.expect("error")
        assert reply["code"] == code, (message, reply)
    await raw.hello()
    after_hello: list[tuple[dict[str, Any], str]] = [
        ({"type": "shout"}, "unknown_type"),
        ({"type": "x" * 5000}, "unknown_type"),
        ({"nottype": "ping"}, "bad_message"),
        ({"type": 7}, "bad_message"),
        ({"type": "join", "table": "t"}, "bad_message"),  # missing field
        ({"type": "create_table", "name": "t"}, "bad_message"),
        ({"type": "ping", "nonce": 1, "extra": 2}, "bad_message"),  # extra field
        ({"type": "list_tables", "watch": True, "seat": 0}, "bad_message"),
        ({"type": "create_table", "name": "t", "seats": "two"}, "bad_message"),  # wrong type
        ({"type": "create_table", "name": "t", "seats": True}, "bad_message"),
        ({"type": "create_table", "name": "t", "seats": 99}, "bad_message"),
        ({"type": "chat", "text": b"bytes"}, "bad_message"),
        ({"type": "join", "table": ["t"], "name": "x"}, "bad_message"),
        ({"type": "act", "id": 1, "action": {"draw": 1}}, "bad_message"),
        ({"type": "act", "id": 1, "action": {"play": "1S"}}, "bad_message"),
        ({"type": "act", "id": -1, "action": {"draw": True}}, "bad_message"),
        ({"type": "hello", "version": 1}, "bad_message"),  # a second hello
    ]
    for message, code in after_hello:
        await raw.send(message)
        reply = await raw.expect("error")
        assert reply["code"] == code, (message, reply)
        assert len(reply["message"]) < 200
    # still served
    await raw.send({"type": "list_tables"})
    await raw.expect("tables")


async def test_05_repeated_abuse_disconnects_with_too_many_errors(net: Net) -> None:
    srv = await net.server(max_errors=5)
    bystander = await net.player(srv, "Bystander")
    raw = await net.raw(srv)
    await raw.hello()
    for i in range(5):
        await raw.send({"type": "shout", "n": i})
        assert (await raw.expect("error"))["code"] == "unknown_type"
    await raw.send({"type": "ping", "nonce": 9})  # still open after max_errors errors
    assert (await raw.expect("pong"))["nonce"] == 9
    await raw.send({"type": "join", "table": "t"})  # one more
    assert await raw.error_then_close() == ["bad_message", "too_many_errors"]
    # abuse before the hello counts too
    raw = await net.raw(srv)
    for _ in range(6):
        await raw.send({"type": "list_tables"})
    assert await raw.error_then_close() == ["hello_first"] * 6 + ["too_many_errors"]
    await bystander.send({"type": "ping", "nonce": 1})
    await bystander.expect("pong")


# ------------------------------------------------------------ 6. timeouts


async def test_06_no_hello_in_time_is_closed_with_timeout(net: Net) -> None:
    srv = await net.server(hello_timeout=0.2)
    silent = await net.raw(srv)
    chatty = await net.raw(srv)  # sends pings, never a hello
    started = time.monotonic()

    pinged_all = False

    async def ping() -> None:
        nonlocal pinged_all
        for n in range(400):  # 20 s of pings: far past the hello timeout
            await chatty.send({"type": "ping", "nonce": n})
            await asyncio.sleep(0.05)
        pinged_all = True

    pinger = asyncio.create_task(ping())
    try:
        assert await silent.error_then_close() == ["timeout"]
        assert time.monotonic() - started > 0.15  # never before its time
        # the pings do not put it off: closed while they still come
        assert "timeout" in await chatty.error_then_close()
        assert not pinged_all
    finally:
        pinger.cancel()
        await asyncio.gather(pinger, return_exceptions=True)


async def test_06_frame_begun_and_not_finished_is_closed_with_timeout(net: Net) -> None:
    srv = await net.server(frame_timeout=0.2, heartbeat=5.0)
    frame = encode({"type": "list_tables"})
    for cut in (1, 3, 4, 6):
        raw = await net.raw(srv)
        await raw.hello()
        started = time.monotonic()
        await raw.write(frame[:cut])
        assert await raw.error_then_close() == ["timeout"], cut
        assert time.monotonic() - started > 0.15, cut  # never before its time
    # an idle connection between frames is not timed out by frame_timeout
    raw = await net.raw(srv)
    await raw.hello()
    await asyncio.sleep(0.35)
    await raw.send({"type": "ping", "nonce": 4})
    assert (await raw.expect("pong"))["nonce"] == 4


async def test_06_a_frame_stalled_inside_its_header_gets_timeout(net: Net) -> None:
    """The missing bytes of a header are never read as zeros (issue 11, item 3):
    ``7f`` alone is not a 2 GB frame, ``00 00 00`` not an empty one."""
    srv = await net.server(frame_timeout=0.2, heartbeat=5.0)
    for prefix in (b"\x7f", b"\x00\x00\x00", b"\xff\xff", b"\x00"):
        raw = await net.raw(srv)
        await raw.hello()
        started = time.monotonic()
        await raw.write(prefix)
        got = await raw.until_closed()
        errors = [(m["code"], m["message"]) for m in got if m["type"] == "error"]
        assert errors == [("timeout", "frame not finished")], prefix
        assert time.monotonic() - started > 0.15, prefix  # never before its time


async def test_06_a_client_mid_header_is_not_pinged_so_its_pong_cannot_end_the_header(
    net: Net,
) -> None:
    """A client that answers every ping with a whole pong, as clients do, and
    stalls inside a header: the server's ping would make it append the pong's
    header, whose zeros finish the stalled one (``7f 00 00 00``: 2 GB,
    ``frame_too_large``; ``00 00 00 00``: ``bad_frame``). The server pings no
    connection in the middle of a frame, so the frame timeout speaks first."""
    srv = await net.server(frame_timeout=0.5, heartbeat=0.3)
    for prefix in (b"\x7f", b"\x00\x00\x00"):
        raw = await net.raw(srv)
        await raw.hello()
        started = time.monotonic()
        await raw.write(prefix)
        got: list[dict[str, Any]] = []
        try:
            async with asyncio.timeout(10.0):
                while True:
                    message = await raw.recv(10.0)
                    got.append(message)
                    if message["type"] == "ping":
                        await raw.send({"type": "pong"})
        except (asyncio.IncompleteReadError, ConnectionError):
            pass
        errors = [(m["code"], m["message"]) for m in got if m["type"] == "error"]
        assert errors == [("timeout", "frame not finished")], (prefix, got)
        assert time.monotonic() - started > 0.45, prefix  # never before its time


async def test_06_frames_cut_anywhere_and_many_in_one_write_are_all_answered(net: Net) -> None:
    srv = await net.server(frame_timeout=1.0, heartbeat=5.0)
    raw = await net.raw(srv)
    await raw.hello()
    # one frame a byte at a time, within the frame timeout
    for byte in encode({"type": "ping", "nonce": 1}):
        await raw.write(bytes([byte]))
        await asyncio.sleep(0.002)
    assert (await raw.expect("pong"))["nonce"] == 1
    # twenty frames in one write are answered in order
    await raw.write(b"".join(encode({"type": "ping", "nonce": n}) for n in range(20)))
    assert [(await raw.expect("pong"))["nonce"] for _ in range(20)] == list(range(20))
    # writes that end inside the next frame's header or body
    stream = b"".join(encode({"type": "ping", "nonce": n}) for n in range(100, 106))
    for a, b in ((0, 7), (7, 21), (21, 22), (22, len(stream))):
        await raw.write(stream[a:b])
        await asyncio.sleep(0.01)
    assert [(await raw.expect("pong"))["nonce"] for _ in range(6)] == list(range(100, 106))
    # a frame trickling in: the frame timeout runs from its first byte, and
    # more bytes do not extend it: closed while bytes still come (a byte every
    # 0.1 s of a frame that would take 40 s)
    frame = encode({"type": "ping", "nonce": 7, "pad": "z" * 400})
    started = time.monotonic()

    trickled_all = False

    async def trickle() -> None:
        nonlocal trickled_all
        for byte in frame[:-1]:
            await raw.write(bytes([byte]))
            await asyncio.sleep(0.1)
        trickled_all = True

    trickling = asyncio.create_task(trickle())
    try:
        assert await raw.error_then_close() == ["timeout"]
        assert time.monotonic() - started > 0.9  # never before its time
        assert not trickled_all
    finally:
        trickling.cancel()
        await asyncio.gather(trickling, return_exceptions=True)


# ----------------------------------------------- 7. a client that never reads


async def test_07_a_client_that_never_reads_is_capped_and_dropped_others_not_slowed(
    net: Net, caplog: pytest.LogCaptureFixture
) -> None:
    cap = 16 * 1024
    srv = await net.server(out_buffer=cap)
    ana = await net.player(srv, "Ana")
    ben = await net.player(srv, "Ben")
    await ana.send({"type": "create_table", "name": "t", "seats": 3})
    await ana.expect("table_created")
    for p in (ana, ben):
        await p.send({"type": "join", "table": "t", "name": p.name})
        await p.expect("joined")
    # the spectator: a small receive window, and it stops reading after the snapshot
    lazy = await net.raw(srv, rcvbuf=4096, limit=1024)
    await lazy.hello("Lazy")
    await lazy.send({"type": "spectate", "table": "t"})
    await lazy.expect("state")
    await ben.expect("table_info", where=lambda m: m["table"]["spectators"] == 1)
    assert len(srv.tables["t"].spectators) == 1
    lazy_client = next(iter(srv.tables["t"].spectators))

    # loopback sockets take ~3 MB before the server's own backlog grows: keep going
    # until the lazy one is dropped, then a little longer, at most ``limit`` lines
    limit = 30000
    pad = "y" * 290
    sent_at: dict[int, float] = {}
    lag: list[float] = []
    peak_backlog = 0

    async def read_all(player: Player) -> int:
        got = 0
        while True:
            m = await player.conn.recv()
            if m["type"] != "chat":
                player.received.append(m)
            elif m["text"] == "end":
                return got
            else:
                n = int(m["text"].split(":")[0])
                lag.append(time.monotonic() - sent_at[n])
                got += 1

    readers = asyncio.gather(read_all(ana), read_all(ben))
    started = time.monotonic()
    dropped_after: int | None = None
    sent = 0
    while sent < limit and (dropped_after is None or sent < dropped_after + 1000):
        sent_at[sent] = time.monotonic()
        ana.conn.writer.write(encode({"type": "chat", "text": f"{sent}:{pad}"}))
        sent += 1
        if sent % 20 == 0:
            await ana.conn.writer.drain()
            await asyncio.sleep(0)
            if not lazy_client.closed:
                peak_backlog = max(peak_backlog, lazy_client.transport.get_write_buffer_size())
            elif dropped_after is None:
                dropped_after = sent
    await ana.send({"type": "chat", "text": "end"})
    assert await asyncio.wait_for(readers, 10.0) == [sent, sent]
    elapsed = time.monotonic() - started
    assert dropped_after is not None, "the client that never reads was not dropped"
    assert peak_backlog <= cap + 1024, f"backlog reached {peak_backlog} bytes"
    # the others were not held up: every line reached them (within the 10 s above,
    # however busy the machine); how fast is scripts' business, not a test's
    assert any("not reading" in r.getMessage() for r in caplog.records)
    infos = [m["table"] for m in ben.received if m["type"] == "table_info"]
    assert infos and infos[-1]["spectators"] == 0
    assert lazy_client not in srv.clients
    assert not srv.tables["t"].spectators
    # the spectator gets what the kernel had taken, then the end of the stream
    received = 0
    async with asyncio.timeout(10.0):
        try:
            while chunk := await lazy.reader.read(1 << 20):
                received += len(chunk)
        except ConnectionError:
            pass
    line = encode({"type": "chat", "table": "t", "name": "Ana", "seat": 0, "text": f"0:{pad}"})
    assert received < (sent - 500) * len(line), "the lines after the drop reached it"
    print(f"dropped after {dropped_after} lines; {received} bytes reached it; {elapsed:.2f} s")
    print(f"the longest a line took to reach the others: {max(lag):.2f} s")


# ---------------------------------------------------------- 8. rate limit


async def test_08_a_flood_is_rate_limited_then_disconnected(net: Net) -> None:
    srv = await net.server(rate=20.0, burst=5.0)
    polite = await net.raw(srv)
    await polite.hello("Polite")
    flood = await net.raw(srv)
    await flood.hello("Flood")
    await flood.write(b"".join(encode({"type": "ping", "nonce": n}) for n in range(100)))
    got = await flood.until_closed()
    pongs = [m for m in got if m["type"] == "pong"]
    errors = [m["code"] for m in got if m["type"] == "error"]
    assert errors == ["rate_limited"]
    assert 3 <= len(pongs) <= 6, len(pongs)  # the burst (less the hello), not the flood
    # a client keeping to the rate is never limited
    for n in range(8):
        await polite.send({"type": "ping", "nonce": n})
        assert (await polite.expect("pong"))["nonce"] == n
        await asyncio.sleep(1.5 / 20)


# -------------------------------------------------------- 9. server full


async def test_09_more_connections_than_the_maximum_get_server_full(net: Net) -> None:
    srv = await net.server(max_connections=3)
    first = [await net.raw(srv) for _ in range(3)]  # un-greeted connections count too
    await first[0].hello()
    for _ in range(3):
        extra = await net.raw(srv)
        assert await extra.error_then_close() == ["server_full"]
    with pytest.raises(ConnectError, match="full"):
        await Connection.open(HOST, srv.port, name="late")
    assert len(srv.clients) == 3
    await first[1].close()
    async with asyncio.timeout(2.0):
        while len(srv.clients) > 2:
            await asyncio.sleep(0.01)
    late = await net.player(srv, "Late")
    await late.send({"type": "ping", "nonce": 5})
    assert (await late.expect("pong"))["nonce"] == 5
    await first[0].send({"type": "ping", "nonce": 6})
    assert (await first[0].expect("pong"))["nonce"] == 6


# ------------------------------------------------------- 10. connection reset


def reset(writer: asyncio.StreamWriter) -> None:
    """Drop a connection with a TCP reset (SO_LINGER 0, then abort)."""
    sock = writer.get_extra_info("socket")
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
    writer.transport.abort()


async def three_with_a_raw_seat(
    net: Net, srv: Server, rcvbuf: int | None = None
) -> tuple[Player, Player, Raw, int]:
    """Ana and Ben (clients) and Cy (a raw connection) at table ``t``, the game started;
    a 300 ms turn timeout covers Cy's turns once it is gone."""
    ana = await net.player(srv, "Ana")
    ben = await net.player(srv, "Ben")
    await ana.send({"type": "create_table", "name": "t", "seats": 3, "turn_timeout_ms": 300})
    await ana.expect("table_created")
    for p in (ana, ben):
        await p.send({"type": "join", "table": "t", "name": p.name})
        await p.expect("joined")
    cy = await net.raw(srv, rcvbuf=rcvbuf, limit=1024 if rcvbuf else 2**16)
    await cy.hello("Cy")
    await cy.send({"type": "join", "table": "t", "name": "Cy"})
    joined = await cy.expect("joined")
    await cy.expect("update")
    await settle([ana, ben], 1)
    return ana, ben, cy, joined["seat"]


async def goes_on_without(srv: Server, players: list[Player], seat: int) -> None:
    """The others see ``seat`` disconnected, then play on (its turns timed out)."""
    for p in players:
        await p.expect("table_info", where=lambda m: not m["table"]["players"][seat]["connected"])
    table = srv.tables["t"]
    assert table.seats[seat].member is None and table.status.state == "playing"
    start = players[0].seq
    steps = await play_until(players, lambda: False, random.Random(1), max_steps=8)
    assert steps == 8
    assert players[0].seq > start + 8  # the gone seat's turns were played for it too
    errors = [m for p in players for m in p.received if m.get("type") == "error"]
    assert errors == []


async def test_10_a_reset_mid_read_affects_that_connection_only(net: Net) -> None:
    srv = await net.server()
    ana, ben, cy, seat = await three_with_a_raw_seat(net, srv)
    bystander = await net.player(srv, "Bystander")
    frame = encode({"type": "act", "id": 1, "action": {"draw": True}})
    await cy.write(frame[: len(frame) // 2])  # half a frame, then a reset
    reset(cy.writer)
    await goes_on_without(srv, [ana, ben], seat)
    await bystander.send({"type": "ping", "nonce": 8})
    assert (await bystander.expect("pong"))["nonce"] == 8
    assert len(srv.clients) == 3


async def test_10_a_reset_mid_write_affects_that_connection_only(net: Net) -> None:
    srv = await net.server()
    ana = await net.player(srv, "Ana")
    ben = await net.player(srv, "Ben")
    await ana.send({"type": "create_table", "name": "t", "seats": 4, "turn_timeout_ms": 300})
    await ana.expect("table_created")
    for p in (ana, ben):
        await p.send({"type": "join", "table": "t", "name": p.name})
        await p.expect("joined")
    cy = await net.raw(srv, rcvbuf=4096, limit=1024)
    await cy.hello("Cy")
    await cy.send({"type": "join", "table": "t", "name": "Cy"})
    seat = (await cy.expect("joined"))["seat"]
    cy_client = srv.tables["t"].seats[seat].member
    assert cy_client is not None
    # Cy stops reading; chat flows (before the game, so no turn runs out meanwhile)
    # until the server holds part of a frame for Cy that the kernel would not take
    # (loopback buffers take a few MB first)
    received = {"Ana": 0, "Ben": 0}
    sent = 0

    async def count_chat(player: Player) -> None:
        while True:
            m = await player.conn.recv()
            if m["type"] != "chat":
                player.received.append(m)
            elif m["text"] == "end":
                return
            else:
                received[player.name] += 1

    readers = asyncio.gather(count_chat(ana), count_chat(ben))
    while cy_client.transport.get_write_buffer_size() == 0:
        assert sent < 30000, "the server never held a backlog for Cy"
        ben.conn.writer.write(encode({"type": "chat", "text": f"{sent}:" + "z" * 290}))
        sent += 1
        if sent % 20 == 0:
            await ben.conn.writer.drain()
            await asyncio.sleep(0)
    await ben.send({"type": "chat", "text": "end"})
    await asyncio.wait_for(readers, 10.0)
    assert received == {"Ana": sent, "Ben": sent}
    # the game starts with the three seated (its first update queues behind the backlog)
    await ana.send({"type": "start"})
    await settle([ana, ben], 1)
    assert cy_client.transport.get_write_buffer_size() > 0 and not cy_client.closed
    reset(cy.writer)  # while the server is mid-write to Cy
    await goes_on_without(srv, [ana, ben], seat)
    assert cy_client not in srv.clients


# ------------------------------------------ 11. illegal actions: codes, no change, no leak


def rich_first_turn(game: Game) -> bool:
    """A deal where the seat to act can play a 9, holds a card that matches nothing,
    and can play a card other than an 8 or a 9."""
    if not plain_turn(game):
        return False
    plays = [a for a in game.legal_actions(game.turn) if type(a) is Play]
    playable = {a.card for a in plays}
    return (
        any(c[0] == "9" for c in playable)
        and any(c[0] not in "89" for c in playable)
        and any(c not in playable for c in game.hands[game.turn])
    )


async def test_11_illegal_actions_get_their_codes_change_nothing_leak_nothing(net: Net) -> None:
    srv = await net.server()
    ana, ben = await start_table(net, srv, "t", ["Ana", "Ben"], seed=find_seed(2, rich_first_turn))
    watcher = await net.player(srv, "Watcher")
    await watcher.send({"type": "spectate", "table": "t"})
    await watcher.expect("state")
    lobby = await net.player(srv, "Lobby")
    table = srv.tables["t"]
    game = table.game
    assert game is not None
    actor, other = (ana, ben) if game.turn == ana.seat else (ben, ana)
    hand = list(game.hands[actor.seat])
    other_hand = list(game.hands[other.seat])
    stock = list(game.stock)
    top = game.discard[-1]
    legal = [a for a in actor.view["legal"] if "play" in a]
    playable = {a["play"] for a in legal}
    nine = next(c for c in sorted(playable) if c[0] == "9")
    allowed = {a.get("suit") for a in legal if a["play"] == nine}
    forbidden = next(s for s in "SHDC" if s not in allowed)
    plain = next(c for c in sorted(playable) if c[0] not in "89")
    unmatched = next(c for c in hand if c not in playable)
    position = table.game.to_position()
    views = {p.name: await own_view(p) for p in (ana, ben)}
    seq = table.seq

    attempts: list[tuple[Player, dict[str, Any], str, str | None]] = [
        (other, {"play": other_hand[0]}, "not_your_turn", other_hand[0]),
        (other, {"draw": True}, "not_your_turn", None),
        (actor, {"play": other_hand[0]}, "card_not_in_hand", other_hand[0]),
        (actor, {"play": stock[0]}, "card_not_in_hand", stock[0]),
        (actor, {"play": unmatched}, "card_does_not_match", unmatched),
        (actor, {"play": nine, "suit": forbidden}, "suit_not_allowed", nine),
        (actor, {"play": plain, "suit": "S"}, "suit_not_allowed", plain),
        (actor, {"pass": True}, "nothing_to_pass", None),
        (actor, {"name_suit": "H"}, "no_choice_pending", None),
        (watcher, {"draw": True}, "spectator", None),
        (watcher, {"play": hand[0]}, "spectator", hand[0]),
        (lobby, {"draw": True}, "not_at_table", None),
        (actor, {"draw": True, "seat": other.seat}, "bad_message", None),
        (actor, {"play": plain, "seat": other.seat}, "bad_message", plain),
    ]
    messages: dict[str, str] = {}
    for who, action, code, named in attempts:
        action_id = await who.act(action)
        # a schema error is answered before the id is read: it carries none
        reply = await who.expect("error", where=lambda m, i=action_id: m.get("id", i) == i)
        assert reply["code"] == code, (who.name, action, reply)
        # no card leaks: the message names at most the card sent and the top card
        shown = set(CARD.findall(reply["message"]))
        assert shown <= {named, top} - {None}, (action, reply["message"])
        if code == "card_not_in_hand":
            messages[named or ""] = reply["message"]
    # a seat given at the top level of the act is refused too
    await actor.send({"type": "act", "id": 999, "seat": other.seat, "action": {"draw": True}})
    assert (await actor.expect("error"))["code"] == "bad_message"
    # a card in the other hand and one in the stock get the same answer
    in_other, in_stock = messages[other_hand[0]], messages[stock[0]]
    assert in_other.replace(other_hand[0], "??") == in_stock.replace(stock[0], "??")

    got = await quiet([ana, ben, watcher])
    assert not [m for m in got if m["type"] == "update"]
    assert table.seq == seq
    assert table.game.to_position() == position
    assert {p.name: await own_view(p) for p in (ana, ben)} == views
    # and the legal play still works afterwards
    action_id = await actor.act(strip_seat(legal[0]))
    await actor.expect("ok", where=lambda m: m.get("id") == action_id)


# ---------------------------------------------- 12. resent actions, late actions


async def test_12_an_action_resent_after_a_reconnect_is_applied_once(net: Net) -> None:
    srv = await net.server()
    ana, ben = await start_table(net, srv, "t", ["Ana", "Ben"], seed=find_seed(2, plain_turn))
    table = srv.tables["t"]
    actor, other = (ana, ben) if table.game.turn == ana.seat else (ben, ana)
    seq = other.seq
    action = strip_seat(next(a for a in actor.view["legal"] if "play" in a))
    # the action goes out, is applied, and the connection dies before the answer is read
    await actor.send({"type": "act", "id": 41, "action": action})
    update = await other.expect("update")
    played = [e for e in update["events"] if e["event"] == "played"]
    assert played and played[0]["seat"] == actor.seat
    reset(actor.conn.writer)
    # a new connection resumes the seat and sends the same action with the same id
    again = await net.player(srv, actor.name)
    await again.send({"type": "resume", "token": actor.token})
    await again.expect("state")
    after_resume = table.game.to_position()
    await again.send({"type": "act", "id": 41, "action": action})
    assert await again.expect("ok") == {"type": "ok", "id": 41}
    # and once more on the same connection: still the first answer
    await again.send({"type": "act", "id": 41, "action": action})
    assert await again.expect("ok") == {"type": "ok", "id": 41}
    got = await quiet([other, again])
    assert not [m for m in got if m["type"] == "update"]
    assert table.game.to_position() == after_resume
    assert len(turn_events(other.received, actor.seat, seq)) == 1
    # a fresh id is a new action: refused now, as it is not that seat's turn
    await again.send({"type": "act", "id": 42, "action": action})
    assert (await again.expect("error"))["code"] in ("not_your_turn", "card_not_in_hand")


def _keys(actions: list[dict[str, Any]]) -> set[str]:
    return {repr(sorted(strip_seat(a).items())) for a in actions}


def again_after_timeout(game: Game) -> bool:
    """The timeout's move for the seat to act leaves it to act again (a 6, R5), and
    some action it could take before the timeout is still legal after it."""
    if not plain_turn(game):
        return False
    seat = game.turn
    before = _keys([action_to_dict(a) for a in game.legal_actions(seat)])
    trial = game.copy()
    trial.apply(action_from_dict(timeout_action(view(trial, seat)), seat))
    if trial.phase != "play" or trial.to_act != seat:
        return False
    return bool(before & _keys([action_to_dict(a) for a in trial.legal_actions(seat)]))


async def test_12_a_late_action_racing_the_turn_timeout_is_applied_once(net: Net) -> None:
    # away_delay: the seat, away after its timeout, is played for again only after 0.5 s
    srv = await net.server(away_delay=0.5)
    seed = find_seed(2, again_after_timeout)
    # the timeout wins; the seat is to act again, and the action it sends late, against
    # the older update, would be legal now: it is refused as stale, not applied
    ana, ben = await start_table(net, srv, "t0", ["Ana", "Ben"], turn_timeout_ms=150, seed=seed)
    table = srv.tables["t0"]
    actor = ana if table.game.turn == ana.seat else ben
    seq = actor.seq
    legal_before = actor.view["legal"]
    timed_out = await actor.expect("update", where=lambda m: "notice" in m)
    assert timed_out["notice"] == {"kind": "timeout", "seat": actor.seat, "name": actor.name}
    assert timed_out["view"]["to_act"] == actor.seat
    still = _keys(timed_out["view"]["legal"])
    late = next(strip_seat(a) for a in legal_before if _keys([a]) <= still)
    await actor.send({"type": "act", "id": 1, "action": late, "seq": seq})
    reply = await actor.expect("error", where=lambda m: m.get("id") == 1)
    assert reply["code"] == "stale"
    await actor.drain(0.1)
    assert len(turn_events(actor.received, actor.seat, seq)) == 1
    assert table.seq == seq + 1

    # a real race, at several offsets around the deadline: either one wins, never both
    outcomes = []
    for i, offset in enumerate((-0.02, -0.005, 0.0, 0.005, 0.02)):
        name = f"t{i + 1}"
        ana, ben = await start_table(net, srv, name, ["Ana", "Ben"], turn_timeout_ms=150, seed=seed)
        table = srv.tables[name]
        actor = ana if table.game.turn == ana.seat else ben
        seq = actor.seq
        first = next(m for m in actor.received if m.get("type") == "update")
        action = late  # the same deal: legal before the timeout's move and after it
        await asyncio.sleep(max(0.0, first["deadline_ms"] / 1000 + offset))
        await actor.send({"type": "act", "id": 1, "action": action, "seq": seq})
        answer = None
        async with asyncio.timeout(2.0):
            while answer is None:
                m = await actor.recv()
                if m.get("id") == 1 and m["type"] in ("ok", "error"):
                    answer = m
        # the update that settled the turn: the action's (it follows the ok), or the timeout's
        while actor.seq < seq + 1:
            await actor.recv()
        resolved = next(
            m for m in actor.received if m.get("type") == "update" and m["seq"] == seq + 1
        )
        events = turn_events([resolved], actor.seat, seq)
        if answer["type"] == "ok":
            assert "notice" not in resolved
        else:
            assert answer["code"] == "stale"
            assert resolved["notice"]["kind"] == "timeout"
        # one move for the turn; an ok after a timeout would have been a second one
        assert len(events) == 1, (offset, answer, events)
        outcomes.append(answer.get("code", "ok"))
    print("race outcomes", outcomes)


# ---------------------------------------------- 13. an exception inside a table


def fail_in(monkeypatch: pytest.MonkeyPatch, table: Table) -> None:
    """Make ``Game.apply`` raise RuntimeError for ``table``'s game only (the table
    applies actions to a copy of its game: the copy is recognised by its cards)."""
    original = Game.apply

    def apply(game: Game, action: Any) -> Any:
        mine = table.game
        if mine is not None and game.hands == mine.hands and game.stock == mine.stock:
            raise RuntimeError("injected fault")
        return original(game, action)

    monkeypatch.setattr(Game, "apply", apply)


async def test_13_an_exception_in_one_table_stops_that_table_only(
    net: Net, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    srv = await net.server()
    seed = find_seed(2, plain_turn)
    a1, b1 = await start_table(net, srv, "t1", ["Ana", "Ben"], seed=seed)
    a2, b2 = await start_table(net, srv, "t2", ["Cat", "Dan"], seed=seed + 1)
    lobby = await net.player(srv, "Lobby")
    await lobby.send({"type": "list_tables", "watch": True})
    await lobby.expect("tables")
    t1, t2 = srv.tables["t1"], srv.tables["t2"]
    fail_in(monkeypatch, t1)
    actor = a1 if t1.game.turn == a1.seat else b1
    await actor.act(strip_seat(actor.view["legal"][0]))
    for p in (a1, b1):
        stopped = await p.expect("error", where=lambda m: m["code"] == "table_stopped")
        assert "t1" in stopped["message"]
        info = await p.expect("table_info")
        assert info["table"]["state"] == "stopped"
    await lobby.expect(
        "table_info",
        where=lambda m: m["table"]["name"] == "t1" and m["table"]["state"] == "stopped",
    )
    assert t1.status.state == "stopped"
    records = [r for r in caplog.records if "t1" in r.getMessage() and r.exc_info]
    assert records and records[0].levelno == logging.ERROR
    assert isinstance(records[0].exc_info[1], RuntimeError)
    # the stopped table refuses play and new players
    action_id = await actor.act({"draw": True})
    reply = await actor.expect("error", where=lambda m: m.get("id") == action_id)
    assert reply["code"] in ("game_not_running", "table_stopped")
    # the other table plays on
    actor2 = a2 if t2.game.turn == a2.seat else b2
    action_id = await actor2.act(strip_seat(actor2.view["legal"][0]))
    await actor2.expect("ok", where=lambda m: m.get("id") == action_id)
    await settle([a2, b2], 2)
    assert t2.status.state == "playing"
    steps = await play_until([a2, b2], lambda: False, random.Random(3), max_steps=10)
    assert steps == 10
    assert not [m for p in (a2, b2) for m in p.received if m.get("type") == "error"]
    # and the server takes new connections and tables
    late = await net.player(srv, "Late")
    await late.send({"type": "create_table", "name": "t3", "seats": 2})
    await late.expect("table_created")


async def test_13_an_exception_in_a_table_timer_stops_that_table_only(
    net: Net, monkeypatch: pytest.MonkeyPatch
) -> None:
    srv = await net.server()
    seed = find_seed(2, plain_turn)
    a1, b1 = await start_table(net, srv, "t1", ["Ana", "Ben"], turn_timeout_ms=100, seed=seed)
    a2, b2 = await start_table(net, srv, "t2", ["Cat", "Dan"], seed=seed + 1)
    fail_in(monkeypatch, srv.tables["t1"])
    # nobody acts at t1: the turn timeout's own move hits the fault
    for p in (a1, b1):
        await p.expect("error", where=lambda m: m["code"] == "table_stopped")
    assert srv.tables["t1"].status.state == "stopped"
    steps = await play_until([a2, b2], lambda: False, random.Random(4), max_steps=6)
    assert steps == 6


# --------------------------------------------- several tables, faults at one


async def test_faults_at_one_table_leave_the_others_alone(
    net: Net, monkeypatch: pytest.MonkeyPatch
) -> None:
    srv = await net.server(max_errors=3)
    bad = await start_table(net, srv, "bad", ["Ana", "Ben", "Cy", "Dee"], turn_timeout_ms=200)
    good = [await start_table(net, srv, f"good{i}", ["Dan", "Eve"]) for i in range(3)]
    before = {name: srv.tables[name].seq for name in ("good0", "good1", "good2")}

    async def faults() -> None:
        ana, ben, cy, dee = bad
        # schema abuse until dropped
        for _ in range(4):
            await cy.send({"type": "shout"})
        await cy.expect("error", where=lambda m: m["code"] == "too_many_errors")
        # a frame that is not msgpack
        ben.conn.writer.write(HEADER.pack(3) + b"\xc1\xc1\xc1")
        await ben.expect("error", where=lambda m: m["code"] == "bad_frame")
        # a reset mid-frame
        ana.conn.writer.write(encode({"type": "chat", "text": "bye"})[:6])
        reset(ana.conn.writer)
        # the table plays on for the one left (the others' turns time out; Dee
        # says it is back whenever its own turn timed out, so the table never
        # waits for a player) ...
        start = dee.seq
        while dee.seq < start + 3:
            await dee.send({"type": "back"})
            await dee.recv()
        # ... until an exception inside it, in a timeout move (or in Dee's own)
        fail_in(monkeypatch, srv.tables["bad"])
        await dee.send({"type": "back"})
        await dee.expect("error", where=lambda m: m["code"] == "table_stopped")

    async def play(players: list[Player], seed: int) -> int:
        return await play_until(players, lambda: False, random.Random(seed), max_steps=15)

    results = await asyncio.gather(faults(), *(play(g, i) for i, g in enumerate(good)))
    assert results[1:] == [15, 15, 15]
    async with asyncio.timeout(3.0):
        while srv.tables["bad"].status.state != "stopped":
            await asyncio.sleep(0.02)
    for i, players in enumerate(good):
        name = f"good{i}"
        assert srv.tables[name].status.state == "playing"
        assert srv.tables[name].seq >= before[name] + 15
        for p in players:
            assert not [m for m in p.received if m.get("type") == "error"]
            assert all(
                m.get("table") in (None, name)
                for m in p.received
                if "table" in m and isinstance(m["table"], str)
            )
