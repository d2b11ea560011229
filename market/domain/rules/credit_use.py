"""Applying a credit on a buyer's return and how long it may be carried
(DMG-5, DMG-6, DMG-13, DMC-6, DMC-11, UTH-10, TB-27, PT-3, PT-4, AMB-21, AMB-45, AMB-52).

Every limit is computed exactly and rounded down to the cent; the smallest one binds and
is reported as ``limited_by``.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

from market.domain.errors import InvalidRequestError
from market.domain.programs import Program, TaxType, check_tax_type
from market.domain.rulesets import Ruleset
from market.domain.values import floor_int

_CEILING_PROGRAMS = frozenset({Program.DM_GIT, Program.DM_CBT})


@dataclass(frozen=True)
class CreditLimitInput:
    program: Program
    tax_type: TaxType
    available_cents: int
    liability_cents: int
    other_credits_cents: int = 0
    statutory_minimum_cents: int = 0
    cap40_cents: int | None = None


@dataclass(frozen=True)
class CreditUse:
    applied_cents: int
    carried_forward_cents: int
    limited_by: str


def _limits(inp: CreditLimitInput, requested_cents: int, ruleset: Ruleset) -> list[tuple[str, int]]:
    """Candidate limits in the order used to name the binding one when several tie."""
    net_liability = inp.liability_cents - inp.other_credits_cents
    limits = [("requested", requested_cents), ("balance", inp.available_cents)]
    if inp.program in _CEILING_PROGRAMS:
        ceiling = floor_int(ruleset.dm_liability_ceiling * inp.liability_cents)
        limits.append(("fifty_percent_ceiling", ceiling - inp.other_credits_cents))
    if inp.tax_type is TaxType.CBT and inp.statutory_minimum_cents > 0:
        # With no minimum the liability itself binds, and should be named as such.
        limits.append(("statutory_minimum", net_liability - inp.statutory_minimum_cents))
    limits.append(("liability", net_liability))
    if inp.tax_type is TaxType.GIT and inp.cap40_cents is not None:
        cap40 = inp.cap40_cents
        if ruleset.pt_ceiling_mode == "fifty_percent_of_cap40" and inp.program in _CEILING_PROGRAMS:
            cap40 = floor_int(ruleset.dm_liability_ceiling * Fraction(cap40))
        limits.append(("section_40_ratio", cap40))
    return limits


def apply_credit(inp: CreditLimitInput, requested_cents: int, ruleset: Ruleset) -> CreditUse:
    amounts = (
        inp.available_cents,
        inp.liability_cents,
        inp.other_credits_cents,
        inp.statutory_minimum_cents,
        requested_cents,
    )
    if min(amounts) < 0 or (inp.cap40_cents is not None and inp.cap40_cents < 0):
        raise InvalidRequestError(
            "amounts applied to a return must not be negative",
            {"requested_cents": requested_cents, "available_cents": inp.available_cents},
        )
    check_tax_type(inp.program, inp.tax_type)
    if (
        inp.program is Program.DM_CBT
        and inp.tax_type is TaxType.GIT
        and not ruleset.dm_git_use_of_cbt_certificate
    ):
        raise InvalidRequestError(
            f"ruleset {ruleset.name} does not allow a DM_CBT certificate against GIT (AMB-21)",
            {"program": str(inp.program), "tax_type": str(inp.tax_type)},
        )
    limits = _limits(inp, requested_cents, ruleset)
    limited_by, applied = min(limits, key=lambda item: item[1])
    applied = max(0, applied)
    return CreditUse(applied, inp.available_cents - applied, limited_by)


def carryover_last_year(
    program: Program,
    tax_type: TaxType,
    credit_year: int,
    ruleset: Ruleset,
    field_15_year: bool = False,
) -> int:
    """The last taxable year (or UTH period index) in which the credit may still be used."""
    check_tax_type(program, tax_type)
    if program in _CEILING_PROGRAMS:
        return credit_year + ruleset.dm_carryover_years
    if program is Program.UTH:
        return credit_year + ruleset.uth_carryforward_periods
    if program is Program.TECH:
        # AMB-45: the clock runs from the original credit year, not the purchase.
        years = (
            ruleset.git_rnd_carryover_years_designated_fields
            if field_15_year
            else ruleset.git_rnd_carryover_years
        )
        return credit_year + years
    # BR-11: the tax period of issue and the next (N.J.A.C. 19:31N-1.1(b)).
    return credit_year + ruleset.brrag_use_periods - 1
