"""The trading projections' rows as typed records (listings, offers, transfers, a
transfer's closing record): what the pages and the API answer show column for column. The
rules read the frozen aggregates instead (`models.listing_of`, `offer_of`, `transfer_of`).

Each is the row itself (a dict at run time, so a JSON answer is unchanged), its columns
named and typed here, the one place they are (adapters/tables/trading.py,
market_info.py)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypedDict, cast


class ListingRow(TypedDict):
    id: str
    certificate_id: str
    seller_party_id: str
    amount_cents: int
    ask_cents: int
    status: str
    created_seq: int


class OfferRow(TypedDict):
    id: str
    listing_id: str
    certificate_id: str
    seller_party_id: str
    buyer_party_id: str
    amount_cents: int
    price_cents: int
    status: str
    transfer_id: str | None
    created_seq: int
    expires_on: str | None
    counter_amount_cents: int | None
    counter_price_cents: int | None
    counter_expires_on: str | None


class TransferRow(TypedDict):
    id: str
    certificate_id: str
    program: str
    seller_party_id: str
    buyer_party_id: str
    amount_cents: int
    consideration_cents: int
    status: str
    buyer_certificate_id: str | None
    offer_id: str | None
    agreement_ref: str | None
    use_of_proceeds: list[str] | None
    reasons: list[Any]
    checks: list[Any]
    exchange_date: str | None
    hq_window_end: str | None
    ruleset: str
    created_seq: int
    decided_seq: int | None
    confirmed_seq: int | None


class FundingRow(TypedDict):
    """A transfer's closing record (PRODUCT.md 8.3), by the transfer's id."""

    transfer_id: str
    buyer_party_id: str
    seller_party_id: str
    reference: str
    amount_cents: int
    paid_on: str
    recorded_seq: int
    confirmed_on: str | None
    confirmed_seq: int | None
    refund_owed_cents: int


class ApprovedTrade(TypedDict):
    """An approved transfer as the price tape buckets it: the vintage is the fiscal year
    of the lineage's original certificate."""

    program: str
    vintage: int
    exchange_date: str
    seller_party_id: str
    amount_cents: int
    consideration_cents: int


def listing_row(row: Mapping[str, Any]) -> ListingRow:
    return cast(ListingRow, row)


def offer_row(row: Mapping[str, Any]) -> OfferRow:
    return cast(OfferRow, row)


def transfer_row(row: Mapping[str, Any]) -> TransferRow:
    return cast(TransferRow, row)


def funding_row(row: Mapping[str, Any]) -> FundingRow:
    return cast(FundingRow, row)
