#!/usr/bin/env python3
"""Decoding cost of typical client frames: ``craits.protocol.wire.decode``, ns per frame.

Times the server's decode of the frames a client sends most (``ping``,
``pong``, ``act``, ``chat``, ``create_table``), each ``--number`` times per
round, for ``--rounds`` rounds; prints the best and the median round per
frame. It measures the ``craits`` its interpreter imports, so a second
checkout's interpreter gives the figures of that checkout: run both, turn
about, to compare.

Example::

    python scripts/bench_decode.py --rounds 15
"""

from __future__ import annotations

import argparse
import json
import statistics
import timeit

from craits.protocol.wire import decode, encode

FRAMES = {
    "ping": {"type": "ping", "nonce": 12345},
    "pong": {"type": "pong"},
    "act": {"type": "act", "id": 1_700_000_000_123_456, "action": {"play": "8S", "suit": "D"}},
    "act+seq": {"type": "act", "id": 17, "action": {"draw": True}, "seq": 1234},
    "chat": {"type": "chat", "text": "good game, well played " * 4},
    "create_table": {
        "type": "create_table",
        "name": "evening",
        "seats": 6,
        "rules": {"short_game": True, "face_cards": True, "cancelling_three_scores": 0},
    },
}


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--rounds", type=int, default=11)
    p.add_argument("--number", type=int, default=50_000)
    p.add_argument("--json", action="store_true")
    args = p.parse_args()
    bodies = {k: encode(m)[4:] for k, m in FRAMES.items()}
    times: dict[str, list[float]] = {k: [] for k in bodies}
    for _ in range(args.rounds):
        for k, body in bodies.items():
            t = timeit.timeit(lambda body=body: decode(body), number=args.number)  # type: ignore[misc]
            times[k].append(1e9 * t / args.number)
    result = {k: {"best": min(v), "median": statistics.median(v)} for k, v in times.items()}
    if args.json:
        print(json.dumps(result))
        return
    for k, r in result.items():
        print(f"{k:13} best {r['best']:6.0f} ns   median {r['median']:6.0f} ns")


if __name__ == "__main__":
    main()
