"""Typed events: every class reads the payloads today's ledgers hold and writes them back
byte for byte (so every hash stays what it was); anything else is refused by name."""

from __future__ import annotations

import dataclasses
from typing import Any

import pytest

from market.adapters.eventstore import canonical_json, compute_hash
from market.domain.events import (
    VERSION_KEY,
    DomainEvent,
    EventError,
    UnknownEventTypeError,
    event_class,
    event_types,
    upcast,
)
from market.domain.events.trading import ListingCreated, TransferProposed
from tests import casefile_events, ledger_v1

CURRENT_AT_V1 = sorted(t for t in event_types() if event_class(t).VERSION == 1)


def _rehash(e: dict[str, Any], payload: dict[str, Any]) -> str:
    return compute_hash(
        e["seq"], e["stream"], e["version"], e["type"], payload, e["actor"],
        e["recorded_at"], e["prev_hash"],
    )  # fmt: skip


def test_the_old_ledger_holds_every_event_type_there_is() -> None:
    newer = set(casefile_events.SAMPLES)  # the case file's types came after it
    assert {e["type"] for e in ledger_v1.events()} | newer == event_types()
    assert len(event_types()) == 42


@pytest.mark.parametrize("type_", CURRENT_AT_V1)
def test_a_stored_payload_reads_as_its_class_and_writes_back_byte_for_byte(type_: str) -> None:
    for e in ledger_v1.of_type(type_):
        typed = upcast(type_, e["payload"])
        assert isinstance(typed, event_class(type_))
        assert type_ == typed.TYPE
        again = typed.to_payload()
        assert again == e["payload"]
        assert canonical_json(again) == canonical_json(e["payload"])
        assert _rehash(e, again) == e["hash"]
        assert type(typed).from_payload(again) == typed


def test_a_current_cert_issued_payload_round_trips_too() -> None:
    for e in ledger_v1.of_type("CERT_ISSUED"):
        current = upcast("CERT_ISSUED", e["payload"]).to_payload()
        assert current[VERSION_KEY] == 2
        assert upcast("CERT_ISSUED", current).to_payload() == current
        # What the ledger stores is version 1, and its hash is the one it always had.
        assert VERSION_KEY not in e["payload"]
        assert _rehash(e, e["payload"]) == e["hash"]


def test_an_unknown_type_is_refused_by_name() -> None:
    with pytest.raises(UnknownEventTypeError, match="'CERT_SHREDDED'"):
        upcast("CERT_SHREDDED", {})
    with pytest.raises(LookupError):
        event_class("CERT_SHREDDED")


def _listing(**changes: Any) -> dict[str, Any]:
    payload = {
        "listing_id": "lst_1",
        "certificate_id": "crt_1",
        "seller_party_id": "pty_1",
        "amount_cents": 100_00,
        "ask_cents": 90_00,
    }
    return {k: v for k, v in (payload | changes).items() if v is not ...}


def test_a_payload_missing_a_field_is_refused_naming_it() -> None:
    with pytest.raises(EventError, match="LISTING_CREATED v1 payload lacks ask_cents"):
        upcast("LISTING_CREATED", _listing(ask_cents=...))


def test_a_payload_with_a_field_the_class_lacks_is_refused_naming_it() -> None:
    with pytest.raises(EventError, match="LISTING_CREATED v1 has no field colour"):
        upcast("LISTING_CREATED", _listing(colour="red"))


@pytest.mark.parametrize(
    ("field", "value", "problem"),
    [
        ("amount_cents", "10000", "is not int"),
        ("amount_cents", True, "is not int"),  # true and 1 hash differently
        ("amount_cents", 100.0, "is not int"),  # money is integer cents
        ("seller_party_id", None, "None is not str"),
    ],
)
def test_a_value_of_the_wrong_type_is_refused(field: str, value: Any, problem: str) -> None:
    with pytest.raises(EventError, match=f"field {field}: .*{problem}"):
        upcast("LISTING_CREATED", _listing(**{field: value}))


def test_building_an_event_checks_it_as_reading_one_does() -> None:
    with pytest.raises(EventError, match="ask_cents"):
        ListingCreated(**_listing(ask_cents="90"))  # type: ignore[arg-type]
    made = ListingCreated(**_listing())
    with pytest.raises(dataclasses.FrozenInstanceError):
        made.ask_cents = 1  # type: ignore[misc]


def test_a_date_must_be_iso_text_that_reads_back_as_itself() -> None:
    e = ledger_v1.of_type("TRANSFER_PAYMENT_RECORDED")[0]["payload"]
    assert upcast("TRANSFER_PAYMENT_RECORDED", e).to_payload() == e
    for bad in ("2014-8-1", "08/01/2014", "2014-02-30"):
        with pytest.raises(EventError, match="is not an ISO date"):
            upcast("TRANSFER_PAYMENT_RECORDED", e | {"paid_on": bad})


def test_an_omitted_key_is_written_only_when_it_says_something() -> None:
    base = dict(
        transfer_id="trf_1", certificate_id="crt_1", program="BRRAG", seller_party_id="a",
        buyer_party_id="b", amount_cents=1, consideration_cents=1, offer_id="ofr_1",
        agreement_ref=None, ruleset="A1178",
    )  # fmt: skip
    from_offer = TransferProposed(**base).to_payload()
    assert "awaiting_buyer" not in from_offer and "use_of_proceeds" not in from_offer
    negotiated = TransferProposed(**base, awaiting_buyer=True, use_of_proceeds=["salaries"])
    assert negotiated.to_payload() == base | {
        "awaiting_buyer": True,
        "use_of_proceeds": ["salaries"],
    }


def test_a_version_newer_than_the_code_or_not_a_number_is_refused() -> None:
    p = _listing()
    with pytest.raises(EventError, match="newer than this code's v1"):
        upcast("LISTING_CREATED", p | {VERSION_KEY: 2})
    for bad in (0, "2", True):
        with pytest.raises(EventError, match="has the version"):
            upcast("LISTING_CREATED", p | {VERSION_KEY: bad})


def test_from_payload_takes_only_the_current_version() -> None:
    old = ledger_v1.of_type("CERT_ISSUED")[0]["payload"]
    with pytest.raises(EventError, match="read it through upcast"):
        event_class("CERT_ISSUED").from_payload(old)


def test_every_class_is_frozen_and_keyword_only() -> None:
    for type_ in event_types():
        cls = event_class(type_)
        assert issubclass(cls, DomainEvent) and cls.VERSION >= 1
        params = dataclasses.fields(cls)  # type: ignore[arg-type]
        assert params and all(f.kw_only for f in params)
        assert cls.__dataclass_params__.frozen  # type: ignore[attr-defined]
