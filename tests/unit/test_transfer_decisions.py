"""The pure transfer decisions (market.domain.deciders.transfers): the buyer's consent and
the Authority's approval, from facts alone."""

from __future__ import annotations

from dataclasses import replace
from datetime import date

import pytest

from market.domain.commands.trading import ApproveTransfer
from market.domain.deciders.transfers import (
    ApprovalFacts,
    ListingSold,
    decide_approval,
    decide_confirmation,
    decide_decline,
    decide_rejection,
)
from market.domain.errors import (
    BelowMinimumConsiderationError,
    ConflictError,
    InvalidRequestError,
)
from market.domain.events.certificates import CertificateIssued
from market.domain.events.trading import (
    TransferApproved,
    TransferConfirmed,
    TransferDeclined,
    TransferRejected,
)
from market.domain.model import Certificate, Transfer, TransferStatus
from market.domain.programs import Program
from market.domain.rulesets import A1178
from tests.unit.test_transfer_checks import TODAY, certificate, facts

PENDING = Transfer(
    id="trf_1",
    certificate_id="crt_1",
    seller_party_id="p_seller",
    buyer_party_id="p_buyer",
    amount_cents=400_000,
    consideration_cents=300_000,
    status=TransferStatus.PENDING_APPROVAL,
    offer_id=None,
    use_of_proceeds=None,
    confirmed=True,
)


def approval(transfer: Transfer = PENDING, cert: Certificate | None = None) -> ApprovalFacts:
    return ApprovalFacts(
        transfer=transfer,
        sale=facts(cert or certificate(balance_cents=1_000_000, allowed_cents=1_000_000)),
        listing=None,
        activity_ids=("act_1",),
        buyer_certificate_id="crt_2",
        today=TODAY,
    )


def test_approval_moves_the_credit_to_a_certificate_derived_from_the_sellers() -> None:
    appended = decide_approval(ApproveTransfer("trf_1"), approval(), A1178)
    approved, issued = (a.event for a in appended)
    assert isinstance(approved, TransferApproved) and isinstance(issued, CertificateIssued)
    assert [a.stream for a in appended] == ["transfer-trf_1", "certificate-crt_2"]
    assert [a.new_stream for a in appended] == [False, True]
    assert approved.exchange_date == TODAY.isoformat() and approved.hq_window_end is None
    assert approved.checks[-1]["rule"] == "caps" and approved.seller_status == "issued"
    assert (issued.number, issued.face_cents, issued.parent_id) == (
        "DM_CBT-2014-000001-T1",
        400_000,
        "crt_1",
    )
    assert issued.creditable_activity_ids == ["act_1"]


def test_a_back_dated_exchange_is_the_exchange_date_and_starts_tech_hq_window() -> None:
    cert = certificate(Program.TECH, balance_cents=1_000_000, allowed_cents=1_000_000)
    command = ApproveTransfer("trf_1", exchange_on=date(2014, 8, 20))
    at_the_floor = replace(PENDING, consideration_cents=320_000)  # 80% (TB-19)
    approved = decide_approval(command, approval(at_the_floor, cert), A1178)[0].event
    assert isinstance(approved, TransferApproved)
    assert approved.exchange_date == "2014-08-20" and approved.hq_window_end is not None


def test_approval_refused_writes_nothing_and_names_every_check() -> None:
    cheap = replace(PENDING, consideration_cents=1)
    with pytest.raises(BelowMinimumConsiderationError) as refused:
        decide_approval(ApproveTransfer("trf_1"), approval(cheap), A1178)
    assert refused.value.details["checks"][-1]["rule"] == "caps"


def test_the_last_piece_of_a_listing_marks_it_sold() -> None:
    listing = ListingSold("lst_1", amount_cents=500_000, status="open", sold_cents=100_000)
    assert listing.status_after(400_000) == "sold"
    assert listing.status_after(399_999) == "open"
    facts_ = replace(approval(), listing=listing)
    approved = decide_approval(ApproveTransfer("trf_1"), facts_, A1178)[0].event
    assert isinstance(approved, TransferApproved)
    assert (approved.listing_id, approved.listing_status) == ("lst_1", "sold")


def test_a_uth_buyer_takes_the_earliest_installments() -> None:
    tranches = (
        {"period": 2013, "cents": 300_000, "unsold_cents": 300_000, "review": {"f": 1}},
        {"period": 2014, "cents": 700_000, "unsold_cents": 700_000, "review": None},
    )
    cert = certificate(Program.UTH, tax_periods=tranches, balance_cents=1_000_000)
    approved, issued = (
        a.event for a in decide_approval(ApproveTransfer("trf_1"), approval(cert=cert), A1178)
    )
    assert isinstance(approved, TransferApproved) and isinstance(issued, CertificateIssued)
    assert [t["unsold_cents"] for t in approved.seller_tax_periods] == [0, 600_000]
    assert [t["conditional"] for t in issued.tax_periods] == [False, True]


def test_the_buyers_consent_reruns_the_checks() -> None:
    waiting = replace(PENDING, status=TransferStatus.AWAITING_BUYER, confirmed=False)
    cert = certificate(balance_cents=1_000_000, allowed_cents=1_000_000)
    append = decide_confirmation(waiting, facts(cert), A1178, TODAY)
    assert isinstance(append.event, TransferConfirmed) and append.stream == "transfer-trf_1"


def test_a_decided_transfer_is_a_conflict() -> None:
    approved = replace(PENDING, status=TransferStatus.APPROVED)
    with pytest.raises(ConflictError) as refused:
        approved.check_undecided(TransferStatus.PENDING_APPROVAL)
    assert refused.value.code == "conflict"
    waiting = replace(PENDING, status=TransferStatus.AWAITING_BUYER)
    with pytest.raises(ConflictError) as early:
        waiting.check_undecided(TransferStatus.PENDING_APPROVAL)
    assert early.value.code == "awaiting_buyer"
    assert (PENDING.version, waiting.version) == (2, 2)


def test_a_rejection_needs_its_reason_and_a_decline_may_give_none() -> None:
    with pytest.raises(InvalidRequestError):
        decide_rejection(PENDING, "  ")
    rejected = decide_rejection(PENDING, " Agreement unsigned (TB-24). ").event
    assert isinstance(rejected, TransferRejected) and rejected.reasons == [
        "Agreement unsigned (TB-24)."
    ]
    waiting = replace(PENDING, status=TransferStatus.AWAITING_BUYER, confirmed=False)
    declined = decide_decline(waiting, None).event
    assert isinstance(declined, TransferDeclined) and declined.reasons == []
    again = decide_decline(waiting, " Price too high ").event
    assert isinstance(again, TransferDeclined) and again.reasons == ["Price too high"]
