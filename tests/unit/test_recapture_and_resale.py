"""CMN-6, CMN-9, BR-13, TB-40 and AMB-26, AMB-46, AMB-47, AMB-59."""

from dataclasses import replace
from datetime import date

import pytest

from market.domain.errors import ResaleNotAllowedError
from market.domain.programs import Program, TaxType
from market.domain.rules.recapture import hq_window_end, recapture_fund
from market.domain.rules.resale import check_can_sell
from market.domain.rulesets import A1178


@pytest.mark.parametrize(
    ("program", "tax_type", "fund"),
    [
        (Program.BRRAG, TaxType.GIT, "property_tax_relief_fund"),
        (Program.BRRAG, TaxType.CBT, "general_fund"),
        (Program.BRRAG, TaxType.IPT, "general_fund"),
        (Program.DM_GIT, TaxType.CBT, "property_tax_relief_fund"),
        (Program.DM_CBT, TaxType.GIT, "general_fund"),
        (Program.TECH, TaxType.GIT, "property_tax_relief_fund"),
        (Program.TECH, TaxType.CBT, "general_fund"),
        (Program.UTH, TaxType.CBT, "general_fund"),
    ],
)
def test_recaptured_amounts_go_to_the_fund_the_rules_name(
    program: Program, tax_type: TaxType, fund: str
) -> None:
    assert recapture_fund(program, tax_type) == fund


def test_each_transfer_starts_its_own_five_year_headquarters_window() -> None:
    assert hq_window_end(date(2013, 8, 15), A1178) == date(2018, 8, 15)


def test_only_the_original_holder_may_sell() -> None:
    check_can_sell(True, A1178)
    with pytest.raises(ResaleNotAllowedError):
        check_can_sell(False, A1178)
    check_can_sell(False, replace(A1178, resale_allowed=True))
