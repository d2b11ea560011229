"""A deal's life: timeline, next step and public reference, for the API and pages.

The deal itself is another context's view (trading's transfer and offer, a TECH or credit
application row); what this gives is `TimelineFields`, which the caller puts beside it."""

from __future__ import annotations

from typing import Any, TypedDict

from sqlalchemy import select
from sqlalchemy.engine import Connection

from market.adapters.eventstore import event_from_row, events_t
from market.services.notify.fanout import reference_for
from market.services.queries import timelines
from market.services.queries.timelines import TimelineStep


class TimelineFields(TypedDict):
    """What a deal's detail adds to the deal (api/timeline_schema.py's fields)."""

    timeline: list[TimelineStep]
    next_step: str
    reference: str | None


class OfferTimelineFields(TimelineFields):
    deal_status: str  # what the deal has come to: its transfer's outcome once there is one


def reference_of(conn: Connection, stream: str) -> str | None:
    """The public reference of the filing that opened `stream` (see fanout.reference_for)."""
    row = conn.execute(
        select(events_t).where(events_t.c.stream == stream).order_by(events_t.c.seq).limit(1)
    ).first()
    return reference_for(event_from_row(row)) if row is not None else None


def transfer_fields(conn: Connection, transfer_id: str) -> TimelineFields:
    line = timelines.transfer_timeline(conn, transfer_id)
    return {
        "timeline": line,
        "next_step": timelines.next_step(line),
        "reference": reference_of(conn, f"transfer-{transfer_id}"),
    }


def offer_fields(
    conn: Connection, offer_id: str, listing_id: str, transfer_id: str | None
) -> TimelineFields:
    """An offer's life runs on into its transfer's."""
    line = timelines.offer_timeline(conn, offer_id, listing_id, transfer_id)
    return {"timeline": line, "next_step": timelines.next_step(line), "reference": None}


def offer_detail(conn: Connection, offer: dict[str, Any]) -> dict[str, Any]:
    """Trading's offer view (with its transfer's, once there is one) and its life."""
    transfer = offer.get("transfer")
    fields = offer_fields(
        conn, str(offer["id"]), str(offer["listing_id"]), offer.get("transfer_id") or None
    )
    if offer.get("expired"):
        # An offer that lapsed unanswered has no step left (a state of the clock: no event).
        fields["next_step"] = timelines.NEXT_STEP["expired"]
    status = str(transfer["status"]) if transfer else str(offer["status"])
    detail: OfferTimelineFields = {**fields, "deal_status": status}
    return {**offer, **detail}


def tech_fields(conn: Connection, application_id: str, fiscal_year: int) -> TimelineFields:
    line = timelines.tech_timeline(conn, application_id, fiscal_year)
    return {
        "timeline": line,
        "next_step": timelines.next_step(line),
        "reference": reference_of(conn, f"tech-{application_id}"),
    }


def credit_fields(conn: Connection, application_id: str, certificate_id: str) -> TimelineFields:
    line = timelines.credit_timeline(conn, application_id, certificate_id)
    return {"timeline": line, "next_step": timelines.next_step(line), "reference": None}
