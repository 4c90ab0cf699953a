"""The engine speaks the vocabulary (craits.protocol.vocab): every code it sends is defined there.

Rules options, event kinds, draw and skip reasons, error codes, phases and the
card and suit codes are the vocabulary's; the engine adds only the rules' own
facts (points, colour partners, the cut order).
"""

from __future__ import annotations

import dataclasses
import random

from craits.protocol import vocab
from craits.server.engine import Game, Rules, view
from craits.server.engine import errors as E
from craits.server.engine.cards import CARDS, COLOUR_PARTNER, CUT_ORDER, POINTS, SUITS
from craits.server.engine.events import EVENT_KINDS, Drew, Skipped, event_to_dict


def test_rules_fields_are_the_vocabularys_options_with_their_defaults() -> None:
    """Every rules option is a field of Rules, defaulting to the vocabulary's default."""
    fields = {f.name for f in dataclasses.fields(Rules)}
    assert fields == {o.name for o in vocab.RULE_OPTIONS}
    assert Rules().to_dict() == vocab.RULE_DEFAULTS
    assert Rules().changed() == {}


def test_rules_refuse_a_value_the_option_does_not_allow() -> None:
    """Each option takes only the values the vocabulary lists for it."""
    for option in vocab.RULE_OPTIONS:
        for value in option.values:
            assert Rules.from_dict({option.name: value}).to_dict()[option.name] == value


def test_every_event_kind_has_one_event_class() -> None:
    """EVENT_KINDS maps one event class to each EventKind, and the wire form says it."""
    assert sorted(EVENT_KINDS.values()) == sorted(vocab.EventKind)
    assert len(set(EVENT_KINDS)) == len(vocab.EventKind)
    assert all(isinstance(kind, vocab.EventKind) for kind in EVENT_KINDS.values())


def test_every_action_error_code_has_one_error_class() -> None:
    """Each engine error class's code is an ErrorCode, one class per action error."""
    codes = [cls.code for cls in E.ERRORS]
    assert all(isinstance(code, vocab.ErrorCode) for code in codes)
    assert set(codes) == vocab.ACTION_ERRORS and len(codes) == len(vocab.ACTION_ERRORS)


def test_cards_and_suits_are_the_vocabularys() -> None:
    """The engine's deck is the vocabulary's cards; its rank facts cover every rank."""
    assert CARDS == vocab.CARDS and SUITS == vocab.SUITS
    assert set(POINTS) == set(CUT_ORDER) == set(vocab.RANKS)
    assert COLOUR_PARTNER == {"S": "C", "C": "S", "H": "D", "D": "H"}
    for suit, partner in COLOUR_PARTNER.items():
        assert (suit in vocab.RED_SUITS) == (partner in vocab.RED_SUITS) and suit != partner


def test_reasons_and_phases_on_the_wire_are_vocabulary_members() -> None:
    """Draw and skip reasons, event kinds and the phase are members of the vocabulary's
    enums, and go on the wire as their plain strings."""
    rng = random.Random(2)
    game, _ = Game.start(4, Rules(face_cards=True), rng)
    seen: list[object] = []
    while game.phase == vocab.Phase.PLAY and len(seen) < 2000:
        for event in game.apply(rng.choice(game.legal_actions())):
            seen.append(event)
            wire = event_to_dict(event)
            assert wire["event"] in vocab.EventKind.__members__.values()
            if isinstance(event, Drew):
                assert isinstance(event.reason, vocab.DrawReason)
                assert wire["reason"] == event.reason.value
            elif isinstance(event, Skipped):
                assert isinstance(event.reason, vocab.SkipReason)
    assert any(isinstance(e, Drew) for e in seen)
    assert isinstance(game.phase, vocab.Phase)
    assert view(game, None)["phase"] in {p.value for p in vocab.Phase}
