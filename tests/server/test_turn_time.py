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
from craits.server.table import MIN_TURN_TIMEOUT

from tests.server.processes import SERVER


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
