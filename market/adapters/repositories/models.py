"""Projection rows read as the domain's frozen aggregates (market.domain.model): the one
place a row's columns become typed fields."""

from __future__ import annotations

from collections.abc import Mapping
from datetime import date
from typing import Any

from market.adapters.projections.store import Row
from market.domain.model import (
    Certificate,
    Listing,
    ListingStatus,
    Offer,
    OfferStatus,
    Party,
    TechApplication,
    Transfer,
    TransferStatus,
)
from market.domain.programs import Program


def certificate_of(row: Row) -> Certificate:
    return Certificate(
        id=str(row["id"]),
        number=str(row["number"]),
        program=Program(row["program"]),
        holder_party_id=str(row["holder_party_id"]),
        original_holder_party_id=str(row["original_holder_party_id"]),
        root_id=str(row["root_id"]),
        origin=str(row["origin"]),
        fiscal_year=int(row["fiscal_year"]),
        allowed_cents=int(row["allowed_cents"]),
        balance_cents=int(row["balance_cents"]),
        queued_cents=int(row["queued_cents"] or 0),
        children_count=int(row["children_count"] or 0),
        tax_types=tuple(row["tax_types"] or ()),
        tax_periods=tuple(row["tax_periods"] or ()),
        credit_year=row["credit_year"],
        carryover_last_year=row["carryover_last_year"],
        waiver_statement=str(row["waiver_statement"] or ""),
        attributes=dict(row["attributes"] or {}),
        parent_id=row.get("parent_id"),
        is_original=bool(row.get("is_original")),
        face_cents=int(row.get("face_cents") or 0),
        issued_seq=int(row.get("issued_seq") or 0),
        ruleset=str(row.get("ruleset") or ""),
    )


def party_of(row: Row) -> Party:
    formed = row.get("formed_on")
    income = row.get("operating_income_cents_by_year") or {}
    return Party(
        id=str(row["id"]),
        name=str(row["name"]),
        entity_type=str(row["entity_type"]),
        tax_types=frozenset(row["tax_types"] or ()),
        director_exception=row.get("director_exception"),
        us_employees=row.get("us_employees"),
        nj_full_time_employees=row.get("nj_full_time_employees"),
        formed_on=None if formed is None else date.fromisoformat(str(formed)),
        operating_income_cents_by_year={int(k): int(v) for k, v in income.items()},
    )


def transfer_of(row: Mapping[str, Any]) -> Transfer:
    uses = row.get("use_of_proceeds")
    return Transfer(
        id=str(row["id"]),
        certificate_id=str(row["certificate_id"]),
        seller_party_id=str(row["seller_party_id"]),
        buyer_party_id=str(row["buyer_party_id"]),
        amount_cents=int(row["amount_cents"]),
        consideration_cents=int(row["consideration_cents"]),
        status=TransferStatus(row["status"]),
        offer_id=row.get("offer_id"),
        use_of_proceeds=None if uses is None else tuple(uses),
        confirmed=row.get("confirmed_seq") is not None,
    )


def _day(text: str | None) -> date | None:
    return None if text is None else date.fromisoformat(str(text))


def listing_of(row: Mapping[str, Any]) -> Listing:
    return Listing(
        id=str(row["id"]),
        certificate_id=str(row["certificate_id"]),
        seller_party_id=str(row["seller_party_id"]),
        amount_cents=int(row["amount_cents"]),
        ask_cents=int(row["ask_cents"]),
        status=ListingStatus(row["status"]),
    )


def offer_of(row: Mapping[str, Any]) -> Offer:
    amount, price = row.get("counter_amount_cents"), row.get("counter_price_cents")
    return Offer(
        id=str(row["id"]),
        listing_id=str(row["listing_id"]),
        certificate_id=str(row["certificate_id"]),
        seller_party_id=str(row["seller_party_id"]),
        buyer_party_id=str(row["buyer_party_id"]),
        amount_cents=int(row["amount_cents"]),
        price_cents=int(row["price_cents"]),
        status=OfferStatus(row["status"]),
        expires_on=_day(row.get("expires_on")),
        counter_amount_cents=None if amount is None else int(amount),
        counter_price_cents=None if price is None else int(price),
        counter_expires_on=_day(row.get("counter_expires_on")),
    )


def tech_application_of(row: Mapping[str, Any]) -> TechApplication:
    allocated, certificate = row.get("allocated_cents"), row.get("certificate_id")
    return TechApplication(
        id=str(row["id"]),
        party_id=str(row["party_id"]),
        fiscal_year=int(row["fiscal_year"]),
        requested_cents=int(row["requested_cents"]),
        benefit_cents=int(row["benefit_cents"]),
        nol_cents=int(row["nol_cents"]),
        rnd_credit_cents=int(row["rnd_credit_cents"]),
        seller_tax_regime=str(row["seller_tax_regime"]),
        in_innovation_zone=bool(row["in_innovation_zone"]),
        received_on=str(row["received_on"]),
        received_at=row.get("received_at"),
        received_seq=int(row["received_seq"]),
        eligible=bool(row["eligible"]),
        allocated_cents=None if allocated is None else int(allocated),
        certificate_id=None if certificate is None else str(certificate),
    )
