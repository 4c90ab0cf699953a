"""Every event of whole games, as the rules engine makes them and each seat sees
them (views.events_for), said in English, German and Greek: one or two sentences
each, no placeholder left unfilled, nothing left in English in the translations
but names, and every kind of event seen said."""

from __future__ import annotations

import random
import re
from typing import Any, cast

import pytest
from craits.client.plain.sentences import Sentences
from craits.protocol.i18n import set_language
from craits.protocol.types import WireEvent
from craits.protocol.vocab import EventKind, Phase
from craits.server.bots import choose
from craits.server.engine import Game, Rules, action_from_dict, events_for, view

NAMES = ["Ana", "Ben", "Cleo", "Dara"]


def whole_game(players: int, seed: int) -> list[list[dict[str, Any]]]:
    """A short game of random bots (engine only): each seat's view of its events."""
    rng = random.Random(seed)
    game, events = Game.start(players, Rules(short_game=True), random.Random(seed))
    seen: list[list[dict[str, Any]]] = [[] for _ in range(players)]
    while True:
        for seat in range(players):
            seen[seat] += events_for(events, seat)
        if game.phase == Phase.GAME_OVER:
            return seen
        if game.phase == Phase.HAND_OVER:
            events = game.next_hand()
            continue
        seat = game.to_act
        assert seat is not None
        action = choose("random", view(game, seat), rng)
        assert action is not None
        events = game.apply(action_from_dict(action, seat))


@pytest.fixture(scope="module")
def games() -> list[list[list[dict[str, Any]]]]:
    return [whole_game(players, seed) for players, seed in ((2, 1), (3, 7), (4, 11))]


def said(events: list[dict[str, Any]], seat: int | None) -> list[tuple[str, list[str]]]:
    """Each event's kind and sentences, for ``seat``."""
    voice = Sentences(lambda s: "?" if s is None else NAMES[s], seat)
    return [(e["event"], voice.event(cast(WireEvent, e))) for e in events]


@pytest.mark.parametrize("lang", ["en", "de", "el"])
def test_every_event_of_whole_games_is_said(
    lang: str, games: list[list[list[dict[str, Any]]]]
) -> None:
    english = [said(events, seat) for game in games for seat, events in enumerate(game)]
    set_language(lang)
    spoken = [said(events, seat) for game in games for seat, events in enumerate(game)]
    kinds: set[str] = set()
    for mine, theirs in zip(spoken, english, strict=True):
        for (kind, sentences), (_kind, in_english) in zip(mine, theirs, strict=True):
            kinds.add(kind)
            assert 1 <= len(sentences) <= 3, (kind, sentences)
            for sentence, original in zip(sentences, in_english, strict=True):
                assert not re.search(r"[{}]", sentence), sentence
                assert sentence[-1] in ".!:", sentence
                if lang != "en":  # translated: not the English sentence
                    assert sentence != original, sentence
                if lang == "el":  # no Latin word left but the names
                    assert not set(re.findall(r"[A-Za-z]{2,}", sentence)) - set(NAMES), sentence
    # every kind but "passed" (a rule option these games do not use) was said
    assert set(EventKind) - {EventKind.PASSED} <= kinds


def test_own_moves_and_others_in_english(games: list[list[list[dict[str, Any]]]]) -> None:
    lines = [s for _kind, sentences in said(games[1][0], 0) for s in sentences]
    card = r"(ace|two|three|four|five|six|seven|eight|nine|ten|jack|queen|king) of \w+"
    assert any(re.fullmatch(rf"You played the {card}( and named \w+)?\.", x) for x in lines)
    assert any(re.fullmatch(rf"(Ben|Cleo) played the {card}( and named \w+)?\.", x) for x in lines)
    assert any(re.fullmatch(rf"Drawn: {card}(, {card})*,? (and {card})?\.", x) for x in lines)
    assert any(re.fullmatch(r"The game is over: .* wins?!", x) for x in lines)


def test_a_spectator_is_never_you(games: list[list[list[dict[str, Any]]]]) -> None:
    watched = games[2][0]  # seat 0's events are the same kinds; as a spectator, none is "you"
    lines = [s for _kind, sentences in said(watched, None) for s in sentences]
    assert lines and not any(re.match(r"You\b", x) for x in lines)
