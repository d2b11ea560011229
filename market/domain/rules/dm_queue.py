"""Digital media / film fiscal-year pools and the first-in-first-out queue
(DMQ-1, DMQ-2, DMQ-3, DMG-14, DMC-13, AMB-23, AMB-24, AMB-25).

``PoolLedger`` is an immutable value: each call returns the next state, so the caller can
persist it as events (QUEUE_ALLOWED / QUEUE_DEFERRED) and replay it.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from datetime import date
from types import MappingProxyType
from typing import TYPE_CHECKING

from market.domain.errors import CapExceededError, InvalidRequestError
from market.domain.programs import Program
from market.domain.values import fiscal_year, fiscal_year_start, format_cents

if TYPE_CHECKING:
    from collections.abc import Mapping

    from market.domain.rulesets import Ruleset

DM_CBT = "DM_CBT"
DM_GIT_FILM_POOL = "DM_GIT_FILM_POOL"

MODES = ("partial_strict", "all_or_nothing_strict", "all_or_nothing_overtake")


@dataclass(frozen=True)
class QueueItem:
    id: str
    remaining_cents: int
    received_at: str
    # The bucket it was deferred from: a roll into an earlier fiscal year cannot allow it
    # (an application for FY n queued in FY n-1 waits for July 1 of FY n at least).
    origin_fiscal_year: int | None = None


@dataclass(frozen=True)
class PoolLedger:
    pool: str
    used_cents: Mapping[int, int] = field(default_factory=lambda: MappingProxyType({}))
    queue: tuple[QueueItem, ...] = ()
    rolled_to: int | None = None

    def used(self, fy: int) -> int:
        return self.used_cents.get(fy, 0)

    @property
    def queued_cents(self) -> int:
        return sum(item.remaining_cents for item in self.queue)


def pool_for(program: Program) -> str:
    """AMB-25: the pool of the section that approved the credit, whatever the buyer's tax."""
    if program is Program.DM_CBT:
        return DM_CBT
    if program is Program.DM_GIT:
        return DM_GIT_FILM_POOL
    raise InvalidRequestError(f"{program} has no fiscal-year pool", {"program": str(program)})


def pool_cap_cents(pool: str, ruleset: Ruleset) -> int:
    if pool == DM_CBT:
        return ruleset.dm_cbt_pool_cents
    if pool == DM_GIT_FILM_POOL:
        return ruleset.dm_git_film_pool_cents
    raise InvalidRequestError(f"unknown pool {pool!r}", {"pool": pool})


def bucket_fiscal_year(period_commences_on: date, approved_on: date, ruleset: Ruleset) -> int:
    """DMQ-2 / AMB-23: the FY the credited period commences in, or the approval FY."""
    if ruleset.dm_fy_bucket == "approval":
        return fiscal_year(approved_on)
    return fiscal_year(period_commences_on)


def _mode(ruleset: Ruleset) -> str:
    return ruleset.reading("dm_queue_mode", MODES)


def _charge(state: PoolLedger, fy: int, cents: int) -> PoolLedger:
    used = dict(state.used_cents)
    used[fy] = used.get(fy, 0) + cents
    return replace(state, used_cents=MappingProxyType(used))


def admit(
    state: PoolLedger, item: QueueItem, fy: int, ruleset: Ruleset
) -> tuple[PoolLedger, int, int]:
    """Approve ``item`` for bucket ``fy``: returns (state, allowed now, deferred)."""
    mode = _mode(ruleset)
    cap = pool_cap_cents(state.pool, ruleset)
    amount = item.remaining_cents
    if amount <= 0:
        raise InvalidRequestError("an approval must be positive", {"id": item.id})
    if mode != "partial_strict" and amount > cap:
        raise CapExceededError(
            f"{format_cents(amount)} can never fit the {state.pool} pool of "
            f"{format_cents(cap)} when approvals are all-or-nothing",
            {"cap": state.pool, "cap_cents": cap, "amount_cents": amount},
        )
    room = max(0, cap - state.used(fy))
    blocked = bool(state.queue) and mode != "all_or_nothing_overtake"
    if blocked:
        allowed = 0
    elif mode == "partial_strict":
        allowed = min(amount, room)
    else:
        allowed = amount if amount <= room else 0
    deferred = amount - allowed
    if allowed:
        state = _charge(state, fy, allowed)
    if deferred:
        queued = QueueItem(item.id, deferred, item.received_at, fy)
        state = replace(state, queue=(*state.queue, queued))
    return state, allowed, deferred


def roll_to(
    state: PoolLedger, fy: int, ruleset: Ruleset
) -> tuple[PoolLedger, list[tuple[str, int, int]]]:
    """On July 1 of ``fy``, before any new approval, allow queued amounts in order. Only
    on or after that day (``check_roll_due``): a deferred amount is usable from the first
    day of the fiscal year that allows it, not before (DMQ-3, AMB-24)."""
    if state.rolled_to is not None and fy <= state.rolled_to:
        return state, []
    mode = _mode(ruleset)
    room = max(0, pool_cap_cents(state.pool, ruleset) - state.used(fy))
    allowed: list[tuple[str, int, int]] = []
    waiting: list[QueueItem] = []
    for position, item in enumerate(state.queue):
        if item.origin_fiscal_year is not None and item.origin_fiscal_year > fy:
            take = 0  # its own fiscal year has not begun: it waits, in its place
        elif mode == "partial_strict":
            take = min(item.remaining_cents, room)
        else:
            take = item.remaining_cents if item.remaining_cents <= room else 0
        if take:
            room -= take
            allowed.append((item.id, take, fy))
        if take < item.remaining_cents:
            waiting.append(replace(item, remaining_cents=item.remaining_cents - take))
            if mode != "all_or_nothing_overtake":
                waiting.extend(state.queue[position + 1 :])
                break
    for _, cents, _ in allowed:
        state = _charge(state, fy, cents)
    return replace(state, queue=tuple(waiting), rolled_to=fy), allowed


def check_roll_due(fy: int, today: date) -> None:
    """A pool reaches fiscal year ``fy`` on its first day (July 1), not before."""
    if fy > fiscal_year(today):
        raise InvalidRequestError(
            f"FY {fy} begins on {fiscal_year_start(fy).isoformat()}: the queue is allowed "
            f"into it on that day, not on {today.isoformat()} (DMQ-3).",
            {"fiscal_year": fy, "begins_on": fiscal_year_start(fy).isoformat()},
        )


def queued_usable_from(bucket_fy: int, queued_cents: int, today: date) -> date | None:
    """The earliest day a queued amount can become usable: the first day of the next
    fiscal year, and never before the first day of its own bucket's year (DMQ-3)."""
    if queued_cents <= 0:
        return None
    return fiscal_year_start(max(fiscal_year(today) + 1, bucket_fy))
