"""Reminders 30 and 7 days before a deadline or a carryforward expiry, as ledger events
(`REMINDER_ISSUED`), so the inbox, e-mail and webhooks carry them like any other event and
the ledger records who was reminded of what.

Each reminder has its own stream (`reminder-<what>-d<days>`): one that exists was issued,
so a second tick the same day (or any later day) issues nothing again. When a tick first
runs inside the 7-day window, only the 7-day reminder goes.

- TECH application deadline (TB-6: June 30 of each State FY): to every party that has
  filed a TECH application (the program's sellers).
- Carryforward expiry: to the holder of each held certificate with a balance. A credit
  whose carryover window ends with tax year Y can still go on the return for Y, which is
  filed during Y+1, so the tick expires it on January 1 of Y+2 (see ticks.py) and the
  reminders count down to that day. UTH tranches carry their own windows (UTH-10); the
  certificate's reminder uses the certificate's window.
"""

from __future__ import annotations

from datetime import date, timedelta

from market.adapters.repositories.models import certificate_of
from market.domain.events.deals import ReminderIssued
from market.domain.rules import tech_caps
from market.domain.rulesets import Ruleset
from market.domain.values import fiscal_year, format_cents
from market.services.casefiles import clearance_reminders
from market.services.kernel.actor import SYSTEM
from market.services.kernel.uow import AbstractUnitOfWork
from market.services.queries.pages_queries import carryover_last_year

DAYS = (7, 30)


def expiry_of(last_tax_year: int) -> date:
    """The first day a credit usable through `last_tax_year` is expired by the tick."""
    return date(last_tax_year + 2, 1, 1)


def window(due: date, as_of: date) -> int | None:
    """Which reminder is due on `as_of` for `due`: the tightest window it falls in."""
    for days in DAYS:
        if due - timedelta(days=days) <= as_of < due:
            return days
    return None


def _issue(uow: AbstractUnitOfWork, key: str, reminder: ReminderIssued) -> bool:
    stream = f"reminder-{key}"
    if uow.stream_exists(stream) or not reminder.party_ids:
        return False
    uow.append(stream, reminder, SYSTEM.label, new_stream=True)
    return True


def issue_due(uow: AbstractUnitOfWork, as_of: date, ruleset: Ruleset) -> list[str]:
    issued: list[str] = []
    fy = fiscal_year(as_of)
    deadline = tech_caps.deadline(fy, ruleset)
    days = window(deadline, as_of)
    if days is not None:
        parties = uow.tech_applications.applicant_parties()
        key = f"tech-deadline-{fy}-d{days}"
        if _issue(
            uow,
            key,
            ReminderIssued(
                kind="tech_application_deadline",
                party_ids=parties,
                due_on=deadline.isoformat(),
                days_before=days,
                as_of=as_of.isoformat(),
                subject=f"TECH applications for FY {fy} close in {days} days",
                body=f"The TECH benefit transfer program takes applications for fiscal year "
                f"{fy} until {deadline:%B %-d, %Y} (TB-6). Anything received later goes to FY "
                f"{fy + 1}.",
                link="/seller",
            ),
        ):
            issued.append(key)
    for cert in uow.certificates.held_with_balance():
        last = carryover_last_year(certificate_of(cert), ruleset)
        if last is None:
            continue
        expires = expiry_of(last)
        days = window(expires, as_of)
        if days is None:
            continue
        key = f"carryforward-{cert['id']}-{last}-d{days}"
        last_day = expires - timedelta(days=1)
        if _issue(
            uow,
            key,
            ReminderIssued(
                kind="carryforward_expiry",
                party_ids=[cert["holder_party_id"]],
                certificate_id=cert["id"],
                due_on=expires.isoformat(),
                days_before=days,
                as_of=as_of.isoformat(),
                subject=f"{format_cents(int(cert['balance_cents']))} of {cert['number']} "
                f"expires in {days} days",
                body=f"Certificate {cert['number']} can be used through tax year {last}. What "
                f"is left of it ({format_cents(int(cert['balance_cents']))}) expires after "
                f"{last_day:%B %-d, %Y}: apply it to a return before then.",
                link=f"/certificates/{cert['id']}",
            ),
        ):
            issued.append(key)
    for key, reminder in clearance_reminders.due(uow, as_of, ruleset):  # ADM-11
        if _issue(uow, key, reminder):
            issued.append(key)
    return issued
