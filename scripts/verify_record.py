#!/usr/bin/env python3
"""Check a Craits game record: every shuffle against its published SHA-256
commitment, and a replay of the whole game to the recorded hands and scores;
and, given the commitments a client received during play, the record against
what was really published.

Usage: ``python scripts/verify_record.py [--commitments C | --saved | --saved-in DIR]
FILE [FILE...]``.
Prints one line per record (``OK`` or the problems) and exits 1 if any record
fails. ``--commitments C`` checks one record against the commitments in ``C``
(a file the client saved, or a JSON list of SHA-256 hex digests);
``--saved`` checks each record against the files the client saved for its
game (``craits.client.core.saved.commitments``) in the client's state directory
(``--saved-in DIR``: in ``DIR``). See ``docs/records.md``.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

from craits.client.core.saved.commitments import GameCommitments, default_root, find_saved, read
from craits.protocol.vocab import AbandonReason
from craits.server.journal.records import check_published, verify_record


def build_parser() -> argparse.ArgumentParser:
    """The command line of the verifier."""
    p = argparse.ArgumentParser(
        prog="verify_record.py",
        description="Check Craits game records (craits-server export): every shuffle "
        "against its SHA-256 commitment, and a replay of the game to the recorded "
        "hands and scores. One line per record, OK or what failed; exit status 1 "
        "if any record fails. A record whose deals were changed and whose "
        "commitments were all computed again passes these checks: check it against "
        "the commitments received during play (--commitments, --saved) to catch it.",
    )
    p.add_argument("files", metavar="FILE", nargs="+", help="a game record (JSON)")
    given = p.add_mutually_exclusive_group()
    given.add_argument(
        "--commitments",
        metavar="C",
        type=Path,
        help="check the record (one FILE) against these commitments received during "
        "play: a file craits-client saved (commitments/SERVER/game-ID.json in its state "
        "directory), or a JSON list of SHA-256 hex digests in the order received",
    )
    given.add_argument(
        "--saved",
        action="store_true",
        help="check each record against the commitments craits-client saved for its "
        f"game and table (in {default_root()}; --saved-in names another folder)",
    )
    given.add_argument(
        "--saved-in",
        metavar="DIR",
        type=Path,
        default=None,
        help="as --saved, with the commitments saved in DIR",
    )
    return p


ABANDONED: dict[str | None, str] = {
    AbandonReason.NOBODY_CONNECTED: "nobody was connected",
    AbandonReason.NOBODY_PLAYING: "nobody was playing",
    AbandonReason.CLOSED_BY_CREATOR: "its creator closed the table",
}
"""Each reason a record's ``abandoned`` gives, in words (``docs/records.md``)."""


def summary(record: dict[str, Any]) -> str:
    """What a sound record holds, for its OK line."""
    count = len(record["hands"])
    hands = f"{count} hand" if count == 1 else f"{count} hands"
    if not record.get("complete"):
        why = ABANDONED.get(record.get("abandoned"))
        if why is not None:
            return f"{hands}, abandoned: {why} (no final standings)"
        return f"{hands}, unfinished (no final standings)"
    players = record.get("players") or []
    names = [
        players[w] if isinstance(w, int) and 0 <= w < len(players) else str(w)
        for w in record["winners"]
    ]
    return f"{hands}, won by {', '.join(names)}"


def given_commitments(path: Path, record: dict[str, Any]) -> tuple[list[str], list[str]]:
    """The commitments in ``path`` for ``record``: ``(commitments, problems)``.

    Raises:
        OSError, ValueError: the file cannot be read, or holds neither form.
    """
    kept = read(path)
    if kept is not None:
        if (kept.game, kept.table) != (record.get("game"), record.get("table")):
            return [], [f"{path} holds the commitments of game {kept.game} at {kept.table!r}"]
        return kept.commitments, []
    data = json.loads(path.read_text(encoding="utf-8"))
    if not isinstance(data, list):
        raise ValueError(f"{path}: not a list of commitments")
    return [str(c["sha256"] if isinstance(c, dict) else c) for c in data], []


def saved_commitments(root: Path, record: dict[str, Any]) -> tuple[list[str], list[str], str]:
    """The commitments the client saved under ``root`` for ``record``'s game:
    ``(commitments, problems, where)``. Files of the same game id and table
    from another server share no commitment with the record: with none
    sharing one, that is a problem (a forged record changes them all)."""
    game, table = record.get("game"), record.get("table")
    if not isinstance(game, int) or not isinstance(table, str):
        return [], [], ""
    found: list[tuple[Path, GameCommitments]] = find_saved(root, game, table)
    if not found:
        return [], [], f"no commitments saved for game {game} in {root}"
    recorded = {d.get("sha256") for k, d in record.get("log", []) if k == "shuffle"}
    mine = [(p, kept) for p, kept in found if recorded & set(kept.commitments)]
    if not mine:
        paths = ", ".join(str(p) for p, _ in found)
        return [], [f"not one commitment saved for this game ({paths}) is in the record"], ""
    path, kept = mine[0]
    return kept.commitments, [], str(path)


def check(path: str, args: argparse.Namespace) -> tuple[list[str], str]:
    """Check one record file: ``(problems, the OK line's words)``."""
    try:
        with open(path, encoding="utf-8") as f:
            record = json.load(f)
        if not isinstance(record, dict):
            return ["not a Craits record (not a JSON object)"], ""
        problems = verify_record(record)
        published: list[str] = []
        where = ""
        if args.commitments is not None:
            published, more = given_commitments(args.commitments, record)
            problems += more
            where = str(args.commitments)
        elif args.saved or args.saved_in is not None:
            root = args.saved_in if args.saved_in is not None else default_root()
            published, more, where = saved_commitments(root, record)
            problems += more
    except (OSError, ValueError, KeyError, TypeError) as exc:
        return [f"cannot read: {exc}"], ""
    if published:
        problems += check_published(record, published)
    if problems:
        return problems, ""
    words = summary(record)
    if published:
        words += f"; it holds the {len(published)} commitments received during play ({where})"
    elif where:
        words += f"; {where}"
    return [], words


def main(argv: list[str] | None = None) -> int:
    """Verify each record file; return the exit status."""
    parser = build_parser()
    args = parser.parse_args(argv)
    if args.commitments is not None and len(args.files) != 1:
        parser.error("--commitments checks one record: give one FILE")
    failed = 0
    for path in args.files:
        problems, words = check(path, args)
        if problems:
            failed += 1
            print(f"FAIL {path}: {'; '.join(problems)}")
        else:
            print(f"OK {path}: {words}")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
