"""Trading halts (PRODUCT.md 8.3): notices on a certificate and their lifting."""

from __future__ import annotations

from typing import Any

from flask import jsonify
from flask.typing import ResponseReturnValue
from marshmallow import Schema, fields, validate

from market.api.blueprint import Blueprint
from market.api.context import command, current_actor, engine
from market.api.schemas import page_of
from market.domain.rules.halts import NOTICE_KINDS
from market.services.certificates import halts
from market.services.kernel.uow import ReadOnly, UnitOfWork

blp = Blueprint("halts", __name__, url_prefix="/api/v1", description="Trading halts")


class NoticeIn(Schema):
    kind = fields.String(required=True, validate=validate.OneOf(NOTICE_KINDS))
    reason = fields.String(required=True, validate=validate.Length(min=1, max=halts.MAX_REASON))


class LiftIn(Schema):
    reason = fields.String(load_default=None, validate=validate.Length(min=1, max=halts.MAX_REASON))


class NoticeOut(Schema):
    id = fields.String()
    certificate_id = fields.String()
    root_id = fields.String()
    kind = fields.String()
    reason = fields.String()
    status = fields.String(metadata={"description": "active | lifted"})
    halted = fields.Boolean()
    halted_certificate_ids = fields.List(fields.String())
    suspended_listing_ids = fields.List(fields.String())
    resumed_listing_ids = fields.List(fields.String())
    lift_reason = fields.String(allow_none=True)
    issued_seq = fields.Integer()
    lifted_seq = fields.Integer(allow_none=True)


@blp.route("/certificates/<certificate_id>/notices", methods=["POST"])
@blp.arguments(NoticeIn)
@blp.alt_response(201, schema=NoticeOut)
def issue_notice(data: dict[str, Any], certificate_id: str) -> ResponseReturnValue:
    """A recapture or invalidity notice (authority): halts trading in the certificate and
    every certificate derived from it; their open listings are suspended."""
    actor = current_actor()

    def run(uow: UnitOfWork) -> halts.Notice:
        return halts.issue_notice(uow, actor, certificate_id, data["kind"], data["reason"])

    return command(run, NoticeOut())


@blp.route("/certificates/<certificate_id>/notices/<notice_id>/lift", methods=["POST"])
@blp.arguments(LiftIn)
@blp.alt_response(200, schema=NoticeOut)
def lift_notice(data: dict[str, Any], certificate_id: str, notice_id: str) -> ResponseReturnValue:
    """Lift a notice (authority): trading resumes unless another notice still halts it."""
    actor = current_actor()

    def run(uow: UnitOfWork) -> halts.Notice:
        return halts.lift_notice(uow, actor, certificate_id, notice_id, data["reason"])

    return command(run, NoticeOut(), status=200)


@blp.route("/certificates/<certificate_id>/notices", methods=["GET"])
@blp.alt_response(200, schema=page_of(NoticeOut, "NoticePage", fields.String(allow_none=True)))
def list_notices(certificate_id: str) -> ResponseReturnValue:
    """Notices on the certificate and its ancestors (authority, auditor)."""
    actor = current_actor()
    with ReadOnly(engine()) as conn:
        items = halts.list_notices(conn, actor, certificate_id)
    return jsonify({"items": NoticeOut(many=True).dump(items), "next": None})
