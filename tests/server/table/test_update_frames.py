"""Updates encoded by parts (``UpdateFrames``) carry exactly what each
recipient may see: the same map as encoding ``view``/``event_dict_for`` per
seat (the one filtering place, docs/protocol.md §7–§9)."""

from __future__ import annotations

import random

import pytest
from craits.protocol.wire import MAX_SERVER_FRAME, decode
from craits.server.engine import Game, Moment, Rules, event_dict_for, view
from craits.server.table.broadcast import UpdateFrames


@pytest.mark.parametrize(
    ("players", "options", "seed"),
    [(2, {}, 1), (4, {"play_drawn_card": True}, 2), (8, {"face_cards": True}, 3)],
)
def test_every_frame_decodes_to_that_recipients_view_and_events(
    players: int, options: dict[str, bool], seed: int
) -> None:
    rng = random.Random(seed)
    game, events = Game.start(players, Rules.from_dict(options), rng)
    kinds: set[str] = set()
    for step in range(1500):
        head = {"type": "update", "table": "t", "seq": step, "deadline_ms": step or None}
        if step % 7 == 0:
            head["notice"] = {"kind": "timeout", "seat": 0, "name": "Ana"}
        frames = UpdateFrames(Moment(game, events), head)
        for seat in [*range(players), None]:
            framed = frames.frame(seat)
            assert int.from_bytes(framed[:4], "big") == len(framed) - 4
            got = decode(framed[4:], MAX_SERVER_FRAME, depth=16)
            want = {
                **head,
                "events": [event_dict_for(e, seat) for e in events],
                "view": view(game, seat),
            }
            assert got == want, (step, seat)
        kinds.update(type(e).__name__ for e in events)
        if game.phase == "game_over":
            game, events = Game.start(players, Rules.from_dict(options), rng)
        elif game.phase == "hand_over":
            events = game.next_hand()
        else:
            events = game.apply(rng.choice(game.legal_actions()))
    # deals and draws (seen differently from seat to seat) were among them
    assert {"Dealt", "Drew", "Played", "HandEnded"} <= kinds, kinds
