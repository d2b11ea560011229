"""DMQ-1 to DMQ-3 with the FIFO example of RULES.md section 5.5."""

from dataclasses import replace
from datetime import date

import pytest

from market.domain.errors import CapExceededError, InvalidRequestError
from market.domain.programs import Program
from market.domain.rules.dm_queue import (
    DM_CBT,
    DM_GIT_FILM_POOL,
    PoolLedger,
    QueueItem,
    admit,
    check_roll_due,
    pool_cap_cents,
    pool_for,
    queued_usable_from,
    roll_to,
)
from market.domain.rulesets import A1178

M = 100_000_000  # one million dollars in cents


def item(ident: str, cents: int, minute: int = 0) -> QueueItem:
    return QueueItem(ident, cents, f"2013-09-01T10:{minute:02d}:00")


def test_each_digital_media_program_charges_its_own_pool() -> None:
    assert pool_for(Program.DM_CBT) == DM_CBT
    assert pool_for(Program.DM_GIT) == DM_GIT_FILM_POOL
    assert pool_cap_cents(DM_CBT, A1178) == 5 * M
    assert pool_cap_cents(DM_GIT_FILM_POOL, A1178) == 10 * M
    with pytest.raises(InvalidRequestError):
        pool_for(Program.UTH)
    with pytest.raises(InvalidRequestError):
        pool_cap_cents("FILM", A1178)


def test_the_fifo_example_fills_partially_and_rolls_into_the_next_fiscal_year() -> None:
    state = PoolLedger(DM_CBT)
    state, allowed, deferred = admit(state, item("#1", 2 * M, 1), 2014, A1178)
    assert (allowed, deferred) == (2 * M, 0)
    state, allowed, deferred = admit(state, item("#2", 250_000_000, 2), 2014, A1178)
    assert (allowed, deferred) == (250_000_000, 0)
    state, allowed, deferred = admit(state, item("#3", 120_000_000, 3), 2014, A1178)
    assert (allowed, deferred) == (50_000_000, 70_000_000)
    state, allowed, deferred = admit(state, item("#4", 30_000_000, 4), 2014, A1178)
    assert (allowed, deferred) == (0, 30_000_000)
    assert state.used(2014) == 5 * M and state.queued_cents == M

    state, released = roll_to(state, 2015, A1178)
    assert released == [("#3", 70_000_000, 2015), ("#4", 30_000_000, 2015)]
    assert state.queue == () and state.used(2015) == M
    assert pool_cap_cents(DM_CBT, A1178) - state.used(2015) == 4 * M


def test_a_roll_that_runs_out_of_room_keeps_the_rest_at_the_head() -> None:
    state = PoolLedger(DM_CBT, queue=(item("a", 4 * M), item("b", 2 * M)))
    state, released = roll_to(state, 2015, A1178)
    assert released == [("a", 4 * M, 2015), ("b", M, 2015)]
    assert state.queue == (item("b", M),)
    state, released = roll_to(state, 2016, A1178)
    assert released == [("b", M, 2016)]


def test_rolling_twice_into_the_same_year_releases_nothing_more() -> None:
    state = PoolLedger(DM_CBT, queue=(item("a", 6 * M),))
    state, _ = roll_to(state, 2015, A1178)
    again, released = roll_to(state, 2015, A1178)
    assert released == [] and again == state


def test_an_approval_must_be_positive() -> None:
    with pytest.raises(InvalidRequestError):
        admit(PoolLedger(DM_CBT), item("a", 0), 2014, A1178)


def test_all_or_nothing_strict_mode_defers_whole_approvals_without_overtaking() -> None:
    strict = replace(A1178, dm_queue_mode="all_or_nothing_strict")
    state = PoolLedger(DM_CBT)
    state, allowed, deferred = admit(state, item("a", 4 * M), 2014, strict)
    assert (allowed, deferred) == (4 * M, 0)
    state, allowed, deferred = admit(state, item("b", 2 * M), 2014, strict)
    assert (allowed, deferred) == (0, 2 * M)
    state, allowed, deferred = admit(state, item("c", M // 2), 2014, strict)
    assert (allowed, deferred) == (0, M // 2)
    state = replace(state, queue=(item("big", 5 * M), *state.queue))
    state, released = roll_to(state, 2015, strict)
    assert released == [("big", 5 * M, 2015)]
    assert [q.id for q in state.queue] == ["b", "c"]


def test_all_or_nothing_with_overtaking_lets_a_smaller_later_approval_fit() -> None:
    overtake = replace(A1178, dm_queue_mode="all_or_nothing_overtake")
    state = PoolLedger(DM_CBT)
    state, _, _ = admit(state, item("a", 4 * M), 2014, overtake)
    state, allowed, _ = admit(state, item("b", 2 * M), 2014, overtake)
    assert allowed == 0
    state, allowed, _ = admit(state, item("c", M // 2), 2014, overtake)
    assert allowed == M // 2
    state = replace(state, queue=(item("x", 4 * M), item("b", 2 * M), item("y", M)))
    state, released = roll_to(state, 2015, overtake)
    assert released == [("x", 4 * M, 2015), ("y", M, 2015)]
    assert [q.id for q in state.queue] == ["b"]


def test_an_all_or_nothing_approval_larger_than_the_pool_is_refused() -> None:
    strict = replace(A1178, dm_queue_mode="all_or_nothing_strict")
    with pytest.raises(CapExceededError):
        admit(PoolLedger(DM_CBT), item("a", 6 * M), 2014, strict)


def test_an_unknown_queue_mode_is_refused() -> None:
    with pytest.raises(InvalidRequestError, match="unknown dm_queue_mode 'lottery'"):
        admit(PoolLedger(DM_CBT), item("a", 1), 2014, replace(A1178, dm_queue_mode="lottery"))


def test_the_pool_bucket_is_the_fiscal_year_the_credited_period_commences() -> None:
    from datetime import date

    from market.domain.rules import dm_queue, uth

    starts, approved = date(2013, 1, 1), date(2013, 8, 1)
    for module in (dm_queue, uth):
        assert module.bucket_fiscal_year(starts, approved, A1178) == 2013
    assert (
        dm_queue.bucket_fiscal_year(starts, approved, replace(A1178, dm_fy_bucket="approval"))
        == 2014
    )
    assert (
        uth.bucket_fiscal_year(starts, approved, replace(A1178, uth_fy_bucket="approval")) == 2014
    )


def test_an_application_for_a_fiscal_year_not_begun_waits_behind_the_queue() -> None:
    """Issue 26: on July 1, 2014 (FY2015 full, #3 and #4 still queued) a FY2016-bucket
    application does not roll the queue into FY2016: it joins the queue, and on July 1,
    2015 the queue is allowed into FY2016 in order of receipt."""
    state = PoolLedger(
        DM_CBT, {2015: 5 * M}, (item("#3", 70 * M // 100), item("#4", 30 * M // 100))
    )
    state, allowed, deferred = admit(state, item("fy16", 2 * M, 5), 2016, A1178)
    assert (allowed, deferred) == (0, 2 * M)
    assert state.queue[-1] == QueueItem("fy16", 2 * M, "2013-09-01T10:05:00", 2016)
    # A roll into FY2015 again (a later tick) cannot charge the FY2016 item to FY2015.
    roomy = replace(state, used_cents={2015: 0})
    rolled, released = roll_to(roomy, 2015, A1178)
    assert released == [("#3", 70 * M // 100, 2015), ("#4", 30 * M // 100, 2015)]
    assert [i.id for i in rolled.queue] == ["fy16"]
    rolled, released = roll_to(state, 2016, A1178)
    assert released == [
        ("#3", 70 * M // 100, 2016),
        ("#4", 30 * M // 100, 2016),
        ("fy16", 2 * M, 2016),
    ]


def test_overtaking_skips_an_item_whose_fiscal_year_has_not_begun() -> None:
    mode = replace(A1178, name="A1178-overtake", dm_queue_mode="all_or_nothing_overtake")
    waiting = (QueueItem("later", M, "t1", 2017), QueueItem("now", M, "t2", 2014))
    state, released = roll_to(PoolLedger(DM_CBT, queue=waiting), 2015, mode)
    assert released == [("now", M, 2015)]
    assert state.queue == (QueueItem("later", M, "t1", 2017),)


def test_a_pool_reaches_a_fiscal_year_on_its_first_day_not_before() -> None:
    check_roll_due(2015, date(2014, 7, 1))
    with pytest.raises(InvalidRequestError) as refused:
        check_roll_due(2016, date(2014, 7, 1))
    assert refused.value.details == {"fiscal_year": 2016, "begins_on": "2015-07-01"}
    assert "not on 2014-07-01 (DMQ-3)" in refused.value.message


def test_a_queued_amount_shows_the_first_day_it_can_be_usable() -> None:
    on = date(2014, 7, 1)  # FY2015
    assert queued_usable_from(2014, 0, on) is None
    assert queued_usable_from(2014, M, on) == date(2015, 7, 1)
    assert queued_usable_from(2016, M, on) == date(2015, 7, 1)
    assert queued_usable_from(2017, M, on) == date(2016, 7, 1)
