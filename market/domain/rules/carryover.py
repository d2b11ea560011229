"""The carryover window of a certificate: the last tax year it may be used in (CMN-8,
BR-11, DMG-5, DMC-6, UTH-10, TB-27; AMB-21, AMB-45).

A certificate that states its window (`carryover_last_year`, set at issuance) keeps it;
otherwise the window is counted from the credit year (else the fiscal year) of the award.
TECH NOL amounts state none (AMB-45), and UTH's 20-period clock runs per installment
(UTH-10, AMB-15), so neither has one window."""

from __future__ import annotations

from market.domain.programs import Program, TaxType
from market.domain.rules.credit_use import carryover_last_year
from market.domain.rulesets import Ruleset


def carryover_window(
    program: Program,
    tax_type: TaxType,
    ruleset: Ruleset,
    *,
    stated_last_year: int | None,
    credit_year: int | None,
    fiscal_year: int,
) -> int | None:
    """The last tax year of use, or None when the program states no single window."""
    if stated_last_year is not None:
        return int(stated_last_year)
    if program in (Program.TECH, Program.UTH):
        return None
    base = credit_year if credit_year is not None else fiscal_year
    return carryover_last_year(program, tax_type, int(base), ruleset)


def is_expired(last_year: int | None, tax_year: int) -> bool:
    """CMN-8: a use in a tax year after the window's last one is refused."""
    return last_year is not None and tax_year > last_year
