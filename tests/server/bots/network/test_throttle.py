"""The network bot keeps to the server's rate limit, read from ``welcome.limits`` (protocol §14).

A fast table of six bots that act on every update (no think time) sends far
more than a person: against a server with a low rate limit, the bots hold
their actions back rather than be closed with ``rate_limited``.
"""

from __future__ import annotations

import asyncio
import dataclasses
import random

import pytest
from craits.server.app import Server, ServerConfig
from craits.server.bots.network.bot import BotClient, BotStats, connect_bot
from craits.server.bots.network.server_link import Throttle

pytestmark = pytest.mark.timeout(90)


async def test_six_fast_bots_keep_to_a_low_rate_limit(config: ServerConfig) -> None:
    rate, burst = 25.0, 12.0
    # a turn timeout: should a bot be closed, the server plays its seat and the game ends
    srv = Server(
        dataclasses.replace(config, rate=rate, burst=burst, heartbeat=2.0, turn_timeout=2.0)
    )
    await srv.start()
    stats = BotStats()
    bots = [
        BotClient(
            "fast",
            f"b{k}",
            think=0,
            create=6 if k == 0 else None,
            rules={"short_game": True},
            rng=random.Random(k),
            stats=stats,
        )
        for k in range(6)
    ]
    try:
        for bot in bots:
            await connect_bot("127.0.0.1", srv.port, bot)
            await asyncio.wait_for(bot.joined, 10)
        results = await asyncio.wait_for(
            asyncio.gather(*(b.done for b in bots), return_exceptions=True), 80
        )
    finally:
        for bot in bots:
            bot.close()
        await srv.stop()
    assert results == [0] * 6, results
    assert stats.dropped == 0 and "rate_limited" not in stats.errors, stats.errors
    assert all(b.view is not None and b.view["phase"] == "game_over" for b in bots)
    # the bots were held back: more moves than one bot may send in a second
    assert stats.moves > 2 * rate


def test_the_throttle_allows_a_share_of_the_rate_and_half_the_burst() -> None:
    t = Throttle()
    assert t.wait(0.0) == 0  # no limit known before the welcome
    t.spend(0.0)
    t.limit(rate=10, burst=8, now=0.0, spent=1)  # the hello was sent already
    sent = 0
    while t.wait(0.0) == 0:
        t.spend(0.0)
        sent += 1
    assert sent == 3  # half the burst, less the hello
    assert t.wait(0.0) == pytest.approx(1 / 9)  # 90 % of the rate
    # over ten seconds it keeps to 9 a second
    now, sent = 0.0, 0
    while now < 10:
        now += t.wait(now)
        t.spend(now)
        sent += 1
    assert 88 <= sent <= 92
    # a frame it could not hold back (a pong) makes the next one wait longer
    t.spend(now)
    assert t.wait(now) == pytest.approx(2 / 9)
