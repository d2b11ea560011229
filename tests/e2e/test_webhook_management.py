"""Webhooks people manage (issue 27): list, pause, resume, delete; a 410 disables; retries
stop at DELIVERY_MAX_ATTEMPTS; dotted names with the old ones accepted; delivery connects
to the address it checked."""

from __future__ import annotations

import socket
from typing import Any

import pytest

from tests.deals_servers import Receiver
from tests.e2e.test_email_delivery import deliver
from tests.e2e.test_notifications_api import sale
from tests.e2e.test_trading_api import Market
from tests.e2e.test_webhooks import subscribe


@pytest.fixture
def open_app(app: Any) -> Any:
    app.config.update(WEBHOOK_ALLOW_PRIVATE_NETWORKS=True, DELIVERY_BACKOFF_BASE_S=0)
    return app


def log_of(m: Market, hook_id: str) -> list[dict[str, Any]]:
    r = m.get(f"/api/v1/webhooks/{hook_id}/deliveries")
    assert r.status_code == 200, r.json
    return r.json["items"]  # type: ignore[no-any-return]


def test_a_party_lists_pauses_resumes_and_deletes_its_own(open_app: Any, client: Any) -> None:
    m = Market(client)
    with Receiver() as rx:
        hook = subscribe(m, m.buyer_h, rx.url, ["transfer.approved"]).json
        rx.secret = hook["secret"]
        listed = m.get("/api/v1/webhooks", m.buyer_h).json["items"]
        assert [(h["id"], h["status"]) for h in listed] == [(hook["id"], "active")]
        assert m.get("/api/v1/webhooks", m.seller_h).json == {"items": [], "next": None}
        for verb in ("pause", "resume"):
            r = m.post(f"/api/v1/webhooks/{hook['id']}/{verb}", m.seller_h)
            assert r.status_code == 404 and r.json["error"]["code"] == "not_found"
        r = m.post(f"/api/v1/webhooks/{hook['id']}/pause", m.buyer_h)
        assert r.status_code == 200 and r.json["status"] == "paused"
        sale(m)
        assert deliver(open_app)["webhooks"] == {"delivered": 0, "failed": 0}  # held
        assert rx.received == []
        r = m.post(f"/api/v1/webhooks/{hook['id']}/resume", m.buyer_h)
        assert r.status_code == 200 and r.json["status"] == "active"
        assert deliver(open_app)["webhooks"] == {"delivered": 1, "failed": 0}
        assert [x["body"]["type"] for x in rx.received] == ["transfer.approved"]
        assert (
            m.client.delete(f"/api/v1/webhooks/{hook['id']}", headers=m.seller_h).status_code == 404
        )
        assert (
            m.client.delete(f"/api/v1/webhooks/{hook['id']}", headers=m.buyer_h).status_code == 204
        )
        assert m.get(f"/api/v1/webhooks/{hook['id']}", m.buyer_h).status_code == 404
        assert m.get("/api/v1/webhooks", m.buyer_h).json["items"] == []
        sale(m)
        assert deliver(open_app)["webhooks"] == {"delivered": 0, "failed": 0}
    assert len(rx.received) == 1


def test_410_gone_disables_the_subscription(open_app: Any, client: Any) -> None:
    m = Market(client)
    with Receiver() as rx:
        hook = subscribe(m, m.auth, rx.url, ["TRANSFER_APPROVED"]).json
        rx.secret, rx.fail_next, rx.fail_status = hook["secret"], 1, 410
        sale(m)
        assert deliver(open_app)["webhooks"] == {"delivered": 0, "failed": 1}
        assert m.get(f"/api/v1/webhooks/{hook['id']}").json["status"] == "disabled"
        assert deliver(open_app)["webhooks"] == {"delivered": 0, "failed": 0}  # not retried
        assert [d["attempts"] for d in log_of(m, hook["id"])] == [1]
        m.post(f"/api/v1/webhooks/{hook['id']}/resume", m.auth)
        assert deliver(open_app)["webhooks"] == {"delivered": 1, "failed": 0}


def test_retries_stop_after_delivery_max_attempts(open_app: Any, client: Any) -> None:
    open_app.config["DELIVERY_MAX_ATTEMPTS"] = 3
    m = Market(client)
    with Receiver() as rx:
        hook = subscribe(m, m.auth, rx.url, ["transfer.approved"]).json
        rx.secret, rx.fail_next = hook["secret"], 100
        sale(m)
        for _ in range(5):
            deliver(open_app)
    log = log_of(m, hook["id"])
    assert [(d["status"], d["attempts"]) for d in log] == [("failed", 3)]
    assert [a["status_code"] for a in log[0]["attempt_log"]] == [500, 500, 500]


def test_the_settings_default_to_fifteen_seconds_and_twelve_attempts(app: Any) -> None:
    assert app.config["DELIVERY_TIMEOUT_S"] == 15.0
    assert app.config["DELIVERY_MAX_ATTEMPTS"] == 12


def test_old_and_dotted_names_filter_alike(open_app: Any, client: Any) -> None:
    m = Market(client)
    hook = subscribe(m, m.auth, "http://127.0.0.1:9/x", ["OFFER_MADE", "transfer.approved"])
    assert hook.status_code == 201 and hook.json["event_types"] == [
        "OFFER_MADE",
        "transfer.approved",
    ]
    bad = subscribe(m, m.auth, "http://127.0.0.1:9/x", ["transfer.nothing"])
    assert bad.status_code == 400 and bad.json["error"]["details"]["unknown"] == [
        "transfer.nothing"
    ]


def test_delivery_connects_to_the_address_it_checked(
    open_app: Any, client: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A name that resolves to the receiver when checked, then (a rebinding attack) to
    somewhere else: the message still goes to the checked address, resolved once."""
    real = socket.getaddrinfo
    lookups: list[str] = []

    def rebinding(host: Any, port: Any, *args: Any, **kwargs: Any) -> Any:
        if host == "hooks.rebind.test":
            lookups.append(host)
            address = "127.0.0.1" if len(lookups) % 2 == 1 else "192.0.2.1"  # TEST-NET-1
            return real(address, port, *args, **kwargs)
        return real(host, port, *args, **kwargs)

    monkeypatch.setattr(socket, "getaddrinfo", rebinding)
    m = Market(client)
    with Receiver() as rx:
        url = rx.url.replace("127.0.0.1", "hooks.rebind.test")
        hook = subscribe(m, m.auth, url, ["transfer.approved"]).json
        rx.secret = hook["secret"]
        sale(m)
        lookups.clear()
        assert deliver(open_app)["webhooks"] == {"delivered": 1, "failed": 0}
    assert lookups == ["hooks.rebind.test"]  # one lookup: the check's
    assert rx.received[0]["headers"]["host"] == url.split("/")[2]  # the name, not the IP


def test_the_account_page_lists_pauses_and_shows_the_delivery_log(
    open_app: Any, client: Any
) -> None:
    from tests.e2e.test_pages_foundation import _csrf, sign_in

    m = Market(client)
    with Receiver() as rx:
        hook = subscribe(m, m.buyer_h, rx.url, ["transfer.approved"]).json
        rx.secret = hook["secret"]
        sale(m)
        deliver(open_app)
    page = open_app.test_client()
    sign_in(page, open_app, "participant", m.buyer["id"])
    listed = page.get("/account/webhooks")
    assert listed.status_code == 200 and rx.url in listed.get_data(as_text=True)
    one = page.get(f"/account/webhooks/{hook['id']}")
    text = one.get_data(as_text=True)
    assert one.status_code == 200 and "delivered" in text and "TRANSFER_APPROVED" in text
    r = page.post(f"/account/webhooks/{hook['id']}/pause", data={"csrf_token": _csrf(one.data)})
    assert r.status_code == 302
    assert m.get(f"/api/v1/webhooks/{hook['id']}", m.buyer_h).json["status"] == "paused"
    stranger = open_app.test_client()
    sign_in(stranger, open_app, "participant", m.seller["id"])
    assert stranger.get(f"/account/webhooks/{hook['id']}").status_code == 404
