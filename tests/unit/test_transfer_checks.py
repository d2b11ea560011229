"""The rule checks of a sale (market.domain.rules.transfer_checks), decided on facts
alone: the worked examples of CMN-5, §2.7, TB-20, TB-1, UTH-27 and BR-14/TB-25."""

from __future__ import annotations

from dataclasses import replace
from datetime import date

import pytest

from market.domain.errors import (
    AffiliatedPartiesError,
    BelowMinimumConsiderationError,
    IneligibleSellerError,
    InsufficientBalanceError,
    TaxTypeNotAllowedError,
)
from market.domain.model import Certificate, Party
from market.domain.programs import Program
from market.domain.rules.affiliation import OwnershipGraph, Stake
from market.domain.rules.transfer_checks import Sale, SaleFacts, run
from market.domain.rulesets import A1178

DOLLARS = 100
TODAY = date(2014, 9, 1)
NO_OWNERS = OwnershipGraph.from_stakes([])


def certificate(program: Program = Program.DM_CBT, **fields: object) -> Certificate:
    base = Certificate(
        id="crt_1",
        number=f"{program.value}-2014-000001",
        program=program,
        holder_party_id="p_seller",
        original_holder_party_id="p_seller",
        root_id="crt_1",
        origin="allocation" if program is Program.TECH else "issued",
        fiscal_year=2014,
        allowed_cents=1_000_000 * DOLLARS,
        balance_cents=1_000_000 * DOLLARS,
        queued_cents=0,
        children_count=0,
        tax_types=("CBT",),
        tax_periods=(),
        credit_year=2013,
        carryover_last_year=None,
        waiver_statement="",
    )
    return replace(base, **fields)  # type: ignore[arg-type]


def party(party_id: str, **fields: object) -> Party:
    base = Party(
        id=party_id,
        name=party_id,
        entity_type="c_corporation",
        tax_types=frozenset({"CBT", "GIT"}),
        us_employees=50,
        nj_full_time_employees=20,
        formed_on=date(2010, 1, 1),
    )
    return replace(base, **fields)  # type: ignore[arg-type]


def facts(cert: Certificate, **fields: object) -> SaleFacts:
    base = SaleFacts(
        certificate=cert,
        seller=party("p_seller"),
        buyer=party("p_buyer"),
        owners=NO_OWNERS,
        usable_through=2030,
        filed_on=date(2014, 3, 1),
    )
    return replace(base, **fields)  # type: ignore[arg-type]


def failed(sale: Sale, on: SaleFacts) -> dict[str, str]:
    return {r["rule"]: r["code"] for r in run(sale, on, A1178).rows if not r["passed"]}


def test_a_sale_at_the_floor_passes_every_check_in_words() -> None:
    checks = run(Sale(400_000 * DOLLARS, 300_000 * DOLLARS, TODAY), facts(certificate()), A1178)
    assert not checks.failures
    assert [r["rule"] for r in checks.rows] == [
        "balance",
        "carryforward_window",
        "individual_buyer",
        "no_resale",
        "minimum_consideration",
        "buyer_tax_types",
        "affiliation",
    ]
    assert "75.0000% of the amount sold" in checks.rows[4]["message"]


def test_a_cent_under_75_percent_fails_only_the_minimum() -> None:
    sale = Sale(400_000 * DOLLARS, 300_000 * DOLLARS - 1, TODAY)
    assert failed(sale, facts(certificate())) == {
        "minimum_consideration": BelowMinimumConsiderationError.code
    }


def test_a_refusal_names_its_first_failure_and_carries_every_check() -> None:
    sale = Sale(2_000_000 * DOLLARS, 1_000 * DOLLARS, TODAY)
    with pytest.raises(InsufficientBalanceError) as refused:
        run(sale, facts(certificate()), A1178).refuse_if_failed()
    rules = [c["rule"] for c in refused.value.details["checks"] if not c["passed"]]
    assert rules == ["balance", "minimum_consideration"]


def test_a_buyer_paying_none_of_the_programs_taxes_is_refused() -> None:
    buyer = party("p_buyer", tax_types=frozenset({"IPT"}))
    sale = Sale(1_000 * DOLLARS, 1_000 * DOLLARS, TODAY)
    assert failed(sale, facts(certificate(), buyer=buyer)) == {
        "buyer_tax_types": TaxTypeNotAllowedError.code
    }


def test_a_five_percent_common_owner_bars_a_tech_sale() -> None:
    owners = OwnershipGraph.from_stakes([Stake("p_buyer", "p_seller", 500, 500)])
    cert = certificate(Program.TECH)
    sale = Sale(217_400 * DOLLARS, 173_920 * DOLLARS, TODAY)
    assert failed(sale, facts(cert, owners=owners)) == {"affiliation": AffiliatedPartiesError.code}
    assert not failed(sale, facts(cert))


def test_at_exchange_a_tech_seller_must_still_be_eligible() -> None:
    cert = certificate(Program.TECH)
    sale = Sale(100_000 * DOLLARS, 80_000 * DOLLARS, TODAY, exchange_on=TODAY)
    assert not failed(sale, facts(cert))
    too_big = party("p_seller", us_employees=5_000)
    assert failed(sale, facts(cert, seller=too_big)) == {
        "seller_eligibility": IneligibleSellerError.code
    }


def test_a_tech_seller_without_its_facts_on_record_is_refused_by_name() -> None:
    cert = certificate(Program.TECH)
    sale = Sale(100_000 * DOLLARS, 80_000 * DOLLARS, TODAY, exchange_on=TODAY)
    unknown = party("p_seller", formed_on=None, us_employees=None)
    with pytest.raises(IneligibleSellerError) as refused:
        run(sale, facts(cert, seller=unknown), A1178).refuse_if_failed()
    assert refused.value.details["missing"] == ["us_employees", "formed_on"]
    no_headcount = party("p_seller", nj_full_time_employees=None)
    assert failed(sale, facts(cert, seller=no_headcount))


def test_unreviewed_uth_installments_sell_as_conditional_tranches() -> None:
    tranches = (
        {"period": 2013, "cents": 500, "unsold_cents": 500, "review": {"finding": "ok"}},
        {"period": 2014, "cents": 500, "unsold_cents": 500, "review": None},
    )
    cert = certificate(Program.UTH, tax_periods=tranches, balance_cents=1_000)
    reviewed = run(Sale(500, 500, TODAY), facts(cert), A1178).rows[-1]
    assert reviewed["rule"] == "uth_tranches"
    assert reviewed["message"].startswith("Every installment sold has had its annual review")
    conditional = run(Sale(800, 800, TODAY), facts(cert), A1178).rows[-1]
    assert conditional["passed"] and "tax period 2014" in conditional["message"]


def test_an_attested_use_is_checked_for_brrag_and_tech_only() -> None:
    sale = Sale(1_000, 1_000, TODAY, use_of_proceeds=("research_and_development",))
    assert run(sale, facts(certificate(Program.BRRAG)), A1178).rows[-1]["rule"] == (
        "use_of_proceeds"
    )
    assert "use_of_proceeds" not in [r["rule"] for r in run(sale, facts(certificate()), A1178).rows]


def test_each_aggregate_names_its_own_stream_and_missing_facts() -> None:
    assert certificate().stream == "certificate-crt_1"
    assert party("p_seller", formed_on=None).tech_facts(TODAY) is None
    assert party("p_seller", formed_on=None).missing_tech_facts() == ["formed_on"]
