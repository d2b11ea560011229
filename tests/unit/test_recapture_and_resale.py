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


def test_a_headquarters_failure_inside_the_window_may_be_recaptured() -> None:
    from market.domain.rules.recapture import check_hq_recapture

    check_hq_recapture(date(2018, 8, 15), date(2018, 8, 15), liquidation=False)


def test_a_headquarters_failure_after_the_window_is_not_grounds_for_recapture() -> None:
    import pytest

    from market.domain.errors import RecaptureNotAllowedError
    from market.domain.rules.recapture import check_hq_recapture

    with pytest.raises(RecaptureNotAllowedError, match="ended on 2018-08-15"):
        check_hq_recapture(date(2018, 8, 15), date(2018, 8, 16), liquidation=False)


def test_liquidation_is_the_exception_to_headquarters_recapture() -> None:
    import pytest

    from market.domain.errors import RecaptureNotAllowedError
    from market.domain.rules.recapture import check_hq_recapture

    with pytest.raises(RecaptureNotAllowedError) as caught:
        check_hq_recapture(date(2018, 8, 15), date(2014, 1, 1), liquidation=True)
    assert caught.value.details == {"exception": "liquidation"}
    assert caught.value.code == "recapture_not_allowed"


def test_recapture_is_assessed_on_the_business_never_on_a_buyer() -> None:
    """BR-13, AMB-10, TB-40."""
    from market.domain.errors import RecaptureNotAllowedError
    from market.domain.rules.recapture import check_assessed_on_the_business

    check_assessed_on_the_business("seller", "seller", True)
    check_assessed_on_the_business("seller", "seller", None)
    with pytest.raises(RecaptureNotAllowedError, match="never on a buyer") as buyer_cert:
        check_assessed_on_the_business("buyer", "seller", False)
    assert buyer_cert.value.details == {"reason": "buyer_certificate"}
    with pytest.raises(RecaptureNotAllowedError) as not_business:
        check_assessed_on_the_business("buyer", None, None)
    assert not_business.value.details["reason"] == "not_the_business"


def test_the_fund_follows_the_businesss_tax_type() -> None:
    from market.domain.errors import RecaptureNotAllowedError
    from market.domain.programs import TaxType
    from market.domain.rules.recapture import check_fund_tax_type, recapture_fund

    check_fund_tax_type(TaxType.GIT, ["GIT"])
    with pytest.raises(RecaptureNotAllowedError, match="files CBT, not GIT"):
        check_fund_tax_type(TaxType.GIT, ["CBT"])
    assert recapture_fund(Program.BRRAG, TaxType.GIT) == "property_tax_relief_fund"
    assert recapture_fund(Program.BRRAG, TaxType.CBT) == "general_fund"
