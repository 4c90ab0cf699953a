"""The post-game analysis in the replay viewer (protocol §7.6): ``craits-client HOST
--replay-game N`` asks the server for the game's analysis (waiting while the server
judges it, at once once it keeps it), and the viewer marks each marked decision
beside its move (``?!``, ``?``, ``??`` and the points lost); ``m`` goes from mark to
mark, in order, and is hidden without an analysis.
"""

from __future__ import annotations

import pytest
from craits.client.core.analysisfetch import fetch_analysis
from craits.client.present.replay_marks import SYMBOLS
from craits.client.tui.replay_app import ReplayApp
from craits.protocol.client import ConnectError
from craits.server.app import Server
from craits.server.bots.expert.analysis import Thresholds, mark

from tests.support.client import footer_keys, screen_text
from tests.support.replays import WatchedGame, quick_config

pytestmark = pytest.mark.timeout(900)  # an analysis in the server's worker processes


async def test_the_replay_marks_the_decisions_the_analysis_marked(watched: WatchedGame) -> None:
    srv = Server(quick_config(watched.data))  # the shipped analysis (its budget, its pool)
    await srv.start()
    try:
        told: list[tuple[int, int]] = []
        analysis = await fetch_analysis(
            "127.0.0.1", srv.port, "Rae", 1, 600, on_running=lambda d, t: told.append((d, t))
        )
        assert told  # the first time, the server was analysing it
        assert analysis["format"] == "craits-analysis" and analysis["game"] == 1
        told.clear()
        again = await fetch_analysis("127.0.0.1", srv.port, "Rae", 1, 30, on_running=told.append)
        assert again == analysis and not told  # kept: at once
        with pytest.raises(ConnectError, match="no finished game 9"):
            await fetch_analysis("127.0.0.1", srv.port, "Rae", 9, 30)
    finally:
        await srv.stop()

    # The shipped marks ask a loss of 4 standard errors: a short game of random moves
    # may have none. The viewer is shown this game's decisions marked again at looser
    # thresholds (analysis.mark, as a later revision may choose), so it has some.
    loose = Thresholds(inaccuracy=1.0, mistake=5.0, blunder=10.0, z=0.0)
    decisions = [
        {**e, "mark": mark(e["lost"], e["se"] or 0.0, loose) if e["lost"] else None}
        for e in analysis["decisions"]
    ]
    analysis = {**analysis, "decisions": decisions}
    marked = [e for e in decisions if e["mark"] in SYMBOLS]
    assert marked, decisions  # Ana plays random moves: she loses points somewhere
    places = sorted({(e["hand"] - 1, e["move"] + 1) for e in marked})
    app = ReplayApp(watched.record, ascii=True, analysis=analysis)
    async with app.run_test(size=(120, 40)) as pilot:
        assert "m Next mark" in await footer_keys(pilot, app)
        replay = app.replay
        assert replay is not None
        for place in places:
            await pilot.press("m")
            await pilot.pause()
            assert replay.step_place == place
            text = screen_text(app)
            for e in (e for e in marked if (e["hand"] - 1, e["move"] + 1) == place):
                who = replay.model.name_of(e["seat"])
                said = f"{SYMBOLS[e['mark']]} {e['mark']} - {who} lost {e['lost']:.1f} points"
                assert said in text, (said, text)
        await pilot.press("m")  # no more marks: it stays
        await pilot.pause()
        assert replay.step_place == places[-1]

    plain = ReplayApp(watched.record, ascii=True)
    async with plain.run_test(size=(120, 40)) as pilot:
        assert "m Next mark" not in await footer_keys(pilot, plain)
