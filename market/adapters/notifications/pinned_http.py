"""One POST to the address the guard checked: the connection goes to `Target.address`;
the name travels only in the Host header and, over TLS, as SNI and the name the
certificate must carry. No second DNS lookup (no rebinding window), no redirects."""

from __future__ import annotations

import http.client
import socket
import ssl
from collections.abc import Mapping
from typing import Protocol

from market.adapters.notifications.target_guard import Target


class _PinnedHTTPS(http.client.HTTPSConnection):
    def __init__(self, target: Target, timeout: float) -> None:
        super().__init__(target.host, target.port, timeout=timeout)
        self._address = target.address
        self._tls = ssl.create_default_context()

    def connect(self) -> None:
        raw = socket.create_connection((self._address, self.port), self.timeout)
        self.sock = self._tls.wrap_socket(raw, server_hostname=self.host)


class _PinnedHTTP(http.client.HTTPConnection):
    def __init__(self, target: Target, timeout: float) -> None:
        super().__init__(target.host, target.port, timeout=timeout)
        self._address = target.address

    def connect(self) -> None:
        self.sock = socket.create_connection((self._address, self.port), self.timeout)


class WebhookPost(Protocol):
    def __call__(
        self, target: Target, headers: Mapping[str, str], body: bytes, timeout: float
    ) -> int: ...


def post(target: Target, headers: Mapping[str, str], body: bytes, timeout: float) -> int:
    """The answer's status (a redirect is an answer like any other: not followed)."""
    conn: http.client.HTTPConnection = (
        _PinnedHTTPS(target, timeout) if target.scheme == "https" else _PinnedHTTP(target, timeout)
    )
    try:
        conn.request("POST", target.path, body=body, headers=dict(headers))
        response = conn.getresponse()
        response.read(65536)
        return int(response.status)
    finally:
        conn.close()
