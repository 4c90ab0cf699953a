"""The table as sentences, asked for: the player's hand, the table (top card, suit to
follow, the count, each seat's cards, whose turn), the scores, and the player's
choices as a numbered list. Every sentence is translated (:mod:`craits.protocol.i18n`);
the server's ``view.legal`` alone says what may be done (protocol §8).
"""

from __future__ import annotations

from craits.protocol.actions import Action, Announce, CallIdiot, Draw, NameSuit, Pass, Play
from craits.protocol.i18n import LazyString, _, _l, ngettext, pgettext
from craits.protocol.vocab import TableState
from craits.protocol.words import (
    CLOCKWISE,
    COUNTER_CLOCKWISE,
    card_name,
    count_cards,
    count_points,
    suit_name,
)

from ..core.model import TableModel, sort_key
from .sentences import cards_in_words


def choices(model: TableModel) -> list[Action]:
    """The player's legal actions, as offered: a play that may carry the "one card"
    announcement offered only with it (who would leave it out?)."""
    legal = model.legal
    announced = {(a.card, a.suit) for a in legal if isinstance(a, Play) and a.announce}
    return [
        a
        for a in legal
        if not (isinstance(a, Play) and not a.announce and (a.card, a.suit) in announced)
    ]


def separator() -> str:
    """What stands between the items of a list of phrases ("; "; in Greek "· ", since
    ";" is its question mark)."""
    # TRANSLATORS: between the items of a spoken list of phrases, e.g. the numbered choices
    return pgettext("list separator", "; ")


def choices_or_none(model: TableModel | None) -> list[Action]:
    """:func:`choices`, none without a table."""
    return [] if model is None else choices(model)


STATES: dict[str, LazyString] = {
    TableState.WAITING: _l("waiting for players"),
    TableState.PLAYING: _l("playing"),
    TableState.FINISHED: _l("its game over"),
    TableState.STOPPED: _l("stopped by an error"),
    TableState.PAUSED: _l("paused"),
}
"""A table's state in words (protocol §11.1)."""


def state_words(state: str) -> str:
    """A table's state in words ("waiting for players")."""
    words = STATES.get(state)
    return state if words is None else str(words)


def _play_words(play: Play) -> str:
    card = card_name(play.card)
    if play.suit and play.announce:
        return _("play the {card}, name {suit} and say one card").format(
            card=card, suit=suit_name(play.suit)
        )
    if play.suit:
        return _("play the {card} and name {suit}").format(card=card, suit=suit_name(play.suit))
    if play.announce:
        return _("play the {card} and say one card").format(card=card)
    return _("play the {card}").format(card=card)


def choice_words(action: Action, model: TableModel) -> str:
    """One choice in words ("play the nine of clubs", "draw a card")."""
    match action:
        case Play():
            return _play_words(action)
        case Draw():
            count = model.view["count"] if model.view is not None else 0
            if count:
                return ngettext(
                    "draw {n} card for the count", "draw {n} cards for the count", count
                ).format(n=count)
            return _("draw a card")
        case Pass():
            return _("keep the drawn card")
        case NameSuit():
            return _("name {suit}").format(suit=suit_name(action.suit))
        case Announce():
            return _("say one card")
        case CallIdiot():
            return _("call idiot on {player}").format(player=model.name_of(action.target))


def menu(offered: list[Action], model: TableModel) -> str:
    """The numbered choices in one sentence ("Your turn: 1 play the nine of clubs;
    2 draw a card."), or what may be done off turn."""
    items = separator().join(
        _("{number} {choice}").format(number=i, choice=choice_words(a, model))
        for i, a in enumerate(offered, 1)
    )
    if model.my_turn:
        return _("Your turn: {choices}.").format(choices=items)
    return _("You may now: {choices}.").format(choices=items)


def hand(model: TableModel) -> str:
    """The player's hand, sorted by suit and rank."""
    if model.view is None:
        return _("No game is running.")
    cards = model.hand
    if model.spectator or model.view["hand"] is None:
        return _("You are watching: you hold no cards.")
    if not cards:
        return _("Your hand is empty.")
    listed = cards_in_words(sorted(cards, key=sort_key))
    n = len(cards)
    return ngettext("You hold {n} card: {cards}.", "You hold {n} cards: {cards}.", n).format(
        n=n, cards=listed
    )


def whose_turn(model: TableModel) -> str | None:
    """Whose turn it is, or None when nobody is to act."""
    seat = model.to_act
    if seat is None:
        return None
    if seat == model.seat:
        return _("It is your turn.")
    return _("It is {player}'s turn.").format(player=model.name_of(seat))


def _seat_cards(model: TableModel) -> str:
    sizes = model.hand_sizes()
    parts = [
        _("{player}: {cards}").format(
            player=_("you") if s == model.seat else model.name_of(s), cards=count_cards(n)
        )
        for s, n in enumerate(sizes)
    ]
    return _("Cards in hand: {seats}.").format(seats=separator().join(parts))


def table(model: TableModel) -> list[str]:
    """The table in sentences: hand number, top card, suit to follow, the count,
    the stock, each seat's cards, the direction, whose turn."""
    view = model.view
    if view is None:
        return [_("No game is running at table {table}.").format(table=model.name)]
    out = [
        _("Hand {hand} of {hands}.").format(hand=view["hand_number"], hands=view["hands_in_game"])
    ]
    top = view["top"]
    if top:
        out.append(_("The discard pile shows the {card}.").format(card=card_name(top)))
        if view["suit"] and view["suit"] != top[-1]:
            out.append(_("The suit to follow is {suit}.").format(suit=suit_name(view["suit"])))
    if view["count"]:
        out.append(_("The count is {count}.").format(count=view["count"]))
    n = view["stock_size"]
    out.append(ngettext("The stock has {n} card.", "The stock has {n} cards.", n).format(n=n))
    out.append(_seat_cards(model))
    way = CLOCKWISE if view["direction"] >= 0 else COUNTER_CLOCKWISE
    out.append(_("Play goes {direction}.").format(direction=way))
    turn = whose_turn(model)
    if turn:
        out.append(turn)
    return out


def scores(model: TableModel) -> str:
    """The game's scores so far (lowest wins, R9)."""
    view = model.view
    if view is None:
        return _("No game is running.")
    parts = [
        _("{player}: {points}").format(
            player=_("you") if s == model.seat else model.name_of(s), points=count_points(p)
        )
        for s, p in enumerate(view["scores"])
    ]
    return _("Scores after {hands} of {total} hands: {scores}.").format(
        hands=len(model.sheet), total=view["hands_in_game"], scores=separator().join(parts)
    )
