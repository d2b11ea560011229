"""Sentences for existing records and report facts (PRODUCT.md 9.1, 9.2)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from market.web.event_words import Names, name_of


def party_facts(p: Mapping[str, Any], n: Names) -> str:
    who = name_of(n, "party_id", p)
    code = p.get("naics_code")
    industry = f"NAICS {code}" if code else "no NAICS code"
    years = p.get("employees") or {}
    staff = ", ".join(f"{c} in {y}" for y, c in sorted(years.items())) or "no employee counts"
    tech = [
        f"{p['us_employees']} employees in the United States"
        if p.get("us_employees") is not None
        else "",
        f"{p['nj_full_time_employees']} full-time in New Jersey"
        if p.get("nj_full_time_employees") is not None
        else "",
        f"formed on {p['formed_on']}" if p.get("formed_on") else "",
    ]
    given = [t for t in tech if t]
    eligibility = f" TECH eligibility facts: {', '.join(given)}." if given else ""
    return f"{who}'s industry was recorded as {industry}, with employees {staff}.{eligibility}"


def records_imported(p: Mapping[str, Any], n: Names) -> str:
    return (
        f"{p.get('imported')} of {p.get('rows')} {p.get('kind')} rows were imported from "
        f"{p.get('file_name')} (SHA-256 {str(p.get('sha256'))[:12]}...)."
    )
