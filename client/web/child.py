"""``python -m craits.client.web.child FD ARG…``: a visitor's client process
started anew (``craits-web --no-prefork``, or when the pre-forked client is
down): ``craits-client ARG…``, ended as soon as craits-web is gone (``FD``, the
read end of craits-web's lifeline: :mod:`.lifeline`). A client forked by the
pre-forked client (:mod:`.zygote`) hangs on the same lifeline through
:func:`run` too."""

from __future__ import annotations

import sys
from collections.abc import Sequence

from .lifeline import end_with


def run(argv: Sequence[str], lifeline: int) -> int:
    """Run the client (:func:`craits.client.cli.main`) with ``argv`` (the
    arguments of ``craits-client``, without the program), ending the process at
    once when ``lifeline`` reads end of file; the client's exit status."""
    end_with(lifeline)
    from craits.client.cli import main

    return main(list(argv))


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point: ``FD ARG…``; the client's exit status (2 without a valid FD)."""
    args = list(sys.argv[1:] if argv is None else argv)
    if not args or not args[0].isdigit():
        print("usage: python -m craits.client.web.child FD [craits-client ARG…]", file=sys.stderr)
        return 2
    sys.argv = ["craits-client", *args[1:]]
    return run(args[1:], int(args[0]))


if __name__ == "__main__":
    sys.exit(main())
