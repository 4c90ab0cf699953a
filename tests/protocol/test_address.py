"""Addresses and invite links (protocol §1.1): every spelling a user may type or paste."""

from __future__ import annotations

import pytest
from craits.protocol.address import Target, normalize_fingerprint, parse_target

FP = "AB:" * 31 + "CD"


@pytest.mark.parametrize(
    ("text", "host", "port"),
    [
        ("localhost", "localhost", 7777),
        ("192.168.1.5:8000", "192.168.1.5", 8000),
        ("[::1]:9000", "::1", 9000),
        ("[::1]", "::1", 7777),
        (":8000", "127.0.0.1", 8000),
        ("  host  ", "host", 7777),
    ],
)
def test_plain_addresses(text: str, host: str, port: int) -> None:
    assert parse_target(text, 7777) == Target(host, port)


@pytest.mark.parametrize(
    ("text", "problem"),
    [
        ("host:0", "out of range"),
        ("host:70000", "out of range"),
        ("host:http", "not a number"),
        ("[::1", "closing ]"),
        ("http://host/t", "unknown scheme"),
        ("craits://host/t?colour=red", "unknown part"),
        ("craits://host/t?fp=" + "ab" * 32, "needs TLS"),
        ("craitss://host/t?fp=abc", "64 hex digits"),
        ("craits://host?watch=1", "needs a table"),
    ],
)
def test_bad_targets_say_why(text: str, problem: str) -> None:
    with pytest.raises(ValueError, match=problem):
        parse_target(text, 7777)


def test_an_invite_link_round_trips() -> None:
    target = Target(
        "example.org",
        7778,
        tls=True,
        fingerprint=normalize_fingerprint(FP),
        table="Friday night",
        code="k3J9-xQ",
    )
    link = target.link()
    assert link.startswith("craitss://example.org:7778/Friday%20night?code=k3J9-xQ&fp=abab")
    assert parse_target(link, 7777) == target


def test_a_watch_link_and_an_ipv6_host() -> None:
    target = Target("::1", 7777, table="t1", watch=True)
    assert target.link() == "craits://[::1]:7777/t1?watch=1"
    assert parse_target(target.link(), 1) == target


def test_a_link_without_a_table_or_port() -> None:
    assert parse_target("craits://host", 7777) == Target("host", 7777)
    assert parse_target("CRAITSS://host/", 7777) == Target("host", 7777, tls=True)


def test_fingerprints_in_any_usual_spelling() -> None:
    plain = "ab" * 31 + "cd"
    assert normalize_fingerprint(FP) == plain
    assert normalize_fingerprint("SHA256:" + plain.upper()) == plain
    with pytest.raises(ValueError):
        normalize_fingerprint("zz" * 32)
