"""The rule checks a proposed or approved transfer must pass, each in words, decided on
facts loaded before (no reads here).

A credit someone can still use (PRODUCT.md 8.4, `carryforward_expired`), minimum
consideration (CMN-5), buyer tax types (§2.7), individual buyers (PT-7), the TECH
affiliation bar (TB-20), balance, no resale (CMN-6), the UTH installments' annual review
(UTH-27, AMB-18), the attested use of the proceeds (BR-14, TB-25) and, at approval, the
TECH seller's eligibility on the date of exchange (TB-1, AMB-50)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from datetime import date
from fractions import Fraction
from typing import Any

from market.domain.errors import (
    AffiliatedPartiesError,
    DomainError,
    IneligibleSellerError,
    TaxTypeNotAllowedError,
)
from market.domain.model import Certificate, Party, Transfer
from market.domain.programs import Program, buyer_tax_types
from market.domain.rules import consideration, individuals, proceeds, resale, sale_window, uth_sales
from market.domain.rules.affiliation import OwnershipGraph, affiliation
from market.domain.rules.tech_eligibility import check_eligibility
from market.domain.rulesets import Ruleset
from market.domain.values import format_cents, percent_text


@dataclass(frozen=True)
class Sale:
    """The terms checked: `exchange_on` (at approval) adds the at-exchange tests, else the
    credit must be usable on `today`; `use_of_proceeds` (attested uses, at approval and its
    preview) adds the attestation check."""

    amount_cents: int
    consideration_cents: int
    today: date
    exchange_on: date | None = None
    use_of_proceeds: tuple[str, ...] | None = None


def at_exchange(transfer: Transfer, on: date) -> Sale:
    """The terms of a proposed transfer as approval checks them: exchanged on `on`, with
    the seller's attested uses (none attested: an empty attestation)."""
    return Sale(
        transfer.amount_cents,
        transfer.consideration_cents,
        today=on,
        exchange_on=on,
        use_of_proceeds=transfer.use_of_proceeds or (),
    )


@dataclass(frozen=True)
class SaleFacts:
    """What the checks read, loaded by the use case: the certificate, both parties, the
    ownership graph (TB-20), the last year the credit is usable in and, for TECH, the date
    its application was filed (the June 30 test date)."""

    certificate: Certificate
    seller: Party
    buyer: Party
    owners: OwnershipGraph
    usable_through: int | None
    filed_on: date


@dataclass(frozen=True)
class Checks:
    rows: tuple[dict[str, Any], ...]
    failures: tuple[DomainError, ...]

    def and_passed(self, row: dict[str, Any]) -> Checks:
        """These checks and one more that cannot fail (a statement of what was not done)."""
        return Checks((*self.rows, row), self.failures)

    def refuse_if_failed(self) -> None:
        """The first failure, carrying every check in `details.checks` (every reason)."""
        if self.failures:
            first = self.failures[0]
            first.details = dict(first.details) | {"checks": list(self.rows)}
            raise first


def _buyer_tax_types(program: Program, buyer: Party) -> str:
    """§2.7. The words never list the buyer's tax types: the seller reads them."""
    allowed = sorted(t.value for t in buyer_tax_types(program))
    if not buyer.tax_types & set(allowed):
        raise TaxTypeNotAllowedError(
            f"The buyer pays none of the taxes a {program} certificate may be used against "
            f"({', '.join(allowed)}; §2.7).",
            {"program": program.value, "allowed": allowed},
        )
    return f"The buyer pays a tax a {program} certificate may be used against (§2.7)."


def _affiliation(facts: SaleFacts, ruleset: Ruleset) -> str:
    program = facts.certificate.program
    if program is not Program.TECH:
        return f"No buyer-seller affiliation bar applies to {program} (BR-10, UTH-25, AMB-11)."
    result = affiliation(facts.owners, facts.seller.id, facts.buyer.id, ruleset)
    if result.affiliated:
        raise AffiliatedPartiesError(
            "The buyer and the seller are affiliated (TB-20): " + "; ".join(result.reasons),
            {"reasons": list(result.reasons), "paths": [list(p) for p in result.paths]},
        )
    return "The buyer and the seller are not affiliated (TB-20: no common 5% owner)."


def _tech_seller(facts: SaleFacts, on: date, ruleset: Ruleset) -> str:
    tech = facts.seller.tech_facts(facts.filed_on)
    if tech is None:
        missing = facts.seller.missing_tech_facts()
        raise IneligibleSellerError(
            f"The seller's {', '.join(missing)} are not on record, so its eligibility on the "
            "date of exchange cannot be shown (TB-1, AMB-50).",
            {"reasons": ["facts_missing"], "missing": missing},
        )
    result = check_eligibility(tech, ruleset, on, at_exchange=True)
    if not result.eligible:
        raise IneligibleSellerError(
            "The seller is not eligible on the date of exchange: " + "; ".join(result.messages),
            {
                "reasons": list(result.reasons),
                "messages": list(result.messages),
                "exchange_date": on.isoformat(),
            },
        )
    return f"The seller is a new or expanding business on {on.isoformat()} (TB-1, AMB-50)."


def _reviewed(cert: Certificate, amount_cents: int, ruleset: Ruleset) -> str:
    tranches = cert.uth_tranches() or []
    unreviewed = uth_sales.check_unreviewed_sale(tranches, amount_cents, ruleset)
    if not unreviewed:
        return "Every installment sold has had its annual review (UTH-27)."
    periods = ", ".join(str(p) for p, _ in unreviewed)
    return (
        f"{format_cents(sum(c for _, c in unreviewed))} falls on tax period {periods}, "
        "not reviewed yet: the buyer gets it as conditional tranches, usable only once "
        "the Authority's annual review reaches them (UTH-27, AMB-18)."
    )


Step = tuple[str, Callable[[], str]]


def _core_steps(sale: Sale, facts: SaleFacts, ruleset: Ruleset) -> list[Step]:
    cert, buyer, program = facts.certificate, facts.buyer, facts.certificate.program
    amount, paid = sale.amount_cents, sale.consideration_cents

    def balance() -> str:
        cert.check_balance(amount)
        return (
            f"{format_cents(amount)} is within the usable balance of "
            f"{format_cents(cert.balance_cents)}; queued amounts are not usable."
        )

    def no_resale() -> str:
        resale.check_can_sell(cert.held_by_original_holder, ruleset)
        return "The seller is the business the certificate was issued to (CMN-6)."

    def minimum() -> str:
        consideration.check_minimum_consideration(program, paid, amount, ruleset)
        return (
            f"{format_cents(paid)} for {format_cents(amount)} is "
            f"{percent_text(Fraction(paid, amount))} of the amount sold; at least "
            f"{ruleset.min_consideration(program)}% is required (CMN-5)."
        )

    def usable() -> str:
        # PRODUCT.md 8.4: on the date of exchange at approval, the business date before.
        return sale_window.check_sellable(
            facts.usable_through, sale.exchange_on or sale.today, ruleset
        )

    def individual() -> str:
        exception = bool(buyer.director_exception)
        return individuals.check_individual_buyer(program, buyer.entity_type, exception, ruleset)

    return [
        ("balance", balance),
        ("carryforward_window", usable),
        ("individual_buyer", individual),
        ("no_resale", no_resale),
        ("minimum_consideration", minimum),
        ("buyer_tax_types", lambda: _buyer_tax_types(program, buyer)),
        ("affiliation", lambda: _affiliation(facts, ruleset)),
    ]


def _extra_steps(sale: Sale, facts: SaleFacts, ruleset: Ruleset) -> list[Step]:
    cert, program, steps = facts.certificate, facts.certificate.program, []
    if cert.uth_tranches() is not None:
        steps.append(("uth_tranches", lambda: _reviewed(cert, sale.amount_cents, ruleset)))
    uses = sale.use_of_proceeds
    if uses is not None and proceeds.applies(program):
        steps.append(
            ("use_of_proceeds", lambda: proceeds.check_use_of_proceeds(program, uses, ruleset))
        )
    on = sale.exchange_on
    if on is not None and program is Program.TECH:
        steps.append(("seller_eligibility", lambda: _tech_seller(facts, on, ruleset)))
    return steps


def run(sale: Sale, facts: SaleFacts, ruleset: Ruleset) -> Checks:
    """Every check, in order, each passed with its words or failed with its code."""
    rows: list[dict[str, Any]] = []
    failures: list[DomainError] = []
    for rule, check in _core_steps(sale, facts, ruleset) + _extra_steps(sale, facts, ruleset):
        try:
            message = check()
        except DomainError as exc:
            rows.append({"rule": rule, "passed": False, "code": exc.code, "message": exc.message})
            failures.append(exc)
        else:
            rows.append({"rule": rule, "passed": True, "message": message})
    return Checks(tuple(rows), tuple(failures))
