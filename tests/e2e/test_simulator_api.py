"""The live TECH cap meter and allocation simulator (PRODUCT.md 8.3): before June 30 the
Authority sees what intake-closed-now would give; each applicant sees its own rows and
lifetime headroom; after the commit the simulation is the committed allocation."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import date
from typing import Any

import pytest

from market.services.kernel import clock
from tests.e2e.test_tech_api import T1, apply, seller
from tests.helpers import headers_for

DOLLAR = 100


@pytest.fixture
def business_day() -> Iterator[Any]:
    def set_day(day: str) -> None:
        clock.configure(date.fromisoformat(day))

    yield set_day
    clock.configure(None)


REQUESTS = [*T1, ("X1", 10_000_000, False), ("X2", 10_000_000, False)]


class Intake:
    """RULES.md T-1's nine requests and two more of $10M for FY 2013, under A1178's $15M
    lifetime cap (so N4's $20M and N5's $30M enter the allocation at $15M), N1 having had
    $1M in FY 2012: $70.7M against the $60M cap."""

    def __init__(self, client: Any, business_day: Any) -> None:
        self.client = client
        self.engine = client.application.extensions["market.engine"]
        self.auth = headers_for(client, self.engine, "authority")
        self.parties: dict[str, str] = {}
        self.apps: dict[str, str] = {}
        business_day("2012-08-01")
        for name, _, _ in REQUESTS:
            self.parties[name] = seller(client, self.auth, name=name)["id"]
        earlier = apply(
            client,
            self.auth,
            self.parties["N1"],
            rnd_credit_cents=1_000_000 * DOLLAR,
            received_on="2012-03-01",
        )
        assert earlier.status_code == 201, earlier.json
        assert client.post("/api/v1/tech/allocations/2012", headers=self.auth).status_code == 201
        business_day("2013-05-01")
        for day, (name, dollars, zone) in enumerate(REQUESTS, start=1):
            r = apply(
                client,
                self.auth,
                self.parties[name],
                rnd_credit_cents=dollars * DOLLAR,
                in_innovation_zone=zone,
                received_on=f"2013-04-{day:02d}",
            )
            assert r.status_code == 201, r.json
            self.apps[name] = r.json["id"]

    def simulation(self, headers: dict[str, str]) -> Any:
        return self.client.get("/api/v1/tech/allocations/2013/simulation", headers=headers)


def test_before_the_deadline_the_authority_sees_the_meter_and_every_row(
    client: Any, business_day: Any
) -> None:
    i = Intake(client, business_day)
    r = i.simulation(i.auth)
    assert r.status_code == 200, r.json
    s = r.json
    assert (s["committed"], s["intake_open"], s["deadline"]) == (False, True, "2013-06-30")
    assert (s["cap_cents"], s["zone_setaside_cents"]) == (6_000_000_000, 1_000_000_000)
    requested = {a["application_id"]: a["request_cents"] for a in s["allocations"]}
    assert requested[i.apps["N4"]] == requested[i.apps["N5"]] == 1_500_000_000  # TB-5 clip
    assert s["meter"]["requested_cents"] == sum(requested.values()) == 7_070_000_000
    assert s["meter"]["oversubscribed_by_cents"] == 1_070_000_000
    assert s["meter"]["zone_requested_cents"] == 515_000_000
    assert s["triggered"] is True and s["total_cents"] == 6_000_000_000
    assert sum(a["allocated_cents"] for a in s["allocations"]) == 6_000_000_000
    n1 = next(a for a in s["allocations"] if a["application_id"] == i.apps["N1"])
    assert (n1["lifetime_approved_cents"], n1["lifetime_headroom_cents"]) == (
        100_000_000,
        1_400_000_000,
    )
    assert n1["headroom_after_cents"] == 1_400_000_000 - n1["allocated_cents"]
    auditor = headers_for(client, i.engine, "auditor")
    assert i.simulation(auditor).json["allocations"] == s["allocations"]


def test_an_applicant_sees_only_its_own_row_and_headroom(client: Any, business_day: Any) -> None:
    i = Intake(client, business_day)
    n1 = headers_for(client, i.engine, "participant", i.parties["N1"])
    s = i.simulation(n1).json
    assert [a["application_id"] for a in s["allocations"]] == [i.apps["N1"]]
    assert s["lifetime_headroom_cents"] == 1_400_000_000 and s["party_id"] == i.parties["N1"]
    assert "meter" not in s and "total_cents" not in s  # nobody else's demand
    other = seller(client, i.auth, name="Not an applicant")
    s = i.simulation(headers_for(client, i.engine, "participant", other["id"])).json
    assert s["allocations"] == [] and s["lifetime_headroom_cents"] == 1_500_000_000


def test_after_the_commit_the_simulation_equals_the_committed_allocation(
    client: Any, business_day: Any
) -> None:
    i = Intake(client, business_day)
    before = i.simulation(i.auth).json
    business_day("2013-07-01")
    committed = client.post("/api/v1/tech/allocations/2013", headers=i.auth)
    assert committed.status_code == 201, committed.json
    after = i.simulation(i.auth).json
    assert after["committed"] is True and after["intake_open"] is False

    def amounts(rows: list[dict[str, Any]]) -> dict[str, tuple[int, int]]:
        return {a["application_id"]: (a["request_cents"], a["allocated_cents"]) for a in rows}

    assert amounts(after["allocations"]) == amounts(before["allocations"])
    assert {a["application_id"]: a["allocated_cents"] for a in committed.json["allocations"]} == {
        k: v[1] for k, v in amounts(before["allocations"]).items()
    }
    assert all(a["certificate_id"] for a in after["allocations"] if a["allocated_cents"])
    assert after["total_cents"] == before["total_cents"] and after["meter"] == before["meter"]
    n1 = next(a for a in after["allocations"] if a["application_id"] == i.apps["N1"])
    assert n1["lifetime_headroom_cents"] == before_n1_after(before, i.apps["N1"])


def before_n1_after(simulation: dict[str, Any], application_id: str) -> int:
    row = next(a for a in simulation["allocations"] if a["application_id"] == application_id)
    return int(row["headroom_after_cents"])


def test_signing_in_is_required(client: Any) -> None:
    r = client.get("/api/v1/tech/allocations/2013/simulation")
    assert r.status_code == 401 and r.json["error"]["code"] == "unauthorized"


def test_the_answer_has_the_schema_shape_and_follows_every_new_application(
    client: Any, business_day: Any
) -> None:
    from market.api.simulator import SimulationOut

    i = Intake(client, business_day)
    first = i.simulation(i.auth).json
    assert SimulationOut().dump(first) == first  # exactly the documented fields and types
    assert i.simulation(i.auth).json == first  # the same ledger state, the same answer
    late = seller(client, i.auth, name="Late")
    r = apply(
        client, i.auth, late["id"], rnd_credit_cents=5_000_000 * DOLLAR, received_on="2013-04-30"
    )
    assert r.status_code == 201, r.json
    second = i.simulation(i.auth).json
    assert second["meter"]["applications"] == first["meter"]["applications"] + 1
    assert r.json["id"] in {a["application_id"] for a in second["allocations"]}
    assert sum(a["allocated_cents"] for a in second["allocations"]) == 6_000_000_000


def test_the_cap_meter_page_shows_the_authority_the_meter_and_an_applicant_its_row(
    client: Any, app: Any, business_day: Any
) -> None:
    from tests.e2e.test_pages_foundation import sign_in

    i = Intake(client, business_day)
    sign_in(client, app, "authority")
    page = client.get("/tech/cap-meter?fiscal_year=2013").data.decode()
    assert "Intake is open until 2013-06-30" in page and "$70,700,000.00" in page
    assert "$10,700,000.00" in page and page.count('"><a href="/deals/tech/tapp_') == 11
    other = app.test_client()
    sign_in(other, app, "participant", i.parties["N1"])
    mine = other.get("/tech/cap-meter?fiscal_year=2013").data.decode()
    assert mine.count('"><a href="/deals/tech/tapp_') == 1 and i.apps["N1"] in mine
    assert ">tapp_" not in mine  # the applicant by name, not its application's id
    assert "$14,000,000.00" in mine and "$70,700,000.00" not in mine
    assert other.get("/tech/cap-meter?fiscal_year=later").status_code == 400
