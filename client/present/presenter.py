"""What the table screen shows, as pure functions of the model: the top bar, the
seats, the pile, the prompt, the keys that apply now, the chat lines, and the
choice of the action a key sends. No Textual: each function returns rich text
or plain values, so it is tested without a terminal.

A key's state follows Textual's ``check_action``: True, the key applies now;
None, it is shown greyed out (it does nothing now); False, it is hidden (it
never applies here, e.g. a spectator's "draw", or not in this phase: the keys
that play, once the game is over).
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass

from craits.protocol.actions import Play
from craits.protocol.i18n import LazyString, _, lazy_pgettext, ngettext, pgettext
from craits.protocol.types import ChatLine, SeatInfo, TableInfo, View
from craits.protocol.vocab import ActionKind, Phase, TableState
from craits.protocol.words import word_list
from rich.text import Text

from ..core import privacy
from ..core.model import TableModel, turn_on_hold
from ..core.saved.resume_tokens import SavedSeat
from .card_style import CardStyle
from .hint_text import hint_key
from .phrases import fill
from .results import rematch_key
from .rule_options import describe_rules

TABLE_STATES: dict[str, LazyString] = {
    # TRANSLATORS: a table's state in the lobby's list
    TableState.WAITING: lazy_pgettext("table state", "waiting"),
    TableState.PLAYING: lazy_pgettext("table state", "playing"),
    TableState.FINISHED: lazy_pgettext("table state", "finished"),
    TableState.STOPPED: lazy_pgettext("table state", "stopped"),
    TableState.PAUSED: lazy_pgettext("table state", "paused"),
}
"""A table's state in words (protocol §11.1)."""

KeyState = bool | None
"""A key's state: True applies, None greyed out, False hidden."""


def _greyed_unless(applies: object) -> KeyState:
    return True if applies else None


# ------------------------------------------------------------------ the keys


@dataclass(frozen=True, slots=True)
class KeyContext:
    """What the table's keys depend on beyond the model.

    Attributes:
        online: the link is up.
        player_name: this client's name (a spectator who created the table may close it).
        card: the card chosen in the hand, or None.
        chat_open: the chat line is open.
    """

    online: bool
    player_name: str
    card: str | None = None
    chat_open: bool = False


def _in_game(model: TableModel) -> bool:
    """Whether the game's keys belong on the screen: a seat, in a game that is
    not over (at game over the last view stays, but only the keys of the table
    apply: new game, close table, chat, rules, leave)."""
    view = model.view
    if model.spectator or view is None or model.state != TableState.PLAYING:
        return False
    return bool(view["phase"] != Phase.GAME_OVER)


def _choose_key(model: TableModel, ctx: KeyContext) -> KeyState:
    if not _in_game(model):
        return False
    return _greyed_unless(model.hand)


def _play_key(model: TableModel, ctx: KeyContext) -> KeyState:
    if not _in_game(model):
        return False
    if not ctx.online:
        return None
    if model.suit_choices():
        return True
    return _greyed_unless(ctx.card is not None and model.playable(ctx.card))


def _draw_key(model: TableModel, ctx: KeyContext) -> KeyState:
    if not _in_game(model):
        return False
    return _greyed_unless(ctx.online and model.find(ActionKind.DRAW))


def _pass_key(model: TableModel, ctx: KeyContext) -> KeyState:
    if not _in_game(model) or not model.keeps_drawn_cards:
        return False
    return _greyed_unless(ctx.online and model.find(ActionKind.PASS))


def _announce_key(model: TableModel, ctx: KeyContext) -> KeyState:
    if not _in_game(model):
        return False
    return _greyed_unless(
        ctx.online and (model.owes_announcement() or model.can_announce_with_play())
    )


def _idiot_key(model: TableModel, ctx: KeyContext) -> KeyState:
    if not _in_game(model):
        return False
    return _greyed_unless(ctx.online and model.idiot_targets())


def _back_key(model: TableModel, ctx: KeyContext) -> KeyState:
    if not model.away:
        return False
    return _greyed_unless(ctx.online)


def _seat_key(model: TableModel, ctx: KeyContext) -> KeyState:
    """``add_bot``: a free seat, before the game, for who may start it."""
    if model.state != TableState.WAITING or not model.may_start:
        return False
    return _greyed_unless(ctx.online and len(model.players) < model.capacity)


def _start_key(model: TableModel, ctx: KeyContext) -> KeyState:
    if model.state != TableState.WAITING or not model.may_start:
        return False
    return _greyed_unless(ctx.online and len(model.players) >= 2)


def _new_game_key(model: TableModel, ctx: KeyContext) -> KeyState:
    if model.state != TableState.FINISHED or not model.may_start:
        return False
    return _greyed_unless(ctx.online)


def _rematch_key(model: TableModel, ctx: KeyContext) -> KeyState:
    # while a rematch is on offer to this seat (protocol §11.12); greyed once accepted
    state = rematch_key(model)
    return _greyed_unless(ctx.online) if state else state


def _close_table_key(model: TableModel, ctx: KeyContext) -> KeyState:
    # the creator's, and not while a game runs: hidden otherwise
    if model.state == TableState.PLAYING or not model.is_creator(ctx.player_name):
        return False
    return _greyed_unless(ctx.online)


def _end_game_key(model: TableModel, ctx: KeyContext) -> KeyState:
    # the creator's, during a game: closing the table then ends it (it asks first)
    if model.state != TableState.PLAYING or not model.is_creator(ctx.player_name):
        return False
    return _greyed_unless(ctx.online)


def _summary_key(model: TableModel, ctx: KeyContext) -> KeyState:
    return bool(model.last_result)


def _chat_key(model: TableModel, ctx: KeyContext) -> KeyState:
    return _greyed_unless(ctx.online)


def _close_chat_key(model: TableModel, ctx: KeyContext) -> KeyState:
    return ctx.chat_open


TABLE_KEYS: dict[str, Callable[[TableModel, KeyContext], KeyState]] = {
    "move": _choose_key,
    "pick": _choose_key,
    "first": _choose_key,
    "last": _choose_key,
    "play": _play_key,
    "draw": _draw_key,
    "pass": _pass_key,
    "announce": _announce_key,
    "idiot": _idiot_key,
    "back": _back_key,
    "add_bot": _seat_key,
    "choose_bot": _seat_key,
    "start": _start_key,
    "new_game": _new_game_key,
    "rematch": _rematch_key,
    "close_table": _close_table_key,
    "end_game": _end_game_key,
    "summary": _summary_key,
    "chat": _chat_key,
    "close_chat": _close_chat_key,
    "creator_menu": lambda model, ctx: privacy.creator_key(model, ctx.player_name, False),
    "creator_menu_in_play": lambda model, ctx: privacy.creator_key(model, ctx.player_name, True),
    "hint": lambda model, ctx: hint_key(model, ctx.online),
}
"""The state of each of the table screen's key actions; others (rules, leave) always apply."""


def table_key(action: str, model: TableModel | None, ctx: KeyContext) -> KeyState:
    """The state of the table screen's key ``action`` (see the module's notes)."""
    if model is None:
        return action in ("leave", "rules")
    state = TABLE_KEYS.get(action)
    return True if state is None else state(model, ctx)


# -------------------------------------------------------- choosing an action


@dataclass(frozen=True, slots=True)
class PlayChoice:
    """What playing a card comes to: the plays that fit, and the suits to choose from.

    Attributes:
        plays: the legal plays of the card, those with (or without) the
            announcement as asked when there are such, else all of them.
        suits: the suits those plays name, in the server's order; more than
            one means the player chooses.
    """

    plays: list[Play]
    suits: list[str]


def play_choice(
    model: TableModel, card: str, announce: bool, suit: str | None = None
) -> PlayChoice:
    """The legal plays of ``card`` that match ``announce`` (and ``suit``, if given)."""
    plays = [p for p in model.plays(card) if suit is None or p.suit == suit]
    chosen = [p for p in plays if p.announce == announce] or plays
    suits = list(dict.fromkeys(p.suit for p in chosen if p.suit))
    return PlayChoice(chosen, suits)


def first_playable(model: TableModel, current: int) -> int:
    """The index in the hand to start a turn on: ``current`` if that card can be
    played, else the first card that can."""
    hand = model.hand
    if model.playable(hand[current]):
        return current
    return next((i for i, c in enumerate(hand) if model.playable(c)), current)


def digit_choice(count: int, selected: int | None, digit: int) -> int | None:
    """The card a digit key chooses in a hand of ``count`` cards (indexes from 0;
    ``digit`` 0 for the key 1, … 8 for 9, 9 for 0), or None when no card has it.

    Under each card is the last digit of its number: 1…9, 0 for the first ten,
    then 1, 2… again for the 11th, 12th… A digit chooses the card with it among
    the ten the chosen card is in (1–10, 11–20…), else the first with it; the
    same digit again (its card chosen) moves on to the next card with it, round
    to the first. So ``1`` then ``1`` chooses the 11th card."""
    cards = range(digit, count, 10)
    if not cards:
        return None
    current = selected if selected is not None and 0 <= selected < count else 0
    if current % 10 == digit:  # pressed again: the next card with this digit
        return current + 10 if current + 10 < count else digit
    same_ten = current - current % 10 + digit
    return same_ten if same_ten < count else digit


def topbar(model: TableModel, short: bool = False, bots_in: float | None = None) -> Text:
    """The top line: table, hand, cards dealt, spectators, who this client is;
    ``short`` (a phone's width): table, hand, spectators and who, in fewer words;
    ``bots_in``: seconds until bots take a quick-play table's free seats (§11.13)."""
    out = Text()
    out.append(model.name, style="bold")
    view = model.view
    if view is not None:
        out.append(" · ")
        out.append(_("hand {n}/{of}").format(n=view["hand_number"], of=view["hands_in_game"]))
        k = view["hand_size"]
        if not short:
            out.append(" · ")
            out.append(ngettext("{n} card dealt", "{n} cards dealt", k).format(n=k))
    else:
        seats = "?" if model.info is None else model.info["seats"]
        waiting = _("waiting ({n}/{seats})") if short else _("waiting for players ({n}/{seats})")
        out.append(" · ")
        out.append(waiting.format(n=len(model.players), seats=seats))
        if bots_in is not None:
            out.append(" · ")
            # TRANSLATORS: the top bar of a quick-play table: seconds until bots take the free seats
            out.append(_("bots in {n} s").format(n=math.ceil(bots_in)), style="bold")
    out.append(" · ")
    out.append(
        ngettext("{n} watching", "{n} watching", model.spectators).format(n=model.spectators)
    )
    if model.spectator:
        out.append(" · ")
        out.append(_("you watch") if short else _("you are watching"), style="italic")
    else:
        out.append(" · ")
        name = model.name_of(model.seat)
        out.append(name if short else _("you are {name}").format(name=name))
    return out


def banner(online: bool, detail: str) -> Text | None:
    """The line over the table while the link is down, or None."""
    if online:
        return None
    more = f" — {detail}" if detail else ""
    return Text(_("Connection lost: reconnecting…") + more, style="bold")


def hand_note(model: TableModel) -> Text | None:
    """What the hand panel says instead of cards, or None when it shows cards."""
    if model.spectator:
        return Text(_("You are watching — spectators see no hand."), style="italic")
    if model.view is None:
        return Text(_("Cards are dealt when the game starts."), style="dim")
    if not model.hand:
        return Text(_("No cards in your hand."), style="dim")
    return None


def playable_cards(model: TableModel) -> set[str]:
    """The cards of the hand the server lists a play of."""
    return {c for c in model.hand if model.playable(c)}


def chat_line(line: ChatLine) -> Text:
    """One chat line: the name in bold (marked when watching), then the text as written."""
    text = Text()
    text.append(line["name"], style="bold")
    if line["seat"] is None:
        text.append(" " + _("(watching)"), style="dim")
    text.append(": ")
    text.append(line["text"])
    return text


def log_bullet(style: CardStyle) -> Text:
    """The bullet of an event-log line."""
    return Text("- " if style.ascii else "• ", style="dim")


# ---------------------------------------------------------------- the prompt


def _game_over(may_start: bool, rematch: bool) -> str:
    """The prompt once the game is over: the keys that apply (one whole sentence
    for each set of them, so that a language may order them its own way)."""
    if rematch and may_start:
        return _("Game over. r: rematch · n: new game · h: scores · q: leave")
    if rematch:
        return _("Game over. r: rematch · h: scores · q: leave")
    if may_start:
        return _("Game over. n: new game · h: scores · q: leave")
    return _("Game over. h: scores · q: leave")


def prompt(model: TableModel, style: CardStyle, *, online: bool, armed: bool = False) -> Text:
    """What is going on and what this player can do, in a line or two.

    ``armed``: "one card" is to be said with the next play (``o`` was pressed).
    """
    if not online:
        return Text(_("Waiting for the connection to come back…"), style="bold")
    if model.state == TableState.STOPPED:
        return Text(_("The table was stopped by a server error. q: leave"), style="bold")
    view = model.view
    if view is None:
        return _before_the_game(model)
    phase = model.phase
    if phase == Phase.GAME_OVER:
        return Text(_game_over(model.may_start, bool(rematch_key(model))), style="bold")  # §11.12
    if phase == Phase.HAND_OVER:
        return Text(_("The hand is over; the next one is being dealt. h: scores"), style="bold")
    out = _alerts(model)
    to_act = model.to_act
    if model.my_turn and not model.spectator:
        out.append_text(_your_turn(model, view, style, armed))
    elif to_act is not None and turn_on_hold(model, to_act):
        if model.away:
            paused = _("Paused until you are back ({player} plays next).")
        else:
            paused = _("Paused until a player is back ({player} plays next).")
        out.append(paused.format(player=model.name_of(to_act)))
    else:
        out.append(_("{player} to play.").format(player=model.name_of(to_act)))
    return out


def _before_the_game(model: TableModel) -> Text:
    if model.spectator:
        return Text(_("Watching: the game has not started yet."))
    if model.may_start:
        return Text(
            _(
                "Waiting for players. b: add a bot (B: choose its level) · s: start with "
                "those seated (a full table starts by itself)"
            )
        )
    if model.creator:
        return Text(_("Waiting for the creator ({name}) to start.").format(name=model.creator))
    return Text(_("Waiting for the game to start."))


def _alerts(model: TableModel) -> Text:
    """The lines above the prompt: the game on hold, away, "one card" owed or missed."""
    out = Text()
    if model.on_hold and model.away:
        out.append(_("The game waits for you. b: I'm back") + "\n", style="bold reverse")
    elif model.on_hold:
        out.append(_("The game waits for a player.") + "\n", style="bold reverse")
    elif model.away:
        said = _("You are away: the server plays your turns. b: I'm back")
        out.append(said + "\n", style="bold reverse")
    if model.owes_announcement():
        out.append(_('You hold one card: press o to say "one card"!') + "\n", style="bold reverse")
    targets = model.idiot_targets()
    if targets:
        names = word_list([model.name_of(t) for t in targets])
        missed = ngettext(
            '{players} did not say "one card": i calls idiot!',
            '{players} did not say "one card": i calls idiot!',
            len(targets),
        )
        out.append(missed.format(players=names) + "\n", style="bold")
    return out


def _your_turn(model: TableModel, view: View, style: CardStyle, armed: bool) -> Text:
    out = Text()
    if model.suit_choices():
        out.append(_("You turned up a wild card: name the suit (Enter)."), style="bold")
    elif model.find(ActionKind.PASS) is not None:
        drawn = view["drawn"]
        if drawn:
            said = _("You drew {card}: Enter plays it, p keeps it.")
            out.append_text(fill(said, "bold", card=style.card(drawn)))
        else:
            out.append(_("You drew a card: Enter plays it, p keeps it."), style="bold")
    elif model.find(ActionKind.DRAW) is not None:
        count = view["count"]
        if count:
            said = ngettext(
                "No ace or two: d draws {n} card.", "No ace or two: d draws {n} cards.", count
            )
            out.append(said.format(n=count), style="bold")
        else:
            out.append(_("Nothing to play: d draws a card."), style="bold")
    else:
        arrows = pgettext("keys", "Left/Right") if style.ascii else "←→"
        said = _("{what}: {arrows} or 1-9 to choose, Enter plays.")
        out.append(said.format(what=_your_turn_what(view), arrows=arrows), style="bold")
        if armed:
            out.append(" " + _('"One card" will be said with the play.'), style="italic")
        elif model.can_announce_with_play():
            out.append(" " + _('o: say "one card" with it.'), style="dim")
    return out


def _your_turn_what(view: View) -> str:
    if view["count"]:
        return _("Your turn — the count is {n}: an ace or a two").format(n=view["count"])
    if view["again"]:
        return _("Your turn again (after a 6)")
    if view["king_cards"]:
        k = view["king_cards"]
        return ngettext(
            "Your turn — {n} more for the king", "Your turn — {n} more for the king", k
        ).format(n=k)
    return _("Your turn")


# ----------------------------------------------------------------- the lobby


def status_text(online: bool, connecting: bool, detail: str, address: str, name: str) -> Text:
    """The lobby's top line: where we are connected, or that we are trying."""
    if online:
        said = _("{craits} at {address} — you are {name}")
        return fill(said, craits=Text("Craits", "bold"), address=address, name=Text(name, "bold"))
    if connecting:
        return Text(_("Connecting to {address}… (q quits)").format(address=address), style="bold")
    more = f" — {detail}" if detail else ""
    lost = _("Connection lost: reconnecting to {address}…").format(address=address)
    return Text(lost + more, style="bold")


def table_state(info: TableInfo) -> str:
    """A table's state in words: waiting, playing hand n/15, finished."""
    state = info["state"]
    if state == TableState.PLAYING:
        return _("hand {n}/{of}").format(n=info["hand_number"], of=info["hands_in_game"])
    return str(TABLE_STATES.get(state, state))


def _person(p: SeatInfo) -> Text:
    out = Text(p["name"])
    if not p["connected"]:
        out.append(" " + _("(offline)"), style="dim")
    elif p["away"]:
        out.append(" " + _("(away)"), style="dim")
    return out


def players_text(info: TableInfo) -> Text:
    """The players at a table: people by name, marked when away or disconnected,
    then the bots counted ("2 bots"), so a full table's line stays short."""
    players = info["players"]
    if not players:
        return Text("—", style="dim")
    people = [p for p in players if not p["bot"]]
    out = Text(", ").join(_person(p) for p in people)
    bots = len(players) - len(people)
    if bots:
        out.append(", " if people else "")
        out.append(ngettext("{n} bot", "{n} bots", bots).format(n=bots), style="dim")
    return out


def unavailable(info: TableInfo) -> bool:
    """Whether the table's server (a node of a cluster) is down: listed, not
    joinable until it is back (protocol §7.4, §10)."""
    return info.get("unavailable") is True


def all_offline(info: TableInfo) -> bool:
    """Whether every person at the table is offline (people sit there, no
    connection holds their seats; protocol §10, ``people_connected``): the
    server closes it soon, and the lobby lists it last."""
    return info.get("people", 0) > 0 and info.get("people_connected") == 0


def lobby_order(tables: dict[str, TableInfo]) -> list[str]:
    """The names of the lobby's tables in the order listed: by name, the
    tables whose people are all offline last (:func:`all_offline`)."""
    return sorted(tables, key=lambda name: (all_offline(tables[name]), name))


def lobby_row(info: TableInfo) -> tuple[Text, ...]:
    """A table's row in the lobby: name, seats taken, state, watchers, players,
    rules. A table whose server is down says ``unavailable`` in its state
    column, one whose people are all offline adds ``offline``; either row is
    dimmed."""
    rules = describe_rules(info["rules"])
    timeout = info["turn_timeout_ms"]
    turns = _("{n} s turns").format(n=timeout // 1000) if timeout else _("no timer")
    rules = f"{rules}; {turns}"
    state = _("unavailable") if unavailable(info) else table_state(info)
    if all_offline(info) and not unavailable(info):
        state = _("{state}, offline").format(state=state)
    row = (
        Text.assemble((info["name"], "bold"), (privacy.badge(info), "italic")),
        Text(f"{privacy.seats_taken(info)}/{info['seats']}"),
        Text(state),
        Text(str(info["spectators"])),
        players_text(info),
        Text(rules),
    )
    if unavailable(info) or all_offline(info):
        for cell in row:
            cell.stylize("dim")
    return row


def _full(info: TableInfo) -> bool:
    return privacy.seats_taken(info) >= info["seats"]


def lobby_key(action: str, info: TableInfo | None, *, online: bool, saved: bool) -> KeyState:
    """The state of the lobby's key ``action``, ``info`` being the table under the
    cursor (None for none) and ``saved`` whether a seat is kept for this server."""
    if action in ("join", "spectate"):
        if not online or info is None or unavailable(info):
            return None
        if action == "join" and (info["state"] != TableState.WAITING or _full(info)):
            return None
        return True
    if action == "create":
        return _greyed_unless(online)
    if action == "rejoin":
        return _greyed_unless(online) if saved else False
    if action == "quick":
        return _greyed_unless(online)
    return True


def join_refusal(info: TableInfo | None, *, online: bool) -> str:
    """Why ``j`` does nothing now at the table ``info`` under the cursor, in a line."""
    if not online:
        return _("Not connected — wait for the connection to come back.")
    if info is None:
        return _("No table to join: n opens one.")
    name = info["name"]
    if unavailable(info):
        said = _("Table {table} is unavailable: its server is down (back when that server is).")
    elif _full(info):
        said = _("Table {table} is full: no seat to take (s watches it).")
    else:
        said = _("Table {table} is already playing: s watches it.")
    return said.format(table=name)


def quick_line() -> Text:
    """The lobby's first line under its status: quick play (protocol §11.13), in
    the language spoken now."""
    return Text.assemble(
        ("▶ " + _("Quick play"), "bold"),
        " ",
        _("(k): sit where a game starts soonest (or bots after a countdown)"),
    )


def bots_deadline(
    info: TableInfo | None, seen: tuple[int, float] | None, now: float
) -> tuple[int, float] | None:
    """When bots take a quick-play table's free seats (protocol §10's
    ``bots_in_ms``), as ``(bots_in_ms, seconds on the clock of ``now``)``:
    ``seen`` while the table info says the same, a new one from ``now`` when it
    says another; None when it says none."""
    ms = None if info is None else info.get("bots_in_ms")
    if ms is None:
        return None
    if seen is not None and seen[0] == ms:
        return seen
    return ms, now + ms / 1000


def lobby_hint(saved: SavedSeat | None, at_table: bool, tables: int) -> Text:
    """The line under the list: the seat kept for this server, or what the keys do."""
    if saved and not at_table:
        said = _("Your seat at {table} is kept: press r to go back to it.")
        return Text(said.format(table=saved["table"]), style="bold")
    if not tables:
        return Text(_("No tables yet: press n to open one."))
    return Text(_("j: take a seat · s: watch · Enter: either · n: open a new table"))
