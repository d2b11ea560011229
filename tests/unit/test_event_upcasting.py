"""CERT_ISSUED version 2 and its upcaster from version 1, and the one factory all four
origins of a certificate are built by."""

from __future__ import annotations

from typing import Any

import pytest

from market.domain.events import VERSION_KEY, EventError, upcast
from market.domain.events.certificates import (
    ACTIVITY_KEY,
    CertificateIssued,
    Parent,
    certificate_issued,
)
from tests import ledger_v1

ORIGINS = ("issued", "allocation", "transfer", "pass_through")


def _v1(origin: str) -> dict[str, Any]:
    found = [e["payload"] for e in ledger_v1.of_type("CERT_ISSUED")]
    return next(p for p in found if p["origin"] == origin)


def test_the_old_ledger_has_a_version_1_cert_issued_of_every_origin() -> None:
    payloads = [e["payload"] for e in ledger_v1.of_type("CERT_ISSUED")]
    assert {p["origin"] for p in payloads} == set(ORIGINS)
    assert all(VERSION_KEY not in p for p in payloads)


@pytest.mark.parametrize("origin", ["issued", "transfer", "pass_through"])
def test_v1_to_v2_lifts_the_activities_out_of_the_attributes(origin: str) -> None:
    old = _v1(origin)
    up = CertificateIssued.upcast_v1_v2(dict(old))
    assert up[ACTIVITY_KEY] == old["attributes"][ACTIVITY_KEY]
    assert ACTIVITY_KEY not in up["attributes"]
    assert {k: v for k, v in up.items() if k not in (ACTIVITY_KEY, "attributes")} == {
        k: v for k, v in old.items() if k != "attributes"
    }
    assert ACTIVITY_KEY in old["attributes"]  # the stored payload is left as it was


def test_v1_to_v2_records_null_where_version_1_recorded_no_activities() -> None:
    old = _v1("allocation")  # the TECH allocation never wrote them
    assert ACTIVITY_KEY not in old["attributes"]
    assert CertificateIssued.upcast_v1_v2(dict(old))[ACTIVITY_KEY] is None


@pytest.mark.parametrize("origin", ORIGINS)
def test_an_upcast_certificate_projects_the_attributes_version_1_wrote(origin: str) -> None:
    old = _v1(origin)
    typed = upcast("CERT_ISSUED", old)
    assert isinstance(typed, CertificateIssued)
    assert typed.projected_attributes() == old["attributes"]
    assert typed.to_payload()[VERSION_KEY] == 2


def test_a_version_1_payload_missing_its_attributes_is_refused() -> None:
    old = {k: v for k, v in _v1("issued").items() if k != "attributes"}
    with pytest.raises(EventError, match="CERT_ISSUED v1 payload cannot be brought to v2"):
        upcast("CERT_ISSUED", old)
    broken = _v1("issued") | {"face_cents": "1"}
    with pytest.raises(EventError, match="face_cents"):
        upcast("CERT_ISSUED", broken)


def _made(**changes: Any) -> CertificateIssued:
    facts: dict[str, Any] = dict(
        certificate_id="crt_2", number="BRRAG-2013-0001-T1", program="BRRAG",
        holder_party_id="pty_buyer", origin="transfer", face_cents=5_00, fiscal_year=2013,
        tax_types=["CBT"], tax_periods=[], credit_year=None, carryover_last_year=None,
        waiver_statement="", creditable_activity_ids=["hq"], attributes={"transfer_id": "t"},
        ruleset="A1178", parent=Parent("crt_1", "crt_0", "pty_seller"),
    )  # fmt: skip
    return certificate_issued(**(facts | changes))


def test_a_derived_certificate_takes_its_lineage_from_its_parent() -> None:
    made = _made()
    assert (made.parent_id, made.root_id) == ("crt_1", "crt_0")
    assert made.original_holder_party_id == "pty_seller" and not made.is_original
    assert (made.allowed_cents, made.queued_cents, made.status) == (5_00, 0, "issued")
    assert made.projected_attributes() == {"transfer_id": "t", ACTIVITY_KEY: ["hq"]}


def test_an_original_certificate_is_its_own_root() -> None:
    made = _made(origin="issued", parent=None, allowed_cents=0, queued_cents=5_00, status="queued")
    assert (made.parent_id, made.root_id, made.is_original) == (None, "crt_2", True)
    assert made.original_holder_party_id == "pty_buyer"
    assert (made.allowed_cents, made.queued_cents) == (0, 5_00)


def test_the_factory_refuses_a_lineage_that_does_not_fit_the_origin() -> None:
    with pytest.raises(EventError, match="needs a parent exactly if derived"):
        _made(origin="allocation")
    with pytest.raises(EventError, match="needs a parent exactly if derived"):
        _made(origin="pass_through", parent=None)
    with pytest.raises(EventError, match="is a field of CERT_ISSUED"):
        _made(attributes={ACTIVITY_KEY: ["hq"]})
    with pytest.raises(EventError, match="origin"):
        _made(origin="gift")


def test_a_class_reads_its_own_stored_payloads_at_any_version() -> None:
    typed = CertificateIssued.read(_v1("transfer"))
    assert typed.parent_id is not None and typed.creditable_activity_ids is not None
    assert CertificateIssued.read(typed.to_payload()) == typed
