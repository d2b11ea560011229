"""ADM-5, ADM-6: which of a fiscal year's TECH applications its allocation takes.

Where the Authority's rules are in force for the year (its June 30 deadline falls on or
after the ruleset's `adm_in_force_from`), an application is in the allocation only if it
was submitted (the step that needs the package complete and the $1,000 fee paid) by the
deadline; an application received but never submitted is left out, as one the Authority
never had complete. In the bill's own era (and for a ruleset without the ADM rules, as
the records import uses) every eligible application is allocated, as before."""

from __future__ import annotations

from datetime import date

from market.domain.rules.tech_caps import deadline
from market.domain.rulesets import Ruleset


def requires_submission(fiscal_year: int, ruleset: Ruleset) -> bool:
    """Whether the year's allocation takes only submitted applications."""
    return ruleset.adm_in_force(deadline(fiscal_year, ruleset))


def in_allocation(fiscal_year: int, submitted_on: date | None, ruleset: Ruleset) -> bool:
    """An eligible application's place in the year's allocation (`submitted_on`: the day
    of its case file's submission, None if never submitted)."""
    if not requires_submission(fiscal_year, ruleset):
        return True
    return submitted_on is not None and submitted_on <= deadline(fiscal_year, ruleset)
