"""The table: the hand, the other seats, the pile, the log, chat, and the keys to play.

The keys are in the Footer; a key that does nothing now is greyed out
(:meth:`TableScreen.check_action` returns None), and one that never applies
here (a spectator's "draw") is hidden. So that the Footer fits 80 columns
whatever applies, ``b`` (I'm back) and ``h`` (scores) are left out of it: the
prompt names them when they matter, and the rules page (``?``) lists every key.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from craits.protocol.messages import MAX_CHAT
from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.screen import Screen
from textual.widgets import Footer, Input, Static

from .cards import CardStyle
from .dialogs import ChoiceDialog, ConfirmDialog, RulesScreen, suit_dialog
from .link import LinkState
from .model import LOG_LINES, Action, TableModel
from .session import Session
from .summary import SummaryScreen
from .widgets import HandView, WrappedLog, pile_lines, seat_lines

GAME_ACTIONS = frozenset({"move", "pick", "play", "draw", "pass", "announce", "idiot"})
"""Keys that act in the game (hidden for spectators)."""


class TableScreen(Screen[None]):
    """One table, seated or watching."""

    BINDINGS = [  # noqa: RUF012
        Binding("left", "move(-1)", "Card", key_display="←→"),
        Binding("right", "move(1)", "Card", show=False),
        *(Binding(str((i + 1) % 10), f"pick({i})", show=False) for i in range(10)),
        Binding("enter", "play", "Play", key_display="⏎"),
        Binding("d", "draw", "Draw"),
        Binding("p", "pass", "Pass"),
        Binding("o", "announce", "One card"),
        Binding("i", "idiot", "Idiot"),
        Binding("b", "back", "I'm back", show=False),
        Binding("b", "add_bot", "Add bot"),
        Binding("s", "start", "Start"),
        Binding("n", "new_game", "New game"),
        Binding("x", "close_table", "Close table"),
        Binding("h", "summary", "Scores", show=False),
        Binding("c", "chat", "Chat"),
        Binding("escape", "close_chat", "Close chat", key_display="Esc"),
        Binding("question_mark", "rules", "Rules", key_display="?"),
        Binding("q", "leave", "Leave"),
    ]

    def __init__(self, session: Session, style: CardStyle):
        super().__init__()
        self.session = session
        self.style = style
        self.selected: int | None = 0
        self.selected_card: str | None = None
        self.armed = False
        """Announce "one card" with the next play (``o`` before playing the second-last card)."""
        self._chat_shown = 0
        self._log_shown = 0
        self._was_my_turn = False
        self._asked_suit_at: int | None = None
        self._ready = False

    # -------------------------------------------------------------- layout

    def compose(self) -> ComposeResult:
        """Top bar, banner, seats, pile, hand, prompt; log and chat on the right."""
        yield Static(id="topbar")
        yield Static(id="banner")
        with Horizontal(id="main"):
            with Vertical(id="left"):
                yield Static(id="seats", classes="panel")
                yield Static(id="pile", classes="panel")
                yield HandView(self.style, id="hand", classes="panel")
                yield Static(id="prompt")
            with Vertical(id="right"):
                yield WrappedLog(id="log", indent=2, max_lines=LOG_LINES, classes="panel")
                yield WrappedLog(id="chatlog", max_lines=LOG_LINES, classes="panel")
                chat_input = Input(
                    id="chat-input",
                    placeholder="Say something (Enter sends, Esc closes)",
                    max_length=MAX_CHAT,
                    compact=True,
                )
                chat_input.display = False  # hidden from the first, so is its Esc key
                yield chat_input
        yield Footer(compact=True)

    def on_mount(self) -> None:
        """Titles, the timer tick, and the first drawing."""
        self.query_one("#seats").border_title = "Players"
        self.query_one("#pile").border_title = "Table"
        self.query_one("#hand").border_title = "Your hand"
        self.query_one("#log").border_title = "Game"
        self.query_one("#chatlog").border_title = "Chat"
        self.query_one("#hand").focus()
        self.set_interval(0.5, self._tick)
        self._ready = True
        self.sync()

    def on_screen_resume(self) -> None:
        """Back from a dialog or summary: redraw (a suit may now need naming)."""
        self.sync()

    def _tick(self) -> None:
        model = self.session.model
        if model is not None and model.deadline is not None and self._ready:
            self.query_one("#seats", Static).update(
                seat_lines(model, self.style, timer=self.session.online)
            )

    # ---------------------------------------------------------------- state

    @property
    def model(self) -> TableModel | None:
        """The table as the session knows it."""
        return self.session.model

    def sync(self, new_update: bool = False) -> None:
        """Redraw everything from the model (after any message)."""
        if not self._ready:
            return
        model = self.model
        session = self.session
        if model is None:
            return
        style = self.style
        if new_update:
            self._close_stale_dialogs()
        self._fix_selection(model, new_update)
        self.query_one("#topbar", Static).update(self._topbar(model))
        banner = self.query_one("#banner", Static)
        if session.link.state != LinkState.ONLINE:
            detail = f" — {session.link.detail}" if session.link.detail else ""
            banner.update(Text(f"Connection lost: reconnecting…{detail}", style="bold"))
            banner.display = True
        else:
            banner.display = False
        self.query_one("#seats", Static).update(seat_lines(model, style, timer=session.online))
        pile = self.query_one("#pile", Static)
        pile.update(pile_lines(model, style))
        pile.display = model.view is not None
        hand = self.query_one("#hand", HandView)
        playable = {c for c in model.hand if model.playable(c)}
        note = None
        if model.spectator:
            note = Text("You are watching — spectators see no hand.", style="italic")
            hand.border_title = "Watching"
        elif model.view is None:
            note = Text("Cards are dealt when the game starts.", style="dim")
        elif not model.hand:
            note = Text("No cards in your hand.", style="dim")
        hand.show(model.hand, playable, self.selected if model.hand else None, note)
        self.query_one("#prompt", Static).update(self._prompt(model))
        self._write_logs(model)
        if model.summary_due:
            self.show_summary()
        self._maybe_ask_suit(model)
        for screen in self.app.screen_stack:
            if isinstance(screen, SummaryScreen):
                screen.sync()
        self.refresh_bindings()

    def _close_stale_dialogs(self, all_game: bool = False) -> None:
        """Close a question about the game that an update made pointless."""
        screen = self.app.screen
        check = screen.still_valid if isinstance(screen, ChoiceDialog) else None
        if check is not None and (all_game or not check()):
            screen.finish(None)

    def _fix_selection(self, model: TableModel, new_update: bool = False) -> None:
        hand = model.hand
        if not hand:
            self.selected = None
            self.selected_card = None
            return
        mine = model.my_turn
        if self.selected_card in hand:
            self.selected = hand.index(self.selected_card)
        else:
            self.selected = min(self.selected or 0, len(hand) - 1)
        if mine and (new_update or not self._was_my_turn):
            # my turn (again): start on a card I can play
            current = hand[self.selected]
            if not model.playable(current):
                for i, c in enumerate(hand):
                    if model.playable(c):
                        self.selected = i
                        break
        self._was_my_turn = mine
        self.selected_card = hand[self.selected]
        self.armed = self.armed and model.can_announce_with_play()

    def _write_logs(self, model: TableModel) -> None:
        log = self.query_one("#log", WrappedLog)
        new = model.logged - self._log_shown
        if new > 0:
            bullet = Text("- " if self.style.ascii else "• ", style="dim")
            for line in model.log[-min(new, len(model.log)) :]:
                log.add(line, bullet)
            self._log_shown = model.logged
        chat = self.query_one("#chatlog", WrappedLog)
        for line in model.chat[self._chat_shown :]:
            seat = line.get("seat")
            text = Text()
            text.append(str(line.get("name", "?")), style="bold")
            if seat is None:
                text.append(" (watching)", style="dim")
            text.append(": ")
            text.append(str(line.get("text", "")))
            chat.add(text)
        self._chat_shown = len(model.chat)

    def _topbar(self, model: TableModel) -> Text:
        out = Text()
        out.append(model.name, style="bold")
        view = model.view
        if view is not None:
            out.append(f" · hand {view.get('hand_number')}/{view.get('hands_in_game')}")
            k = view.get("hand_size")
            out.append(f" · {k} card{'s' if k != 1 else ''} dealt")
        else:
            seats = (model.info or {}).get("seats", "?")
            out.append(f" · waiting for players ({len(model.players)}/{seats})")
        out.append(f" · {model.spectators} watching")
        if model.spectator:
            out.append(" · you are watching", style="italic")
        else:
            out.append(f" · you are {model.name_of(model.seat)}")
        return out

    def _prompt(self, model: TableModel) -> Text:
        """What is going on and what this player can do, in a line or two."""
        if self.session.link.state != LinkState.ONLINE:
            return Text("Waiting for the connection to come back…", style="bold")
        view = model.view
        if model.state == "stopped":
            return Text("The table was stopped by a server error. q: leave", style="bold")
        if view is None:
            if model.spectator:
                return Text("Watching: the game has not started yet.")
            if model.may_manage():
                return Text(
                    "Waiting for players. b: add a bot · s: start with those seated "
                    "(a full table starts by itself)"
                )
            creator = model.creator
            if creator:
                return Text(f"Waiting for the creator ({creator}) to start.")
            return Text("Waiting for the game to start.")
        phase = view.get("phase")
        if phase == "game_over":
            more = " n: new game ·" if model.may_manage() else ""
            return Text(f"Game over.{more} h: scores · q: leave", style="bold")
        if phase == "hand_over":
            return Text("The hand is over; the next one is being dealt. h: scores", style="bold")
        out = Text()
        if model.on_hold and model.away:
            out.append("The game waits for you. b: I'm back\n", style="bold reverse")
        elif model.on_hold:
            out.append("The game waits for a player.\n", style="bold reverse")
        elif model.away:
            out.append(
                "You are away: the server plays your turns. b: I'm back\n", style="bold reverse"
            )
        if model.owes_announcement():
            out.append('You hold one card: press o to say "one card"!\n', style="bold reverse")
        targets = [t for t in model.idiot_targets()]
        if targets:
            names = ", ".join(model.name_of(t) for t in targets)
            out.append(f'{names} did not say "one card": i calls idiot!\n', style="bold")
        if model.spectator:
            out.append(f"{model.name_of(model.to_act)} to play.")
            return out
        if model.my_turn:
            if model.suit_choices():
                out.append("You turned up a wild card: name the suit (Enter).", style="bold")
            elif model.find("pass") is not None:
                drawn = view.get("drawn")
                out.append("You drew ")
                out.append_text(self.style.card(drawn) if drawn else Text("a card"))
                out.append(": Enter plays it, p keeps it.", style="bold")
            elif model.find("draw") is not None:
                count = view.get("count") or 0
                if count:
                    out.append(f"No ace or two: d draws {count} cards.", style="bold")
                else:
                    out.append("Nothing to play: d draws a card.", style="bold")
            else:
                what = "Your turn"
                if view.get("count"):
                    what += f" — the count is {view['count']}: an ace or a two"
                elif view.get("again"):
                    what += " again (after a 6)"
                elif view.get("king_cards"):
                    what += f" — {view['king_cards']} more for the king"
                arrows = "Left/Right" if self.style.ascii else "←→"
                out.append(what + f": {arrows} or 1-9 to choose, Enter plays.", style="bold")
                if self.armed:
                    out.append(' "One card" will be said with the play.', style="italic")
                elif model.can_announce_with_play():
                    out.append(' o: say "one card" with it.', style="dim")
        else:
            out.append(f"{model.name_of(model.to_act)} to play.")
        return out

    def _maybe_ask_suit(self, model: TableModel) -> None:
        """Open the suit dialog by itself when this seat must name a turned-up card's suit."""
        if model.suit_choices() and self._asked_suit_at != model.seq and self.app.screen is self:
            self._asked_suit_at = model.seq
            self.call_after_refresh(self.action_play)

    # -------------------------------------------------------------- actions

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """Show each key when it can apply here; grey it out when it does nothing now."""
        model = self.model
        session = self.session
        if model is None:
            return action in ("leave", "rules")
        online = session.online
        view = model.view
        if action in GAME_ACTIONS:
            if model.spectator or view is None:
                return False
            if action in ("move", "pick"):
                return True if model.hand else None
            if action == "pass" and not (view.get("rules") or {}).get("play_drawn_card"):
                return False  # only with the option play_drawn_card (R4)
            if not online:
                return None
            if action == "play":
                if model.suit_choices():
                    return True
                card = self._current_card()
                return True if card is not None and model.playable(card) else None
            if action == "draw":
                return True if model.find("draw") else None
            if action == "pass":
                return True if model.find("pass") else None
            if action == "announce":
                return True if model.owes_announcement() or model.can_announce_with_play() else None
            if action == "idiot":
                return True if model.idiot_targets() else None
        if action == "back":
            if not model.away:
                return False
            return True if online else None
        if action in ("add_bot", "start"):
            if model.state != "waiting" or model.spectator or not model.may_manage():
                return False
            if not online:
                return None
            seats = int((model.info or {}).get("seats") or 0)
            if action == "add_bot":
                return True if len(model.players) < seats else None
            return True if len(model.players) >= 2 else None
        if action == "new_game":
            if model.state != "finished" or model.spectator or not model.may_manage():
                return False
            return True if online else None
        if action == "close_table":
            # the creator's, and not while a game runs: hidden otherwise
            if model.state == "playing" or not model.is_creator(session.player_name):
                return False
            return True if online else None
        if action == "summary":
            return bool(model.last_result)
        if action == "chat":
            return True if online else None
        if action == "close_chat":
            return self.query_one("#chat-input").display
        return True

    def _current_card(self) -> str | None:
        model = self.model
        if model is None or self.selected is None:
            return None
        hand = model.hand
        return hand[self.selected] if 0 <= self.selected < len(hand) else None

    def _redraw_hand(self) -> None:
        model = self.model
        if model is None:
            return
        self.selected_card = self._current_card()
        hand = self.query_one("#hand", HandView)
        hand.show(
            model.hand, {c for c in model.hand if model.playable(c)}, self.selected, hand.note
        )
        self.query_one("#prompt", Static).update(self._prompt(model))
        self.refresh_bindings()

    def action_back(self) -> None:
        """Tell the server I am back: it stops playing my turns."""
        self.session.back()

    def action_move(self, delta: int) -> None:
        """Choose the card to the left or right."""
        self.session.back()
        model = self.model
        if model is None or not model.hand:
            return
        n = len(model.hand)
        self.selected = ((self.selected or 0) + delta) % n
        self._redraw_hand()

    def action_pick(self, index: int) -> None:
        """Choose a card by its number."""
        self.session.back()
        model = self.model
        if model is None or not 0 <= index < len(model.hand):
            return
        self.selected = index
        self._redraw_hand()

    @on(HandView.Clicked)
    def _clicked(self, event: HandView.Clicked) -> None:
        if event.index == self.selected:
            self.action_play()
        else:
            self.action_pick(event.index)

    def _send(self, action: Action | None) -> None:
        if action is None:
            self.app.bell()
            return
        if "play" in action:
            self.armed = False
        self.session.act(action)

    def action_play(self) -> None:
        """Play the chosen card (asking the suit for an 8 or 9), or name a pending suit."""
        model = self.model
        if model is None or model.spectator:
            return
        named = model.suit_choices()
        if named:
            suits = [a["name_suit"] for a in named]
            top = (model.view or {}).get("top") or ""
            title = Text("Name the suit for the turned-up ")
            title.append_text(self.style.card(top))
            self._ask_suit(title, suits, self._named, lambda: bool(self._model_suits()))
            return
        card = self._current_card()
        if card is None:
            return
        plays = model.plays(card)
        if not plays:
            self.app.bell()
            why = "it is not your turn" if not model.my_turn else "it does not match"
            if model.my_turn and model.find("draw"):
                why = "nothing in your hand can be played: d draws"
            label = self.style.label(card)
            self.notify(f"{label} cannot be played now: {why}.", timeout=3, markup=False)
            return
        want = self.armed
        chosen = [p for p in plays if bool(p.get("announce")) == want] or plays
        suits = list(dict.fromkeys(p["suit"] for p in chosen if p.get("suit")))
        if len(suits) > 1:
            title = Text("You play ")
            title.append_text(self.style.card(card))
            title.append(": which suit?")
            self._ask_suit(
                title,
                suits,
                lambda s: self._play_with_suit(card, s, want),
                lambda: self.model is not None and bool(self.model.plays(card)),
            )
            return
        self._send(chosen[0])

    def _model_suits(self) -> list[Action]:
        return self.model.suit_choices() if self.model is not None else []

    def _ask_suit(
        self, title: Text, suits: list[str], then: Any, still_valid: Callable[[], bool]
    ) -> None:
        dialog = suit_dialog(self.style, title, suits, still_valid)

        def done(suit: str | None) -> None:
            if suit is not None:
                then(suit)

        self.app.push_screen(dialog, done)

    def _named(self, suit: str) -> None:
        model = self.model
        if model is None:
            return
        action = next((a for a in model.suit_choices() if a["name_suit"] == suit), None)
        self._send(action)

    def _play_with_suit(self, card: str, suit: str, announce: bool) -> None:
        model = self.model
        if model is None:
            return
        plays = [p for p in model.plays(card) if p.get("suit") == suit]
        chosen = [p for p in plays if bool(p.get("announce")) == announce] or plays
        self._send(chosen[0] if chosen else None)

    def action_draw(self) -> None:
        """Draw (only when nothing can be played)."""
        model = self.model
        if model is not None:
            self._send(model.find("draw"))

    def action_pass(self) -> None:
        """Keep the card just drawn."""
        model = self.model
        if model is not None:
            self._send(model.find("pass"))

    def action_announce(self) -> None:
        """Say "one card": now if owed, else with the next play."""
        model = self.model
        if model is None:
            return
        owed = model.find("announce")
        if owed is not None:
            self._send(owed)
            return
        if model.can_announce_with_play():
            self.armed = not self.armed
            self._redraw_hand()
            return
        self.app.bell()

    def action_idiot(self) -> None:
        """Call idiot on a seat that did not announce (asking on whom if several)."""
        model = self.model
        if model is None:
            return
        targets = model.idiot_targets()
        if not targets:
            self.app.bell()
            return
        if len(targets) == 1:
            self._call_idiot(targets[0])
            return
        choices = [(str(i + 1), Text(model.name_of(t)), t) for i, t in enumerate(targets)]
        dialog = ChoiceDialog(
            "Call idiot on whom?",
            choices,
            lambda: self.model is not None and bool(self.model.idiot_targets()),
        )

        def done(target: int | None) -> None:
            if target is not None:
                self._call_idiot(target)

        self.app.push_screen(dialog, done)

    def _call_idiot(self, target: int) -> None:
        model = self.model
        if model is None:
            return
        action = next((a for a in model.legal if a.get("idiot") == target), None)
        self._send(action)

    def action_add_bot(self) -> None:
        """Seat a computer player (choosing its level)."""
        choices = [
            ("b", Text("basic: plays sensibly"), "basic"),
            ("r", Text("random: any legal move"), "random"),
        ]

        def done(level: str | None) -> None:
            if level:
                self.session.add_bot(level)

        self.app.push_screen(ChoiceDialog("Add a bot to a free seat", choices), done)

    def action_start(self) -> None:
        """Start the game with the players seated."""
        self.session.start_game()

    def action_new_game(self) -> None:
        """Start a new game, same seats."""
        self.session.new_game()

    def action_close_table(self) -> None:
        """Close the table, once confirmed: everyone at it goes back to the lobby."""
        model = self.model
        if model is None:
            return

        def done(yes: bool | None) -> None:
            if yes:
                self.session.close_table()

        self.app.push_screen(
            ConfirmDialog(
                f"Close table {model.name}? Everyone at it goes back to the lobby, "
                "and it is gone from the list."
            ),
            done,
        )

    def action_summary(self) -> None:
        """Show the last hand's summary again."""
        self.show_summary()

    def show_summary(self) -> None:
        """Show the summary of the last hand (or put it in the one open). A question
        about the game is closed first; another dialog (the rules, say) is left
        open, and the summary comes when it closes."""
        model = self.model
        if model is None or model.last_result is None:
            return
        for screen in self.app.screen_stack:
            if isinstance(screen, SummaryScreen):
                model.summary_due = False
                screen.result = model.last_result
                screen.sync()
                return
        self._close_stale_dialogs(all_game=True)
        top = self.app.screen
        if top is not self and not (isinstance(top, ChoiceDialog) and top.still_valid):
            model.summary_due = True
            return
        model.summary_due = False
        self.app.push_screen(SummaryScreen(self.session, self.style, model.last_result))

    def action_chat(self) -> None:
        """Open the chat line."""
        field = self.query_one("#chat-input", Input)
        field.display = True
        field.focus()  # the keys shown change with the focus (no Footer with every key and Esc)

    def action_close_chat(self) -> None:
        """Close the chat line, back to the cards."""
        field = self.query_one("#chat-input", Input)
        field.value = ""
        field.display = False
        self.query_one("#hand").focus()
        self.refresh_bindings()

    @on(Input.Submitted, "#chat-input")
    def _chat_submitted(self, event: Input.Submitted) -> None:
        text = event.value.strip()
        if text:
            self.session.chat(text[:MAX_CHAT])
        self.action_close_chat()

    def action_rules(self) -> None:
        """Show the rules."""
        self.app.push_screen(RulesScreen(self.style.ascii))

    def action_leave(self) -> None:
        """Leave the table (asking first in the middle of a game)."""
        model = self.model
        if model is not None and not model.spectator and model.state == "playing":

            def done(yes: bool | None) -> None:
                if yes:
                    self.session.leave()

            self.app.push_screen(
                ConfirmDialog(
                    "Leave the game? Your seat stays yours: the server plays it while "
                    "others play on (with nobody else playing, the game waits for you). "
                    "Come back with r in the lobby, or start craits-client again."
                ),
                done,
            )
            return
        self.session.leave()
