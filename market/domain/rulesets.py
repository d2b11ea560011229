"""Versioned rulesets: every constant of RULES.md section 4 and Appendix B (§0.4, AMB-1).

Amounts are cents, rates are exact fractions. Each AMB-xx reading is a named field whose
default is the reading RULES.md recommends, so a deployment can switch it by ruleset.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping
from dataclasses import dataclass, field, replace
from datetime import date
from fractions import Fraction
from types import MappingProxyType

from market.domain.errors import InvalidRequestError
from market.domain.programs import Program

_MILLION = 100_000_000  # one million dollars in cents

# AMB-17 readings: a filed owners' agreement sets a UTH partnership's owners' shares, or
# income share always.
UTH_PARTNERSHIP_BASES = ("owners_agreement_if_filed", "income_share")


@dataclass(frozen=True)
class Ruleset:
    name: str
    source: str = "A1178 (2012-2013 session), as introduced"
    fy_start_month: int = 7

    min_consideration_pct: Mapping[Program, int] = field(
        default_factory=lambda: MappingProxyType(
            {
                Program.BRRAG: 75,
                Program.UTH: 75,
                Program.DM_GIT: 75,
                Program.DM_CBT: 75,
                Program.TECH: 80,
            }
        )
    )

    brrag_credit_per_job_cents: int = 150_000
    brrag_min_operation_years: int = 10  # BR-1: continuous NJ operation before applying
    brrag_fy_cap_cents: int = 20 * _MILLION
    brrag_cap_source: str = "statement"  # AMB-4: the cap exists only in the sponsor's Statement
    # BR-11 / AMB-7 (second release): N.J.A.C. 19:31N-1.1(b) - a BRRAG credit is usable in
    # the tax period of issue (its credit_year) and the next one, then expires, for the seller
    # and every buyer (replaces the placeholder of 7 years).
    brrag_use_periods: int = 2
    brrag_min_consideration_all_sellers: bool = True  # AMB-5; False: only relocating sellers
    brrag_print_waiver: bool = True  # AMB-8 / BR-15

    uth_fy_cap_cents: int = 150 * _MILLION
    uth_cumulative_cap_cents: int = 1_500 * _MILLION
    uth_installment_fraction: Fraction = Fraction(1, 10)
    uth_carryforward_periods: int = 20
    uth_reduction_pct: int = 20
    uth_fy_bucket: str = "period_commences"  # AMB-13; alternative "approval"
    # UTH-13 / AMB-13: a UTH tax period labelled P commences on the first day of this month
    # of year P: 1, a calendar-year filer (period 2013 begins January 1, 2013: FY 2013);
    # 7 for a filer whose year begins July 1. A certificate may give its holder's own month.
    uth_period_start_month: int = 1
    # AMB-14 / UTH-26: a reviewed-down tranche already sold freezes the buyer's unapplied
    # part ("freeze"); alternative "buyer_protected" (flagged at_risk, nothing frozen).
    uth_transferred_tranche_effect: str = "freeze"
    # AMB-18 / UTH-27: installments whose annual review has not happened yet may be sold as
    # `conditional` tranches, which the buyer cannot apply until the period is reviewed
    # ("conditional"); alternative "reviewed_only" (only reviewed installments are sold).
    uth_unreviewed_tranches: str = "conditional"
    # AMB-17 / UTH-14: a UTH credit held by a partnership goes to its owners by the owners'
    # agreement filed with the Director, if one was, else by income share; alternative
    # "income_share" (the agreement is ignored).
    uth_partnership_basis: str = "owners_agreement_if_filed"

    dm_git_film_pool_cents: int = 10 * _MILLION
    dm_cbt_pool_cents: int = 5 * _MILLION
    dm_carryover_years: int = 7
    dm_liability_ceiling: Fraction = Fraction(1, 2)
    dm_queue_mode: str = "partial_strict"  # AMB-24
    dm_fy_bucket: str = "period_commences"  # AMB-23; alternative "approval"
    dm_git_use_of_cbt_certificate: bool = True  # AMB-21

    tech_fy_cap_cents: int = 60 * _MILLION
    tech_zone_setaside_cents: int = 10 * _MILLION
    tech_floor_cents: int = 25_000_000
    tech_lifetime_cap_cents: int = 15 * _MILLION
    tech_affiliation_bps: int = 500
    tech_parent_control_bps: int = 5_000
    # AMB-39 / TB-4(2): only corporate parents count ("corporations_only", the statute's
    # words); alternative "any_controller". rules/tech_parent.py.
    tech_parent_reading: str = "corporations_only"
    # AMB-63 / TB-4(2): a parent owning 50% or more (multiplied along chains) or controlling
    # the seller through a chain of majority holdings bars it ("ownership_or_control");
    # alternative "ownership_only" (multiplied ownership alone, not recommended).
    tech_parent_chain_reading: str = "ownership_or_control"
    tech_us_employee_limit: int = 225  # strictly fewer than this
    tech_nj_fte_tiers: tuple[tuple[int, int], ...] = ((0, 1), (3, 5), (5, 10))
    tech_nj_fte_boundary: str = "upper"  # AMB-36
    tech_fte_test_date: str = "calendar_june_30"  # AMB-37; alternative "fiscal_year_end"
    tech_profit_lookback_years: int = 2
    tech_deadline_month: int = 6
    tech_deadline_day: int = 30
    tech_hq_years: int = 5
    tech_nol_rate_regime: str = "seller"  # AMB-41; alternative "buyer"
    affiliation_mode: str = "conservative_union"  # AMB-34; alternative "third_party_only"
    affiliation_max_links: int = 24

    git_rnd_carryover_years: int = 7
    git_rnd_carryover_years_designated_fields: int = 15

    max_rate_cbt: Fraction = Fraction(9, 100)
    max_rate_git_by_year: Mapping[int, Fraction] = field(
        default_factory=lambda: MappingProxyType({2012: Fraction(897, 10_000)})
    )
    cbt_statutory_minimum_by_year: Mapping[int, int] = field(
        default_factory=lambda: MappingProxyType({})
    )

    allocation_apportion_mode: str = "preserve_zone"  # AMB-30(c); alternative "scale_all"
    allocation_zone_mode: str = "carve_out_then_compete"  # AMB-30(d)
    rounding_mode: str = "floor_cent_largest_remainder"  # AMB-31; alternative "floor_cent"
    trigger_at_cap: bool = False  # AMB-32: at exactly the cap nothing is apportioned

    git_50pct_base: str = "total_liability"
    pt_ceiling_mode: str = "independent"  # AMB-52; alternative "fifty_percent_of_cap40"
    pt_numerator_mode: str = "positive_sources"  # AMB-51; alternative "algebraic"
    git_direct_individual_purchase: str = "director_exception_only"  # AMB-53
    # AMB-56 / PT-1: whose earlier use of a creditable activity bars a credit: the entity
    # and every direct or indirect owner and owned entity; alternative "same_taxpayer".
    pt1_activity_scope: str = "entity_and_owners"
    resale_allowed: bool = False  # AMB-59
    # PRODUCT.md 8.4: a credit nobody can use any more is not sold. A tax period labelled L
    # may run to December 30 of L+1 ("latest_period_end": sellable through December 31 of
    # L+1); alternative "calendar_year" (through December 31 of L). rules/sale_window.py.
    sale_window_reading: str = "latest_period_end"
    # BR-14 / TB-25: the seller's attestation that BRRAG and TECH proceeds fund its NJ
    # operating expenses is recorded when given ("record"); "required" refuses approval
    # without it (market/domain/rules/proceeds.py).
    pfa_use_attestation: str = "record"
    # PRODUCT.md 8.3, market information and risk. The buyer calculator's ceiling on an R&D
    # credit carryover against the liability (C.54:10A-5.24(b) for CBT, section 21(b) GIT);
    # NOL-derived amounts have none (AMB-45).
    tech_rnd_liability_ceiling: Fraction = Fraction(1, 2)
    # The closing record: approval waits for the seller's confirmed receipt when on.
    approval_requires_funding: bool = False
    # TB-40(b) exposure while a headquarters window runs: "sliding" (the share of the
    # window left) or "full" (the whole benefit until the window ends).
    tech_hq_recapture_scale: str = "sliding"
    # RULES.md section 7 (ADM-1..12, N.J.A.C. 19:31): the Authority's process, in force for
    # steps taken on or after `adm_in_force_from` (None: never); an earlier step (the bill's
    # own era) takes none of its gates. docs/CASEFILES.md.
    adm_in_force_from: date | None = date(2024, 1, 1)
    adm_tech_application_fee_cents: int = 100_000  # ADM-1
    adm_tech_approval_fee_over_cents: int = 10_000_000  # ADM-2: awards over $100,000
    adm_tech_approval_fee_rate: Fraction = Fraction(1, 100)
    adm_tech_fees_cap_cents: int = 2_000_000  # the two TECH fees together
    adm_uth_application_fee_cents: int = 500_000  # ADM-3
    adm_uth_approval_fee_rate: Fraction = Fraction(1, 200)
    adm_uth_approval_fee_cap_cents: int = 30_000_000
    adm_uth_annual_review_fee_cents: int = 250_000
    adm_uth_transfer_fee_cents: int = 250_000
    # ADM-5 / ADM-7 exhibits; the spending certification only after a sale the prior year.
    adm_submission_exhibits: tuple[str, ...] = (
        "business_description",
        "business_plan",
        "financial_statements_year_1",
        "financial_statements_year_2",
        "affiliates_list",
    )
    adm_forward_exhibits: tuple[str, ...] = (
        "buying_business_information_sheet",
        "tax_benefit_identification_form",
        "private_financial_assistance_form",
        "executed_selling_agreement",
    )
    adm_prior_sale_exhibit: str = "spending_certification"
    adm_transfer_exhibits: tuple[str, ...] = ("executed_selling_agreement",)  # TECH sales
    adm_brrag_governor_working_days: int = 10  # ADM-9
    adm_clearance_valid_days: int = 90  # ADM-11
    adm_clearance_max_renewals: int = 3
    adm_clearance_renewal_window_days: int = 365
    adm_clearance_steps: tuple[str, ...] = ("submission", "final")  # ADM-12 [CFG]
    adm_clearance_reminder_days: tuple[int, ...] = (30, 7)

    def adm_in_force(self, on: date) -> bool:
        """Whether the ADM process rules govern a step taken on `on`."""
        return self.adm_in_force_from is not None and on >= self.adm_in_force_from

    def __hash__(self) -> int:
        # The mappings are read-only proxies, which do not hash; the name identifies a ruleset.
        return hash(self.name)

    def reading(self, name: str, known: Collection[str]) -> str:
        """The ruleset's reading `name` (an AMB-xx choice), refused unless one of `known`."""
        value = str(getattr(self, name))
        if value not in known:
            raise InvalidRequestError(
                f"unknown {name} {value!r}", {name: value, "known": sorted(known)}
            )
        return value

    def min_consideration(self, program: Program) -> int:
        return self.min_consideration_pct[program]

    def max_rate_git(self, tax_year: int) -> Fraction:
        """The top GIT rate loaded for the latest year not after ``tax_year``."""
        loaded = [y for y in self.max_rate_git_by_year if y <= tax_year]
        if not loaded:
            raise InvalidRequestError(
                f"no maximum GIT rate is loaded for tax year {tax_year} in ruleset {self.name}",
                {"tax_year": tax_year, "ruleset": self.name},
            )
        return self.max_rate_git_by_year[max(loaded)]


A1178 = Ruleset(name="A1178")

NJAC_2022 = replace(
    A1178,
    name="NJAC-2022",
    source="N.J.A.C. 19:31K-1.7 (TECH values as enacted); other values as A1178",
    tech_fy_cap_cents=75 * _MILLION,
    tech_zone_setaside_cents=15 * _MILLION,
    tech_lifetime_cap_cents=20 * _MILLION,
)

RULESETS: Mapping[str, Ruleset] = MappingProxyType({r.name: r for r in (A1178, NJAC_2022)})


@dataclass(frozen=True)
class ScheduleEntry:
    """One ruleset in force from ``effective_from`` (inclusive) to ``effective_to`` (exclusive)."""

    ruleset_name: str
    effective_from: date = date.min
    effective_to: date | None = None
    programs: frozenset[Program] | None = None  # None: every program


# The bill as introduced governs everything unless a deployment chooses another schedule.
DEFAULT_SCHEDULE: tuple[ScheduleEntry, ...] = (ScheduleEntry("A1178"),)

# Enacted-law schedule: TECH follows N.J.A.C. 19:31K from State FY 2023.
ENACTED_SCHEDULE: tuple[ScheduleEntry, ...] = (
    ScheduleEntry("NJAC-2022", date(2022, 7, 1), None, frozenset({Program.TECH})),
    ScheduleEntry("A1178"),
)


def get_ruleset(name: str = "A1178") -> Ruleset:
    try:
        return RULESETS[name]
    except KeyError:
        raise InvalidRequestError(
            f"unknown ruleset {name!r}", {"ruleset": name, "known": sorted(RULESETS)}
        ) from None


def ruleset_for(
    program: Program, on: date, schedule: tuple[ScheduleEntry, ...] = DEFAULT_SCHEDULE
) -> Ruleset:
    """The first schedule entry covering ``program`` on ``on``; entries are in priority order."""
    for entry in schedule:
        covers_program = entry.programs is None or program in entry.programs
        in_force = entry.effective_from <= on and (
            entry.effective_to is None or on < entry.effective_to
        )
        if covers_program and in_force:
            return get_ruleset(entry.ruleset_name)
    raise InvalidRequestError(
        f"no ruleset is in force for {program} on {on.isoformat()}",
        {"program": str(program), "on": on.isoformat()},
    )
