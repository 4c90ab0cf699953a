"""Loading positions in the vector format (``shared/vectors/README.md``).

A position is a whole state of a hand in play: enough to save, restore and
share any moment of a game (bug reports, tests, the server's journal).
Exporting is :meth:`craits.server.engine.game.Game.to_position`.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from .cards import is_card, is_suit

if TYPE_CHECKING:
    from .game import Game, ShuffleSource
    from .rules import Rules

FIELDS = frozenset(
    {
        "players",
        "hand_number",
        "dealer",
        "direction",
        "turn",
        "hands",
        "stock",
        "discard",
        "suit",
        "count",
        "again",
        "scores",
        "pressure",
        "lost_turns",
        "unannounced",
        "jacks",
        "king_cards",
        "pending",
        "drawn",
    }
)
"""Every field of a position."""


def _int(pos: dict[str, Any], key: str, default: int | None, lo: int, hi: int) -> int:
    value = pos.get(key, default)
    if value is None:
        raise ValueError(f"position needs {key!r}")
    if isinstance(value, bool) or not isinstance(value, int) or not lo <= value <= hi:
        raise ValueError(f"position field {key!r} must be an integer {lo}..{hi}, not {value!r}")
    return value


def _cards(value: Any, key: str) -> list[str]:
    if not isinstance(value, list):
        raise ValueError(f"position field {key!r} must be a list of cards")
    for card in value:
        if not is_card(card):
            raise ValueError(f"position field {key!r} holds {card!r}, not a card code")
    return list(value)


def _ints(pos: dict[str, Any], key: str, n: int, lo: int = 0) -> list[int]:
    value = pos.get(key)
    if value is None:
        return [0] * n
    if not isinstance(value, list) or len(value) != n:
        raise ValueError(f"position field {key!r} must list {n} integers")
    for v in value:
        if isinstance(v, bool) or not isinstance(v, int) or v < lo:
            raise ValueError(f"position field {key!r} holds {v!r}, not an integer >= {lo}")
    return list(value)


def load_position(
    cls: type[Game], pos: dict[str, Any], rules: Rules | None, rng: ShuffleSource | None
) -> Game:
    """Build a :class:`Game` of class ``cls`` in play at position ``pos``.

    Fields left out take the README's defaults: ``hand_number`` 1, ``dealer`` 0,
    ``direction`` 1, ``count`` 0, ``again`` false, zero scores, pressure and
    lost turns, no ``unannounced``, ``pending`` and ``drawn`` null, ``jacks``
    and ``king_cards`` 0, ``suit`` the top card's.

    Raises:
        ValueError: an unknown field, a missing required one (``players``,
            ``turn``, ``hands``, ``discard``), or a value of the wrong type or
            out of range.
    """
    if not isinstance(pos, dict):
        raise ValueError("a position is a map of fields")
    unknown = set(pos) - FIELDS
    if unknown:
        raise ValueError(f"unknown position field(s): {', '.join(sorted(map(str, unknown)))}")
    n = _int(pos, "players", None, 2, 8)
    game = cls(n, rules, rng)
    game.hand_number = _int(pos, "hand_number", 1, 1, 15)
    game.dealer = _int(pos, "dealer", 0, 0, n - 1)
    direction = pos.get("direction", 1)
    if type(direction) is not int or direction not in (1, -1):
        raise ValueError("position field 'direction' must be 1 or -1")
    game.direction = direction
    game.turn = _int(pos, "turn", None, 0, n - 1)
    hands = pos.get("hands")
    if not isinstance(hands, list) or len(hands) != n:
        raise ValueError(f"position field 'hands' must list {n} hands")
    game.hands = [_cards(h, "hands") for h in hands]
    game.stock = _cards(pos.get("stock", []), "stock")[::-1]
    game.discard = _cards(pos.get("discard"), "discard")
    if not game.discard:
        raise ValueError("position field 'discard' needs at least the top card")
    suit = pos.get("suit", game.discard[-1][1])
    if not is_suit(suit):
        raise ValueError(f"position field 'suit' must be S, H, D or C, not {suit!r}")
    game.suit = suit
    game.count = _int(pos, "count", 0, 0, 10_000)
    again = pos.get("again", False)
    if not isinstance(again, bool):
        raise ValueError("position field 'again' must be true or false")
    game.again = again
    game.scores = _ints(pos, "scores", n, lo=-(10**18))
    game.pressure = _ints(pos, "pressure", n)
    game.lost_turns = _ints(pos, "lost_turns", n)
    unannounced = pos.get("unannounced") or []
    if not isinstance(unannounced, list) or any(
        isinstance(s, bool) or not isinstance(s, int) or not 0 <= s < n for s in unannounced
    ):
        raise ValueError("position field 'unannounced' must list seats")
    game.unannounced = sorted(set(unannounced))
    game.jacks = _int(pos, "jacks", 0, 0, 10_000)
    game.king_cards = _int(pos, "king_cards", 0, 0, 3)
    pending = pos.get("pending")
    if pending is not None:
        if not isinstance(pending, dict) or set(pending) != {"name_suit"}:
            raise ValueError("position field 'pending' must be null or {'name_suit': seat}")
        game.pending = _int(pending, "name_suit", None, 0, n - 1)
    drawn = pos.get("drawn")
    if drawn is not None and (not is_card(drawn) or drawn not in game.hands[game.turn]):
        raise ValueError("position field 'drawn' must be null or a card in the hand of the turn")
    game.drawn = drawn
    game.phase = "play"
    return game
