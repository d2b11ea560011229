"""The SSRF guard of webhook targets: which addresses a webhook may be sent to.

A URL's host is resolved once; every address it resolves to is checked in each of its
forms (an IPv6 address that carries an IPv4 one: IPv4-mapped `::ffff:a.b.c.d`,
IPv4-compatible `::a.b.c.d`, NAT64 `64:ff9b::/96`, 6to4 `2002::/16`, Teredo), and delivery
connects to the address checked (`Target.address`), never resolving the name again.

Always refused, whatever WEBHOOK_ALLOW_PRIVATE_NETWORKS says: the unspecified address
(`0.0.0.0`, `::`: it reaches this host), multicast, and this service itself (its
PUBLIC_BASE_URL host and port, the host a request came in on, and any loopback address at
one of those ports). WEBHOOK_ALLOW_PRIVATE_NETWORKS=true lets other loopback, private and
link-local addresses through (a receiver on the same machine or network).
"""

from __future__ import annotations

import ipaddress
import socket
from dataclasses import dataclass
from typing import Protocol
from urllib.parse import urlsplit

from market.domain.errors import InvalidRequestError

Address = ipaddress.IPv4Address | ipaddress.IPv6Address


class Settings(Protocol):
    """What the guard reads of the delivery settings (notify.delivery.Settings)."""

    @property
    def own_hosts(self) -> frozenset[str]: ...

    @property
    def allow_private_networks(self) -> bool: ...


_NAT64 = ipaddress.ip_network("64:ff9b::/96")
_NAT64_LOCAL = ipaddress.ip_network("64:ff9b:1::/48")
_COMPATIBLE = ipaddress.ip_network("::/96")


class UnsafeTargetError(InvalidRequestError):
    code = "unsafe_webhook_url"


@dataclass(frozen=True)
class Target:
    scheme: str
    host: str  # the name, for the Host header and TLS (SNI, certificate check)
    port: int
    address: str  # the checked address delivery connects to
    path: str  # path and query


def forms(address: Address) -> list[Address]:
    """The address and every IPv4 address it carries."""
    found: list[Address] = [address]
    if isinstance(address, ipaddress.IPv6Address):
        low = ipaddress.IPv4Address(int(address) & 0xFFFFFFFF)
        if address.ipv4_mapped is not None:
            found.append(address.ipv4_mapped)
        if address.sixtofour is not None:
            found.append(address.sixtofour)
        if address.teredo is not None:
            found.extend(address.teredo)
        if address in _NAT64 or address in _NAT64_LOCAL:
            found.append(low)
        if address in _COMPATIBLE and int(address) > 1:
            found.append(low)
    return found


def _own_ports(settings: Settings) -> set[int]:
    return {int(h.rpartition(":")[2]) for h in settings.own_hosts if h.rpartition(":")[2].isdigit()}


def check_address(address: Address, port: int, settings: Settings) -> None:
    own_ports = _own_ports(settings)
    for form in forms(address):
        if form.is_unspecified or form.is_multicast:
            raise UnsafeTargetError(
                f"A webhook may not be sent to {address} (it reaches this host).",
                {"address": str(address)},
            )
        if f"{form}:{port}" in settings.own_hosts or (form.is_loopback and port in own_ports):
            raise UnsafeTargetError("A webhook may not point at this service itself.", {})
        if not form.is_global and not settings.allow_private_networks:
            raise UnsafeTargetError(
                f"The webhook host resolves to a non-public address ({address}).",
                {"address": str(address)},
            )


def check_target(url: str, settings: Settings) -> Target:
    """The URL's checked target, or UnsafeTargetError."""
    parts = urlsplit(url)
    if parts.scheme not in ("http", "https") or not parts.hostname:
        raise UnsafeTargetError("A webhook URL must be http:// or https:// with a host.", {})
    try:
        port = parts.port or (443 if parts.scheme == "https" else 80)
    except ValueError:
        raise UnsafeTargetError("The webhook URL's port is not a number.", {}) from None
    host = parts.hostname.lower()
    if f"{host}:{port}" in settings.own_hosts:
        raise UnsafeTargetError("A webhook may not point at this service itself.", {})
    try:
        infos = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)
    except (socket.gaierror, UnicodeError):
        raise UnsafeTargetError(f"The webhook host {host} does not resolve.", {}) from None
    addresses = [ipaddress.ip_address(str(info[4][0]).split("%", 1)[0]) for info in infos]
    if not addresses:
        raise UnsafeTargetError(f"The webhook host {host} does not resolve.", {})
    for address in addresses:
        check_address(address, port, settings)
    path = (parts.path or "/") + (f"?{parts.query}" if parts.query else "")
    return Target(parts.scheme, host, port, str(addresses[0]), path)
