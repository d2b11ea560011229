"""Type-ahead pickers that stay small as the market grows: a form carries the first
parties and certificates only, /pickers/* answers the matches of what is typed, and the
ledger's party filter takes what the picker offers (name · tax id) as well as an id."""

from __future__ import annotations

import re
from typing import Any

from market.services.kernel.uow import ReadOnly
from market.services.queries import pickers
from tests.e2e.test_pages_support import browser, make_market
from tests.helpers import create_party


def test_the_party_picker_answers_the_matches_of_what_is_typed(app: Any) -> None:
    m = make_market(app)
    client = browser(app, "authority")
    by_name = client.get("/pickers/parties?q=camden").get_json()["choices"]
    assert [c["value"] for c in by_name] == [pickers.party_label(m.seller)]
    by_tax_id = client.get(f"/pickers/parties?q={m.buyer['tax_id']}").get_json()["choices"]
    assert [c["value"] for c in by_tax_id] == [pickers.party_label(m.buyer)]
    # What the picker offers, typed back, still matches (the label's name part).
    again = client.get("/pickers/parties", query_string={"q": pickers.party_label(m.buyer)})
    assert [c["value"] for c in again.get_json()["choices"]] == [pickers.party_label(m.buyer)]
    assert client.get("/pickers/parties?q=%25").get_json()["choices"] == []  # % is literal


def test_the_certificate_picker_matches_the_number_from_its_start(app: Any) -> None:
    m = make_market(app)
    client = browser(app, "authority")
    number = m.cert["number"]
    found = client.get(f"/pickers/certificates?q={number[:6].lower()}").get_json()["choices"]
    assert {"value": number, "label": "Camden Robotics"} in found
    assert client.get(f"/pickers/certificates?q={number[1:]}").get_json()["choices"] == []


def test_a_form_carries_the_first_parties_only_and_the_picker_address(app: Any) -> None:
    m = make_market(app)
    for n in range(3):
        create_party(m.api, m.eda, name=f"Zeta Holdings {n}")
    with ReadOnly(app.extensions["market.engine"]) as conn:
        first = pickers.party_choices(conn, limit=2)
        last, matching, page, pages = pickers.party_page(conn, "", 3, 2)
        past_the_end = pickers.party_page(conn, "", 9, 2)[2]
        zetas = pickers.party_count(conn, "zeta"), pickers.party_count(conn)
    assert [p["name"] for p in first] == ["Camden Robotics", "Newark Insurance Holdings"]
    assert [p["name"] for p in last] == ["Zeta Holdings 2"] and zetas == (3, 5)
    assert (matching, page, pages, past_the_end) == (5, 3, 3, 3)
    page = browser(app, "authority").get("/authority").get_data(as_text=True)
    datalist = re.search(r'<datalist id="party-choices"[^>]*>(.*?)</datalist>', page, re.S)
    assert datalist and 'data-choices-url="/pickers/parties"' in datalist.group(0)
    assert len(re.findall("<option", datalist.group(1))) == min(5, pickers.CHOICES)


def test_the_ledger_filters_by_the_party_the_picker_offers(app: Any) -> None:
    m = make_market(app)
    client = browser(app, "auditor")
    label = pickers.party_label(m.buyer)
    page = client.get("/ledger", query_string={"party": label}).get_data(as_text=True)
    assert "Newark Insurance Holdings" in page and "was registered as" in page
    assert m.cert["number"] + " was issued" not in page
    assert f'value="{label}"' in page  # the filter shows whom it is filtering by


def test_the_ledger_refuses_a_party_it_cannot_find_and_says_why(app: Any) -> None:
    make_market(app)
    r = browser(app, "auditor").get("/ledger?party=Nobody+Such")
    assert r.status_code == 400
    page = r.get_data(as_text=True)
    assert "No party matches “Nobody Such”" in page and 'aria-invalid="true"' in page


def test_the_party_register_pages_the_parties_in_sql(app: Any, monkeypatch: Any) -> None:
    from market.web import party_admin_pages

    monkeypatch.setattr(party_admin_pages, "PER_PAGE", 2)
    m = make_market(app)
    for n in range(3):
        create_party(m.api, m.eda, name=f"Zeta Holdings {n}")
    eda = browser(app, "authority")
    first = eda.get("/authority/parties").get_data(as_text=True)
    assert "1–2 of 5 parties" in first and "Page 1 of 3" in first
    assert "Camden Robotics" in first and "Zeta Holdings 0</td>" not in first
    third = eda.get("/authority/parties?page=3").get_data(as_text=True)
    assert "5–5 of 5 parties" in third and "Zeta Holdings 2</td>" in third
    found = eda.get("/authority/parties?q=zeta&page=2").get_data(as_text=True)
    assert "3–3 of 3 parties matching “zeta” (5 in all)" in found
    assert "Zeta Holdings 2</td>" in found and "Camden Robotics</td>" not in found
