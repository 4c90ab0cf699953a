"""Why a key of the table cannot act now, in one line: "8♦ matches neither ♣ nor 7",
"Waiting for Ben to play.", "Nobody to call idiot on…". No Textual. The lines
are ASCII but for the cards, which the card style writes (letters with ``--ascii``).

The client decides no rule: a key acts when the server lists an action for it
(the view's ``legal``); when it lists none, the line says why from what the
server sent: the view (whose turn, the top card and the suit in force, the
count, a drawn card being decided on, the seats that owe "one card") and the
table info (away, on hold, its rules). The game panel shows it as a
notification (:mod:`craits.client.tui.screens.game_panel`).
"""

from __future__ import annotations

from collections.abc import Callable

from craits.protocol.vocab import ActionKind, Phase, TableState

from ..core.model import TableModel
from .card_style import CardStyle

NOT_ONLINE = "Not connected: wait for the connection to come back."


def _cards(style: CardStyle, cards: list[str]) -> str:
    return ", ".join(style.label(c) for c in cards)


def playable_in_hand(model: TableModel) -> list[str]:
    """The cards of the hand the server lists a play of, in the hand's order."""
    return [c for c in model.hand if model.playable(c)]


def not_now(model: TableModel) -> str | None:
    """Why no key of the game acts now, or None when this seat may act (its turn
    in a hand being played)."""
    if model.spectator:
        return "You are watching: spectators hold no cards."
    if model.state == TableState.STOPPED:
        return "The table was stopped by a server error: nothing more is played."
    if model.state == TableState.PAUSED:
        return "The table is paused: the server could not record the game."
    if model.view is None:
        return "The game has not started yet."
    phase = model.phase
    if phase == Phase.GAME_OVER:
        return "The game is over (h: the score sheet)."
    if phase == Phase.HAND_OVER:
        return "The hand is over: the next one is being dealt."
    if model.my_turn:
        return None
    to_act = model.to_act
    if to_act is None:
        return "Nobody is to play just now."
    name = model.name_of(to_act)
    if model.on_hold:
        return f"The game waits for a player to come back ({name} is to play)."
    player = model.player(to_act)
    if player is not None and not player["bot"] and player["away"]:
        return f"Waiting for {name} to play (away: the server plays for them)."
    if player is not None and not player["bot"] and not player["connected"]:
        return f"Waiting for {name} to play (offline: the turn timer plays for them)."
    return f"Waiting for {name} to play."


def why_not_play(model: TableModel, card: str | None, style: CardStyle) -> str:
    """Why Enter does not play ``card`` (the chosen card) now."""
    if card is None:
        return "No card chosen: your hand is empty." if not model.hand else "Choose a card first."
    label = style.label(card)
    waiting = not_now(model)
    if waiting is not None:
        return f"{label} cannot be played now. {waiting}"
    view = model.view
    assert view is not None
    drawn = view["drawn"]
    if model.find(ActionKind.PASS) is not None and drawn:
        return (
            f"Only the card you just drew ({style.label(drawn)}) may be played now, or p keeps it."
        )
    count = view["count"]
    if count:
        return f"{label} does not follow the count of {count}: only an ace or a two, or d draws."
    top = view["top"]
    suit = view["suit"]
    if not top or not suit or card[1] == suit or card[0] == top[0]:
        return f"{label} cannot be played now."
    playable = playable_in_hand(model)
    why = f"{label} matches neither {style.suit(suit)} nor {style.rank(top[0])}"
    if playable:
        return f"{why}: you can play {_cards(style, playable)}."
    if model.find(ActionKind.DRAW) is not None:
        return f"{why}; nothing in your hand can be played: d draws."
    return f"{why}."


def why_not_draw(model: TableModel, style: CardStyle) -> str:
    """Why ``d`` does not draw now."""
    waiting = not_now(model)
    if waiting is not None:
        return waiting
    if model.suit_choices():
        return "Name the suit for the turned-up card first (Enter)."
    if model.find(ActionKind.PASS) is not None:
        return "You have drawn already: Enter plays the card drawn, p keeps it."
    playable = playable_in_hand(model)
    if playable:
        return f"You cannot draw while you can play: {_cards(style, playable)}."
    return "Drawing is not allowed now."


def why_not_pass(model: TableModel, style: CardStyle) -> str:
    """Why ``p`` (keep the card just drawn) does not act now."""
    if model.view is not None and not model.keeps_drawn_cards:
        return "This table's rules do not let you keep a drawn card (play drawn card is off)."
    waiting = not_now(model)
    if waiting is not None:
        return waiting
    return "p keeps a card you just drew: you have not drawn one this turn."


def why_not_idiot(model: TableModel, style: CardStyle) -> str:
    """Why ``i`` (call idiot) has nobody to call now."""
    if model.spectator:
        return "You are watching: spectators do not call idiot."
    view = model.view
    if view is None or model.phase != Phase.PLAY:
        return not_now(model) or "Nobody to call idiot on now."
    if model.seat in view["unannounced"]:
        return 'Nobody to call idiot on, but you owe "one card" yourself: press o.'
    said = [model.name_of(s) for s in view["one_card"] if s != model.seat]
    if said:
        return f'Nobody to call idiot on: {", ".join(said)} said "one card" in time.'
    return 'Nobody to call idiot on: nobody holds one card without saying "one card".'


def why_not_announce(model: TableModel, style: CardStyle) -> str:
    """Why ``o`` ("one card") does not act now."""
    waiting = not_now(model)
    if waiting is not None and not model.hand:
        return waiting
    size = len(model.hand)
    if size == 2 and model.my_turn:
        return 'o says "one card" with a play that leaves you one card: no such play now.'
    if size == 1:
        return 'You have said "one card" already, or owe it no more.'
    return f'You hold {size} cards: "one card" is said when a play leaves you one (o).'


def why_not_choose(model: TableModel, style: CardStyle) -> str:
    """Why the keys that choose a card (arrows, digits, Home, End) do nothing."""
    if model.spectator:
        return "You are watching: spectators hold no cards."
    return "No cards in your hand." if model.view is not None else "The game has not started yet."


def no_such_card(model: TableModel, index: int) -> str:
    """Why the digit choosing card ``index`` (0-based) chooses nothing."""
    size = len(model.hand)
    keys = "1" if size == 1 else f"1-{min(size, 9)}" + (", 0" if size >= 10 else "")
    return f"No card {index + 1}: you hold {size} (keys {keys}, or Home/End)."


REFUSALS: dict[str, Callable[[TableModel, CardStyle], str]] = {
    "draw": why_not_draw,
    "pass": why_not_pass,
    "idiot": why_not_idiot,
    "announce": why_not_announce,
    "move": why_not_choose,
    "pick": why_not_choose,
    "first": why_not_choose,
    "last": why_not_choose,
}
"""The line for each game key that cannot act (``play`` needs the card: :func:`why_not_play`)."""


def key_refusal(
    action: str, model: TableModel | None, style: CardStyle, *, online: bool, card: str | None
) -> str:
    """The one line that says why the game key ``action`` cannot act now
    (``card``: the card chosen in the hand)."""
    if not online:
        return NOT_ONLINE
    if model is None:
        return "You are not at a table."
    if action == "play":
        return why_not_play(model, card, style)
    refusal = REFUSALS.get(action)
    return refusal(model, style) if refusal is not None else "That key does nothing now."
