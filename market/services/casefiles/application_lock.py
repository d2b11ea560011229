"""ADM-6: from 12:00 am July 1 (New York) a fiscal year's TECH applications lock: no exhibit
is added and none is submitted. Only where the ADM rules are in force on the business date
(the ruleset's `adm_in_force_from`)."""

from __future__ import annotations

from market.adapters.repositories.casefiles import application_on_file
from market.domain.rules import adm_checklist
from market.domain.rulesets import get_ruleset
from market.services.kernel.clock import today
from market.services.kernel.errors import not_found
from market.services.kernel.reads import Source, repositories


def check_open(source: Source, application_id: str) -> None:
    row = repositories(source).tech_applications.get(application_id)
    if row is None:
        raise not_found("TECH application", "application_id", application_id)
    app = application_on_file(row)
    ruleset = get_ruleset(app.ruleset)
    on = today()
    if ruleset.adm_in_force(on):
        adm_checklist.check_not_locked(app.fiscal_year, on, ruleset)
