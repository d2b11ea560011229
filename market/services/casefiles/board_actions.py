"""BRRAG Board actions (ADM-9, N.J.A.C. 19:31N-1.6): applications reviewed in the order of
their submission date; the Board approves or denies; its minutes go to the Governor, and
the action takes effect after 10 New Jersey working days of the Governor's receipt unless
the Governor approves earlier or vetoes (working_days.py, the `holidays` calendar)."""

from __future__ import annotations

from datetime import date
from typing import Any

from market.domain.casefile_errors import StepOutOfOrderError
from market.domain.commands.casefiles import RecordBoardAction, RecordGovernorDecision
from market.domain.errors import InvalidRequestError
from market.domain.events.casefiles import BoardActionRecorded, GovernorDecisionRecorded
from market.domain.rulesets import Ruleset
from market.services.casefiles import working_days
from market.services.kernel.actor import AUDITOR, AUTHORITY, Actor
from market.services.kernel.clock import today
from market.services.kernel.errors import not_found
from market.services.kernel.numbering import new_id
from market.services.kernel.reads import Source, repositories
from market.services.kernel.uow import AbstractUnitOfWork
from market.services.parties.parties import load_party

DECISIONS = ("approve", "deny")
GOVERNOR = ("approve", "veto")


def view(row: dict[str, Any], ruleset: Ruleset, on: date | None = None) -> dict[str, Any]:
    """The action with its state on `on` (default today): awaiting_governor | in_effect |
    vetoed, and the day it takes (or took) effect."""
    decided = row.get("governor_decided_on")
    state, effective = working_days.board_action_state(
        date.fromisoformat(str(row["governor_received_on"])),
        on or today(),
        ruleset,
        approved_on=date.fromisoformat(decided)
        if decided and row.get("governor_decision") == "approve"
        else None,
        vetoed_on=date.fromisoformat(decided)
        if decided and row.get("governor_decision") == "veto"
        else None,
    )
    return dict(row) | {
        "state": state,
        "takes_effect_on": effective.isoformat() if effective else None,
    }


def record_board_action(
    uow: AbstractUnitOfWork, actor: Actor, ruleset: Ruleset, command: RecordBoardAction
) -> dict[str, Any]:
    party_id, decision, amount_cents = command.party_id, command.decision, command.amount_cents
    submitted_on, board_met_on = command.submitted_on, command.board_met_on
    governor_received_on, conditions = command.governor_received_on, command.conditions
    actor.require(AUTHORITY)
    load_party(uow, party_id)
    if decision not in DECISIONS:
        raise InvalidRequestError("decision is approve or deny.", {"decision": decision})
    if amount_cents < 0:
        raise InvalidRequestError("amount_cents cannot be negative.", {})
    if not submitted_on <= board_met_on <= governor_received_on <= today():
        raise InvalidRequestError(
            "The dates run submitted_on <= board_met_on <= governor_received_on <= today.",
            {
                "submitted_on": submitted_on.isoformat(),
                "board_met_on": board_met_on.isoformat(),
                "governor_received_on": governor_received_on.isoformat(),
            },
        )
    ends = working_days.governor_period_ends(governor_received_on, ruleset)
    _, effective = working_days.board_action_state(governor_received_on, ends, ruleset)
    action_id = new_id("bact")
    uow.append(
        f"board-action-{action_id}",
        BoardActionRecorded(
            action_id=action_id,
            party_id=party_id,
            decision=decision,
            amount_cents=amount_cents,
            board_met_on=board_met_on.isoformat(),
            governor_received_on=governor_received_on.isoformat(),
            period_ends_on=ends.isoformat(),
            effective_on=(effective or ends).isoformat(),
            submitted_on=submitted_on.isoformat(),
            conditions=[c.strip()[:500] for c in conditions if c.strip()],
        ),
        actor.label,
        new_stream=True,
    )
    return view(dict(uow.board_actions.get(action_id) or {}), ruleset)


def record_governor_decision(
    uow: AbstractUnitOfWork, actor: Actor, ruleset: Ruleset, command: RecordGovernorDecision
) -> dict[str, Any]:
    """The Governor's early approval or veto, within the period only."""
    action_id, decision, decided_on = (
        command.action_id,
        command.decision,
        command.decided_on,
    )
    actor.require(AUTHORITY)
    row = uow.board_actions.get(action_id)
    if row is None:
        raise not_found("Board action", "action_id", action_id)
    if decision not in GOVERNOR:
        raise InvalidRequestError("decision is approve or veto.", {"decision": decision})
    if row["governor_decision"] is not None:
        raise StepOutOfOrderError("The Governor's decision is already recorded.", {})
    received, ends = (
        date.fromisoformat(str(row[k])) for k in ("governor_received_on", "period_ends_on")
    )
    if not received <= decided_on <= min(ends, today()):
        raise StepOutOfOrderError(
            f"The Governor acts between the receipt ({received}) and the period's end ({ends}); "
            "after it the Board's action is in effect.",
            {"decided_on": decided_on.isoformat(), "period_ends_on": ends.isoformat()},
        )
    uow.append(
        f"board-action-{action_id}",
        GovernorDecisionRecorded(
            action_id=action_id,
            party_id=str(row["party_id"]),
            decision=decision,
            decided_on=decided_on.isoformat(),
        ),
        actor.label,
    )
    return view(dict(uow.board_actions.get(action_id) or {}), ruleset)


def list_actions(source: Source, actor: Actor, ruleset: Ruleset) -> list[dict[str, Any]]:
    """In the order of submission (ADM-9); a participant sees its own."""
    rows = repositories(source).board_actions.where()
    if actor.role not in (AUTHORITY, AUDITOR):
        rows = [r for r in rows if r["party_id"] == actor.party_id]
    ordered = sorted(rows, key=lambda r: (str(r["submitted_on"]), int(r["recorded_seq"])))
    return [view(dict(r), ruleset) for r in ordered]


def get_action(source: Source, actor: Actor, ruleset: Ruleset, action_id: str) -> dict[str, Any]:
    row = repositories(source).board_actions.get(action_id)
    hidden = not_found("Board action", "action_id", action_id)
    if row is None:
        raise hidden
    actor.require_reader_of(str(row["party_id"]), hidden)
    return view(dict(row), ruleset)
