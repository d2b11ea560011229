"""ADM-9 at closing: a BRRAG sale needs the Board's approval in effect, and the seller's
sales since the ADM rules came into force stay within the amounts approved."""

from __future__ import annotations

import pytest

from market.domain.casefile_errors import BoardApprovalExceededError, StepOutOfOrderError
from market.domain.rules.adm_board import check_sale


def test_no_approval_in_effect_is_a_step_out_of_order() -> None:
    with pytest.raises(StepOutOfOrderError) as e:
        check_sale([], None, 0, 100)
    assert e.value.code == "step_out_of_order" and e.value.status == 409
    assert e.value.details == {"needs": "board_action", "takes_effect_on": None}
    assert "takes effect" not in str(e.value)


def test_an_approval_before_the_governor_says_when_it_takes_effect() -> None:
    with pytest.raises(StepOutOfOrderError) as e:
        check_sale([], "2024-11-20", 0, 100)
    assert "takes effect on 2024-11-20, unless the Governor approves earlier" in str(e.value)
    assert e.value.details["takes_effect_on"] == "2024-11-20"


def test_sales_up_to_the_approved_amounts_pass_and_one_cent_more_is_refused() -> None:
    check_sale([1_000_000, 500_000], None, 1_000_000, 500_000)  # exactly what is left
    with pytest.raises(BoardApprovalExceededError) as e:
        check_sale([1_000_000, 500_000], None, 1_000_000, 500_001)
    assert e.value.code == "board_approval_exceeded"
    assert e.value.details == {
        "approved_cents": 1_500_000,
        "sold_cents": 1_000_000,
        "amount_cents": 500_001,
    }
    assert "$15,000.00 for this seller; $10,000.00 is sold, so $5,000.00 is left" in str(e.value)


def test_sold_past_the_approvals_leaves_nothing_not_a_negative_amount() -> None:
    with pytest.raises(BoardApprovalExceededError) as e:
        check_sale([100], None, 300, 1)
    assert "so $0.00 is left" in str(e.value)
