"""``craits-server``'s cluster options: a bad value is refused on one line
naming the option, before anything starts (docs/cluster.md)."""

from __future__ import annotations

import pytest
from craits.server.cluster.start import advertised
from craits.server.ops.cli import main
from craits.server.ops.options import EXIT_USAGE, build_parser, config_from


@pytest.mark.parametrize(
    ("argv", "said"),
    [
        (["--cluster", "http://x"], "--cluster takes a URL redis://HOST:PORT"),
        (["--cluster", "redis://h:1", "--cluster-heartbeat", "0"], "--cluster-heartbeat must be"),
        (["--cluster", "redis://h:1", "--advertise", "h:99999"], "--advertise"),
        (["--workers", "0"], "--workers must be >= 1"),
        (["--workers", "2", "--port", "0"], "--port must be given (not 0) with --workers"),
        (["--workers", "2", "--port", "7000", "--advertise", "h:1"], "--advertise names a HOST"),
    ],
)
def test_a_bad_cluster_option_is_refused(
    argv: list[str], said: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(argv) == EXIT_USAGE
    err = capsys.readouterr().err
    assert said in err and err.count("\n") == 1, err


def test_without_cluster_nothing_changes() -> None:
    config = config_from(build_parser().parse_args([]))
    assert config.cluster is None and config.shared_port is None
    config = config_from(build_parser().parse_args(["--cluster", "valkey://h:6379"]))
    assert config.cluster == "redis://h:6379"  # Valkey speaks Redis's protocol


def test_the_advertised_address() -> None:
    assert advertised("games.example:7777", "0.0.0.0", 5) == "games.example:7777"
    assert advertised("games.example", "0.0.0.0", 5) == "games.example:5"
    assert advertised("[2001:db8::1]", "::", 5) == "[2001:db8::1]:5"
    assert advertised(None, "0.0.0.0", 5) == "127.0.0.1:5"  # no client reaches a wildcard
    assert advertised(None, "::1", 5) == "[::1]:5"
