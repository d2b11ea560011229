"""BRRAG Board actions (ADM-9, N.J.A.C. 19:31N-1.6): applications reviewed in the order of
their submission date; the Board approves or denies; its minutes go to the Governor, and
the action takes effect after 10 New Jersey working days of the Governor's receipt unless
the Governor approves earlier or vetoes (working_days.py, the `holidays` calendar)."""

from __future__ import annotations

from datetime import date

from market.domain.casefile_errors import StepOutOfOrderError
from market.domain.commands.casefiles import RecordBoardAction, RecordGovernorDecision
from market.domain.errors import InvalidRequestError
from market.domain.events.casefiles import BoardActionRecorded, GovernorDecisionRecorded
from market.domain.model.case_file import BoardAction, BoardActionView
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


def view(row: BoardAction, ruleset: Ruleset, on: date | None = None) -> BoardActionView:
    """The action with its state on `on` (default today): awaiting_governor | in_effect |
    vetoed, and the day it takes (or took) effect."""
    decided = row["governor_decided_on"]
    state, effective = working_days.board_action_state(
        date.fromisoformat(row["governor_received_on"]),
        on or today(),
        ruleset,
        approved_on=date.fromisoformat(decided)
        if decided and row["governor_decision"] == "approve"
        else None,
        vetoed_on=date.fromisoformat(decided)
        if decided and row["governor_decision"] == "veto"
        else None,
    )
    return {
        **row,
        "state": state,
        "takes_effect_on": effective.isoformat() if effective else None,
    }


def _load(source: Source, action_id: str) -> BoardAction:
    row = repositories(source).board_actions.load(action_id)
    if row is None:
        raise not_found("Board action", "action_id", action_id)
    return row


def record_board_action(
    uow: AbstractUnitOfWork, actor: Actor, ruleset: Ruleset, command: RecordBoardAction
) -> BoardActionView:
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
    return view(_load(uow, action_id), ruleset)


def record_governor_decision(
    uow: AbstractUnitOfWork, actor: Actor, ruleset: Ruleset, command: RecordGovernorDecision
) -> BoardActionView:
    """The Governor's early approval or veto, within the period only."""
    action_id, decision, decided_on = (
        command.action_id,
        command.decision,
        command.decided_on,
    )
    actor.require(AUTHORITY)
    row = _load(uow, action_id)
    if decision not in GOVERNOR:
        raise InvalidRequestError("decision is approve or veto.", {"decision": decision})
    if row["governor_decision"] is not None:
        raise StepOutOfOrderError("The Governor's decision is already recorded.", {})
    received = date.fromisoformat(row["governor_received_on"])
    ends = date.fromisoformat(row["period_ends_on"])
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
            party_id=row["party_id"],
            decision=decision,
            decided_on=decided_on.isoformat(),
        ),
        actor.label,
    )
    return view(_load(uow, action_id), ruleset)


def list_actions(source: Source, actor: Actor, ruleset: Ruleset) -> list[BoardActionView]:
    """In the order of submission (ADM-9); a participant sees its own."""
    rows = repositories(source).board_actions.of_party()
    if actor.role not in (AUTHORITY, AUDITOR):
        rows = [r for r in rows if r["party_id"] == actor.party_id]
    return [view(r, ruleset) for r in rows]


def get_action(source: Source, actor: Actor, ruleset: Ruleset, action_id: str) -> BoardActionView:
    row = repositories(source).board_actions.load(action_id)
    hidden = not_found("Board action", "action_id", action_id)
    if row is None:
        raise hidden
    actor.require_reader_of(row["party_id"], hidden)
    return view(row, ruleset)
