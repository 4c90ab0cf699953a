"""The Craits client, in rooms: :mod:`.core` (the session with a server, the model, what
is kept on disk; no Textual), :mod:`.present` (what the screens show, pure),
:mod:`.tui` (the Textual screens), :mod:`.web` (craits-web), and :mod:`.cli`
(``craits-client``). See ``docs/architecture.md``.

Each room imports only those under it (web, cli, tui, present, core, errors: the import
contracts in ``pyproject.toml``); nothing of the client imports the server.
"""
