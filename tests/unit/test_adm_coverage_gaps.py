"""RULES.md section 7, the ADM- rules' remaining paths: a first application's exhibits
(no prior sale), a transfer's exhibits by program, a step with nothing missing, the
checklist as the pages show it, and a renewal dated before what it renews (ADM-11)."""

from __future__ import annotations

from datetime import date

import pytest

from market.domain.casefile_errors import ExhibitMissingError
from market.domain.errors import InvalidRequestError
from market.domain.rules import adm_checklist, adm_clearance
from market.domain.rulesets import A1178

SUBMISSION_KINDS = [
    "business_description",
    "business_plan",
    "financial_statements_year_1",
    "financial_statements_year_2",
    "affiliates_list",
]
FORWARD_KINDS = [
    "buying_business_information_sheet",
    "tax_benefit_identification_form",
    "private_financial_assistance_form",
    "executed_selling_agreement",
]


def test_adm5_adm7_without_a_prior_sale_no_spending_certification() -> None:
    kinds = adm_checklist.tech_kinds(A1178, sold_prior_year=False)
    assert kinds == [(k, "submission") for k in SUBMISSION_KINDS] + [
        (k, "preliminary") for k in FORWARD_KINDS
    ]
    assert all(k != "spending_certification" for k, _ in kinds)


def test_adm5_a_prior_sale_adds_the_certification_after_the_package() -> None:
    kinds = adm_checklist.tech_kinds(A1178, sold_prior_year=True)
    assert kinds[len(SUBMISSION_KINDS)] == ("spending_certification", "submission")
    # ADM-7: the Authority forwards only holding it, so it is on that stage's list too.
    assert kinds[-1] == ("spending_certification", "preliminary")
    assert [s for k, s in kinds if k == "spending_certification"] == ["submission", "preliminary"]
    assert len(kinds) == len(SUBMISSION_KINDS) + len(FORWARD_KINDS) + 2


def test_adm8_a_tech_sale_needs_the_executed_agreement_at_final_approval() -> None:
    assert adm_checklist.transfer_kinds(A1178, "TECH") == [("executed_selling_agreement", "final")]


@pytest.mark.parametrize("program", ["BRRAG", "UTH", "DM_CBT", "DM_GIT", "tech"])
def test_other_programs_transfers_carry_no_exhibit(program: str) -> None:
    assert adm_checklist.transfer_kinds(A1178, program) == []
    # ... so nothing is missing and the final approval is never refused for one.
    items = adm_checklist.checklist(adm_checklist.transfer_kinds(A1178, program), {})
    assert items == []
    adm_checklist.require(items, ("final",), "Final approval")


def test_a_step_with_every_exhibit_of_its_stages_filed_passes() -> None:
    kinds = adm_checklist.tech_kinds(A1178, sold_prior_year=False)
    filed = {k: [f"doc_{n}"] for n, k in enumerate(SUBMISSION_KINDS)}
    items = adm_checklist.checklist(kinds, filed)
    assert adm_checklist.missing(items, ("submission",)) == []
    adm_checklist.require(items, ("submission",), "Submission")  # does not raise
    # The forwarding stage still lacks all of ADM-7's exhibits, in the ruleset's order.
    with pytest.raises(ExhibitMissingError) as refused:
        adm_checklist.require(items, ("submission", "preliminary"), "Forwarding")
    assert refused.value.details == {"kinds": FORWARD_KINDS, "step": "Forwarding"}
    assert refused.value.message.startswith(
        "Forwarding needs these exhibits filed first: buying business information sheet, "
    )


def test_checklist_items_as_the_pages_show_them() -> None:
    kinds = adm_checklist.transfer_kinds(A1178, "TECH")
    items = adm_checklist.checklist(kinds, {"board_minutes": ["doc_9"]})
    assert [i.as_dict() for i in items] == [
        {
            "kind": "executed_selling_agreement",
            "stage": "final",
            "required": True,
            "satisfied": False,
            "document_ids": [],
        },
        {
            "kind": "board_minutes",
            "stage": "submission",
            "required": False,
            "satisfied": True,
            "document_ids": ["doc_9"],
        },
    ]
    filed = adm_checklist.checklist(kinds, {"executed_selling_agreement": ["d1", "d2"]})
    assert filed[0].as_dict()["satisfied"] is True
    assert filed[0].as_dict()["document_ids"] == ["d1", "d2"]  # newest last


def test_adm11_a_renewal_cannot_predate_the_certificate_it_renews() -> None:
    renewal = adm_clearance.Clearance(date(2025, 2, 28), [date(2025, 1, 2), date(2025, 3, 1)])
    with pytest.raises(InvalidRequestError) as refused:
        adm_clearance.check_new(renewal, date(2025, 6, 1), A1178)
    assert refused.value.message == "A renewal cannot be issued before the certificate it renews."
    assert refused.value.details == {"issued_on": "2025-02-28"}
    assert refused.value.code == "invalid_request"


def test_adm11_a_renewal_on_the_day_of_the_last_one_is_allowed() -> None:
    same_day = adm_clearance.Clearance(date(2025, 3, 1), [date(2025, 1, 2), date(2025, 3, 1)])
    # Two renewals in the window (the earlier March 1 one and this one): one left.
    assert adm_clearance.check_new(same_day, date(2025, 3, 1), A1178) == 1


def test_adm11_a_first_certificate_is_no_renewal() -> None:
    first = adm_clearance.Clearance(date(2025, 3, 1), [])
    assert adm_clearance.check_new(first, date(2025, 3, 1), A1178) == 3
    assert adm_clearance.state_on(date(2025, 3, 2), date(2025, 3, 1), A1178) == "missing"
