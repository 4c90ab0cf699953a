"""The post-game analysis from the command line (``docs/bots.md``, "Post-game analysis").

    python scripts/analyse_game.py GAME_ID [--data-dir DIR] [--json]
    python -m craits.server.bots.expert.analyse craits-game-12.json [--json]

:func:`analyse_main` reads a finished game's record — a record file
(``docs/records.md``; ``-`` reads standard input), or a game of the server's
journal by its id, through the ``load_game`` its caller gives (the bots stand
under the journal in the server's layers: they do not read it themselves;
``scripts/analyse_game.py`` gives one, and so will ``craits-server analyse``) —
and analyses it
(:func:`~.analysis.analyse`, in this process or over ``--workers`` worker
processes: the same result). It prints the analysis as text (:func:`render_text`:
each player's summary and costliest moments, then the marked decisions) or, with
``--json``, the analysis itself (``docs/bots.md`` gives its fields).

Exit status: 0 done; 1 the game cannot be analysed (no journal, no such game,
still in play, not a record, a log that does not replay); 2 a usage error;
130 interrupted.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import sys
import textwrap
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import Any

from .analysis import BUDGET, MARKS, VERSION, analyse

__all__ = [
    "EXIT_FAILED",
    "EXIT_INTERRUPTED",
    "EXIT_USAGE",
    "GameLoader",
    "RecordError",
    "StoredLoader",
    "analyse_main",
    "build_parser",
    "describe_action",
    "load_record",
    "render_text",
]

EXIT_FAILED = 1
EXIT_USAGE = 2
EXIT_INTERRUPTED = 130

PROG = "python -m craits.server.bots.expert.analyse"

_SUIT = {"S": "♠", "H": "♥", "D": "♦", "C": "♣"}


class RecordError(Exception):
    """The game asked for cannot be analysed: its message says why."""


GameLoader = Callable[[int, Path | None, bool], dict[str, Any]]
"""``load_game(game_id, data_dir, unfinished)``: game ``game_id``'s record from the
server's journal in ``data_dir`` (None: the server's own setting), as ``craits-server
export`` builds it; a game still in play only with ``unfinished``. Raises
:class:`RecordError` (no journal, no such game, still in play, a log that does not
replay)."""

StoredLoader = Callable[[int, Path | None], dict[str, Any] | None]
"""``load_stored(game_id, data_dir)``: game ``game_id``'s analysis as the server
stored it in its journal in ``data_dir`` (``docs/bots.md``, "Analysed after every
game"), or None: none stored, or it cannot be read (then it is judged here)."""


def build_parser(prog: str = PROG, epilog: str | None = None) -> argparse.ArgumentParser:
    """The command line of the analysis (``prog``: the name it is called by; ``epilog``:
    what its caller adds to ``--help``)."""
    p = argparse.ArgumentParser(
        prog=prog,
        epilog=epilog,
        description="Analyse a finished game: every decision of every player judged by "
        "the expert bot from that player's view then, marked like a chess site's "
        "(inaccuracy, mistake, blunder), and each player's summary.",
    )
    p.add_argument(
        "record",
        help="a game id of the server's journal (in --data-dir), or a game record file "
        "(craits-server export's JSON; '-' reads standard input)",
    )
    p.add_argument(
        "--data-dir",
        type=Path,
        default=None,
        help="the server's data directory, for a game id (default: the server's own)",
    )
    p.add_argument("--json", action="store_true", help="print the analysis as JSON")
    p.add_argument(
        "--all", action="store_true", help="list every decision, not only the marked ones"
    )
    p.add_argument("--seed", type=int, default=0, help="the seed of the worlds sampled (default 0)")
    p.add_argument(
        "--budget",
        type=int,
        default=BUDGET,
        help=f"simulated actions per decision (default {BUDGET})",
    )
    p.add_argument(
        "--workers",
        type=int,
        default=1,
        help="worker processes to judge in (default 1: this process); the result is the same",
    )
    p.add_argument(
        "--unfinished", action="store_true", help="analyse a game still in play as it stands"
    )
    return p


def _from_file(path: str, unfinished: bool) -> dict[str, Any]:
    try:
        text = sys.stdin.read() if path == "-" else Path(path).read_text(encoding="utf-8")
        record = json.loads(text)
    except (OSError, UnicodeDecodeError, ValueError) as exc:
        raise RecordError(f"cannot read a record from {path}: {exc}") from None
    if not isinstance(record, dict) or record.get("format", "craits-record") != "craits-record":
        raise RecordError(f"{path} is not a game record (docs/records.md)")
    if "finished" in record and record["finished"] is None and not unfinished:
        raise RecordError(f"{path} is a game still in play (--unfinished analyses it as it stands)")
    return record


def load_record(
    source: str,
    data_dir: Path | None = None,
    unfinished: bool = False,
    load_game: GameLoader | None = None,
) -> dict[str, Any]:
    """The record to analyse: ``source`` a game id, read by ``load_game`` from the
    journal in ``data_dir``; else a record file's path (``-``: standard input).

    Raises:
        RecordError: a file that is no record, a game still in play (unless
            ``unfinished``), a game id with no ``load_game``, or what ``load_game``
            raised (no journal, no such game); the message says which.
    """
    if source.isdigit():
        if load_game is None:
            raise RecordError(
                f"{source}: a game id is read from the server's journal by "
                "scripts/analyse_game.py (or craits-server analyse); give a record file "
                "(craits-server export writes them)"
            )
        return load_game(int(source), data_dir, unfinished)
    return _from_file(source, unfinished)


def _card(code: str) -> str:
    rank = "10" if code[0] == "T" else code[0]
    return rank + _SUIT.get(code[1], code[1])


def describe_action(
    action: Mapping[str, Any] | None, kind: str = "play", target: int | None = None
) -> str:
    """An action of a record (protocol §6) in a few words, e.g. ``"8♠ naming ♥, one
    card"``; None is the call not made (``idiot``) or "one card" not said."""
    if action is None:
        return "no call" if kind == "idiot" else 'silent (no "one card")'
    if "play" in action:
        words = _card(str(action["play"]))
        if action.get("suit") is not None:
            words += f" naming {_SUIT.get(action['suit'], action['suit'])}"
        if action.get("announce"):
            words += ', "one card"'
        return words
    if "name_suit" in action:
        return f"name {_SUIT.get(action['name_suit'], action['name_suit'])}"
    if "idiot" in action:
        return f"call idiot on seat {action['idiot']}"
    if action.get("announce"):
        return 'say "one card"'
    if "draw" in action:
        return "take the count" if kind == "count" else "draw"
    if "pass" in action:
        return "keep the drawn card"
    return json.dumps(dict(action))


def _name(players: Sequence[str], seat: int) -> str:
    return players[seat] if 0 <= seat < len(players) else f"seat {seat}"


def _decision_lines(e: Mapping[str, Any], players: Sequence[str]) -> list[str]:
    """A decision in one line (no points lost) or two (the expert's move and the points)."""
    kind, target = e["kind"], e.get("target")
    played = describe_action(e["played"], kind, target)
    late = " (said late)" if e.get("late") else ""
    who = _name(players, e["seat"])
    head = f"hand {e['hand']:2} move {e['move']:3}  {who}, {kind}: {played}{late}"
    if e["played"] == e["expert"]:
        return [f"{head}  (the expert's choice)"]
    if e["lost"] == 0:
        return [f"{head}  (no points lost)"]
    se = "" if e["se"] is None else f" ± {e['se']:.1f}"
    mark = f"{e['mark'].upper()}: " if e["mark"] else ""
    expert = describe_action(e["expert"], kind, target)
    return [
        f"{head}  {mark}{e['lost']:.1f}{se} points lost",
        f"    the expert: {expert}; expected points {e['points']:.1f} against "
        f"{e['expert_points']:.1f}",
    ]


def render_text(analysis: Mapping[str, Any], record: Mapping[str, Any], every: bool = False) -> str:
    """The analysis for a reader: who played, the marks' thresholds, each player's
    summary and costliest three moments, then the marked decisions (``every``: all)."""
    players = [str(p) for p in record.get("players", [])]
    decisions = analysis["decisions"]
    by_index = {e["index"]: e for e in decisions}
    hands = max((e["hand"] for e in decisions), default=0)
    t = analysis["thresholds"]
    intro = (
        f"Game {analysis['game']}"
        + (f" at table {record['table']!r}" if record.get("table") else "")
        + f": {len(players)} players, {hands} hands, {len(decisions)} decisions judged "
        f"by the expert (seed {analysis['seed']}, {analysis['budget']:,} simulated actions each)."
    )
    legend = (
        "Points are the player's expected points at the end of the hand (low is good). "
        f"Marks: inaccuracy from {t['inaccuracy']:g} points lost, mistake from "
        f"{t['mistake']:g}, blunder from {t['blunder']:g} (and over {t['z']:g} "
        "standard errors)."
    )
    out = [
        *textwrap.wrap(intro, 79),
        *textwrap.wrap(legend, 79),
        "",
        f"{'seat':>4}  {'player':<12} {'decisions':>9} {'lost':>7} {'lost/dec':>8} "
        f"{'inaccuracies':>12} {'mistakes':>8} {'blunders':>8}",
    ]
    for s in analysis["players"]:
        out.append(
            f"{s['seat']:>4}  {s['name'][:12]:<12} {s['decisions']:>9} {s['lost']:>7.1f} "
            f"{s['average_lost']:>8.2f} {s['inaccuracies']:>12} {s['mistakes']:>8} "
            f"{s['blunders']:>8}"
        )
    for s in analysis["players"]:
        if s["costliest"]:
            out += ["", f"{s['name']}'s costliest moments:"]
            for i in s["costliest"]:
                out += ["  " + line for line in _decision_lines(by_index[i], players)]
    shown = [e for e in decisions if every or e["mark"] in MARKS]
    title = "Every decision:" if every else "Marked decisions:"
    out += ["", title if shown else "No decision marked."]
    for e in shown:
        out += ["  " + line for line in _decision_lines(e, players)]
    return "\n".join(out) + "\n"


def _progress(done: int, total: int) -> None:
    print(f"\ranalysing: {done}/{total} decisions", end="", file=sys.stderr, flush=True)
    if done == total:
        print(file=sys.stderr)


def _run(record: dict[str, Any], args: argparse.Namespace) -> dict[str, Any]:
    progress = _progress if sys.stderr.isatty() else None
    if args.workers <= 1:
        return analyse(record, args.seed, args.budget, progress)
    from .worker import ExpertPool  # the pool only when asked: its processes start on use

    pool = ExpertPool(workers=args.workers, nice=0)
    try:
        return asyncio.run(pool.analyse(record, args.seed, args.budget, progress))
    finally:
        pool.close()


def _stored(args: argparse.Namespace, load_stored: StoredLoader | None) -> dict[str, Any] | None:
    """The stored analysis of the game id ``args`` names, if it is the one asked
    for (same seed, budget and version), else None."""
    if load_stored is None or not args.record.isdigit():
        return None
    found = load_stored(int(args.record), args.data_dir)
    if found is None:
        return None
    same = (found.get("seed"), found.get("budget"), found.get("version"))
    return found if same == (args.seed, args.budget, VERSION) else None


def analyse_main(
    argv: Sequence[str] | None = None,
    prog: str = PROG,
    load_game: GameLoader | None = None,
    epilog: str | None = None,
    load_stored: StoredLoader | None = None,
) -> int:
    """The command: analyse the game ``argv`` names and print it (see the module's
    text), a game id read by ``load_game``; ``epilog`` ends ``--help``. A game
    whose analysis ``load_stored`` finds, made with the same seed, budget and
    version, is printed from it, not judged again (the very same result).
    Returns the exit status. Errors are one line on standard error."""
    args = build_parser(prog, epilog).parse_args(argv)
    if args.budget < 1 or args.workers < 1:
        print(f"{prog}: --budget and --workers must be at least 1", file=sys.stderr)
        return EXIT_USAGE
    try:
        record = load_record(args.record, args.data_dir, args.unfinished, load_game)
        result = _stored(args, load_stored) or _run(record, args)
    except RecordError as exc:
        print(f"{prog}: {exc}", file=sys.stderr)
        return EXIT_FAILED
    except ValueError as exc:  # not a record, or its log does not replay
        print(f"{prog}: cannot analyse {args.record}: {exc}", file=sys.stderr)
        return EXIT_FAILED
    except KeyboardInterrupt:
        print(f"\n{prog}: interrupted", file=sys.stderr)
        return EXIT_INTERRUPTED
    if args.json:
        print(json.dumps(result, indent=1))
    else:
        print(render_text(result, record, args.all), end="")
    return 0


def main() -> None:
    """``python -m craits.server.bots.expert.analyse``."""
    sys.exit(analyse_main())


if __name__ == "__main__":
    main()
