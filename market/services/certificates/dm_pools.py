"""The digital media pools and their FIFO queue (DMQ-1..3): admitting a certificate's face
to its pool, deferring what does not fit, and rolling the pool into the next fiscal year.
"""

from __future__ import annotations

from dataclasses import replace
from datetime import date
from types import MappingProxyType
from typing import TYPE_CHECKING, TypedDict

from market.adapters.eventstore import utcnow_iso
from market.domain.events.certificates import QueueAllowed, QueueDeferred
from market.domain.programs import Program
from market.domain.rules import dm_queue
from market.domain.rules.buckets import cap_id
from market.domain.rules.certificate_status import certificate_status
from market.domain.rulesets import Ruleset
from market.domain.values import fiscal_year as fiscal_year_of
from market.services.certificates.certificate_views import certificate_record
from market.services.certificates.issuance import Issuance
from market.services.kernel import clock
from market.services.kernel.actor import AUTHORITY, Actor
from market.services.kernel.uow import AbstractUnitOfWork

if TYPE_CHECKING:  # certificates imports this module to issue into a pool
    from market.services.certificates.certificates import NewCertificate


POOLS = (dm_queue.DM_CBT, dm_queue.DM_GIT_FILM_POOL)


class PoolAllowance(TypedDict):
    """Cents a roll allowed from the queue into a fiscal year's pool (DMQ-3)."""

    certificate_id: str
    pool: str
    fiscal_year: int
    allowed_cents: int


class FiscalYearRoll(TypedDict):
    """The `roll-fiscal-year` command's answer."""

    fiscal_year: int
    allowed: list[PoolAllowance]


def _pool_state(uow: AbstractUnitOfWork, pool: str) -> dm_queue.PoolLedger:
    used = {u.fiscal_year: u.used_cents for u in uow.caps.of_bucket(pool)}
    queue = tuple(
        dm_queue.QueueItem(e.id, e.remaining_cents, e.received_at, e.origin_fiscal_year)
        for e in uow.queue.waiting(pool)
    )
    return dm_queue.PoolLedger(
        pool, MappingProxyType(used), queue, rolled_to=uow.caps.latest_charged_fiscal_year(pool)
    )


def roll_pool(
    uow: AbstractUnitOfWork, actor: Actor, pool: str, target_fy: int, ruleset: Ruleset
) -> list[PoolAllowance]:
    """July 1 of each FY after the latest one charged, up to `target_fy` (begun: callers
    check it, `check_roll_due`): allow what is queued, in order of receipt (DMQ-3).
    The latest FY charged, not the latest with a row: an application for a later FY
    deferred behind the queue opens that FY's row without its July 1 having come."""
    current = uow.caps.latest_charged_fiscal_year(pool)
    done: list[PoolAllowance] = []
    if current is None or target_fy <= current:
        return done
    cap = dm_queue.pool_cap_cents(pool, ruleset)
    for fy in range(current + 1, target_fy + 1):
        state = _pool_state(uow, pool)
        if not state.queue:
            break
        _, allowed = dm_queue.roll_to(state, fy, ruleset)
        for cert_id, cents, bucket_fy in allowed:
            cert = certificate_record(uow, cert_id)
            entry = uow.queue.load(cert_id)
            assert entry is not None, f"{cert_id} was allowed from the queue it is not in"
            status = certificate_status(
                cert.allowed_cents + cents, cert.balance_cents + cents, cert.queued_cents - cents
            )
            event = QueueAllowed(
                certificate_id=cert_id,
                pool=pool,
                fiscal_year=bucket_fy,
                cap_id=cap_id(pool, bucket_fy),
                cap_cents=cap,
                allowed_cents=cents,
                status=status,
                from_queue=True,
                queued_cap_id=cap_id(pool, entry.origin_fiscal_year),
                remaining_cents=entry.remaining_cents - cents,
                effective_date=date(bucket_fy - 1, 7, 1).isoformat(),
            )
            uow.append(cert.stream, event, actor.label)
            done.append(
                PoolAllowance(
                    certificate_id=cert_id, pool=pool, fiscal_year=bucket_fy, allowed_cents=cents
                )
            )
    return done


def roll_fiscal_year(
    uow: AbstractUnitOfWork, actor: Actor, fiscal_year: int, ruleset: Ruleset, today: date
) -> FiscalYearRoll:
    """The `roll-fiscal-year` command: every pool reaches `fiscal_year`, once it has begun
    on the business date `today` (a deferred amount is not usable before, DMQ-3)."""
    actor.require(AUTHORITY)
    dm_queue.check_roll_due(fiscal_year, today)
    allowed: list[PoolAllowance] = []
    for pool in POOLS:
        allowed.extend(roll_pool(uow, actor, pool, fiscal_year, ruleset))
    return FiscalYearRoll(fiscal_year=fiscal_year, allowed=allowed)


def issue_dm(
    uow: AbstractUnitOfWork,
    actor: Actor,
    new: NewCertificate,
    issuance: Issuance,
    ruleset: Ruleset,
) -> None:
    """A digital media certificate issued into its pool: allowed what fits, the rest
    deferred behind the queue (DMQ-1..3)."""
    pool = dm_queue.pool_for(Program(new.program))
    fy = new.fiscal_year
    # The ledger reaches the business date's fiscal year before processing this request,
    # never a later one: an application for a FY not begun waits behind the queue.
    roll_pool(uow, actor, pool, min(fy, fiscal_year_of(clock.today())), ruleset)
    cert_id = issuance.certificate_id
    received_at = utcnow_iso()
    state = _pool_state(uow, pool)
    item = dm_queue.QueueItem(cert_id, new.face_cents, received_at)
    _, allowed, deferred = dm_queue.admit(state, item, fy, ruleset)
    stream = issuance.stream
    cap = dm_queue.pool_cap_cents(pool, ruleset)
    queued = replace(
        issuance,
        allowed_cents=0,
        queued_cents=new.face_cents,
        status="queued",
        attributes={**issuance.attributes, "pool": pool, "received_at": received_at},
    )
    uow.append(stream, queued.event(), actor.label, new_stream=True)
    if allowed:
        uow.append(
            stream,
            QueueAllowed(
                certificate_id=cert_id,
                pool=pool,
                fiscal_year=fy,
                cap_id=cap_id(pool, fy),
                cap_cents=cap,
                allowed_cents=allowed,
                status=certificate_status(allowed, allowed, deferred),
                from_queue=False,
            ),
            actor.label,
        )
    if deferred:
        position = uow.queue.last_position(pool)
        uow.append(
            stream,
            QueueDeferred(
                certificate_id=cert_id,
                pool=pool,
                fiscal_year=fy,
                cap_id=cap_id(pool, fy),
                cap_cents=cap,
                deferred_cents=deferred,
                received_at=received_at,
                position=position + 1,
            ),
            actor.label,
        )
