"""The network: a connection (:mod:`.connection`: framing, rate limit, outbox,
a reader that stalls), what the server does with each message (:mod:`.handlers`,
:mod:`.record_requests`), the output sent at the end of each pass
(:mod:`.outbound`), TLS (:mod:`.tls_listener`), connections per address and
trusted relays (:mod:`.address_limit`).

It may import the table, the journal, the lobby, the cluster (through the
lobby's directory) and the kit; only the app and the operator's commands import it.
"""
