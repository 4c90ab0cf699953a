"""Nothing lost: a server killed mid-hand comes back with every table exactly as it was.

The server runs as a real subprocess with a journal; it is SIGKILLed in the
middle of a hand and started again on the same data directory. The players
reconnect with their tokens, find the same seats, hands, turn, count, scores
and shuffle penalties, draw from the same stock order, and finish the game.
"""

from __future__ import annotations

import os
import random
import signal
from pathlib import Path
from typing import Any

from craits.server.engine import Rules
from craits.server.journal.journal import Journal
from craits.server.table.gamelog import replay

from tests.support.processes import free_port, open_player, start_server, stop_server
from tests.support.server import Player, play_until, settle

SAME = (
    "hand",
    "hand_sizes",
    "turn",
    "to_act",
    "count",
    "scores",
    "pressure",
    "top",
    "suit",
    "direction",
    "dealer",
    "hand_number",
    "stock_size",
    "discard_size",
    "lost_turns",
    "unannounced",
    "legal",
    "phase",
)


def _journal_position(data: Path) -> dict[str, Any]:
    """The authoritative position of the table 'k', replayed from the journal on disk."""
    journal = Journal(data / "craits.db")
    try:
        (saved,) = journal.tables()
        assert saved.game is not None
        game = replay(len(saved.game.players), Rules.from_dict(saved.rules), saved.game.entries)
        return game.to_position()
    finally:
        journal.close()


async def test_sigkill_mid_hand_then_restart_restores_everything(tmp_path: Path) -> None:
    data = tmp_path / "data"
    port = free_port()
    proc = await start_server(port, data)
    names = ["Ana", "Ben", "Cy"]
    try:
        players = [await open_player(port, n) for n in names]
        await players[0].send({"type": "create_table", "name": "k", "seats": 3})
        await players[0].expect("table_created")
        for p in players:
            await p.send({"type": "join", "table": "k", "name": p.name})
            await p.expect("joined")
        await settle(players, 1)
        rng = random.Random(11)

        def mid_hand_two() -> bool:
            v = players[0].view
            return (
                v is not None
                and v["hand_number"] == 2
                and v["phase"] == "play"
                and (v["discard_size"] >= 4)
            )

        await play_until(players, mid_hand_two, rng)
        before = {p.name: dict(p.view or {}) for p in players}
        tokens = {p.name: (p.seat, p.token, p._next_id) for p in players}
    finally:
        proc.send_signal(signal.SIGKILL)
        await proc.wait()
    for p in players:
        await p.close()

    db = data / "craits.db"
    assert db.exists() and (db.stat().st_mode & 0o777) == 0o600
    expected = _journal_position(data)

    proc = await start_server(port, data)
    try:
        again: list[Player] = []
        for name in names:
            seat, token, next_id = tokens[name]
            p = await open_player(port, name)
            p.seat, p.token, p._next_id = seat, token, next_id
            await p.send({"type": "resume", "token": token})
            assert (await p.expect("resumed"))["seat"] == seat
            state = await p.expect("state")
            for key in SAME:
                assert state["view"][key] == before[name][key], (name, key)
            again.append(p)
        # the stock order is the same: the next draws come off the top of the old stock
        stock_top_first = expected["stock"]

        def over() -> bool:
            v = again[0].view
            return v is not None and v["phase"] == "game_over"

        await play_until(again, over, rng, max_steps=40000)
        assert over()
        drawn = _cards_drawn_from_the_first_stock(again)
        # (in the rare game where the hand ends before anyone draws, nothing to compare)
        k = min(len(stock_top_first), len(drawn))
        assert drawn[:k] == stock_top_first[:k]
        final = again[0].view
        assert final is not None and final["result"]["game_over"] is True
        for p in again:
            await p.close()
    finally:
        await stop_server(proc)
    assert os.path.exists(db)


def _cards_drawn_from_the_first_stock(players: list[Player]) -> list[str]:
    """The cards drawn, in order, until the stock changes (a shuffle penalty, a
    hand's end, a deal): every update once, by seq, each drawer's own copy
    naming its cards."""
    by_seq: dict[int, list[dict[str, Any]]] = {}
    for p in players:
        for m in p.received:
            if m.get("type") != "update":
                continue
            events = by_seq.setdefault(m["seq"], [dict(e) for e in m["events"]])
            for i, e in enumerate(m["events"]):
                if e["event"] == "drew" and e["cards"]:
                    events[i] = e
    drawn: list[str] = []
    for seq in sorted(by_seq):
        kinds = [e["event"] for e in by_seq[seq]]
        if "shuffle_penalty" in kinds or "hand_ended" in kinds or "dealt" in kinds:
            break  # from here on the cards come from another stock
        for e in by_seq[seq]:
            if e["event"] == "drew":
                drawn.extend(e["cards"])
    return drawn
