"""The certificate page halts and resumes trading (PRODUCT.md 8.3)."""

from __future__ import annotations

from typing import Any

from tests.e2e.test_halts_api import Halted
from tests.e2e.test_pages_foundation import _csrf, sign_in
from tests.e2e.test_pages_support import confirm_form


def test_the_authority_halts_and_lifts_from_the_certificate_page(client: Any, app: Any) -> None:
    h = Halted(client)
    sign_in(client, app, "authority")
    url = f"/certificates/{h.award['id']}"
    page = client.get(url).data.decode()
    assert "Issue notice and halt trading" in page and "Trading halted." not in page
    action = f"/authority/certificates/{h.award['id']}/notices"
    before = h.get(f"/api/v1/certificates/{h.award['id']}/notices").json["items"]
    review = client.post(
        action,
        data={"kind": "recapture", "reason": "HQ moved", "csrf_token": _csrf(page.encode())},
    )
    shown = review.data.decode()
    assert review.status_code == 200 and "Confirm: halt trading" in shown
    assert "2 (this one and every certificate derived from it)" in shown  # rehearsed
    assert h.get(f"/api/v1/certificates/{h.award['id']}/notices").json["items"] == before
    r = confirm_form(client, url, action, {"kind": "recapture", "reason": "HQ moved"})
    assert r.status_code == 302, r.data
    page = client.get(url).data.decode()
    assert "Trading halted in 2 certificates; 1 listing(s) suspended." in page
    assert 'id="trading-halted"' in page and "HQ moved" in page
    notice_id = h.get(f"/api/v1/certificates/{h.award['id']}/notices").json["items"][0]["id"]
    # The buyer's certificate, derived from the award, shows the halt and its ancestor's notice.
    child = client.get(f"/certificates/{h.child_id}").data.decode()
    assert 'id="trading-halted"' in child and "an ancestor" in child

    empty = client.post(
        f"/authority/certificates/{h.award['id']}/notices",
        data={"kind": "recapture", "reason": "", "csrf_token": _csrf(page.encode())},
    )
    assert empty.status_code == 400 and b"The reason" in empty.data
    r = client.post(
        f"/authority/certificates/{h.award['id']}/notices/{notice_id}/lift",
        data={"reason": "cleared", "csrf_token": _csrf(page.encode())},
    )
    assert r.status_code == 302, r.data
    page = client.get(url).data.decode()
    assert "Notice lifted; 1 listing(s) back on the market." in page
    assert 'id="trading-halted"' not in page


def test_a_holder_sees_the_halt_but_not_the_notice_forms(client: Any, app: Any) -> None:
    h = Halted(client)
    h.notice(h.award["id"])
    sign_in(client, app, "participant", h.buyer["id"])
    page = client.get(f"/certificates/{h.child_id}").data.decode()
    assert 'id="trading-halted"' in page
    assert "Issue notice" not in page and "Lift" not in page
