"""Rules of the protocol that the document once left open (issue 11), held over real sockets.

- an ``act`` answering an older update between hands, or after the game, is
  ``stale`` (§11.6), not ``game_not_running``;
- an ``act`` with a card or suit code that is not one is ``bad_message``, with
  the act's ``id``, and counts toward ``too_many_errors`` (§5, §6, §12.1);
- a map holding a key twice is ``bad_frame`` (§3);
- a frame stalled inside its 4-byte header gets ``timeout`` (§2) — in
  ``test_faults.py``, with the other timeouts.
"""

from __future__ import annotations

import random
from typing import Any

import pytest
from craits.server.app import Server

from tests.support.net import Net, net, start_table  # noqa: F401 - net is a fixture
from tests.support.server import connect, finished_game, play_until, settle  # noqa: F401

# ------------------------------------------------- stale between hands and after


async def test_an_act_answering_an_older_update_between_hands_is_stale(net: Net) -> None:  # noqa: F811
    srv = await net.server(hand_pause=3.0)
    ana, ben = await start_table(net, srv, "t", ["Ana", "Ben"], seed=7)
    players = [ana, ben]

    def between_hands() -> bool:
        return ana.view is not None and ana.view["phase"] == "hand_over"

    await play_until(players, between_hands, random.Random(5))
    assert srv.tables["t"].status.playing and ana.view is not None
    await settle(players, ana.seq)
    # a call made on the update before the hand's end arrives after it
    late = await ana.act({"idiot": ben.seat}, seq=False)
    await ana.send(
        {"type": "act", "id": late + 1, "action": {"announce": True}, "seq": ana.seq - 1}
    )
    reply = await ana.expect("error", where=lambda m: m.get("id") == late + 1)
    assert reply["code"] == "stale", reply
    # without seq, or answering the newest update: no hand is being played
    first = [m for m in ana.received if m["type"] == "error" and m.get("id") == late]
    assert [m["code"] for m in first] == ["game_not_running"]
    await ana.send({"type": "act", "id": late + 2, "action": {"draw": True}, "seq": ana.seq})
    reply = await ana.expect("error", where=lambda m: m.get("id") == late + 2)
    assert reply["code"] == "game_not_running", reply
    # the stale reply is remembered for its id, like every stale reply (§11.5)
    await ana.send({"type": "act", "id": late + 1, "action": {"draw": True}, "seq": ana.seq})
    again = await ana.expect("error", where=lambda m: m.get("id") == late + 1)
    assert again["code"] == "stale"


async def test_an_act_answering_an_older_update_after_the_game_is_stale(server: Server) -> None:
    players, last = await finished_game(server)
    ana = players[0]
    assert last["phase"] == "game_over" and server.tables["r"].status.state == "finished"
    await ana.send({"type": "act", "id": 10**6, "action": {"draw": True}, "seq": ana.seq - 1})
    reply = await ana.expect("error", where=lambda m: m.get("id") == 10**6)
    assert reply["code"] == "stale", reply
    await ana.send({"type": "act", "id": 10**6 + 1, "action": {"draw": True}, "seq": ana.seq})
    reply = await ana.expect("error", where=lambda m: m.get("id") == 10**6 + 1)
    assert reply["code"] == "game_not_running", reply
    for p in players:
        await p.close()


async def test_before_the_first_game_an_old_seq_is_not_stale(net: Net) -> None:  # noqa: F811
    srv = await net.server()
    ana = await net.player(srv, "Ana")
    await ana.send({"type": "create_table", "name": "w", "seats": 3})
    await ana.expect("table_created")
    await ana.send({"type": "join", "table": "w", "name": "Ana"})
    await ana.expect("state")
    await ana.send({"type": "act", "id": 1, "action": {"draw": True}, "seq": 5})
    assert (await ana.expect("error"))["code"] == "game_not_running"


# ------------------------------------------------------ malformed card and suit codes

MALFORMED = [
    {"play": "ZZ"},
    {"play": "10H"},
    {"play": "8s"},
    {"play": ""},
    {"play": "8S", "suit": "X"},
    {"play": "8S", "suit": "s"},
    {"play": "8S", "suit": ""},
    {"name_suit": "d"},
    {"name_suit": "Spades"},
]


async def test_malformed_card_and_suit_codes_get_bad_message_with_the_id(net: Net) -> None:  # noqa: F811
    srv = await net.server(max_errors=len(MALFORMED))
    ana, ben = await start_table(net, srv, "t", ["Ana", "Ben"], seed=3)
    table = srv.tables["t"]
    assert table.game is not None
    actor = [ana, ben][table.game.to_act or 0]
    before, seq = table.game.to_position(), table.seq
    for n, action in enumerate(MALFORMED):
        await actor.send({"type": "act", "id": 500 + n, "action": action, "seq": actor.seq})
        reply = await actor.expect("error")
        assert reply["code"] == "bad_message", (action, reply)
        assert reply["id"] == 500 + n, (action, reply)
        assert "act.action." in reply["message"]
    # not remembered: the same id, well formed, is judged
    legal = [a for a in actor.view["legal"] if "idiot" not in a] if actor.view else []
    await actor.send({"type": "act", "id": 500, "action": _no_seat(legal[0]), "seq": actor.seq})
    assert (await actor.expect("ok"))["id"] == 500
    assert table.seq == seq + 1 and table.game.to_position() != before
    # each counted as a bad message: one more closes the connection
    await actor.send({"type": "act", "id": 600, "action": {"play": "ZZ"}})
    got = []
    while True:
        m = await actor.expect("error")
        got.append((m["code"], m.get("id")))
        if m["code"] == "too_many_errors":
            break
    assert got == [("bad_message", 600), ("too_many_errors", None)]


async def test_an_act_whose_id_is_bad_gets_bad_message_without_an_id(net: Net) -> None:  # noqa: F811
    srv = await net.server()
    ana = await net.player(srv, "Ana")
    for message in (
        {"type": "act", "id": -1, "action": {"play": "ZZ"}},
        {"type": "act", "id": True, "action": {"draw": True}},
        {"type": "act", "action": {"draw": True}},
    ):
        await ana.send(message)
        reply = await ana.expect("error")
        assert reply["code"] == "bad_message" and "id" not in reply, (message, reply)
    # a good id with any other schema fault comes back with the error
    await ana.send({"type": "act", "id": 9, "action": {"draw": True}, "seq": -1})
    reply = await ana.expect("error")
    assert (reply["code"], reply["id"]) == ("bad_message", 9)


def _no_seat(action: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in action.items() if k != "seat"}


# --------------------------------------------------------------- duplicate map keys

DUPLICATES = {
    "the message's type": b"\x82\xa4type\xa4ping\xa4type\xa4pong",
    "an act's id": b"\x84\xa4type\xa3act\xa2id\x01\xa6action\x81\xa4draw\xc3\xa2id\x02",
    "inside the action": (
        b"\x83\xa4type\xa3act\xa2id\x01\xa6action\x82\xa4play\xa28S\xa4play\xa29S"
    ),
}


@pytest.mark.parametrize("where", list(DUPLICATES))
async def test_a_map_holding_a_key_twice_is_a_bad_frame(net: Net, where: str) -> None:  # noqa: F811
    srv = await net.server()
    bystander = await net.player(srv, "Bystander")
    raw = await net.raw(srv)
    await raw.hello()
    await raw.send_body(DUPLICATES[where])
    got = await raw.until_closed()
    assert [(m["code"], m["message"]) for m in got if m["type"] == "error"] == [
        ("bad_frame", "a map holds a key twice")
    ], where
    await bystander.send({"type": "ping", "nonce": 1})
    assert (await bystander.expect("pong"))["nonce"] == 1


async def test_the_same_key_in_different_maps_is_fine(net: Net) -> None:  # noqa: F811
    srv = await net.server()
    raw = await net.raw(srv)
    await raw.hello()
    # "name" at the top and inside the rules map (an unknown option): refused as bad_rules
    await raw.send(
        {"type": "create_table", "name": "t", "seats": 2, "rules": {"name": True}},
    )
    assert (await raw.expect("error"))["code"] == "bad_rules"


async def test_a_name_a_terminal_cannot_measure_is_refused_in_plain_words(
    server: Server,
    connect: Any,  # noqa: F811  (the fixture)
) -> None:
    """A joined emoji as a name (issue 23: it shifted every client's drawn table)
    is refused with ``bad_message`` saying which character and why; nothing is
    created, the connection goes on, and the same name without it is taken."""
    ana = await connect("Ana")
    family = "👨\u200d👩\u200d👧"
    await ana.send({"type": "create_table", "name": "t", "seats": 2})
    await ana.expect("table_created")
    await ana.send({"type": "join", "table": "t", "name": family})
    error = await ana.expect("error")
    assert error["code"] == "bad_message"
    assert error["message"] == (
        "join.name: must not hold U+200D ZERO WIDTH JOINER, a format character: "
        "terminals do not agree on how wide it is drawn"
    )
    assert server.tables["t"].seats == []
    await ana.send({"type": "create_table", "name": f"t {family}", "seats": 2})
    assert (await ana.expect("error"))["code"] == "bad_message"
    assert set(server.tables) == {"t"}
    await ana.send({"type": "join", "table": "t", "name": "👨👩👧"})  # three emoji, no joiners
    assert (await ana.expect("joined"))["table"] == "t"
    assert server.tables["t"].seats[0].name == "👨👩👧"
