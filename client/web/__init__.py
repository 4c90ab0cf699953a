"""``craits-web``: the Textual client served to browsers, one client process per visitor.

Built on textual-serve (its :class:`~textual_serve.server.Server` and
:class:`~textual_serve.app_service.AppService`, its xterm.js page script and
fonts). What this package adds:

* :mod:`.visitors` — who a browser is: a random id in an HttpOnly cookie, mapped
  to that visitor's own state directory (name, resume tokens, theme, pins), and
  the links' query (``?table=NAME&watch=1&code=CODE``) read into a checked
  :class:`~.visitors.Launch`;
* :mod:`.service` — the per-visitor client process, started without a shell
  from an argument list (through :mod:`.child`), with the visitor's directories
  in its environment, or forked by :mod:`.zygote`, the pre-forked client
  (imported once; its Unix socket sits in a private 0700 directory);
* :mod:`.sessions` — the running client processes: ``--max-sessions``, one
  page per browser, and the close code that tells a page why its game ended;
* :mod:`.lifeline` — ending with the parent however it ends: craits-web with
  ``craits-server --web``, the clients and the pre-forked client with craits-web;
* :mod:`.addresses` — whose address a visitor has, and which address (scheme,
  host) the browser asked for, behind trusted reverse proxies;
* :mod:`.server` — the web server: the name page, the game page (fonts served
  locally, focus on load, back by itself after a restart), the websocket;
* :mod:`.cli` — the ``craits-web`` command.
"""
