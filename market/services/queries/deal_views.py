"""A deal with its life: timeline, next step and public reference, for the API and pages."""

from __future__ import annotations

from typing import Any

from sqlalchemy import select
from sqlalchemy.engine import Connection

from market.adapters.eventstore import event_from_row, events_t
from market.services.notify.fanout import reference_for
from market.services.queries import timelines


def reference_of(conn: Connection, stream: str) -> str | None:
    """The public reference of the filing that opened `stream` (see fanout.reference_for)."""
    row = conn.execute(
        select(events_t).where(events_t.c.stream == stream).order_by(events_t.c.seq).limit(1)
    ).first()
    return reference_for(event_from_row(row)) if row is not None else None


def transfer_detail(conn: Connection, transfer: dict[str, Any]) -> dict[str, Any]:
    line = timelines.transfer_timeline(conn, transfer["id"])
    return transfer | {
        "timeline": line,
        "next_step": timelines.next_step(line),
        "reference": reference_of(conn, f"transfer-{transfer['id']}"),
    }


def offer_detail(conn: Connection, offer: dict[str, Any]) -> dict[str, Any]:
    line = timelines.offer_timeline(conn, offer)
    return offer | {
        "timeline": line,
        # An offer that lapsed unanswered has no step left (a state of the clock: no event).
        "next_step": timelines.NEXT_STEP["expired"]
        if offer.get("expired")
        else timelines.next_step(line),
        "deal_status": timelines.deal_status(offer, offer.get("transfer")),
        "reference": None,
    }


def tech_detail(conn: Connection, application: dict[str, Any]) -> dict[str, Any]:
    line = timelines.tech_timeline(conn, application)
    return application | {
        "timeline": line,
        "next_step": timelines.next_step(line),
        "reference": reference_of(conn, f"tech-{application['id']}"),
    }


def credit_detail(conn: Connection, application: dict[str, Any]) -> dict[str, Any]:
    line = timelines.credit_timeline(conn, application)
    return application | {
        "timeline": line,
        "next_step": timelines.next_step(line),
        "reference": None,
    }
