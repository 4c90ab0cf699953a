"""Fixtures for the TLS tests: certificates made on the fly (``trustme``), and a
real server serving TLS on a loopback port."""

from __future__ import annotations

import dataclasses
from collections.abc import AsyncIterator
from dataclasses import dataclass
from pathlib import Path

import pytest
import trustme
from craits.protocol.client import Connection
from craits.protocol.tls import TlsOptions
from craits.server.app import Server, ServerConfig
from craits.server.net.tls_listener import load_context
from cryptography import x509
from cryptography.hazmat.primitives import hashes

from tests.support.server import Player, config  # noqa: F401 - config is a fixture

HOST = "127.0.0.1"


@dataclass(frozen=True)
class Pem:
    """A server certificate (chain) and its key, as files, and its SHA-256 fingerprint."""

    cert: Path
    key: Path
    fingerprint: str


@dataclass(frozen=True)
class Certs:
    """A certificate authority and the server certificates the tests use.

    ``ca``: the authority's certificate (what ``--tls-ca`` trusts);
    ``server``: issued by it for ``localhost`` and ``127.0.0.1``;
    ``other``: for the same names, by another authority (a changed certificate);
    ``wrong_name``: issued by ``ca`` for another host name.
    """

    ca: Path
    server: Pem
    other: Pem
    wrong_name: Pem


def _write(leaf: trustme.LeafCert, folder: Path, name: str) -> Pem:
    cert, key = folder / f"{name}.pem", folder / f"{name}.key"
    leaf.cert_chain_pems[0].write_to_path(str(cert))
    leaf.private_key_pem.write_to_path(str(key))
    der = x509.load_pem_x509_certificate(leaf.cert_chain_pems[0].bytes())
    return Pem(cert, key, der.fingerprint(hashes.SHA256()).hex())


@pytest.fixture(scope="session")
def certs(tmp_path_factory: pytest.TempPathFactory) -> Certs:
    """The certificates, made once for the whole run."""
    folder = tmp_path_factory.mktemp("certs")
    ca, other_ca = trustme.CA(), trustme.CA()
    ca.cert_pem.write_to_path(str(folder / "ca.pem"))
    return Certs(
        ca=folder / "ca.pem",
        server=_write(ca.issue_cert("localhost", HOST), folder, "server"),
        other=_write(other_ca.issue_cert("localhost", HOST), folder, "other"),
        wrong_name=_write(ca.issue_cert("elsewhere.example"), folder, "wrong-name"),
    )


@pytest.fixture
async def tls_server(config: ServerConfig, certs: Certs) -> AsyncIterator[Server]:  # noqa: F811
    """A real server serving TLS with ``certs.server`` on a free loopback port.
    Its certificate can be changed while it runs: ``srv.config.tls.load_cert_chain``."""
    context = load_context(certs.server.cert, certs.server.key)
    srv = Server(dataclasses.replace(config, tls=context))
    await srv.start()
    yield srv
    await srv.stop()


async def tls_player(srv: Server, name: str, options: TlsOptions) -> Player:
    """A test player connected over TLS (after ``hello``)."""
    return Player(await Connection.open(HOST, srv.port, name, tls=options), name)
