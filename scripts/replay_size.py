"""How large a ``replay`` message (protocol §7.3 ``get_replay``) gets: one hand's
frames, msgpack-encoded, for whole 15-hand games of random bots (the longest
hands: random bots draw and pass more than basic ones) and of basic bots, 2 to
8 players.

Usage: ``python scripts/replay_size.py [--games N] [--seed S]``. Prints, per
number of players and bot level: the largest and the mean hand's frames in one
message, in bytes (what an unpaged reply would weigh); the largest page the
server sends (at most :data:`craits.server.journal.replay_frames.PAGE` frames); the most
frames in one hand; the time to build a whole game's frames and one hand's (as
``get_replay`` does: the game replayed, one hand's frames made); and the
client's frame limit (1 MiB) for comparison.
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
from craits.server.journal.replay_frames import PAGE, hand_frames
from craits.server.table.fairness import RecordingShuffle, shuffle_entries
from craits.server.table.ports import Entry


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


def message(hand: int, offset: int, frames: list[Any]) -> dict[str, Any]:
    """A ``replay`` message holding ``frames``."""
    return {
        "type": ServerMessage.REPLAY,
        "game": 1,
        "hand": hand,
        "offset": offset,
        "total": len(frames),
        "frames": frames,
    }


def main() -> None:
    """Measure and print."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=3, help="games per row (default 3)")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    print(f"client frame limit: {MAX_SERVER_FRAME} bytes")
    print(
        "players level   largest-hand-bytes  mean-hand-bytes  largest-page-bytes"
        "  most-frames  build-ms/game  build-ms/hand"
    )
    for players in (2, 4, 8):
        for level in ("basic", "random"):
            sizes: list[int] = []
            pages: list[int] = []
            most = 0
            build = one = 0.0
            for g in range(args.games):
                log = game_log(players, level, args.seed * 1000 + g)
                start = time.perf_counter()
                hands = hand_frames(players, Rules(), log)
                build += time.perf_counter() - start
                longest = max(range(len(hands)), key=lambda i: len(hands[i])) + 1
                start = time.perf_counter()
                hand_frames(players, Rules(), log, only=longest)
                one += time.perf_counter() - start
                for n, frames in enumerate(hands, 1):
                    sizes.append(len(encode(message(n, 0, frames))))
                    for offset in range(0, len(frames), PAGE):
                        page = message(n, offset, frames[offset : offset + PAGE])
                        pages.append(len(encode(page)))
                    most = max(most, len(frames))
            print(
                f"{players:>7} {level:<7} {max(sizes):>18} {sum(sizes) // len(sizes):>16}"
                f" {max(pages):>19} {most:>12} {build / args.games * 1000:>14.0f}"
                f" {one / args.games * 1000:>14.0f}"
            )


if __name__ == "__main__":
    main()
