#!/usr/bin/env sh
# Refresh tests/constraints.txt, the exact versions the test environment installs.
#
# The players' install (`pip install .`) takes the ranges in pyproject.toml; the
# tests (the README's test command, and .ci/run, which runs it) install through
# `-c tests/constraints.txt`, so CI tests exactly these versions and a new release
# of a dependency cannot turn it red between two commits. Run this to move the
# pins to the newest releases the ranges allow, then run the tests, and commit
# the file with what it changed.
#
# uv resolves for every platform at once (--universal) for the oldest Python the
# project supports. It is fetched into a throwaway environment: nothing else of
# the project needs it.
#
# `scripts/refresh_pins.sh --keep` pins a dependency just added to pyproject.toml
# (and what it needs) without moving the other pins.
set -eu
upgrade=--upgrade
[ "${1:-}" = "--keep" ] && upgrade=
cd "$(dirname "$0")/.."
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
python3 -m venv "$work/venv"
"$work/venv/bin/python" -m pip install -q 'uv>=0.5,<1'
# pip itself is pinned too: .ci/run upgrades it before installing
echo pip > "$work/tools.in"
"$work/venv/bin/uv" pip compile pyproject.toml "$work/tools.in" \
  --extra test --universal --python-version 3.11 $upgrade \
  --custom-compile-command scripts/refresh_pins.sh \
  -o tests/constraints.txt
# the throwaway input's path would change at every refresh
sed -i "s#-r $work/tools.in#.ci/run upgrades pip#" tests/constraints.txt
