"""History in words: the certificate page and /ledger print a sentence per event with the
raw payload behind a disclosure, and /ledger filters by type, party and day."""

from __future__ import annotations

from typing import Any

from tests.e2e.test_pages_support import browser, make_market


def test_the_certificate_history_reads_in_sentences_with_the_payload_disclosed(app: Any) -> None:
    m = make_market(app)
    m.listing()
    page = browser(app, "authority").get(f"/certificates/{m.cert['id']}").get_data(as_text=True)
    history = page[page.index("<h2>History</h2>") :]
    assert f"Certificate {m.cert['number']} was issued to Camden Robotics" in history
    assert "Camden Robotics listed $1,000,000.00 of credit from " + m.cert["number"] in history
    assert "<details" in history and "LISTING_CREATED" in history  # raw payload on request
    assert history.index("<details") < history.index('"ask_cents"')


def test_the_ledger_filters_by_type(app: Any) -> None:
    m = make_market(app)
    m.listing()
    page = browser(app, "auditor").get("/ledger?type=LISTING_CREATED").get_data(as_text=True)
    assert "Camden Robotics listed $1,000,000.00" in page
    assert "was registered as" not in page


def test_the_ledger_filters_by_party(app: Any) -> None:
    m = make_market(app)
    page = browser(app, "auditor").get(f"/ledger?party={m.buyer['id']}").get_data(as_text=True)
    assert "Newark Insurance Holdings" in page and "was registered as" in page
    assert "Camden Robotics (" not in page  # the seller's registration does not name the buyer
    assert m.cert["number"] + " was issued" not in page


def test_the_ledger_filters_by_day_and_refuses_a_bad_date(app: Any) -> None:
    make_market(app)
    client = browser(app, "auditor")
    future = client.get("/ledger?from=2999-01-01").get_data(as_text=True)
    assert "No events match the filters" in future
    past = client.get("/ledger?to=2000-01-01").get_data(as_text=True)
    assert "No events match the filters" in past
    wide = client.get("/ledger?from=2000-01-01&to=2999-12-31").get_data(as_text=True)
    assert "was registered as" in wide
    bad = client.get("/ledger?from=yesterday")
    assert bad.status_code == 400
    assert b'aria-invalid="true"' in bad.data and b"Enter a date like" in bad.data


def test_the_printed_certificate_carries_its_issue_day_and_a_verification_code(app: Any) -> None:
    m = make_market(app)
    client = browser(app, "auditor")
    page = client.get(f"/certificates/{m.cert['id']}").get_data(as_text=True)
    issued = client.get("/ledger?type=CERT_ISSUED").get_data(as_text=True)
    seq = issued.split('<td class="num" data-label="Seq">', 1)[1].split("<", 1)[0]
    digest = issued.split('data-label="Hash" class="hash">', 1)[1][:16]
    assert "by the New Jersey Economic Development Authority" in page
    assert f'Verification code <strong class="hash">{seq}-{digest}</strong>' in page
