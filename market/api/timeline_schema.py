"""The shape of a deal's timeline, shared by every resource that has one."""

from __future__ import annotations

from typing import Any

from marshmallow import Schema, fields


class TimelineEntryOut(Schema):
    status = fields.String(
        metadata={"description": "the status this step left, or the event in words"}
    )
    at = fields.String(metadata={"description": "when it was recorded (UTC)"})
    by = fields.String(
        metadata={"description": "who acted: the Authority, a party's name, the system"}
    )
    reason = fields.String(metadata={"description": "a rejection's (or recapture's) reason"})
    event = fields.String(metadata={"description": "the ledger event type"})
    seq = fields.Integer()


def timeline_fields() -> dict[str, fields.Field[Any]]:
    """The fields a resource with a timeline adds to its schema."""
    return {
        "timeline": fields.List(fields.Nested(TimelineEntryOut)),
        "next_step": fields.String(),
        "reference": fields.String(
            allow_none=True,
            metadata={
                "description": "the filing's public reference (GET /public/status/{reference})"
            },
        ),
    }
