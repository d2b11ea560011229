"""The covenant monitor (PRODUCT.md 8.3; TB-25, TB-40, AMB-47): each TECH sale's own
headquarters window, the sliding-scale exposure if the seller moved today, and the
use-of-proceeds certifications with their reminder dates."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import replace
from datetime import date
from typing import Any

import pytest

from market.domain.rulesets import A1178
from market.services.kernel import clock
from tests.e2e.test_tech_api import seller
from tests.helpers import confirm_as_buyer, create_party, headers_for, tech_certificate

M = 100_000_000
URL = "/api/v1/monitor/covenants"


@pytest.fixture
def day(app: Any) -> Iterator[Any]:
    def set_day(iso: str) -> None:
        clock.configure(date.fromisoformat(iso))

    yield set_day
    clock.configure(None)


class TechSales:
    def __init__(self, client: Any, day: Any) -> None:
        self.client = client
        self.engine = client.application.extensions["market.engine"]
        self.auth = headers_for(client, self.engine, "authority")
        self.seller = seller(client, self.auth, name="Princeton Photonics")
        self.buyer = create_party(client, self.auth, name="Insurer", tax_types=["CBT"])
        seller_h = headers_for(client, self.engine, "participant", self.seller["id"])
        buyer_h = headers_for(client, self.engine, "participant", self.buyer["id"])
        cert = tech_certificate(self.engine, self.seller["id"], 5 * M)
        self.transfers = []
        for on, uses in (("2014-03-01", ["salaries"]), ("2015-06-01", None)):
            day(on)
            body: dict[str, Any] = {
                "certificate_id": cert,
                "buyer_party_id": self.buyer["id"],
                "amount_cents": M,
                "consideration_cents": 85 * 10**6,
            }
            if uses:
                body["use_of_proceeds"] = uses
            r = client.post("/api/v1/transfers", json=body, headers=seller_h)
            assert r.status_code == 201, r.json
            confirm_as_buyer(client, r.json, buyer_h)  # the buyer consents (PRODUCT.md 8.2)
            a = client.post(
                f"/api/v1/transfers/{r.json['id']}/approve",
                json={"exchange_date": on},
                headers=self.auth,
            )
            assert a.status_code == 200, a.json
            self.transfers.append(r.json["id"])

    def monitor(self, headers: Any = None) -> Any:
        return self.client.get(URL, headers=headers or self.auth)


def test_each_sale_has_its_window_exposure_and_next_certification(client: Any, day: Any) -> None:
    s = TechSales(client, day)
    day("2016-09-01")
    r = s.monitor()
    assert r.status_code == 200, r.json
    [seller_row] = r.json["items"]
    assert seller_row["name"] == "Princeton Photonics" and seller_row["open_windows"] == 2
    first, second = seller_row["transfers"]
    assert (first["transfer_id"], first["pfa_received_on"], first["hq_window_end"]) == (
        s.transfers[0],
        "2014-03-01",
        "2019-03-01",
    )
    # 911 of the window's 1,826 days left: $1,000,000 x 911 / 1,826, rounded down.
    assert first["days_left"] == 911 and first["exposure_if_moved_today_cents"] == 49_890_470
    assert first["certifications_due"] == [
        "2015-03-01",
        "2016-03-01",
        "2017-03-01",
        "2018-03-01",
        "2019-03-01",
    ]
    assert first["next_certification_due"] == "2017-03-01"
    assert first["reminders"] == [
        {
            "kind": "use_of_proceeds_certification",
            "remind_on": "2016-12-01",
            "due_on": "2017-03-01",
        },
        {
            "kind": "use_of_proceeds_certification",
            "remind_on": "2017-01-30",
            "due_on": "2017-03-01",
        },
        {"kind": "hq_window_end", "remind_on": "2018-12-01", "due_on": "2019-03-01"},
        {"kind": "hq_window_end", "remind_on": "2019-01-30", "due_on": "2019-03-01"},
    ]
    assert first["use_of_proceeds"] == ["salaries"] and second["use_of_proceeds"] == []
    assert second["hq_window_end"] == "2020-06-01"  # its own window (AMB-47)
    assert seller_row["exposure_if_moved_today_cents"] == (
        first["exposure_if_moved_today_cents"] + second["exposure_if_moved_today_cents"]
    )
    assert seller_row["next_certification_due"] == "2017-03-01"


def test_a_closed_window_carries_no_exposure_and_full_scale_keeps_it_all(
    client: Any, day: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    s = TechSales(client, day)
    day("2019-03-02")
    first, second = s.monitor().json["items"][0]["transfers"]
    assert (first["window_open"], first["exposure_if_moved_today_cents"]) == (False, 0)
    assert first["next_certification_due"] is None and first["reminders"] == []
    assert second["window_open"] and 0 < second["exposure_if_moved_today_cents"] < M
    monkeypatch.setattr(
        "market.api.covenants.ruleset", lambda: replace(A1178, tech_hq_recapture_scale="full")
    )
    full = s.monitor().json
    assert full["scale"] == "full"
    assert [t["exposure_if_moved_today_cents"] for t in full["items"][0]["transfers"]] == [0, M]


def test_only_the_authority_and_auditors_see_the_monitor(client: Any, day: Any) -> None:
    s = TechSales(client, day)
    assert s.monitor(headers_for(client, s.engine, "auditor")).status_code == 200
    seller_h = headers_for(client, s.engine, "participant", s.seller["id"])
    assert s.monitor(seller_h).status_code == 403
    assert client.get(URL).status_code == 401


def test_the_covenant_page_lists_the_windows(client: Any, app: Any, day: Any) -> None:
    from tests.e2e.test_pages_foundation import sign_in

    s = TechSales(client, day)
    day("2016-09-01")
    sign_in(client, app, "auditor")
    page = client.get("/monitor/covenants").data.decode()
    assert "Princeton Photonics" in page and "2019-03-01" in page and "$498,904.70" in page
    assert "2016-12-01 (use of proceeds certification)" in page
    seller = app.test_client()
    sign_in(seller, app, "participant", s.seller["id"])
    assert seller.get("/monitor/covenants").status_code == 403
