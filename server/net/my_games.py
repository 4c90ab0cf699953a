"""What the server does with ``my_games`` (protocol §11.11, issue 27): every
table where the asker holds a seat, whose turn it is and the time left, the
asker's turns first.

The seats are proved by their resume tokens, which the client holds (a
guest's, on the device that holds them); tokens never leave this module, are
never logged, and one that proves nothing (unknown, revoked, of a table set
aside) is left out without a word, as if never sent. Accounts (issue 26) add
the seats a connection's account holds through :func:`account_seats`.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from craits.protocol.types import GamesMsg, MyGame, MyGamesMsg
from craits.protocol.vocab import Phase, ServerMessage

from ..errors import TableError

if TYPE_CHECKING:
    from ..table.actor import Table
    from .connection import Client


def account_seats(client: Client) -> list[tuple[Table, int]]:
    """The seats the connection's account holds, beside those its tokens
    prove: none yet. The hook for accounts (``docs/accounts.md``): once a
    connection is logged in, return here each ``(table, seat)`` its account
    sits at, and ``my_games`` lists them with the rest."""
    return []


def seats_of(client: Client, tokens: list[str]) -> list[tuple[Table, int]]:
    """The seats ``tokens`` hold on this server, and the connection's
    account's (:func:`account_seats`), each once. A token held by a table on
    another node of a cluster is not listed (the node's lobby copy holds no
    tokens)."""
    found: dict[tuple[str, int], tuple[Table, int]] = {}
    server = client.server
    for token in tokens:
        try:
            held = server.find_token(token)
        except TableError:  # revoked, or its table set aside: it proves nothing
            continue
        if held is not None:
            found.setdefault((held[0].name, held[1]), held)
    for table, seat in account_seats(client):
        found.setdefault((table.name, seat), (table, seat))
    return list(found.values())


def entry(table: Table, seat: int) -> MyGame:
    """``seat`` at ``table`` as ``my_games`` lists it (protocol §11.11)."""
    game = table.game
    to_act = game.to_act if game is not None and game.phase == Phase.PLAY else None
    if not table.status.playing:
        to_act = None
    seats = table.seats
    running = to_act is not None and table.status.moving()  # no clock runs on hold (§11.4)
    listed: MyGame = {
        "table": table.name,
        "seat": seat,
        "name": seats[seat].name,
        "state": table.status.state,
        "to_act": to_act,
        "to_act_name": seats[to_act].name if to_act is not None else None,
        "your_turn": to_act == seat,
        "deadline_ms": table.clock.deadline_ms() if running else None,
        "deadline_at_ms": table.clock.deadline_at_ms() if running else None,
        "hand_number": game.hand_number if game is not None else 0,
        "on_hold": table.status.on_hold(),
    }
    if table.config.correspondence > 0:
        listed["correspondence_ms"] = round(table.config.correspondence * 1000)
    return listed


def _order(game: MyGame) -> tuple[bool, bool, int, str]:
    """The asker's turns first, the soonest due first; then the rest by name."""
    left = game["deadline_ms"]
    return (not game["your_turn"], left is None, left or 0, game["table"])


def on_my_games(client: Client, msg: MyGamesMsg) -> None:
    """Answer ``my_games`` with ``games``: every seat the asker holds, its
    turns first (protocol §11.11)."""
    games = [entry(table, seat) for table, seat in seats_of(client, msg.get("tokens", []))]
    games.sort(key=_order)
    reply: GamesMsg = {"type": ServerMessage.GAMES, "games": games}
    client.send(reply)
