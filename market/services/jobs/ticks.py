"""`tick`: everything the calendar makes due by a business date, once, and a checkpoint.

A list of named steps (`STEPS`); adding one is one line. Each step runs in its own unit of
work, and is recorded in `tick_runs` for the date once done, so a second tick the same day
does nothing; every step is idempotent by itself too (rolling or expiring again finds
nothing to do, a reminder exists once), so a tick killed half-way is simply run again.
A lease (`worker_leases`, row `tick`) keeps two ticks from overlapping, on any number of
machines (cron every minute is safe); a lease left by a killed tick lapses after 10 min.
"""

from __future__ import annotations

import logging
import os
import socket
from collections.abc import Callable
from datetime import date, timedelta
from typing import Any, TypedDict

from sqlalchemy import Engine, insert, select, update
from sqlalchemy.exc import IntegrityError

from market.adapters.tables import TickRun, WorkerLease
from market.domain.errors import DomainError
from market.domain.rulesets import Ruleset
from market.domain.values import fiscal_year
from market.services.certificates import dm_pools
from market.services.certificates.carryforwards import expire_carryforwards
from market.services.jobs import reminders
from market.services.kernel import clock
from market.services.kernel.actor import SYSTEM
from market.services.kernel.runner import run
from market.services.kernel.uow import UnitOfWork
from market.services.notify.delivery import iso, now_iso
from market.services.notify.fanout import write_transaction
from market.services.trust import checkpoints, witnessing
from market.services.trust import signer as signing

log = logging.getLogger(__name__)

runs_t = TickRun.__table__  # type: ignore[attr-defined]
leases_t = WorkerLease.__table__  # type: ignore[attr-defined]
LEASE = timedelta(minutes=10)

Step = Callable[[UnitOfWork, date, Ruleset], Any]


class TickReport(TypedDict):
    """What a tick did (the `tick` command prints it as JSON): each step's answer by name,
    "already done" for a step done that day, and `checkpoint` (and `witnesses`) with trust;
    or, with no steps, why it was skipped."""

    as_of: str
    skipped: str | None
    steps: dict[str, Any]  # each step's command's own answer, as JSON


def roll_fiscal_year(uow: UnitOfWork, as_of: date, ruleset: Ruleset) -> Any:
    """DMQ-3: the digital media pools reach the business date's fiscal year."""
    return dm_pools.roll_fiscal_year(uow, SYSTEM, fiscal_year(as_of), ruleset, as_of)["allowed"]


def expire(uow: UnitOfWork, as_of: date, ruleset: Ruleset) -> Any:
    """Windows ending with tax year Y expire on January 1 of Y+2 (reminders.expiry_of)."""
    done = expire_carryforwards(uow, SYSTEM, ruleset, as_of.year - 1)
    return [
        {"certificate_id": e["certificate_id"], "amount_cents": e["amount_cents"]} for e in done
    ]


def remind(uow: UnitOfWork, as_of: date, ruleset: Ruleset) -> Any:
    return reminders.issue_due(uow, as_of, ruleset)


STEPS: list[tuple[str, Step]] = [
    ("roll_fiscal_year", roll_fiscal_year),
    ("expire_carryforwards", expire),
    ("reminders", remind),
]


def _take_lease(engine: Engine, holder: str) -> bool:
    now = clock.now_utc()
    try:
        with write_transaction(engine) as conn:
            if (
                conn.execute(select(leases_t.c.name).where(leases_t.c.name == "tick")).first()
                is None
            ):
                conn.execute(
                    insert(leases_t).values(name="tick", holder=holder, expires_at=iso(now + LEASE))
                )
                return True
    except IntegrityError:
        return False
    with write_transaction(engine) as conn:
        won = conn.execute(
            update(leases_t)
            .where(leases_t.c.name == "tick", leases_t.c.expires_at < iso(now))
            .values(holder=holder, expires_at=iso(now + LEASE))
        )
        return won.rowcount == 1


def _give_back(engine: Engine, holder: str) -> None:
    with write_transaction(engine) as conn:
        conn.execute(
            update(leases_t)
            .where(leases_t.c.name == "tick", leases_t.c.holder == holder)
            .values(expires_at=iso(clock.now_utc() - timedelta(seconds=1)))
        )


def _checkpoint(engine: Engine, trust: checkpoints.TrustSettings) -> Any:
    """A checkpoint if the ledger grew; a refusal (the ledger contradicts what was
    published, the key is not trusted) is reported, never signed over and never hidden."""
    try:
        made = signing.checkpoint_due(engine, trust)
    except DomainError as e:
        log.error("tick: checkpoint REFUSED (%s): %s", e.code, e.message)
        return {"refused": e.code, "message": e.message}
    if made is None:
        return "ledger unchanged"
    return {"tree_size": made["tree_size"], "root_hash": made["root_hash"]}


def tick(
    engine: Engine,
    ruleset: Ruleset,
    as_of: date | None = None,
    trust: checkpoints.TrustSettings | None = None,
    signer: Engine | None = None,
) -> TickReport:
    """The day's steps once each, then (with `trust`) a checkpoint whenever the ledger grew
    since the last one: signing is not a calendar step, it follows the ledger. It is made
    through `signer` (SIGNER_DATABASE_URL's engine; None: `engine`)."""
    day = as_of or clock.today()
    holder = f"{socket.gethostname()}:{os.getpid()}"
    if not _take_lease(engine, holder):
        return {"as_of": day.isoformat(), "skipped": "another tick is running", "steps": {}}
    report: TickReport = {"as_of": day.isoformat(), "skipped": None, "steps": {}}
    out = report["steps"]
    try:
        for name, step in STEPS:
            with engine.connect() as conn:
                done = conn.execute(
                    select(runs_t.c.step).where(
                        runs_t.c.step == name, runs_t.c.as_of == day.isoformat()
                    )
                ).first()
            if done is not None:
                out[name] = "already done"
                continue
            result = run(engine, lambda uow, s=step: s(uow, day, ruleset))  # type: ignore[misc]
            with write_transaction(engine) as conn:
                conn.execute(
                    insert(runs_t).values(
                        step=name,
                        as_of=day.isoformat(),
                        done_at=now_iso(),
                        result={"result": result},
                    )
                )
            out[name] = result
        if trust is not None:
            writer = signer or engine
            out["checkpoint"] = _checkpoint(writer, trust)
            # The latest checkpoint's missing witnesses, asked again (PRODUCT.md 9.3).
            if out["checkpoint"] == "ledger unchanged" and (
                asked := witnessing.cosign_latest(
                    writer, trust.witnesses, trust.checkpoint_dir, checkpoints.latest(writer, trust)
                )
            ):
                out["witnesses"] = asked
    finally:
        _give_back(engine, holder)
    return report
