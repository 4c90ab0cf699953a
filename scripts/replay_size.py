"""How large a ``replay`` message (protocol §7.3 ``get_replay``) gets: one hand's
frames, msgpack-encoded, for games of random bots (the longest hands: random
bots draw and pass more than basic ones) and of basic bots, 2 to 8 players.

Usage: ``python scripts/replay_size.py [--games N] [--seed S]``. Prints, per
number of players and bot level, the largest and the mean ``replay`` body in
bytes, the most frames in one hand, and the time the server takes to build a
whole game's frames; and the client's frame limit (1 MiB) for comparison.
"""

from __future__ import annotations

import argparse
import random
import time
from typing import Any

from craits.protocol.vocab import LogEntryKind, Phase, ServerMessage
from craits.protocol.wire import MAX_SERVER_FRAME, encode
from craits.server.bots import choose
from craits.server.engine import Game, Rules, action_from_dict, view
from craits.server.fairness import RecordingShuffle, shuffle_entries
from craits.server.records import Entry
from craits.server.replay import hand_frames


def game_log(players: int, level: str, seed: int) -> list[Entry]:
    """A whole game's log (records.md, "The log") between bots of ``level``."""
    rng = random.Random(seed)
    source = RecordingShuffle(random.Random(seed))
    game, _ = Game.start(players, Rules(), source)
    log: list[Entry] = [*shuffle_entries(source.take()), (LogEntryKind.START, {})]
    while True:
        while game.phase == Phase.PLAY:
            seat = game.to_act
            assert seat is not None
            action = choose(level, view(game, seat), rng)
            assert action is not None
            game.apply(action_from_dict(action, seat))
            log += shuffle_entries(source.take())
            log.append((LogEntryKind.ACTION, {"seat": seat, "id": None, "action": action}))
        if game.phase == Phase.GAME_OVER:
            return log
        game.next_hand()
        log += shuffle_entries(source.take())
        log.append((LogEntryKind.NEXT_HAND, {}))


def main() -> None:
    """Measure and print."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=3, help="games per row (default 3)")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    print(f"client frame limit: {MAX_SERVER_FRAME} bytes")
    print("players level   largest-hand-bytes  mean-hand-bytes  most-frames  build-ms/game")
    for players in (2, 4, 8):
        for level in ("basic", "random"):
            sizes: list[int] = []
            most = 0
            build = 0.0
            for g in range(args.games):
                log = game_log(players, level, args.seed * 1000 + g)
                start = time.perf_counter()
                hands = hand_frames(players, Rules(), log)
                build += time.perf_counter() - start
                for n, frames in enumerate(hands, 1):
                    msg: dict[str, Any] = {
                        "type": ServerMessage.REPLAY,
                        "game": 1,
                        "hand": n,
                        "frames": frames,
                    }
                    sizes.append(len(encode(msg)))
                    most = max(most, len(frames))
            print(
                f"{players:>7} {level:<7} {max(sizes):>18} {sum(sizes) // len(sizes):>16}"
                f" {most:>12} {build / args.games * 1000:>14.0f}"
            )


if __name__ == "__main__":
    main()
