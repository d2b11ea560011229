"""Issue 14 item 10: a certificate's open listings and pending transfers never promise more
than its usable balance."""

from __future__ import annotations

import pytest

from market.domain.errors import InsufficientBalanceError
from market.domain.rules.commitments import Commitments, check_within_balance


def test_a_listing_reserves_what_is_left_or_its_pending_transfers_if_more() -> None:
    c = Commitments({"L1": (60, 0)}, loose_cents=10)
    assert c.total() == 70
    # An accepted offer within the listing's reserve promises nothing more...
    assert c.with_transfer("L1", 40).total() == 70
    # ...but pending transfers beyond what is left of it do.
    assert c.with_transfer("L1", 40).with_transfer("L1", 40).total() == 90
    # A negotiated transfer, or one from a listing no longer open, reserves its amount.
    assert c.with_transfer(None, 5).total() == 75
    assert c.with_transfer("gone", 5).total() == 75
    assert c.with_listing("L2", 20).total() == 90


def test_a_promise_beyond_the_balance_is_refused_with_the_figures() -> None:
    before = Commitments({"L1": (60, 0)})
    ok = check_within_balance("BRRAG-1", 100, before, before.with_transfer(None, 40))
    assert (
        ok
        == "Open listings and pending transfers come to $1.00, within the usable balance of $1.00."
    )
    with pytest.raises(InsufficientBalanceError) as refused:
        check_within_balance("BRRAG-1", 100, before, before.with_listing("L2", 41))
    assert refused.value.details == {
        "balance_cents": 100,
        "committed_cents": 60,
        "would_commit_cents": 101,
    }
    assert "already offered in open listings or held by pending transfers" in str(refused.value)


def test_once_over_promised_by_a_recapture_what_adds_nothing_still_passes() -> None:
    before = Commitments({"L1": (80, 0)}, loose_cents=50)
    # The balance fell to 60 (a recapture): an accepted offer inside L1 adds nothing.
    check_within_balance("BRRAG-1", 60, before, before.with_transfer("L1", 30))
    with pytest.raises(InsufficientBalanceError):
        check_within_balance("BRRAG-1", 60, before, before.with_transfer(None, 1))
