"""The webhook SSRF guard (issue 27): every form an IPv6 address can carry an IPv4 one
in, the unspecified address, and this service's own listening address even where private
networks are allowed."""

from __future__ import annotations

import pytest

from market.adapters.notifications.target_guard import UnsafeTargetError, check_target
from market.services.notify.delivery import Settings

CLOSED = Settings(own_hosts=frozenset({"market.example:443", "127.0.0.1:5000"}))
OPEN = Settings(
    allow_private_networks=True, own_hosts=frozenset({"market.example:443", "127.0.0.1:5000"})
)


@pytest.mark.parametrize(
    "url",
    [
        "http://[64:ff9b::7f00:1]/",  # NAT64 for 127.0.0.1
        "http://[64:ff9b::a00:1]/",  # NAT64 for 10.0.0.1
        "http://[2002:7f00:1::]/",  # 6to4 for 127.0.0.1
        "http://[2002:a9fe:a9fe::]/",  # 6to4 for 169.254.169.254
        "http://[::ffff:127.0.0.1]/",  # IPv4-mapped
        "http://[::ffff:a9fe:a9fe]/",  # IPv4-mapped metadata address
        "http://[::127.0.0.1]/",  # IPv4-compatible
        "http://[::1]/",
        "http://0.0.0.0/",
        "http://[::]/",
        "http://0/",
    ],
)
def test_embedded_and_special_addresses_are_refused(url: str) -> None:
    with pytest.raises(UnsafeTargetError):
        check_target(url, CLOSED)


@pytest.mark.parametrize(
    "url",
    [
        "http://0.0.0.0:5000/",
        "http://0.0.0.0:9999/",  # the unspecified address reaches this host: never
        "http://[::]:8080/",
        "http://[::1]:5000/api/v1/parties",  # loopback at the service's own port
        "http://127.0.0.2:5000/",
        "http://[::ffff:127.0.0.1]:5000/",
        "http://[64:ff9b::7f00:1]:5000/",
        "http://localhost:5000/",
        "http://[ff02::1]:9/",  # multicast
    ],
)
def test_the_service_itself_is_refused_even_with_private_networks_allowed(url: str) -> None:
    with pytest.raises(UnsafeTargetError):
        check_target(url, OPEN)


def test_private_receivers_pass_when_allowed_and_the_checked_address_is_kept() -> None:
    target = check_target("http://127.0.0.1:8123/hook?x=1", OPEN)
    assert (target.address, target.port, target.path) == ("127.0.0.1", 8123, "/hook?x=1")
    assert check_target("http://[::1]:8123/", OPEN).address == "::1"
    with pytest.raises(UnsafeTargetError):
        check_target("http://127.0.0.1:8123/hook", CLOSED)
