"""What the tests share, apart from the tests: real servers and players on loopback
ports (``server``), server processes (``processes``), raw connections and faults at
the wire (``net``), a Redis-backed cluster (``cluster``), journals made faulty
(``faulty``), recorded games (``replays``), Pilot helpers (``client``), the
repository's paths (``paths``); ``plugin`` is the pytest plugin that registers their
fixtures for every test folder and sorts the tests into tiers (docs/development.md).

It imports the package under test and nothing of the tests' folders; a test folder
imports from here, never from another folder's conftest or test module."""
