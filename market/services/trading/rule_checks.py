"""The rule checks a proposed or approved transfer must pass, each in words.

A credit someone can still use (PRODUCT.md 8.4, `carryforward_expired`), minimum
consideration (CMN-5), buyer tax types (§2.7), the TECH affiliation bar (TB-20),
balance, no resale (CMN-6), the UTH installments' annual review (UTH-27) and, at approval,
the TECH seller's eligibility on the date of exchange (TB-1, AMB-50). Offers and transfers
run them when proposed; approval runs them again inside the unit of work that appends it,
and the Authority's page previews them.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from datetime import date
from fractions import Fraction
from typing import Any

from market.domain.errors import (
    AffiliatedPartiesError,
    DomainError,
    IneligibleSellerError,
    InsufficientBalanceError,
    InvalidRequestError,
    TaxTypeNotAllowedError,
)
from market.domain.programs import Program, buyer_tax_types
from market.domain.rules import consideration, individuals, proceeds, resale, uth_sales
from market.domain.rules.affiliation import affiliation
from market.domain.rules.tech_eligibility import TechFacts, check_eligibility
from market.domain.rulesets import Ruleset
from market.domain.values import fiscal_year_end, format_cents, percent_text
from market.services.certificates.certificate_views import uth_tranches
from market.services.kernel import clock
from market.services.kernel.reads import Source, repositories
from market.services.parties.parties import ownership_graph
from market.services.trading import sale_windows

today = clock.today  # the business date (PRODUCT.md 8.4; CMN-1: New York dates)


# ---- the rules, each as a named check --------------------------------------------------


def _can_sell(cert: dict[str, Any]) -> bool:
    """The holder is the business the credit was awarded to (not a buyer or an owner)."""
    return bool(
        cert["holder_party_id"] == cert["original_holder_party_id"]
        and cert["origin"] in ("issued", "allocation")
    )


def unreviewed_in_sale(
    cert: dict[str, Any], amount_cents: int, ruleset: Ruleset | None = None
) -> list[tuple[int, int]]:
    """UTH-27 / AMB-18: the (period, cents) of a sale that would be conditional tranches;
    given a ruleset that sells reviewed installments only, `tranche_not_reviewed`."""
    tranches = uth_tranches(cert)
    if tranches is None:
        return []
    if ruleset is None:
        return uth_sales.unreviewed_in_sale(tranches, amount_cents)
    return uth_sales.check_unreviewed_sale(tranches, amount_cents, ruleset)


def check_balance(cert: dict[str, Any], amount_cents: int) -> None:
    if amount_cents > int(cert["balance_cents"]):
        queued = int(cert["queued_cents"])
        waiting = f" ({format_cents(queued)} more is queued and not usable yet)" if queued else ""
        raise InsufficientBalanceError(
            f"Certificate {cert['number']} has {format_cents(int(cert['balance_cents']))} "
            f"usable{waiting}; {format_cents(amount_cents)} was asked for.",
            {
                "certificate_id": cert["id"],
                "balance_cents": int(cert["balance_cents"]),
                "queued_cents": queued,
                "amount_cents": amount_cents,
            },
        )


def _check_buyer_tax_types(program: Program, buyer: dict[str, Any]) -> str:
    """§2.7. The words never list the buyer's tax types: the seller reads them (in a
    refusal, and in the checks of its transfer), and a party's taxes are its own."""
    allowed = sorted(t.value for t in buyer_tax_types(program))
    if not set(buyer["tax_types"]) & set(allowed):
        raise TaxTypeNotAllowedError(
            f"The buyer pays none of the taxes a {program} certificate may be used against "
            f"({', '.join(allowed)}; §2.7).",
            {"program": program.value, "allowed": allowed},
        )
    return f"The buyer pays a tax a {program} certificate may be used against (§2.7)."


def _check_affiliation(
    source: Source, program: Program, seller_id: str, buyer_id: str, ruleset: Ruleset
) -> str:
    if program is not Program.TECH:
        return f"No buyer-seller affiliation bar applies to {program} (BR-10, UTH-25, AMB-11)."
    result = affiliation(ownership_graph(source), seller_id, buyer_id, ruleset)
    if result.affiliated:
        raise AffiliatedPartiesError(
            "The buyer and the seller are affiliated (TB-20): " + "; ".join(result.reasons),
            {"reasons": list(result.reasons), "paths": [list(p) for p in result.paths]},
        )
    return "The buyer and the seller are not affiliated (TB-20: no common 5% owner)."


def _filed_on(source: Source, cert: dict[str, Any]) -> date:
    """The TECH application date behind a certificate, for the June 30 test date."""
    application = repositories(source).tech_applications.of_certificate(cert["root_id"])
    received = application["received_on"] if application is not None else None
    received = received or (cert.get("attributes") or {}).get("received_on")
    if received:
        return date.fromisoformat(str(received))
    return fiscal_year_end(int(cert["fiscal_year"]))


def _check_tech_seller(
    source: Source, cert: dict[str, Any], seller: dict[str, Any], on: date, ruleset: Ruleset
) -> str:
    missing = [
        name
        for name in ("us_employees", "nj_full_time_employees", "formed_on")
        if seller.get(name) is None
    ]
    if missing:
        raise IneligibleSellerError(
            f"The seller's {', '.join(missing)} are not on record, so its eligibility on the "
            "date of exchange cannot be shown (TB-1, AMB-50).",
            {"reasons": ["facts_missing"], "missing": missing},
        )
    facts = TechFacts(
        us_employees=int(seller["us_employees"]),
        nj_full_time_employees=int(seller["nj_full_time_employees"]),
        formed_on=date.fromisoformat(str(seller["formed_on"])),
        filed_on=_filed_on(source, cert),
        operating_income_cents_by_year={
            int(k): int(v) for k, v in (seller.get("operating_income_cents_by_year") or {}).items()
        },
    )
    result = check_eligibility(facts, ruleset, on, at_exchange=True)
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


def check_resale(cert: dict[str, Any], ruleset: Ruleset) -> None:
    resale.check_can_sell(_can_sell(cert), ruleset)


def rule_checks(
    source: Source,
    cert: dict[str, Any],
    seller: dict[str, Any],
    buyer: dict[str, Any],
    amount_cents: int,
    consideration_cents: int,
    ruleset: Ruleset,
    exchange_on: date | None,
    use_of_proceeds: Sequence[str] | None = None,
) -> tuple[list[dict[str, Any]], list[DomainError]]:
    """Every rule a transfer must pass, in words, on the state `source` reads (a unit of
    work, or a read connection for a preview); `exchange_on` adds the at-exchange tests,
    and `use_of_proceeds` (the transfer's attested uses, at approval and in its preview)
    the BRRAG/TECH attestation check (BR-14, TB-25)."""
    program = Program(cert["program"])
    price = Fraction(consideration_cents, amount_cents)

    def balance() -> str:
        check_balance(cert, amount_cents)
        return (
            f"{format_cents(amount_cents)} is within the usable balance of "
            f"{format_cents(int(cert['balance_cents']))}; queued amounts are not usable."
        )

    def no_resale() -> str:
        check_resale(cert, ruleset)
        return "The seller is the business the certificate was issued to (CMN-6)."

    def minimum() -> str:
        consideration.check_minimum_consideration(
            program, consideration_cents, amount_cents, ruleset
        )
        return (
            f"{format_cents(consideration_cents)} for {format_cents(amount_cents)} is "
            f"{percent_text(price)} of the amount sold; at least "
            f"{ruleset.min_consideration(program)}% is required (CMN-5)."
        )

    def tax_types() -> str:
        return _check_buyer_tax_types(program, buyer)

    def affiliated() -> str:
        return _check_affiliation(source, program, seller["id"], buyer["id"], ruleset)

    def reviewed() -> str:
        unreviewed = unreviewed_in_sale(cert, amount_cents, ruleset)
        if not unreviewed:
            return "Every installment sold has had its annual review (UTH-27)."
        periods = ", ".join(str(p) for p, _ in unreviewed)
        return (
            f"{format_cents(sum(c for _, c in unreviewed))} falls on tax period {periods}, "
            "not reviewed yet: the buyer gets it as conditional tranches, usable only once "
            "the Authority's annual review reaches them (UTH-27, AMB-18)."
        )

    def usable() -> str:
        # PRODUCT.md 8.4: on the date of exchange at approval, the business date before.
        return sale_windows.check_sellable(cert, exchange_on or today(), ruleset)

    def individual() -> str:
        return individuals.check_individual_buyer(
            program, str(buyer["entity_type"]), bool(buyer.get("director_exception")), ruleset
        )

    steps: list[tuple[str, Callable[[], str]]] = [
        ("balance", balance),
        ("carryforward_window", usable),
        ("individual_buyer", individual),
        ("no_resale", no_resale),
        ("minimum_consideration", minimum),
        ("buyer_tax_types", tax_types),
        ("affiliation", affiliated),
    ]
    if uth_tranches(cert) is not None:
        steps.append(("uth_tranches", reviewed))
    if use_of_proceeds is not None and proceeds.applies(program):
        uses = list(use_of_proceeds)

        def attested() -> str:
            return proceeds.check_use_of_proceeds(program, uses, ruleset)

        steps.append(("use_of_proceeds", attested))
    if exchange_on is not None and program is Program.TECH:
        on = exchange_on

        def eligible() -> str:
            return _check_tech_seller(source, cert, seller, on, ruleset)

        steps.append(("seller_eligibility", eligible))
    checks: list[dict[str, Any]] = []
    failures: list[DomainError] = []
    for rule, run in steps:
        try:
            message = run()
        except DomainError as exc:
            checks.append({"rule": rule, "passed": False, "code": exc.code, "message": exc.message})
            failures.append(exc)
        else:
            checks.append({"rule": rule, "passed": True, "message": message})
    return checks, failures


def refuse_if_failed(checks: list[dict[str, Any]], failures: list[DomainError]) -> None:
    if failures:
        first = failures[0]
        first.details = dict(first.details) | {"checks": checks}
        raise first


def check_other_party(cert: dict[str, Any], buyer_party_id: str) -> None:
    if buyer_party_id == cert["holder_party_id"]:
        raise InvalidRequestError(
            "A party cannot buy its own certificate.", {"party_id": buyer_party_id}
        )


# ---- listings ------------------------------------------------------------------------
