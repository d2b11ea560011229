"""ADM-11: the reminders 30 and 7 days before a party's tax clearance certificate lapses,
while it has an application open (a TECH case not yet valued by Taxation, or a transfer
it sells awaiting approval). The worker's reminder tick (jobs/reminders.py) issues them
as `REMINDER_ISSUED` on their own streams, once each."""

from __future__ import annotations

from datetime import date, timedelta

from market.domain.events.deals import ReminderIssued
from market.domain.model.case_file import TaxClearance
from market.domain.rulesets import Ruleset
from market.services.kernel.reads import Source, repositories

OPEN_TRANSFER = ("awaiting_buyer", "pending_approval")


def _open_parties(source: Source) -> set[str]:
    repos = repositories(source)
    parties = {
        str(c["party_id"])
        for c in repos.tech_case_files.where()
        if c["tax_certificate_number"] is None
    }
    for status in OPEN_TRANSFER:
        parties |= {str(t["seller_party_id"]) for t in repos.transfers.where(status=status)}
    return parties


def window(lapse: date, as_of: date, days: tuple[int, ...]) -> int | None:
    for d in sorted(days):
        if lapse - timedelta(days=d) <= as_of < lapse:
            return d
    return None


def due(source: Source, as_of: date, ruleset: Ruleset) -> list[tuple[str, ReminderIssued]]:
    """(stream key, reminder) for each latest certificate entering a reminder window."""
    if not ruleset.adm_in_force(as_of):
        return []
    found: list[tuple[str, ReminderIssued]] = []
    repos = repositories(source)
    for party_id in sorted(_open_parties(source)):
        latest: dict[str, TaxClearance] = {}
        for row in repos.tax_clearances.of_party(party_id):
            latest[row["program"]] = row
        for program, row in sorted(latest.items()):
            lapse = date.fromisoformat(row["valid_until"]) + timedelta(days=1)
            days = window(lapse, as_of, ruleset.adm_clearance_reminder_days)
            if days is None:
                continue
            found.append(
                (
                    f"tax-clearance-{row['id']}-d{days}",
                    ReminderIssued(
                        kind="tax_clearance_lapse",
                        party_ids=[party_id],
                        due_on=lapse.isoformat(),
                        days_before=days,
                        as_of=as_of.isoformat(),
                        subject=f"Your {program} tax clearance certificate lapses in {days} days",
                        body=f"Tax clearance certificate {row['certificate_number']} is valid "
                        f"until {row['valid_until']} (ADM-11). An open application needs a "
                        "valid one at final approval: ask the Division of Taxation to renew "
                        "it before then.",
                        link="/fees",
                    ),
                )
            )
    return found
