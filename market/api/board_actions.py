"""BRRAG Board actions and the Governor's period (ADM-9, N.J.A.C. 19:31N-1.6)."""

from __future__ import annotations

from typing import Any

from flask import jsonify
from flask.typing import ResponseReturnValue
from marshmallow import Schema, fields, validate

from market.api.blueprint import Blueprint
from market.api.context import command, current_actor, engine, ruleset
from market.api.schemas import page_of
from market.domain.commands.casefiles import RecordBoardAction, RecordGovernorDecision
from market.domain.model.case_file import BoardActionView
from market.services.casefiles import board_actions
from market.services.kernel.uow import ReadOnly, UnitOfWork

blp = Blueprint("board_actions", __name__, url_prefix="/api/v1/brrag", description="BRRAG Board")


class BoardActionIn(Schema):
    party_id = fields.String(required=True, validate=validate.Length(min=1, max=40))
    decision = fields.String(required=True, validate=validate.OneOf(board_actions.DECISIONS))
    amount_cents = fields.Integer(required=True, strict=True, validate=validate.Range(min=0))
    submitted_on = fields.Date(required=True)
    board_met_on = fields.Date(required=True)
    governor_received_on = fields.Date(required=True)
    conditions = fields.List(
        fields.String(validate=validate.Length(max=500)),
        load_default=list,
        validate=validate.Length(max=50),
    )


class GovernorIn(Schema):
    decision = fields.String(required=True, validate=validate.OneOf(board_actions.GOVERNOR))
    decided_on = fields.Date(required=True)


class BoardActionOut(Schema):
    id = fields.String()
    party_id = fields.String()
    decision = fields.String()
    amount_cents = fields.Integer()
    submitted_on = fields.String()
    board_met_on = fields.String()
    governor_received_on = fields.String()
    period_ends_on = fields.String(metadata={"description": "the 10th NJ working day"})
    conditions = fields.List(fields.String())
    governor_decision = fields.String(allow_none=True)
    governor_decided_on = fields.String(allow_none=True)
    state = fields.String(metadata={"description": "awaiting_governor | in_effect | vetoed"})
    takes_effect_on = fields.String(allow_none=True)


@blp.route("/board-actions", methods=["POST"])
@blp.arguments(BoardActionIn)
@blp.alt_response(201, schema=BoardActionOut)
def record(data: dict[str, Any]) -> ResponseReturnValue:
    """The Board's approval or denial; its minutes' receipt by the Governor (authority)."""
    actor, rules = current_actor(), ruleset()

    def run(uow: UnitOfWork) -> BoardActionView:
        return board_actions.record_board_action(uow, actor, rules, RecordBoardAction(**data))

    return command(run, BoardActionOut())


@blp.route("/board-actions/<action_id>/governor", methods=["POST"])
@blp.arguments(GovernorIn)
@blp.alt_response(200, schema=BoardActionOut)
def governor(data: dict[str, Any], action_id: str) -> ResponseReturnValue:
    """The Governor's early approval or veto, within the 10 working days (authority)."""
    actor, rules = current_actor(), ruleset()

    def run(uow: UnitOfWork) -> BoardActionView:
        return board_actions.record_governor_decision(
            uow,
            actor,
            rules,
            RecordGovernorDecision(action_id, data["decision"], data["decided_on"]),
        )

    return command(run, BoardActionOut(), 200)


@blp.route("/board-actions", methods=["GET"])
@blp.alt_response(
    200, schema=page_of(BoardActionOut, "BoardActionPage", fields.String(allow_none=True))
)
def list_actions() -> ResponseReturnValue:
    """Board actions in the order of submission (a participant: its own)."""
    actor, rules = current_actor(), ruleset()
    with ReadOnly(engine()) as conn:
        items = board_actions.list_actions(conn, actor, rules)
    return jsonify({"items": BoardActionOut(many=True).dump(items), "next": None})


@blp.route("/board-actions/<action_id>", methods=["GET"])
@blp.alt_response(200, schema=BoardActionOut)
def get_action(action_id: str) -> ResponseReturnValue:
    """A Board action and where its Governor period stands."""
    actor, rules = current_actor(), ruleset()
    with ReadOnly(engine()) as conn:
        return jsonify(
            BoardActionOut().dump(board_actions.get_action(conn, actor, rules, action_id))
        )
