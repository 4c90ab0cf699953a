"""``craits-client HOST --plain`` as its users meet it: the real client in a
pseudo-terminal (pexpect) against a real ``craits-server --bots 2`` on a loopback
port, playing turns against the bots by what it prints alone (never its state):
it says each event in a sentence, offers numbered choices on the player's turn,
answers ``hand``, ``table``, ``scores``, ``say``, and never writes an escape
sequence, a colour or any other control character. In English, German and Greek."""

from __future__ import annotations

import io
import os
import re
import shutil
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pexpect
import pytest
from craits.protocol.i18n import PSEUDO_OPEN, pseudo

from tests.support.processes import SERVER, free_port

WAIT = 30
"""Seconds to wait for a sentence (a generous ceiling: the bots play at once)."""


@pytest.fixture
def bot_server(tmp_path: Path) -> Iterator[int]:
    """A real server with practice tables of two bots; yields its port."""
    port = free_port()
    proc = subprocess.Popen(
        [
            *SERVER,
            "--port",
            str(port),
            "--data-dir",
            str(tmp_path / "data"),
            "--bots",
            "2",
            "--turn-timeout",
            "0",
            "--hand-pause",
            "0.01",
        ],
        stderr=subprocess.DEVNULL,
    )
    deadline = time.monotonic() + 20
    while True:
        try:
            socket.create_connection(("127.0.0.1", port), timeout=1).close()
            break
        except OSError:
            if time.monotonic() > deadline or proc.poll() is not None:
                proc.kill()
                raise
            time.sleep(0.05)
    try:
        yield port
    finally:
        proc.terminate()
        try:
            proc.wait(10)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()


@dataclass
class Words:
    """What the test types and expects, in one language."""

    lang: str
    your_turn: str
    mine: str  # the sentence of the player's own move, as a regex
    hand: str
    table: str
    scores: str
    writes: str
    goodbye: str
    commands: dict[str, str]


ENGLISH = Words(
    "en",
    "Your turn: ",
    r"You (played|draw|named|kept|say)",
    r"You hold \d+ cards?: ",
    "The discard pile shows the ",
    "Scores after ",
    "Tess writes: hello",
    "Goodbye.",
    {"hand": "hand", "table": "table", "scores": "scores", "say": "say", "quit": "quit"},
)
GERMAN = Words(
    "de",
    "Du bist am Zug: ",
    r"Du (spielst|ziehst|wünschst|behältst|sagst)",
    r"Du hast \d+ Karten?: ",
    "Auf dem Ablagestapel liegt ",
    "Punkte nach ",
    "Tess schreibt: hello",
    "Auf Wiedersehen.",
    {"hand": "hand", "table": "tisch", "scores": "punkte", "say": "sagen", "quit": "beenden"},
)
GREEK = Words(
    "el",
    "Σειρά σου: ",
    r"(Έπαιξες|Τραβάς|Δήλωσες|Κράτησες|Λες)",
    r"Κρατάς \d+ φύλλ(ο|α): ",
    "Στη στοίβα απόρριψης φαίνεται: ",
    "Βαθμολογία μετά από ",
    "Tess γράφει: hello",
    "Αντίο.",
    {"hand": "χέρι", "table": "τραπέζι", "scores": "σκορ", "say": "πες", "quit": "έξοδος"},
)


def spawn(port: int, tmp_path: Path, *args: str) -> tuple[pexpect.spawn, io.StringIO]:
    """The real client in a pseudo-terminal of 80x24, its output kept."""
    env = {
        **os.environ,
        "XDG_STATE_HOME": str(tmp_path / "state"),
        "XDG_DATA_HOME": str(tmp_path / "share"),
        "TERM": "xterm-256color",  # readline would send its escapes to such a terminal
        "PYTHONIOENCODING": "utf-8",
    }
    for var in ("LC_ALL", "LC_MESSAGES", "LANG", "NO_COLOR"):
        env.pop(var, None)
    child = pexpect.spawn(
        sys.executable,
        ["-m", "craits.client.cli", f"127.0.0.1:{port}", "--plain", *args],
        env=env,
        encoding="utf-8",
        timeout=WAIT,
        dimensions=(24, 80),
    )
    seen = io.StringIO()
    child.logfile_read = seen
    return child, seen


def play_turns(child: pexpect.spawn, words: Words, turns: int) -> list[str]:
    """Take ``turns`` turns, each by the first choice offered; the menus said."""
    menus = []
    for _turn in range(turns):
        child.expect_exact(words.your_turn)
        child.expect(r"(.*)\.\r\n")
        menus.append(child.match.group(1))
        child.sendline("1")
        child.expect(words.mine)
    return menus


SPOKEN_PUNCTUATION = frozenset(" .,:;!?'\"()[]-–„“”«»·")
"""The punctuation a line may hold besides letters and digits: what a speech
synthesizer reads as a pause or a quote, never a symbol dropped or spelled out."""


def assert_speakable(lines: list[str], lang: str) -> None:
    """Every line holds letters, digits and :data:`SPOKEN_PUNCTUATION` only (no ♥,
    no arrow, no box drawing), and, where espeak-ng is installed, it speaks each
    in ``lang``'s voice (phonemes out, no error)."""
    odd = {c for line in lines for c in line if not (c.isalnum() or c in SPOKEN_PUNCTUATION)}
    assert not odd, f"characters a screen reader drops or spells out: {sorted(odd)}"
    espeak = shutil.which("espeak-ng")
    if espeak is None:
        return  # (the test's name says it is skipped: test_espeak_is_here)
    for line in lines:
        spoken = subprocess.run(
            [espeak, "-q", "-x", "-v", lang, line], capture_output=True, text=True, timeout=30
        )
        assert spoken.returncode == 0 and spoken.stdout.strip(), (line, spoken.stderr)


@pytest.mark.skipif(shutil.which("espeak-ng") is None, reason="espeak-ng is not installed")
def test_espeak_is_here() -> None:
    """Marks in the summary whether the sentences were spoken by espeak-ng (the
    other tests check their characters either way)."""
    spoken = subprocess.run(
        ["espeak-ng", "-q", "-x", "-v", "de", "Du spielst Herz-Sieben."],
        capture_output=True,
        text=True,
        timeout=30,
    )
    assert "h'Erts" in spoken.stdout


def clean_lines(seen: str) -> list[str]:
    """The output's lines, after checking that no byte of it but CR and LF is a
    control character: no escape sequence, no colour, no cursor motion."""
    bad = sorted({f"{ord(c):#04x}" for c in seen if ord(c) < 32 and c not in "\r\n"})
    assert not bad and "\x1b" not in seen and "\x9b" not in seen, f"control characters: {bad}"
    return [line for line in seen.split("\r\n") if line]


@pytest.mark.parametrize("words", [ENGLISH, GERMAN, GREEK], ids=lambda w: w.lang)
def test_a_player_plays_turns_against_bots_by_what_the_client_says(
    bot_server: int, tmp_path: Path, words: Words
) -> None:
    child, seen = spawn(
        bot_server, tmp_path, "--table", "practice", "--name", "Tess", "--lang", words.lang
    )
    try:
        menus = play_turns(child, words, 3)
        for menu in menus:  # numbered choices, cards in words, never a suit's symbol
            assert re.match(r"1 \S", menu) and not re.search("[♠♥♦♣]", menu), menu
        child.sendline(words.commands["hand"])
        child.expect(words.hand)
        child.sendline(words.commands["table"])
        child.expect_exact(words.table)
        child.sendline(words.commands["scores"])
        child.expect_exact(words.scores)
        child.sendline(f"{words.commands['say']} hello")
        child.expect_exact(words.writes)
        child.sendline(words.commands["quit"])
        child.expect_exact(words.goodbye)
        child.expect(pexpect.EOF)
    finally:
        child.close(force=True)
    assert child.exitstatus == 0, seen.getvalue()[-2000:]
    lines = clean_lines(seen.getvalue())
    assert_speakable(lines, words.lang)


def test_english_sentences_of_a_game(bot_server: int, tmp_path: Path) -> None:
    """The sentences themselves: the seat taken, the deal, each player's moves by
    name, the count or the direction when they change, and the cards in words."""
    child, seen = spawn(
        bot_server, tmp_path, "--table", "practice", "--name", "Tess", "--lang", "en"
    )
    try:
        play_turns(child, ENGLISH, 2)
        child.sendline("help")
        child.expect_exact("quit: end the client.")
        child.sendline("play zz")
        child.expect_exact("Which card? For example: play 8h")
        child.sendline("42")
        child.expect_exact("There is no choice 42 now.")
        child.sendline("frobnicate")
        child.expect_exact("Unknown command frobnicate. Type help for the commands.")
        child.sendline("quit")
        child.expect(pexpect.EOF)
    finally:
        child.close(force=True)
    lines = clean_lines(seen.getvalue())
    assert "You sit at table practice." in lines
    assert any(
        re.fullmatch(r"Hand 1: (you deal|basic-bot-\d deals) 8 cards to each player\.", x)
        for x in lines
    )
    rank = "(ace|two|three|four|five|six|seven|eight|nine|ten|jack|queen|king)"
    card = rf"{rank} of (spades|hearts|diamonds|clubs)"
    assert any(
        re.fullmatch(rf"basic-bot-\d played the {card}( and named \w+)?\.", x) for x in lines
    )
    assert any(
        re.fullmatch(rf"Your turn: 1 (play the {card}|draw|name|keep).*\.", x) for x in lines
    )


def test_german_help_and_commands_in_either_language(bot_server: int, tmp_path: Path) -> None:
    child, seen = spawn(
        bot_server, tmp_path, "--table", "practice", "--name", "Tess", "--lang", "de"
    )
    try:
        child.expect_exact("Du sitzt am Tisch practice.")
        child.sendline("hilfe")
        child.expect_exact("beenden: das Programm beenden.")
        child.sendline("tables")  # the English word is understood too
        child.expect_exact("Tisch practice: 3 von 3 Plätzen besetzt, im Spiel.")
        child.sendline("quit")
        child.expect_exact("Auf Wiedersehen.")
        child.expect(pexpect.EOF)
    finally:
        child.close(force=True)
    clean_lines(seen.getvalue())


def test_the_output_check_catches_an_escape_sequence() -> None:
    with pytest.raises(AssertionError, match="0x1b"):
        clean_lines("You played the \x1b[31mseven of hearts\x1b[0m.\r\n")


def test_in_the_pseudo_language_every_line_is_translated(bot_server: int, tmp_path: Path) -> None:
    """Every sentence the client says goes through the catalogs: in the
    pseudo-language each line is marked (a line without the marks would be one
    left untranslated), the typed lines (echoed by the terminal) aside."""
    child, seen = spawn(
        bot_server, tmp_path, "--table", "practice", "--name", "Tess", "--lang", "qps"
    )
    turn = pseudo("Your turn: {choices}.").partition("{choices}")[0]
    typed = ["1", "1", "hand", "table", "scores", "help", "quit"]
    try:
        for _turn in range(2):
            child.expect_exact(turn)
            child.sendline("1")
        for command in typed[2:]:
            child.sendline(command)
        child.expect_exact(pseudo("Goodbye."))
        child.expect(pexpect.EOF)
    finally:
        child.close(force=True)
    unmarked = [
        line
        for line in clean_lines(seen.getvalue())
        if line not in typed and not line.startswith(PSEUDO_OPEN)
    ]
    assert not unmarked, f"lines not translated: {unmarked}"


def test_an_unknown_language_is_refused_with_the_known_ones(
    capsys: pytest.CaptureFixture[str],
) -> None:
    from craits.client.cli import main

    with pytest.raises(SystemExit) as stopped:
        main(["localhost", "--plain", "--lang", "fr"])
    assert stopped.value.code == 2
    assert "known: en, de, el" in capsys.readouterr().err


def test_the_client_comes_back_after_the_server_restarts(tmp_path: Path) -> None:
    """The connection drops (the server stops); the client says so, connects again
    when the server is back (its journal kept the table), takes its seat back and
    says the hand so far once, led by a line that says so; then the player plays on."""
    port = free_port()
    command = [
        *SERVER,
        "--port",
        str(port),
        "--data-dir",
        str(tmp_path / "data"),
        "--bots",
        "2",
        "--turn-timeout",
        "0",
    ]

    def started() -> subprocess.Popen[bytes]:
        proc = subprocess.Popen(command, stderr=subprocess.DEVNULL)
        deadline = time.monotonic() + 20
        while True:
            try:
                socket.create_connection(("127.0.0.1", port), timeout=1).close()
                return proc
            except OSError:
                assert time.monotonic() < deadline and proc.poll() is None, "no server"
                time.sleep(0.05)

    server = started()
    child, seen = spawn(port, tmp_path, "--table", "practice", "--name", "Tess", "--lang", "en")
    try:
        child.expect_exact("Your turn: ")
        server.terminate()
        server.wait(15)
        child.expect_exact("The connection dropped; trying again.")
        server = started()
        child.expect_exact("Back at the table. The hand so far:")
        child.expect_exact("Your turn: ")
        child.sendline("1")
        child.expect(ENGLISH.mine)
        child.sendline("quit")
        child.expect(pexpect.EOF)
    finally:
        child.close(force=True)
        server.terminate()
        server.wait(15)
    lines = clean_lines(seen.getvalue())
    assert lines.count("Back at the table. The hand so far:") == 1
    assert lines.count("You sit at table practice.") == 1  # the intro is not said again


def test_without_an_address_it_asks_for_one_and_reads_piped_input(
    bot_server: int, tmp_path: Path
) -> None:
    """``craits-client --plain`` alone asks where to connect; its input may be a
    pipe as well as a terminal (lines read the same way, no readline)."""
    env = {**os.environ, "XDG_STATE_HOME": str(tmp_path / "state"), "PYTHONIOENCODING": "utf-8"}
    run = subprocess.run(
        [sys.executable, "-m", "craits.client.cli", "--plain", "--lang", "de", "--name", "Tess"],
        input=f"127.0.0.1:{bot_server}\ntables\nbeenden\n",
        capture_output=True,
        text=True,
        env=env,
        timeout=60,
    )
    assert run.returncode == 0, run.stderr
    lines = run.stdout.splitlines()
    assert lines[0].startswith("Welcher Server?")
    assert "Auf Wiedersehen." in lines
    clean_lines(run.stdout.replace("\n", "\r\n"))
