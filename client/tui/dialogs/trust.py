"""The dialog that asks whether to trust a server's certificate (trust on first use).

Shown when a TLS server's certificate does not verify and nothing is pinned
for that server (:mod:`craits.client.core.saved.known_hosts`): it shows the certificate's
SHA-256 fingerprint, for the user to compare with the one the server's
operator gave, and where the pin will be kept. ``t`` trusts it (and pins it),
``n`` or Escape does not (the client then gives up on that server).
"""

from __future__ import annotations

from pathlib import Path

from craits.protocol.i18n import N_
from craits.protocol.tls import UntrustedCertificate, format_fingerprint
from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.widgets import Button, Label, Static

from ..widgets.key_footer import KeyFooter
from .base import Dialog


def trust_question(untrusted: UntrustedCertificate, pins: Path) -> Text:
    """The dialog's words: the server, why its certificate did not verify, its
    fingerprint (in two lines of 16 pairs), and where a yes is kept."""
    pairs = format_fingerprint(untrusted.fingerprint).split(":")
    text = Text()
    text.append(f"The certificate of {untrusted.host}:{untrusted.port} is not verified ")
    text.append(f"({untrusted.why}).\n\n")
    text.append("Its SHA-256 fingerprint is:\n")
    text.append(f"  {':'.join(pairs[:16])}\n  {':'.join(pairs[16:])}\n\n", style="bold")
    text.append(
        "Trust it only if the server's operator gave you this fingerprint. "
        f"Trusted, it is kept in\n  {pins}\nand a changed certificate is refused."
    )
    return text


class TrustDialog(Dialog[bool]):
    """Trust a certificate that did not verify? Dismissed with True (``t``) or
    False (``n``, Escape); "No" is focused, the safe answer."""

    BINDINGS = [  # noqa: RUF012
        Binding("t", "answer(True)", N_("Trust")),
        Binding("n,escape", "answer(False)", N_("Don't connect")),
    ]

    def __init__(self, untrusted: UntrustedCertificate, pins: Path):
        super().__init__()
        self.untrusted = untrusted
        self.pins = pins

    def compose(self) -> ComposeResult:
        """The question and two buttons."""
        with Vertical(id="trust", classes="dialog"):
            yield Label("An unknown certificate", classes="dialog-title")
            yield Static(trust_question(self.untrusted, self.pins), id="trust-question")
            with Horizontal(classes="buttons"):
                yield Button("Trust it (t)", id="trust-yes", variant="warning", compact=True)
                yield Button("Don't connect (n)", id="trust-no", compact=True)
        yield KeyFooter()

    def on_mount(self) -> None:
        """Focus "Don't connect"."""
        self.query_one("#trust-no", Button).focus()

    @on(Button.Pressed)
    def _pressed(self, event: Button.Pressed) -> None:
        self.finish(event.button.id == "trust-yes")

    def action_answer(self, yes: bool) -> None:
        """Answer."""
        self.finish(yes)
