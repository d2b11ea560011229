"""A party's industry (NAICS 2022) and employees by year on the Authority's parties page
(PRODUCT.md 9.2): the form checks with the API's schema (`PartyFactsIn`) and records
through the same use case as `PATCH /api/v1/parties/{id}`."""

from __future__ import annotations

from flask import request
from flask.typing import ResponseReturnValue

from market.domain.commands.records import HeadcountFacts, RecordPartyFacts
from market.domain.rules.records import parse_employees
from market.services.kernel import runner
from market.services.kernel.uow import ReadOnly
from market.services.queries import pickers
from market.services.records import party_facts
from market.validation import PartyFactsIn
from market.web import forms
from market.web.base import actor, bp, engine, roles_required
from market.web.fields import Fields
from market.web.party_admin_pages import render_parties


@bp.post("/authority/parties/facts", endpoint="record_party_facts")
@roles_required("authority")
def record_party_facts() -> ResponseReturnValue:
    who, form, f = actor(), request.form, Fields(request.form)
    with ReadOnly(engine()) as conn:
        party = f.read("party", lambda: pickers.resolve_party(conn, form.get("party", "")))
    typed = f.text("employees")
    employees = f.read("employees", lambda: parse_employees(typed)) if typed else None
    data = {
        "naics_code": f.text("naics_code"),
        "employees": employees,
        "us_employees": f.integer("us_employees", "Employees in the United States"),
        "nj_full_time_employees": f.integer("nj_employees", "Full-time employees in NJ"),
        "formed_on": f.text("formed_on"),
    }
    names = {k: k for k in data} | {"nj_full_time_employees": "nj_employees"}
    loaded = f.load(PartyFactsIn(), data, names)
    if not f.ok or party is None or loaded is None:
        return render_parties(f.refuse())
    headcount = HeadcountFacts(
        loaded["us_employees"], loaded["nj_full_time_employees"], loaded["formed_on"]
    )
    command = RecordPartyFacts(party["id"], loaded["naics_code"], loaded["employees"], headcount)
    return forms.finish(
        lambda: runner.run(
            engine(),
            lambda uow: party_facts.record_party_facts(uow, who, command),
        ),
        lambda facts: f"Recorded for {party['name']}: NAICS {facts['naics_code'] or 'none'}.",
        render_parties,
        "pages.party_admin",
    )
