"""The statutory reports (PRODUCT.md 9.2) over a ledger folded from typed events, pure:
the digital media report (pools, queue, transfers and their prices), the distribution by
jobs with its exact mean credit per job, and the fold of every event kind it reads."""

from __future__ import annotations

from typing import Any

import pytest

from market.domain.events.accounts import AccountEventRecorded
from market.domain.events.certificates import CertificateIssued, QueueAllowed, QueueDeferred
from market.domain.events.parties import PartyRegistered
from market.domain.events.records import PartyFactsRecorded
from market.domain.events.returns import CreditApplied
from market.domain.events.trading import TransferApproved, TransferProposed
from market.domain.rules.statutory_figures import exact_mean, party_size, prices
from market.domain.rules.statutory_ledger import StatutoryLedger, TransferFacts, fold
from market.domain.rules.statutory_reports import _band, digital_media, distribution

DOLLAR = 100


def _party(pid: str, nj_employees: int | None = None) -> PartyRegistered:
    return PartyRegistered(
        party_id=pid, name=pid.upper(), tax_id="990000000", entity_type="corporation",
        tax_types=["CBT"], in_innovation_zone=False, us_employees=None,
        nj_full_time_employees=nj_employees, formed_on=None,
        operating_income_cents_by_year={},
    )  # fmt: skip


def _cert(cid: str, program: str, holder: str, face: int, **kw: Any) -> CertificateIssued:
    fields: dict[str, Any] = {
        "certificate_id": cid, "number": cid.upper(), "program": program,
        "holder_party_id": holder, "original_holder_party_id": holder, "parent_id": None,
        "root_id": cid, "origin": "issued", "is_original": True, "face_cents": face,
        "allowed_cents": face, "queued_cents": 0, "status": "active", "fiscal_year": 2014,
        "tax_types": ["CBT"], "tax_periods": [], "credit_year": None,
        "carryover_last_year": None, "waiver_statement": "", "creditable_activity_ids": None,
        "attributes": {}, "ruleset": "A1178",
    }  # fmt: skip
    return CertificateIssued(**(fields | kw))


def _brrag(cid: str, face: int, jobs: object) -> CertificateIssued:
    award = {"brrag_award": {"retained_jobs": jobs}}
    return _cert(cid, "BRRAG", "firm", face, attributes=award)


def _allowed(cid: str, fy: int, cents: int, from_queue: bool = False) -> QueueAllowed:
    return QueueAllowed(
        certificate_id=cid, pool="DM_CBT", fiscal_year=fy, cap_id=f"DM_CBT-{fy}",
        cap_cents=1_000 * DOLLAR, allowed_cents=cents, status="active", from_queue=from_queue,
    )  # fmt: skip


def _deferred(cid: str, fy: int, cents: int) -> QueueDeferred:
    return QueueDeferred(
        certificate_id=cid, pool="DM_CBT", fiscal_year=fy, cap_id=f"DM_CBT-{fy}",
        cap_cents=1_000 * DOLLAR, deferred_cents=cents,
        received_at="2013-08-01T09:00:00.000000Z", position=1,
    )  # fmt: skip


def _proposed(tid: str, seller: str, amount: int, price: int, uses: Any = None) -> TransferProposed:
    return TransferProposed(
        transfer_id=tid, certificate_id="c_dm", program="DM_CBT", seller_party_id=seller,
        buyer_party_id="buyer", amount_cents=amount, consideration_cents=price,
        offer_id=None, agreement_ref=None, ruleset="A1178", use_of_proceeds=uses,
    )  # fmt: skip


def _approved(tid: str, on: str) -> TransferApproved:
    return TransferApproved(
        transfer_id=tid, certificate_id="c_dm", amount_cents=1, consideration_cents=1,
        buyer_certificate_id=f"{tid}_b", exchange_date=on, hq_window_end=None, checks=[],
        seller_status="active", seller_tax_periods=[], listing_id=None, listing_status=None,
    )  # fmt: skip


def _applied(party: str, cents: int, tax_year: int = 2014) -> CreditApplied:
    return CreditApplied(
        application_id=f"app_{party}", certificate_id="c_dm", party_id=party,
        tax_type="CBT", tax_year=tax_year, liability_cents=cents, other_credits_cents=0,
        statutory_minimum_cents=0, requested_cents=cents, applied_cents=cents,
        carried_forward_cents=0, limited_by="requested", limits={},
        certificate_status="active", ruleset="A1178",
    )  # fmt: skip


def _ledger() -> StatutoryLedger:
    """A $1,000 DM_CBT certificate admitted $600 in FY 2014 and $400 deferred, the $400
    allowed from the queue in FY 2015; three approved FY 2014 sales by two sellers."""
    queued = {"allowed_cents": 0, "queued_cents": 1_000 * DOLLAR, "status": "queued"}
    events: list[object] = [
        _party("s1", nj_employees=12),
        _party("s2"),
        _party("buyer"),
        PartyFactsRecorded(party_id="s1", naics_code="512110", employees={"2014": 60}),
        _cert("c_dm", "DM_CBT", "s1", 1_000 * DOLLAR, **queued),
        _allowed("c_dm", 2014, 600 * DOLLAR),
        _deferred("c_dm", 2014, 400 * DOLLAR),
        _allowed("c_dm", 2015, 400 * DOLLAR, from_queue=True),
        _proposed("t1", "s1", 100 * DOLLAR, 90 * DOLLAR, ["research"]),
        _proposed("t2", "s1", 100 * DOLLAR, 92 * DOLLAR),
        _proposed("t3", "s2", 100 * DOLLAR, 95 * DOLLAR),
        _proposed("t4", "s2", 100 * DOLLAR, 50 * DOLLAR),  # never approved
        _approved("t1", "2013-07-01"),
        _approved("t2", "2014-01-15"),
        _approved("t3", "2014-06-30"),
        _applied("buyer", 70 * DOLLAR),
    ]
    return fold(enumerate(events, start=1))


def test_the_fold_keeps_queue_transfers_and_credit_applied() -> None:
    state = _ledger()
    assert state.seq == 16
    cert = state.certificates["c_dm"]
    # The admissions move cents from queued to allowed: $600 then $400 from the queue.
    assert (cert.allowed_cents, cert.queued_cents) == (1_000 * DOLLAR, 0)
    assert [d.deferred_cents for d in state.deferred] == [400 * DOLLAR]
    assert [a.from_queue for a in state.pool_allowed] == [False, True]
    assert state.transfers["t1"] == TransferFacts(
        "t1", "c_dm", "DM_CBT", "s1", "buyer", 100 * DOLLAR, 90 * DOLLAR, ("research",),
        "2013-07-01",
    )  # fmt: skip
    assert state.transfers["t2"].use_of_proceeds == ()
    assert state.transfers["t4"].exchange_date is None
    assert [a.applied_cents for a in state.applied] == [70 * DOLLAR]


def test_an_admission_of_a_certificate_the_fold_never_saw_is_kept_alone() -> None:
    """A fold without the certificate's issue: the admission is kept, no certificate made up."""
    state = fold([(7, _allowed("c_elsewhere", 2014, 5 * DOLLAR))])
    assert state.certificates == {}
    assert [(a.certificate_id, a.allowed_cents) for a in state.pool_allowed] == [
        ("c_elsewhere", 5 * DOLLAR)
    ]
    assert digital_media(state, 2014)["pools"] == [
        {"pool": "DM_CBT", "cap_cents": 1_000 * DOLLAR, "used_cents": 5 * DOLLAR}
    ]


def test_an_event_the_reports_do_not_read_only_moves_the_seq() -> None:
    state = _ledger()
    before = (dict(state.transfers), list(state.applied), list(state.pool_allowed))
    ignored = AccountEventRecorded(
        user_id="u1", kind="signed_in", detail=None, by_user_id=None, at="2014-01-01T00:00:00Z"
    )
    state.apply(40, ignored)
    assert state.seq == 40
    assert (dict(state.transfers), list(state.applied), list(state.pool_allowed)) == before
    state.apply(3, ignored)  # an older seq never lowers it
    assert state.seq == 40


def test_the_digital_media_report_of_the_year_the_certificate_was_issued() -> None:
    report = digital_media(_ledger(), 2014)
    assert report["empty"] is False
    assert report["by_program_and_tax"] == [
        {
            "key": "DM_CBT/CBT",
            "count": 1,
            "face_cents": 1_000 * DOLLAR,
            # As FY 2014 closed: $600 allowed, $400 waiting (FY 2015's pool took it later),
            # so the row agrees with the pool's use and the queue below.
            "allowed_cents": 600 * DOLLAR,
            "queued_cents": 400 * DOLLAR,
        }
    ]
    assert report["pools"] == [
        {"pool": "DM_CBT", "cap_cents": 1_000 * DOLLAR, "used_cents": 600 * DOLLAR}
    ]
    assert report["queue"] == {
        "deferred": 1,
        "deferred_cents": 400 * DOLLAR,
        "allowed_from_queue": 0,
        "allowed_from_queue_cents": 0,
    }
    # t1 on July 1 2013 is FY 2014's first day and t3 on June 30 2014 its last; t4 unsold.
    assert report["transfers"] == {
        "count": 3,
        "amount_cents": 300 * DOLLAR,
        "consideration_cents": 277 * DOLLAR,
    }
    # Three transfers by two sellers: published. Prices .90, .92, .95 (type-7 quartiles).
    assert report["prices"]["published"] is True
    assert report["prices"]["figures"] == {
        "count": 3,
        "median_bps": 9200,
        "p25_bps": 9100,
        "p75_bps": 9350,
    }


def test_the_next_year_sees_the_roll_from_the_queue_but_no_new_certificate() -> None:
    report = digital_media(_ledger(), 2015)
    assert report["empty"] is False  # the pool was used in FY 2015
    assert report["by_program_and_tax"] == []
    assert report["pools"] == [
        {"pool": "DM_CBT", "cap_cents": 1_000 * DOLLAR, "used_cents": 400 * DOLLAR}
    ]
    assert report["queue"]["deferred"] == 0
    assert report["queue"]["allowed_from_queue"] == 1
    assert report["queue"]["allowed_from_queue_cents"] == 400 * DOLLAR
    assert report["transfers"]["count"] == 0
    assert report["prices"] == {
        "transfers": 0,
        "sellers": 0,
        "min_transfers": 3,
        "min_sellers": 2,
        "published": False,
        "figures": None,
    }


def test_a_year_without_digital_media_activity_is_empty() -> None:
    report = digital_media(_ledger(), 2013)
    assert report["empty"] is True
    assert report["pools"] == [] and report["queue"]["deferred_cents"] == 0


def test_prices_of_two_transfers_by_two_sellers_stay_unpublished() -> None:
    two = [_ledger().transfers["t1"], _ledger().transfers["t3"]]
    figures = prices(two)
    assert (figures["transfers"], figures["sellers"], figures["published"]) == (2, 2, False)
    assert figures["figures"] is None


def test_distribution_by_jobs_with_the_exact_mean_credit_per_job() -> None:
    events: list[object] = [
        _party("firm", nj_employees=40),
        _brrag("b1", 100 * DOLLAR, 3),
        _brrag("b2", 300 * DOLLAR, 30),
        _brrag("b3", 50 * DOLLAR, 0),
        _brrag("b4", 70 * DOLLAR, "9"),
        _applied("stranger", 10 * DOLLAR),
    ]  # fmt: skip
    state = fold(enumerate(events, start=1))
    assert [state.certificates[c].jobs for c in ("b1", "b2", "b3", "b4")] == [3, 30, 0, None]
    report = distribution(state, 2014)
    # Zero jobs and jobs that are not a number leave a certificate out of the job view.
    assert report["by_jobs"] == [
        {
            "key": "1-24",
            "count": 1,
            "cents": 100 * DOLLAR,
            "jobs": 3,
            "mean_credit_per_job": {"cents": 3333, "exact": "10000/3"},
        },
        {
            "key": "25-99",
            "count": 1,
            "cents": 300 * DOLLAR,
            "jobs": 30,
            "mean_credit_per_job": {"cents": 1000, "exact": "1000/1"},
        },
    ]
    assert report["jobs"] == 33
    assert report["mean_credit_per_job"] == {"cents": 1212, "exact": "40000/33"}
    assert report["totals"]["granted_cents"] == 520 * DOLLAR
    # No employees by year recorded: the registered NJ count (40) gives the size class;
    # credit used by a party the ledger never registered is of unknown size and sector.
    assert report["by_size"]["granted"] == [{"key": "10-49", "count": 4, "cents": 520 * DOLLAR}]
    assert report["by_size"]["used"] == [{"key": "unknown", "count": 1, "cents": 10 * DOLLAR}]
    assert report["by_industry"]["used"] == [{"key": "unknown", "count": 1, "cents": 10 * DOLLAR}]


def test_party_size_of_a_party_the_ledger_never_registered_is_unknown() -> None:
    state = _ledger()
    assert party_size(state, "nobody", 2014) == "unknown"
    assert party_size(state, "s1", 2014) == "50-99"  # the 2014 count, not the registered 12
    assert party_size(state, "s1", 2013) == "10-49"  # no count by 2013: the registered 12


@pytest.mark.parametrize(
    ("total", "count", "expected"),
    [
        (100, 3, {"cents": 33, "exact": "100/3"}),
        (5, 2, {"cents": 2, "exact": "5/2"}),  # half to even: 2.5 -> 2
        (7, 2, {"cents": 4, "exact": "7/2"}),  # 3.5 -> 4
        (0, 4, {"cents": 0, "exact": "0/1"}),
    ],
)
def test_exact_mean_is_a_fraction_and_whole_cents_half_to_even(
    total: int, count: int, expected: dict[str, Any]
) -> None:
    assert exact_mean(total, count) == expected


@pytest.mark.parametrize(
    ("jobs", "band"),
    [(1, "1-24"), (24, "1-24"), (25, "25-99"), (99, "25-99"), (100, "100-249"),
     (249, "100-249"), (250, "250+"), (10_000, "250+"), (0, "0"), (-1, "0")],
)  # fmt: skip
def test_job_bands_and_the_fallback_below_one_job(jobs: int, band: str) -> None:
    assert _band(jobs) == band
