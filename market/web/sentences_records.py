"""Sentences for existing records and report facts (PRODUCT.md 9.1, 9.2), each over its
own event class."""

from __future__ import annotations

from market.domain.events.records import PartyFactsRecorded, RecordsImported
from market.web.event_words import Names, named


def _eligibility(e: PartyFactsRecorded) -> str:
    """The TECH eligibility facts given, in one sentence (empty for none)."""
    given = [
        f"{e.us_employees} employees in the United States" if e.us_employees is not None else "",
        f"{e.nj_full_time_employees} full-time in New Jersey"
        if e.nj_full_time_employees is not None
        else "",
        f"formed on {e.formed_on}" if e.formed_on else "",
    ]
    facts = [t for t in given if t]
    return f" TECH eligibility facts: {', '.join(facts)}." if facts else ""


def party_facts(e: PartyFactsRecorded, n: Names) -> str:
    industry = f"NAICS {e.naics_code}" if e.naics_code else "no NAICS code"
    years = sorted(e.employees.items())
    staff = ", ".join(f"{c} in {y}" for y, c in years) or "no employee counts"
    return (
        f"{named(n, e.party_id)}'s industry was recorded as {industry}, with employees "
        f"{staff}.{_eligibility(e)}"
    )


def records_imported(e: RecordsImported, n: Names) -> str:
    return (
        f"{e.imported} of {e.rows} {e.kind} rows were imported from "
        f"{e.file_name} (SHA-256 {e.sha256[:12]}...)."
    )
