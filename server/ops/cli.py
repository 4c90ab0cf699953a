"""``craits-server``: host Craits tables on this machine.

Its settings come from the command line, ``CRAITS_*`` environment variables
and a TOML file (:mod:`craits.server.ops.options`, :mod:`craits.server.ops.config`:
an option added there is a setting everywhere); its logs are plain or JSON
lines naming the peer, table and seat (:mod:`craits.server.ops.logs`); with
``--metrics-port`` it serves Prometheus metrics (:mod:`craits.server.ops.metrics`).
The server runs in :mod:`craits.server.ops.serve` (or ``--workers N`` of them,
:mod:`craits.server.ops.workers`); ``craits-server export``, ``check``, ``analyse``, ``drain``
(:mod:`craits.server.ops.commands`) and ``status`` (:mod:`craits.server.ops.status`)
are commands of their own (:data:`~craits.server.ops.options.COMMANDS`).
"""

from __future__ import annotations

import asyncio
import logging
import sys
from collections.abc import Callable

from ..errors import (
    AccountStoreError,
    BindError,
    JournalDamaged,
    JournalError,
    JournalUnwritable,
    TlsSetupError,
)
from ..net.tls_listener import certificate_fingerprint
from . import logs
from .commands import analyse_command, check_main, drain_main, export_main, rerate_main
from .leaderboard import leaderboard_main
from .options import (
    EXIT_DAMAGED,
    EXIT_FAILED,
    EXIT_UNWRITABLE,
    config_from,
    local_address,
    settings_from,
)
from .serve import serve, tls_context
from .status import status_main
from .workers import run_workers

SUBCOMMANDS: dict[str, Callable[[list[str]], int]] = {
    "export": export_main,
    "check": check_main,
    "status": lambda argv: status_main(argv, local_address),
    "drain": drain_main,
    "analyse": analyse_command,
    "rerate": rerate_main,
    "leaderboard": leaderboard_main,
}
"""Each of the :data:`~.options.COMMANDS`' entry point: its arguments in, its exit status out."""


def main(argv: list[str] | None = None) -> int:
    """Entry point of ``craits-server`` (and of its :data:`COMMANDS`);
    returns the exit status (:data:`EXIT_FAILED`, :data:`EXIT_USAGE`,
    :data:`EXIT_DAMAGED`, :data:`EXIT_UNWRITABLE`; ``status`` has its own)."""
    argv = sys.argv[1:] if argv is None else argv
    command = SUBCOMMANDS.get(argv[0]) if argv else None
    if command is not None:
        return command(argv[1:])
    got = settings_from(argv)
    if isinstance(got, int):
        return got
    args, ignored = got
    logs.setup(args.log_level, args.log_format)
    for name in ignored:
        logging.getLogger("craits.server").warning("%s is not a setting; ignored", name)
    workers = run_workers(args, argv, config_from(args).data_dir)  # --workers N (cluster.md)
    if workers is not None:
        return workers
    config = config_from(args)
    try:
        config.tls = tls_context(args)
        if config.tls is not None:  # a login signs it (protocol §7.5)
            config.tls_fingerprint = certificate_fingerprint(args.tls_cert)
    except TlsSetupError as exc:
        print(f"craits-server: {exc}", file=sys.stderr)
        return EXIT_FAILED
    try:
        asyncio.run(serve(config, args))
    except JournalDamaged as exc:
        print(f"craits-server: {exc}; 'craits-server check' says what is left", file=sys.stderr)
        return EXIT_DAMAGED
    except JournalError as exc:
        print(f"craits-server: {exc}", file=sys.stderr)
        return EXIT_UNWRITABLE if isinstance(exc, JournalUnwritable) else EXIT_FAILED
    except (BindError, AccountStoreError) as exc:
        print(f"craits-server: {exc}", file=sys.stderr)
        return EXIT_FAILED
    except OSError as exc:
        print(
            f"craits-server: cannot listen on {args.host}:{args.port}: {exc.strerror or exc}",
            file=sys.stderr,
        )
        return EXIT_FAILED
    return 0


if __name__ == "__main__":
    sys.exit(main())
