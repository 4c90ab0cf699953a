"""Hidden-information audit: no frame ever carries a card its recipient may not know.

Every message the server sends, to every seat and spectator, over whole games
(the cut, deals, draws, 5s, counts, shuffle penalties, hand ends, the join,
resume and spectate snapshots) is recorded as it is sent, with the server's
authoritative state at that moment. A recipient may know: the cards in its own
hand; every card shown face up this hand (the turned-up card, every card
played, the cut); and, once a hand is over, every hand (R9). Any other card
code in a frame is a leak.
"""

from __future__ import annotations

import random
import re
from collections import Counter
from typing import Any

import pytest
from craits.protocol.client import Connection
from craits.protocol.wire import MAX_SERVER_FRAME, decode
from craits.server import app as server_app
from craits.server.app import Client, Server
from craits.server.table.fairness import RecordingShuffle

from tests.support.server import Player, play_until, settle

CARD = re.compile(r"[A23456789TJQK][SHDC]\Z")


def card_codes(value: Any) -> list[str]:
    """Every card code anywhere in a message."""
    out: list[str] = []
    stack = [value]
    while stack:
        v = stack.pop()
        if isinstance(v, str):
            if CARD.match(v):
                out.append(v)
        elif isinstance(v, dict):
            stack.extend(v.values())
        elif isinstance(v, list | tuple):
            stack.extend(v)
    return out


class Auditor:
    """Checks each outgoing message against the server's state when it is sent."""

    def __init__(self) -> None:
        self.public: dict[str, set[str]] = {}
        self.hand_of_public: dict[str, int] = {}
        self.frames = 0
        self.leaks: list[str] = []
        self.kinds: Counter[str] = Counter()

    def check(self, client: Client, message: dict[str, Any]) -> None:
        self.frames += 1
        for e in message.get("events", ()):
            self.kinds[e["event"]] += 1
            if e["event"] == "drew":
                self.kinds[f"drew:{e['reason']}"] += 1
        table = client.table
        codes = card_codes(message)
        if table is None or table.game is None:
            if codes:
                self.leaks.append(f"cards {codes} sent outside a game: {message.get('type')}")
            return
        game = table.game
        key = table.name
        if self.hand_of_public.get(key) != game.hand_number:
            self.hand_of_public[key] = game.hand_number
            self.public[key] = set()
        public = self.public[key]
        public.update(game.discard)
        for e in message.get("events", ()):
            if e["event"] == "cut":
                public.update(card for rnd in e["rounds"] for _, card in rnd)
        seat = next((i for i, s in enumerate(table.seats) if s.member is client), None)
        known = set(public)
        if seat is not None:
            known.update(game.hands[seat])
        if game.phase != "play":
            for h in game.hands:
                known.update(h)
        unknown = [c for c in codes if c not in known]
        if unknown:
            who = "spectator" if seat is None else f"seat {seat}"
            self.leaks.append(f"{message.get('type')} to {who} holds {unknown}")


@pytest.fixture
def auditor(monkeypatch: pytest.MonkeyPatch) -> Auditor:
    audit = Auditor()
    original = server_app.Client.send_frame

    def send_frame(self: Client, data: bytes) -> None:
        # every frame as it goes to the socket (updates are encoded by parts)
        audit.check(self, decode(data[4:], MAX_SERVER_FRAME, depth=16))
        original(self, data)

    monkeypatch.setattr(server_app.Client, "send_frame", send_frame)
    return audit


@pytest.mark.parametrize(
    ("seats", "rules", "seed"),
    [
        (3, {}, 1),
        (4, {"face_cards": True, "play_drawn_card": True, "one_card_deal": True}, 2),
        (6, {"short_game": True}, 3),
    ],
)
async def test_no_frame_holds_a_card_its_recipient_may_not_know(
    server: Server, connect: Any, auditor: Auditor, seats: int, rules: dict[str, Any], seed: int
) -> None:
    rng = random.Random(seed)
    names = ["Ana", "Ben", "Cy", "Dee", "Eve", "Fay"][:seats]
    players: list[Player] = [await connect(n) for n in names]
    watcher = await connect("Wat")
    await players[0].send({"type": "create_table", "name": "audit", "seats": seats, "rules": rules})
    await players[0].expect("table_created")
    # the deals are seeded too: the kinds asserted at the end (a count, a 5's
    # draws) happen in this game, not in most games
    server.tables["audit"].gamelog.rng = RecordingShuffle(random.Random(seed))
    # a spectator from the start: the join path of a spectator
    await watcher.send({"type": "spectate", "table": "audit"})
    await watcher.expect("state")
    for p in players:
        await p.send({"type": "join", "table": "audit", "name": p.name})
        await p.expect("joined")
    await settle([*players, watcher], 1)

    def reached(hand: int) -> Any:
        return lambda: players[0].view is not None and players[0].view["hand_number"] >= hand

    everyone = [*players, watcher]
    await play_until(everyone, reached(3), rng)

    # a reconnect mid-game: a new connection resumes seat 1 with its token (resync path)
    old = players[1]
    assert old.token is not None
    await old.close()
    conn = await Connection.open("127.0.0.1", server.port, name="again")
    again = Player(conn, old.name)
    again.seat, again.token = old.seat, old.token
    again._next_id = old._next_id  # action ids are never reused by a seat
    await again.send({"type": "resume", "token": old.token})
    await again.expect("resumed")
    snapshot = await again.expect("state")
    assert snapshot["seat"] == old.seat
    assert snapshot["events"]  # the hand so far: audited like every frame
    players[1] = again
    # a second spectator arrives mid-game
    late = await connect("Late")
    await late.send({"type": "spectate", "table": "audit"})
    assert (await late.expect("state"))["events"]
    late.seq = snapshot["seq"]
    everyone = [*players, watcher, late]

    def over() -> bool:
        return players[0].view is not None and players[0].view["phase"] == "game_over"

    await play_until(everyone, over, rng)
    await again.close()

    assert over()
    assert auditor.leaks == []
    assert auditor.frames > 500
    # the audit saw the situations where cards move
    for kind in ("cut", "dealt", "turned_up", "played", "drew", "hand_ended", "count"):
        assert auditor.kinds[kind] > 0, kind
    assert auditor.kinds["drew:five"] > 0


async def test_audit_catches_a_leak(server: Server, connect: Any, auditor: Auditor) -> None:
    """The auditor itself works: a view sent to the wrong seat is flagged."""
    ana, ben = await connect("Ana"), await connect("Ben")
    await ana.send({"type": "create_table", "name": "leak", "seats": 2})
    await ana.expect("table_created")
    for p in (ana, ben):
        await p.send({"type": "join", "table": "leak", "name": p.name})
        await p.expect("joined")
    await ana.expect("update")
    table = server.tables["leak"]
    ana_client = table.seats[0].member
    assert ana_client is not None and table.game is not None
    from craits.server.engine import view

    ana_client.send({"type": "state", "view": view(table.game, 1)})  # Ben's hand, to Ana
    assert auditor.leaks and "seat 0" in auditor.leaks[0]
