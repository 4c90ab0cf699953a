"""The Footer of keys, fitted to the width of the screen.

Textual's Footer lays every key out in one line and lets the ones that do not
fit run off the right edge: below 80 columns (a phone's browser is ~44) the
keys at the end, often "q Leave", are lost. :class:`KeyFooter` first fits the
line (:func:`fit_keys`): it lets go of the command palette's key, then uses
each key's short word, then leaves out keys, those that cannot act now
(greyed) first and the rightmost first, never the screen's essential keys
(leave, help, play), and last shows the essential keys without their words.
The keys left out still work; the rules page (``?``) lists them all.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass

from craits.protocol.i18n import _, _l
from textual import events
from textual.app import ComposeResult
from textual.binding import Binding
from textual.widgets import Footer
from textual.widgets._footer import FooterKey

from .cached import CachedLines

PALETTE_WORD = _l("palette")
"""The command palette's key's word (Textual's own is English only)."""

MARGIN = 1
"""Blank columns after each key in the compact Footer."""


@dataclass(frozen=True, slots=True)
class Key:
    """One key as the Footer may show it.

    Attributes:
        action: the binding's action (one key per action is shown).
        key: the key's name as shown (``d``, ``⏎``).
        word: what it does (``Draw``).
        short: a shorter word for narrow screens (``""`` for none).
        enabled: whether it can act now (a greyed key when not).
        essential: never left out (leave, help, play).
    """

    action: str
    key: str
    word: str
    short: str
    enabled: bool
    essential: bool

    def width(self, word: str | None) -> int:
        """Columns taken by the key shown with ``word`` (and the margin after it)."""
        return len(self.key) + (1 + len(word) if word else 0) + MARGIN


@dataclass(frozen=True, slots=True)
class Fitted:
    """The keys to show (each with the word to show), and whether the command
    palette's key fits beside them."""

    keys: tuple[tuple[Key, str], ...]
    palette: bool

    @property
    def actions(self) -> list[str]:
        """The actions shown, in order."""
        return [key.action for key, _ in self.keys]


def fit_keys(keys: Sequence[Key], width: int, palette_width: int = 0) -> Fitted:
    """The keys ``keys`` fitted into ``width`` columns (``palette_width``: the
    command palette's key, 0 when it is not offered): all of them with their
    words and the palette's key when they fit; else without the palette's key;
    then with their short words; then leaving out, one by one, the keys that are
    not essential (greyed ones first, from the right); at last the essential keys
    without words but the first one's."""
    full = [(k, k.word) for k in keys]
    if palette_width and _width(full) + palette_width <= width:
        return Fitted(tuple(full), True)
    if _width(full) <= width:
        return Fitted(tuple(full), False)
    shown = [(k, k.short or k.word) for k in keys]
    order = [k for k in reversed(keys) if not k.essential and not k.enabled]
    order += [k for k in reversed(keys) if not k.essential and k.enabled]
    for key in order:
        if _width(shown) <= width:
            break
        shown = [(k, w) for k, w in shown if k is not key]
    if _width(shown) > width:
        shown = [(k, w if i == 0 else "") for i, (k, w) in enumerate(shown)]
    return Fitted(tuple(shown), False)


def _width(keys: Sequence[tuple[Key, str]]) -> int:
    return sum(k.width(w) for k, w in keys)


class KeyFooter(Footer, CachedLines):
    """A compact Footer whose keys always fit the screen's width (:func:`fit_keys`).

    Args:
        essential: the actions never left out (leave, help, play…).
        short: a shorter word for an action, used when the line is too long.
        show_command_palette: offer the palette's key when it fits.
    """

    def __init__(
        self,
        *,
        essential: Sequence[str] = (),
        short: Mapping[str, str] | None = None,
        show_command_palette: bool = True,
        id: str | None = None,
    ):
        super().__init__(id=id, compact=True, show_command_palette=show_command_palette)
        self.essential = frozenset(essential)
        self.short = dict(short or {})
        self._fitted_width = 0

    def available(self) -> int:
        """The columns the keys may take: the Footer's width (the screen's before
        it is laid out)."""
        return self.size.width or self.screen.size.width or self.app.size.width

    def keys(self) -> list[tuple[Key, Binding, str]]:
        """The keys the screen offers now, one per action, in the Footer's order,
        each with its binding and tooltip."""
        display: Callable[[Binding], str] = self.app.get_key_display
        out: list[tuple[Key, Binding, str]] = []
        seen: set[str] = set()
        for _node, binding, enabled, tooltip in self.screen.active_bindings.values():
            if not binding.show or binding.action in seen:
                continue
            seen.add(binding.action)
            action = binding.action
            key = Key(
                action,
                display(binding),
                _(binding.description),
                _(self.short[action]) if action in self.short else "",
                enabled,
                action in self.essential,
            )
            out.append((key, binding, tooltip))
        return out

    def _palette(self) -> tuple[Binding, bool] | None:
        if not (self.show_command_palette and self.app.ENABLE_COMMAND_PALETTE):
            return None
        found = self.screen.active_bindings.get(self.app.COMMAND_PALETTE_BINDING)
        return None if found is None else (found[1], found[2])

    def fitted(self) -> Fitted:
        """The keys shown at the Footer's width now."""
        palette = self._palette()
        palette_width = 0
        if palette is not None:  # "▏^p palette": a bar, the key, a space, the word
            binding = palette[0]
            word = str(PALETTE_WORD)
            palette_width = 2 + len(self.app.get_key_display(binding)) + len(word)
        keys = [key for key, _binding, _tip in self.keys()]
        return fit_keys(keys, self.available(), palette_width)

    def compose(self) -> ComposeResult:
        """The keys that fit, as Textual's Footer draws them."""
        if not self._bindings_ready:
            return
        self._fitted_width = self.available()
        fitted = self.fitted()
        tooltips = {key.action: (binding, tooltip) for key, binding, tooltip in self.keys()}
        for key, word in fitted.keys:
            binding, tooltip = tooltips[key.action]
            # Not data-bound to the bar's compact, as Textual's Footer binds its keys:
            # a data binding leaves the key in the bar's watchers for good, so every
            # key of every bar ever shown stayed alive. This bar is always compact
            # (__init__), as a FooterKey is unless told otherwise.
            yield FooterKey(
                binding.key,
                key.key,
                word,
                key.action,
                disabled=not key.enabled,
                tooltip=tooltip or ("" if word == key.word else key.word),
            )
        palette = self._palette()
        if fitted.palette and palette is not None:
            binding, enabled = palette
            yield FooterKey(
                binding.key,
                self.app.get_key_display(binding),
                str(PALETTE_WORD),
                binding.action,
                classes="-command-palette",
                disabled=not enabled,
                tooltip=str(PALETTE_WORD),
            )

    def on_resize(self, event: events.Resize) -> None:
        """Fit the keys again when the width changed."""
        if event.size.width != self._fitted_width and self._bindings_ready:
            self._fitted_width = event.size.width
            self.call_after_refresh(self.recompose)
