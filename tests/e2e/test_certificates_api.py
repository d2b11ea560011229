"""Certificates over the API: issuance under caps, UTH tranches, the digital media FIFO queue
and its roll into the next fiscal year, reads with lineage, roles, and the caps report."""

from __future__ import annotations

from typing import Any

from tests.helpers import brrag_award, create_party, events, headers_for

M = 100_000_000  # one million dollars in cents


def _setup(client: Any) -> tuple[Any, dict[str, str], dict[str, Any]]:
    engine = client.application.extensions["market.engine"]
    auth = headers_for(client, engine, "authority")
    seller = create_party(client, auth, name="Hudson Media", tax_types=["CBT"])
    return engine, auth, seller


def _issue(client: Any, auth: dict[str, str], **body: Any) -> Any:
    if body.get("program") == "BRRAG" and isinstance(body.get("face_cents"), int):
        body = brrag_award(max(1, body["face_cents"])) | body
    return client.post("/api/v1/certificates", json=body, headers=auth)


def _caps(client: Any, headers: dict[str, str], fy: int) -> dict[str, dict[str, int]]:
    r = client.get(f"/api/v1/reports/caps?fiscal_year={fy}", headers=headers)
    assert r.status_code == 200, r.json
    assert r.json["fiscal_year"] == fy
    return {row["program"]: row for row in r.json["programs"]}


def test_brrag_issuance_charges_the_fiscal_year_cap(client: Any) -> None:
    _, auth, seller = _setup(client)
    r = _issue(
        client,
        auth,
        program="BRRAG",
        holder_party_id=seller["id"],
        face_cents=19 * M,
        fiscal_year=2014,
        credit_year=2013,
    )
    assert r.status_code == 201, r.json
    cert = r.json
    assert cert["number"] == "BRRAG-2014-000001"
    assert cert["status"] == "issued"
    assert cert["balance_cents"] == cert["allowed_cents"] == 19 * M
    assert cert["queued_cents"] == 0 and cert["parent_id"] is None
    assert cert["tax_types"] == ["CBT", "GIT", "IPT"]
    assert "Hudson Media waives" in cert["waiver_statement"]
    assert cert["ruleset"] == "A1178"
    assert cert["carryover_last_year"] == 2014  # BR-11: the period of issue (2013) and the next

    # A cent more than the $1M left is refused (cap_exceeded, BR-12): tests/unit/services.
    # Exactly the remaining room fits; another fiscal year has its own cap.
    assert (
        _issue(
            client,
            auth,
            program="BRRAG",
            holder_party_id=seller["id"],
            face_cents=M,
            fiscal_year=2014,
        ).status_code
        == 201
    )
    assert (
        _issue(
            client,
            auth,
            program="BRRAG",
            holder_party_id=seller["id"],
            face_cents=M,
            fiscal_year=2015,
        ).status_code
        == 201
    )
    caps = _caps(client, auth, 2014)
    assert caps["BRRAG"] == {
        "program": "BRRAG",
        "cap_cents": 20 * M,
        "used_cents": 20 * M,
        "queued_cents": 0,
        "remaining_cents": 0,
    }
    assert caps["TECH"]["used_cents"] == 0 and caps["TECH"]["cap_cents"] == 60 * M
    assert set(caps) == {
        "BRRAG",
        "UTH",
        "UTH_CUMULATIVE",
        "DM_CBT",
        "DM_GIT_FILM_POOL",
        "TECH",
        "TECH_ZONE_SET_ASIDE",
    }


def test_uth_installments_are_charged_per_fiscal_year_and_cumulatively(client: Any) -> None:
    _, auth, seller = _setup(client)
    r = _issue(
        client,
        auth,
        program="UTH",
        holder_party_id=seller["id"],
        face_cents=24 * M + 7,
        fiscal_year=2014,
        tax_periods=[2013],
    )
    assert r.status_code == 201, r.json
    tranches = r.json["tax_periods"]
    assert [t["period"] for t in tranches] == list(range(2013, 2023))
    # UTH-13: a calendar-year filer's period P commences January 1 of P, in FY P
    assert [t["fiscal_year"] for t in tranches] == list(range(2013, 2023))
    # UTH-7 / CMN-2: the 7 odd cents go one each to the earliest installments.
    assert [t["cents"] for t in tranches] == [2_400_000_01] * 7 + [2_400_000_00] * 3
    assert tranches[0]["carryforward_last_period"] == 2033
    caps = _caps(client, auth, 2013)
    assert caps["UTH"]["used_cents"] == 2_400_000_01
    assert caps["UTH_CUMULATIVE"]["used_cents"] == 24 * M + 7
    assert caps["UTH_CUMULATIVE"]["cap_cents"] == 1_500 * M
    assert _caps(client, auth, 2022)["UTH"]["used_cents"] == 2_400_000_00
    # An award over the FY or the cumulative cap (cap_exceeded): tests/unit/services.


def test_uth_tax_periods_must_be_the_first_period_or_consecutive(client: Any) -> None:
    engine, auth, seller = _setup(client)
    before = events(engine)
    r = _issue(
        client,
        auth,
        program="UTH",
        holder_party_id=seller["id"],
        face_cents=M,
        fiscal_year=2014,
        tax_periods=[2013, 2015],
    )
    assert r.status_code == 422 and r.json["error"]["code"] == "invalid_request"
    assert events(engine) == before


def test_dm_cbt_queue_follows_the_rules_example_and_rolls_on_july_first(client: Any) -> None:
    """RULES 5.5: #1 $2.0M, #2 $2.5M, #3 $1.2M (0.5 allowed, 0.7 deferred), #4 $0.3M deferred;
    on July 1, 2014 the queue is allowed in FY2015, leaving $4.0M."""
    _, auth, seller = _setup(client)
    issued = []
    for face in (200 * 10**6, 250 * 10**6, 120 * 10**6, 30 * 10**6):
        r = _issue(
            client,
            auth,
            program="DM_CBT",
            holder_party_id=seller["id"],
            face_cents=face,
            fiscal_year=2014,
        )
        assert r.status_code == 201, r.json
        issued.append(r.json)
    assert [c["status"] for c in issued] == ["issued", "issued", "partially_queued", "queued"]
    assert [c["balance_cents"] for c in issued] == [2 * M, 250 * 10**6, 50 * 10**6, 0]
    assert [c["queued_cents"] for c in issued] == [0, 0, 70 * 10**6, 30 * 10**6]
    assert issued[0]["tax_types"] == ["CBT", "GIT"]
    caps = _caps(client, auth, 2014)["DM_CBT"]
    assert caps == {
        "program": "DM_CBT",
        "cap_cents": 5 * M,
        "used_cents": 5 * M,
        "queued_cents": M,
        "remaining_cents": 0,
    }

    # A queued amount is not usable (insufficient_balance): tests/unit/services/trading.

    # The first FY2015 request rolls the pool before it is processed.
    r = _issue(
        client,
        auth,
        program="DM_CBT",
        holder_party_id=seller["id"],
        face_cents=4 * M + 1,
        fiscal_year=2015,
    )
    assert r.status_code == 201
    assert r.json["balance_cents"] == 4 * M and r.json["queued_cents"] == 1
    third = client.get(f"/api/v1/certificates/{issued[2]['id']}", headers=auth).json
    fourth = client.get(f"/api/v1/certificates/{issued[3]['id']}", headers=auth).json
    assert (third["status"], third["balance_cents"], third["queued_cents"]) == (
        "issued",
        120 * 10**6,
        0,
    )
    assert (fourth["status"], fourth["balance_cents"]) == ("issued", 30 * 10**6)
    allowed = [e for e in fourth["history"] if e["type"] == "QUEUE_ALLOWED"]
    assert allowed[0]["payload"]["fiscal_year"] == 2015
    assert allowed[0]["payload"]["effective_date"] == "2014-07-01"
    assert _caps(client, auth, 2014)["DM_CBT"]["queued_cents"] == 0
    fy15 = _caps(client, auth, 2015)["DM_CBT"]
    assert fy15["used_cents"] == 5 * M and fy15["queued_cents"] == 1


def test_roll_fiscal_year_command_allows_the_queue(app: Any, client: Any) -> None:
    _, auth, seller = _setup(client)
    for face in (4 * M, 2 * M):
        assert (
            _issue(
                client,
                auth,
                program="DM_CBT",
                holder_party_id=seller["id"],
                face_cents=face,
                fiscal_year=2014,
            ).status_code
            == 201
        )
    git = _issue(
        client,
        auth,
        program="DM_GIT",
        holder_party_id=seller["id"],
        face_cents=11 * M,
        fiscal_year=2014,
    ).json
    assert (git["status"], git["balance_cents"], git["queued_cents"]) == (
        "partially_queued",
        10 * M,
        M,
    )
    result = app.test_cli_runner().invoke(args=["roll-fiscal-year", "--fiscal-year", "2015"])
    assert result.exit_code == 0, result.output
    assert '"allowed_cents": 100000000' in result.output
    caps = _caps(client, auth, 2015)
    assert caps["DM_CBT"]["used_cents"] == M
    assert caps["DM_GIT_FILM_POOL"]["used_cents"] == M
    again = app.test_cli_runner().invoke(args=["roll-fiscal-year", "--fiscal-year", "2015"])
    assert again.exit_code == 0 and '"allowed": []' in again.output
    assert _caps(client, auth, 2015)["DM_CBT"]["used_cents"] == M


def test_tech_and_bad_input_are_refused_without_writing(client: Any) -> None:
    engine, auth, seller = _setup(client)
    before = events(engine)
    r = _issue(
        client, auth, program="TECH", holder_party_id=seller["id"], face_cents=M, fiscal_year=2014
    )
    assert r.status_code == 422 and r.json["error"]["code"] == "invalid_request"
    r = _issue(
        client,
        auth,
        program="BRRAG",
        holder_party_id=seller["id"],
        face_cents="100",
        fiscal_year=2014,
    )
    assert r.status_code == 400
    r = _issue(
        client, auth, program="BRRAG", holder_party_id=seller["id"], face_cents=0, fiscal_year=2014
    )
    assert r.status_code == 400
    r = _issue(
        client,
        auth,
        program="BRRAG",
        holder_party_id=seller["id"],
        face_cents=M,
        fiscal_year=2014,
        colour="blue",
    )
    assert r.status_code == 400
    r = _issue(
        client, auth, program="BRRAG", holder_party_id="pty_nope", face_cents=M, fiscal_year=2014
    )
    assert r.status_code == 404
    assert events(engine) == before


def test_roles_for_issuing_and_reading_certificates(client: Any) -> None:
    engine, auth, seller = _setup(client)
    other = create_party(client, auth, name="Other Co")
    cert = _issue(
        client, auth, program="BRRAG", holder_party_id=seller["id"], face_cents=M, fiscal_year=2014
    ).json
    seller_h = headers_for(client, engine, "participant", seller["id"])
    other_h = headers_for(client, engine, "participant", other["id"])
    auditor = headers_for(client, engine, "auditor")
    before = events(engine)
    for h in (seller_h, auditor):
        r = _issue(
            client, h, program="BRRAG", holder_party_id=seller["id"], face_cents=M, fiscal_year=2014
        )
        assert r.status_code == 403
    assert events(engine) == before
    for h in (seller_h, auditor, auth):
        r = client.get(f"/api/v1/certificates/{cert['id']}", headers=h)
        assert r.status_code == 200 and r.json["id"] == cert["id"]
    assert [e["type"] for e in r.json["history"]] == ["CERT_ISSUED", "CAP_CHARGED"]
    # Another party's certificate answers as a missing one would (no existence oracle).
    assert client.get(f"/api/v1/certificates/{cert['id']}", headers=other_h).status_code == 404
    assert client.get(f"/api/v1/certificates/{cert['id']}").status_code == 401
    assert client.get("/api/v1/certificates/crt_missing", headers=auth).status_code == 404
    r = client.get(f"/api/v1/parties/{seller['id']}/certificates", headers=seller_h)
    assert r.status_code == 200 and [c["id"] for c in r.json["items"]] == [cert["id"]]
    assert r.json["next"] is None
    r = client.get(f"/api/v1/parties/{seller['id']}/certificates", headers=other_h)
    assert r.status_code == 404  # another party: as if missing
    r = client.get(f"/api/v1/parties/{other['id']}/certificates", headers=auditor)
    assert r.status_code == 200 and r.json["items"] == []


def test_party_certificates_are_paged(client: Any) -> None:
    _, auth, seller = _setup(client)
    ids = [
        _issue(
            client,
            auth,
            program="BRRAG",
            holder_party_id=seller["id"],
            face_cents=M,
            fiscal_year=2014,
        ).json["id"]
        for _ in range(3)
    ]
    r = client.get(f"/api/v1/parties/{seller['id']}/certificates?limit=2", headers=auth)
    assert [c["id"] for c in r.json["items"]] == ids[:2] and r.json["next"] is not None
    r = client.get(
        f"/api/v1/parties/{seller['id']}/certificates?limit=2&after={r.json['next']}",
        headers=auth,
    )
    assert [c["id"] for c in r.json["items"]] == ids[2:] and r.json["next"] is None


def test_issuance_is_idempotent(client: Any) -> None:
    engine, auth, seller = _setup(client)
    body = {
        "program": "BRRAG",
        "holder_party_id": seller["id"],
        "face_cents": M,
        "fiscal_year": 2014,
    } | brrag_award(M)
    h = auth | {"Idempotency-Key": "issue-1"}
    first = client.post("/api/v1/certificates", json=body, headers=h)
    count = events(engine)
    second = client.post("/api/v1/certificates", json=body, headers=h)
    assert second.status_code == 201 and second.json["id"] == first.json["id"]
    assert events(engine) == count
    assert _caps(client, auth, 2014)["BRRAG"]["used_cents"] == M
