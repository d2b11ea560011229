"""The notice mapping renders words and dollars, never fails on a missing fact, gives each
recipient its own figures, and every e-mailed type of PRODUCT.md 8.2 is mapped."""

from __future__ import annotations

from datetime import date

from market.domain.events import event_class
from market.domain.events.returns import RecaptureAssessed
from market.domain.events.tech import FyAllocationRun
from market.domain.events.trading import OfferMade
from market.services.jobs import reminders
from market.services.notify import notices
from market.services.queries.timelines import NEXT_STEP


def test_a_missing_fact_reads_unknown_rather_than_failing() -> None:
    subject, body, link = notices.render(
        notices.NOTICES[OfferMade], notices.Facts({"offer_id": "ofr_1"}), None
    )
    assert subject == "New offer: (unknown) for (unknown) of (unknown)"
    assert link == "/deals/offers/ofr_1" and "(unknown) offers" in body


def test_each_seller_reads_its_own_allocation() -> None:
    facts = notices.Facts(
        {
            "fiscal_year": 2013,
            "total_dollars": "$3.00",
            "allocations": [
                {"party_id": "a", "allocated_cents": 100},
                {"party_id": "b", "allocated_cents": 200},
            ],
        }
    )
    notice = notices.NOTICES[FyAllocationRun]
    assert "Your allocation: $1.00." in notices.render(notice, facts, "a")[1]
    assert "Your allocation: $2.00." in notices.render(notice, facts, "b")[1]
    assert set(notice.who(facts)) == {"a", "b"}


def test_every_event_8_2_names_is_mailed_and_those_that_ask_a_party_to_act() -> None:
    mailed = {c.TYPE for c, n in notices.NOTICES.items() if n.email}
    assert mailed == {
        "OFFER_MADE",
        "OFFER_COUNTERED",  # issue 28 item 3: the buyer answers the seller's counter
        "TRANSFER_APPROVED",
        "TRANSFER_REJECTED",
        "FY_ALLOCATION_RUN",
        "RECAPTURE_ASSESSED",
        "REMINDER_ISSUED",
        # Beyond 8.2: the buyer must confirm a proposal, the seller learns of a refusal or
        # a refund it owes, and holders learn their trading was halted or resumed (8.3).
        "TRANSFER_PROPOSED",
        "TRANSFER_DECLINED",
        # Issue 28: every step of a deal that asks someone to act, or ends it: an accepted
        # offer (the buyer; the Authority acts next), the buyer's confirmation (the
        # Authority acts), a payment (the seller confirms it), its receipt (the deal ends).
        "OFFER_ACCEPTED",
        "TRANSFER_CONFIRMED",
        "TRANSFER_PAYMENT_RECORDED",
        "TRANSFER_RECEIPT_CONFIRMED",
        "TRANSFER_REFUND_OWED",
        "CERTIFICATE_NOTICE_ISSUED",
        "CERTIFICATE_NOTICE_LIFTED",
        # The case file (RULES.md section 7): a fee to pay, a step that asks the seller to
        # act or tells it where its application stands, a Board action and its Governor.
        "FEE_INVOICED",
        "TECH_APPLICATION_SUBMITTED",
        "TECH_PRELIMINARY_APPROVED",
        "TECH_TAX_CERTIFICATE_RECORDED",
        "BOARD_ACTION_RECORDED",
        "GOVERNOR_DECISION_RECORDED",
    }
    assert notices.words("TRANSFER_BUYER_CONFIRMED") == "transfer buyer confirmed"
    assert "awaiting_buyer" in NEXT_STEP


def test_reminder_windows_pick_the_tightest_and_expiry_is_two_januaries_on() -> None:
    due = date(2013, 6, 30)
    assert reminders.window(due, date(2013, 5, 30)) is None
    assert reminders.window(due, date(2013, 5, 31)) == 30
    assert reminders.window(due, date(2013, 6, 23)) == 7
    assert reminders.window(due, date(2013, 6, 30)) is None
    assert reminders.expiry_of(2020) == date(2022, 1, 1)


# Issue 28: one notice per step per party, each in the words of that step.
def _concerned(event_type: str, facts: dict[str, object]) -> set[object]:
    return {w for w in notices.NOTICES[event_class(event_type)].who(notices.Facts(facts)) if w}


def test_a_proposal_from_an_accepted_offer_is_the_authoritys_news_only() -> None:
    facts = {"offer_id": "ofr_1", "buyer_party_id": "b", "seller_party_id": "s"}
    assert _concerned("TRANSFER_PROPOSED", facts) == {notices.AUTHORITY}
    assert _concerned("OFFER_ACCEPTED", facts) == {"b"}  # the buyer hears it once


def test_a_proposal_waiting_for_the_buyer_asks_the_buyer_only() -> None:
    facts = {"awaiting_buyer": True, "buyer_party_id": "b", "seller_party_id": "s"}
    assert _concerned("TRANSFER_PROPOSED", facts) == {"b"}
    assert _concerned("TRANSFER_CONFIRMED", facts) == {"s", notices.AUTHORITY}


def test_each_closing_step_asks_the_party_that_acts_and_links_the_deal_room() -> None:
    facts = {
        "transfer_id": "trf_1",
        "buyer_party": "Newark Insurance",
        "seller_party": "Camden Robotics",
        "buyer_party_id": "b",
        "seller_party_id": "s",
        "amount_dollars": "$900,000.00",
        "reference": "WIRE-7",
        "certificate_number": "BRRAG-2014-000001",
        "consideration_dollars": "$900,000.00",
        "exchange_date": "2014-09-01",
    }
    cases = {
        "TRANSFER_APPROVED": ({"s", "b"}, "Next: Newark Insurance records its payment"),
        "TRANSFER_PAYMENT_RECORDED": ({"s"}, "Confirm its receipt on the deal's page."),
        "TRANSFER_RECEIPT_CONFIRMED": ({"b"}, "The deal is complete."),
    }
    for event_type, (who, words) in cases.items():
        notice = notices.NOTICES[event_class(event_type)]
        subject, body, link = notices.render(notice, notices.Facts(facts), None)
        assert _concerned(event_type, facts) == who, event_type
        assert words in body and link == "/deals/transfers/trf_1", (event_type, body)
        assert notice.email and "(unknown)" not in subject + body, (event_type, subject, body)


def test_a_recapture_links_the_certificate_not_a_buyers_desk() -> None:
    notice = notices.NOTICES[RecaptureAssessed]
    assert (
        notices.render(notice, notices.Facts({"certificate_id": "crt_1"}), "p")[2]
        == "/certificates/crt_1"
    )
