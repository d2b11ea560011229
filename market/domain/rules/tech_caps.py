"""TECH lifetime cap and application deadline (TB-5, TB-6, TB-7, AMB-40, AMB-48)."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from datetime import date

from market.domain import values
from market.domain.errors import (
    ApplicationDeadlinePassedError,
    InvalidRequestError,
    LifetimeCapExceededError,
)
from market.domain.rules.caps import check_cap
from market.domain.rulesets import Ruleset
from market.domain.values import format_cents


def lifetime_room_cents(lifetime_approved_cents: int, ruleset: Ruleset) -> int:
    return max(0, ruleset.tech_lifetime_cap_cents - lifetime_approved_cents)


def clip_request(
    requested_cents: int, max_eligible_cents: int, lifetime_approved_cents: int, ruleset: Ruleset
) -> int:
    """T_i = min(requested, max eligible, lifetime room); the allocation's input. (A room
    below 0 gives 0 as `lifetime_room_cents`'s 0 would: one comparison fewer per row.)"""
    room = ruleset.tech_lifetime_cap_cents - lifetime_approved_cents
    return max(0, min(requested_cents, max_eligible_cents, room))


def clip_in_receipt_order(
    rows: Iterable[tuple[str, int, int]], lifetime_approved: Mapping[str, int], ruleset: Ruleset
) -> list[int]:
    """T_i of one fiscal year's applications (party, requested, max eligible) in receipt
    order: each clipped by its party's lifetime room as it stands now (TB-5), counting the
    party's earlier applications of the year at their T_i, so allocations never breach it."""
    used: dict[str, int] = {}
    clipped = []
    for party, requested_cents, max_eligible_cents in rows:
        before = used.get(party)
        if before is None:
            before = lifetime_approved.get(party, 0)
        t_i = clip_request(requested_cents, max_eligible_cents, before, ruleset)
        used[party] = before + t_i
        clipped.append(t_i)
    return clipped


def check_lifetime_cap(lifetime_approved_cents: int, amount_cents: int, ruleset: Ruleset) -> None:
    room = lifetime_room_cents(lifetime_approved_cents, ruleset)
    if amount_cents > room:
        raise LifetimeCapExceededError(
            f"{format_cents(amount_cents)} exceeds the seller's remaining lifetime room of "
            f"{format_cents(room)} (cap {format_cents(ruleset.tech_lifetime_cap_cents)})",
            {
                "cap_cents": ruleset.tech_lifetime_cap_cents,
                "lifetime_approved_cents": lifetime_approved_cents,
                "amount_cents": amount_cents,
                "remaining_cents": room,
            },
        )


def check_fy_cap(approved_cents: int, amount_cents: int, ruleset: Ruleset) -> None:
    """TB-15: approvals charged to one State FY stay within its cap."""
    check_cap("TECH", ruleset.tech_fy_cap_cents, approved_cents, amount_cents)


def application_fiscal_year(received_on: date) -> int:
    """An application belongs to the State FY in which it is received (AMB-48)."""
    return values.fiscal_year(received_on)


def deadline(fiscal_year: int, ruleset: Ruleset) -> date:
    return date(fiscal_year, ruleset.tech_deadline_month, ruleset.tech_deadline_day)


def check_deadline(received_on: date, fiscal_year: int, ruleset: Ruleset) -> None:
    last_day = deadline(fiscal_year, ruleset)
    if received_on > last_day:
        raise ApplicationDeadlinePassedError(
            f"applications for FY {fiscal_year} closed on {last_day.isoformat()}; "
            f"this one was received on {received_on.isoformat()}",
            {
                "fiscal_year": fiscal_year,
                "deadline": last_day.isoformat(),
                "received_on": received_on.isoformat(),
                "belongs_to_fiscal_year": application_fiscal_year(received_on),
            },
        )
    if application_fiscal_year(received_on) != fiscal_year:
        raise InvalidRequestError(
            f"an application received on {received_on.isoformat()} belongs to "
            f"FY {application_fiscal_year(received_on)}, not FY {fiscal_year}",
            {"fiscal_year": fiscal_year, "received_on": received_on.isoformat()},
        )
