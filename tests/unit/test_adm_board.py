"""ADM-9 at closing: a BRRAG sale draws on one Board approval of the seller, in effect on
its exchange date and covering its amount; an approval drawn on is spent (one per sale,
not a pool)."""

from __future__ import annotations

from datetime import date

import pytest

from market.domain.casefile_errors import BoardApprovalExceededError, StepOutOfOrderError
from market.domain.rules.adm_board import Approval, Sale, check_sale, drawn
from market.validation.error_codes import status_of

ON = date(2024, 12, 2)
BIG = Approval("brd_big", 1_000_000, date(2024, 11, 20))
SMALL = Approval("brd_small", 500_000, date(2024, 11, 20))


def test_no_approval_in_effect_is_a_step_out_of_order() -> None:
    with pytest.raises(StepOutOfOrderError) as e:
        check_sale([], [], 100, ON)
    assert e.value.code == "step_out_of_order" and status_of(e.value) == 409
    assert e.value.details == {"needs": "board_action", "takes_effect_on": None}
    assert "takes effect" not in str(e.value)
    vetoed = Approval("brd_veto", 1_000, None)
    with pytest.raises(StepOutOfOrderError):
        check_sale([vetoed], [], 100, ON)


def test_an_approval_before_the_governor_says_when_it_takes_effect() -> None:
    waiting = Approval("brd_wait", 1_000, date(2024, 12, 20))
    with pytest.raises(StepOutOfOrderError) as e:
        check_sale([waiting], [], 100, ON)
    assert "takes effect on 2024-12-20, unless the Governor approves earlier" in str(e.value)
    assert e.value.details["takes_effect_on"] == "2024-12-20"


def test_each_sale_draws_on_its_own_approval() -> None:
    assert check_sale([BIG, SMALL], [], 1_000_000, ON) == "brd_big"
    first = Sale(1_000_000, ON)
    assert check_sale([BIG, SMALL], [first], 500_000, ON) == "brd_small"
    # a small sale first takes the first approval that covers it, in submission order
    assert drawn([BIG, SMALL], [Sale(10, ON)]) == {"brd_big"}
    assert check_sale([BIG, SMALL], [Sale(10, ON)], 400_000, ON) == "brd_small"


def test_approvals_are_not_pooled_one_cent_over_the_one_left_is_refused() -> None:
    with pytest.raises(BoardApprovalExceededError) as e:
        check_sale([BIG, SMALL], [Sale(1_000_000, ON)], 500_001, ON)
    assert e.value.code == "board_approval_exceeded"
    assert e.value.details == {"approved_cents": 500_000, "amount_cents": 500_001, "drawn": 1}
    assert "at most $5,000.00, less than this sale's $5,000.01" in str(e.value)
    # two approvals of $5,000 and $10,000 never make one sale of $15,000
    with pytest.raises(BoardApprovalExceededError):
        check_sale([BIG, SMALL], [], 1_500_000, ON)


def test_every_approval_drawn_on_leaves_a_third_sale_waiting() -> None:
    sold = [Sale(1_000_000, ON), Sale(500_000, ON)]
    with pytest.raises(StepOutOfOrderError):
        check_sale([BIG, SMALL], sold, 1, ON)


def test_a_past_sale_draws_only_on_what_was_in_effect_on_its_exchange_date() -> None:
    later = Approval("brd_later", 1_000_000, date(2024, 11, 25))
    early = Sale(1_000, date(2024, 11, 21))  # before brd_later took effect
    assert drawn([later, SMALL], [early]) == {"brd_small"}
    assert drawn([later], [early]) == set()  # approved under no approval: draws none
