"""Turn times that make sense (issue 13): the shortest turn timeout a table may
have (protocol §5, error ``bad_turn_timeout``; ``craits-server
--min-turn-timeout``), and the pause between hands, which the first turn of
the next hand does not pay for (protocol §11.4)."""

from __future__ import annotations

import dataclasses
import subprocess
from typing import Any

import pytest
from craits.server.app import Server, ServerConfig
from craits.server.table.actor import MIN_TURN_TIMEOUT
from craits.server.table.outcome import Step

from tests.support.client import ANA, BEN, deal_order, script
from tests.support.processes import SERVER
from tests.support.server import strip_seat


@pytest.fixture
def config(config: ServerConfig) -> ServerConfig:
    """The tests' fast settings, with the server's own shortest turn timeout."""
    return dataclasses.replace(config, min_turn_timeout=MIN_TURN_TIMEOUT)


async def test_a_turn_timeout_below_the_servers_shortest_is_refused(
    server: Server, connect: Any
) -> None:
    ana = await connect("Ana")
    assert ana.conn.welcome["limits"]["min_turn_timeout_ms"] == 10_000
    for too_short in (1, 1000, 9999):
        await ana.send(
            {"type": "create_table", "name": "t", "seats": 2, "turn_timeout_ms": too_short}
        )
        error = await ana.expect("error")
        assert error["code"] == "bad_turn_timeout"
        assert error["message"] == (
            f"turn_timeout_ms {too_short} is too short: the shortest turn at "
            "this server is 10 s (10000 ms); 0 means no timeout"
        )
        assert "t" not in server.tables
    # no timeout, the shortest allowed, and the server's default are fine, on the same connection
    for name, create in (("none", {"turn_timeout_ms": 0}), ("short", {"turn_timeout_ms": 10_000})):
        await ana.send({"type": "create_table", "name": name, "seats": 2, **create})
        created = await ana.expect("table_created")
        assert created["table"]["turn_timeout_ms"] == create["turn_timeout_ms"]
    ben = await connect("Ben")
    await ben.send({"type": "create_table", "name": "default", "seats": 2})
    created = await ben.expect("table_created")
    assert created["table"]["turn_timeout_ms"] == 0  # the tests' server default: none


def _server(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([*SERVER, *args], capture_output=True, text=True)


def test_craits_server_refuses_a_turn_timeout_below_its_shortest() -> None:
    done = _server("--turn-timeout", "1", "--print-config")
    assert (done.returncode, done.stdout) == (2, "")
    assert done.stderr == (
        "craits-server: --turn-timeout must be 0 (no timeout) or at least "
        "--min-turn-timeout (10) (got 1.0)\n"
    )
    for good in (("--turn-timeout", "0"), ("--turn-timeout", "10")):
        assert _server(*good, "--print-config").returncode == 0
    lowered = _server("--min-turn-timeout", "0.5", "--turn-timeout", "1", "--print-config")
    assert lowered.returncode == 0, lowered.stderr
    assert "min-turn-timeout = 0.5" in lowered.stdout
    negative = _server("--min-turn-timeout", "-1", "--print-config")
    assert negative.returncode == 2
    assert "--min-turn-timeout must be >= 0" in negative.stderr
    helped = _server("--help").stdout
    assert "--min-turn-timeout" in helped and "bad_turn_timeout" in helped


async def test_the_first_turn_of_a_new_hand_gets_the_pause_between_hands(
    server: Server, connect: Any
) -> None:
    """The update ending a hand says when the next is dealt (``next_hand_ms``,
    and ``state`` between hands), and the first turn of the next hand gets
    the pause on top of the turn timeout: a player reading the summary is not
    played for (protocol §7.1, §11.4)."""
    server.config.hand_pause = 2.0
    ben = await connect("Ben")
    ana = await connect("Ana")
    await ben.send({"type": "create_table", "name": "t", "seats": 2, "turn_timeout_ms": 20_000})
    await ben.expect("table_created")
    table = server.tables["t"]
    script(table, ["2C", "AC"], deal_order(BEN, ANA, "KH"))  # Ben deals, Ana plays first
    for p in (ben, ana):
        await p.send({"type": "join", "table": "t", "name": p.name})
        await p.expect("joined")
    first = await ana.expect("update")
    assert first["view"]["to_act"] == ana.seat == 1
    assert 0 < first["deadline_ms"] <= 20_000  # hand 1: the turn timeout, no more
    assert "next_hand_ms" not in first
    # Ana is down to 7♥ (a test shortcut inside the server) and goes out with it
    table.game.hands[1] = ["7H"]
    table.publish(Step([]))
    await ana.expect("update")
    await ana.act({"play": "7H"})
    ended = await ana.expect("update", where=lambda m: m["view"]["phase"] == "hand_over")
    assert ended["next_hand_ms"] == 2000
    assert ended["deadline_ms"] is None
    cy = await connect("Cy")
    await cy.send({"type": "spectate", "table": "t"})
    state = await cy.expect("state")
    assert state["view"]["phase"] == "hand_over"
    assert 0 < state["next_hand_ms"] <= 2000
    dealt = await ana.expect("update", where=lambda m: m["view"]["phase"] == "play")
    assert dealt["view"]["hand_number"] == 2
    assert "next_hand_ms" not in dealt
    # whoever plays first in hand 2 (Ana deals it, Ben leads) has the pause on top
    assert dealt["view"]["to_act"] == 0
    assert dealt["deadline_ms"] > 21_000
    await ben.expect("update", where=lambda m: m["view"]["hand_number"] == 2)
    # the next turn has the plain timeout again
    lead = next(a for a in ben.view["legal"] if "play" in a or "draw" in a)
    await ben.act(strip_seat(lead))
    after = await ben.expect("update", where=lambda m: m["view"]["to_act"] != 0)
    assert 0 < after["deadline_ms"] <= 20_000 or after["view"]["phase"] != "play"
