"""Every event class the services append reads as one sentence in words and dollars, from
the typed event (a stored payload reads through `upcast` first)."""

from __future__ import annotations

import typing

import pytest

from market.domain.events import DomainEvent, event_class, event_types, upcast
from market.domain.events.parties import OwnershipRecorded
from market.domain.events.records import PartyFactsRecorded
from market.domain.events.trading import (
    CounterOfferAccepted,
    CounterOfferDeclined,
    ListingCreated,
    OfferCountered,
    OfferMade,
    TransferProposed,
)
from market.domain.events.uth import UthReviewRecorded
from market.web.event_sentences import SENTENCES, sentence, sentence_of, type_in_words
from tests import ledger_v1
from tests.unit.later_event_samples import LATER_SAMPLES

NAMES = {"pty_s": "Camden Robotics", "pty_b": "Newark Insurance", "crt_1": "BRRAG-2014-000001"}


def test_every_event_type_the_services_append_has_a_sentence() -> None:
    # uow.append takes only an event of a class, so the classes are every type appended.
    assert len(event_types()) == 53
    classes = {event_class(t) for t in event_types()}
    assert classes <= set(SENTENCES), {c.TYPE for c in classes - set(SENTENCES)}


def test_each_sentence_reads_the_event_class_it_is_filed_under() -> None:
    for cls, build in SENTENCES.items():
        hints = typing.get_type_hints(build)
        assert hints["e"] is cls, (cls.__name__, build.__name__)


@pytest.mark.parametrize("type_", sorted(event_types()))
def test_every_stored_sample_reads_as_its_own_sentence(type_: str) -> None:
    payloads = [e["payload"] for e in ledger_v1.of_type(type_)] + LATER_SAMPLES.get(type_, [])
    assert payloads, type_
    for payload in payloads:
        text = sentence(type_, payload, NAMES)
        assert text == sentence_of(upcast(type_, payload), NAMES)
        assert text != f"{type_in_words(type_)}.", (type_, payload)


def _offer(**changes: object) -> OfferMade:
    fields: dict[str, typing.Any] = {
        "offer_id": "ofr_1",
        "listing_id": "lst_1",
        "certificate_id": "crt_x",
        "seller_party_id": "pty_s",
        "buyer_party_id": "pty_x",
        "amount_cents": 0,
        "price_cents": 0,
    }
    return OfferMade(**(fields | changes))


def _review(tax_period: int, cut_cents: int) -> UthReviewRecorded:
    return UthReviewRecorded(
        certificate_id="crt_1",
        tax_period=tax_period,
        finding="new_positions_below_200",
        review="reduced",
        periods=[tax_period],
        ruleset="uth-2014",
        transferred_tranche_effect="none",
        cut_cents=cut_cents,
        cuts=[],
        certificate_status="active",
        tax_periods=[],
        cap_releases=[],
        descendants=[],
        assessment=None,
    )


def test_a_transfer_proposal_names_both_parties_and_the_price_per_dollar() -> None:
    event = TransferProposed(
        transfer_id="trf_1",
        certificate_id="crt_1",
        program="BRRAG",
        seller_party_id="pty_s",
        buyer_party_id="pty_b",
        amount_cents=100_000_000,
        consideration_cents=92_000_000,
        offer_id=None,
        agreement_ref=None,
        ruleset="brrag-2014",
    )
    assert sentence_of(event, NAMES) == (
        "Camden Robotics asked to transfer $1,000,000.00 of BRRAG credit to Newark Insurance "
        "for $920,000.00 (92¢ per $1); it awaits the Authority's approval."
    )


def test_an_ownership_edge_reads_in_whole_percentages() -> None:
    event = OwnershipRecorded(
        owner_party_id="pty_b",
        party_id="pty_s",
        voting_bps=2500,
        value_bps=1050,
        income_share_bps=None,
    )
    assert (
        sentence_of(event, NAMES)
        == "Newark Insurance owns 25% of the votes and 10.50% of the value of Camden Robotics."
    )


def test_a_listing_names_the_certificate_number_not_its_id() -> None:
    event = ListingCreated(
        listing_id="lst_1",
        seller_party_id="pty_s",
        certificate_id="crt_1",
        amount_cents=1,
        ask_cents=1,
    )
    text = sentence_of(event, NAMES)
    assert "BRRAG-2014-000001" in text and "crt_1" not in text


def test_an_unknown_id_is_shown_as_it_is() -> None:
    assert sentence_of(_offer(), {}).startswith("pty_x offered $0.00 for $0.00")


def test_an_unknown_type_reads_as_its_type_in_words() -> None:
    assert sentence("CHECKPOINT_SIGNED", {"tree_size": 3}, NAMES) == "Checkpoint signed."


def test_a_payload_missing_a_field_falls_back_to_the_type_in_words() -> None:
    assert sentence("OWNERSHIP_RECORDED", {}, NAMES) == "Ownership recorded."


def test_a_stored_payload_reads_as_its_typed_event_does() -> None:
    event = _offer(buyer_party_id="pty_b", amount_cents=100, price_cents=80)
    assert sentence(OfferMade.TYPE, event.to_payload(), NAMES) == sentence_of(event, NAMES)


def test_a_class_without_a_sentence_reads_as_its_type_in_words() -> None:
    class Unworded(DomainEvent):
        TYPE = "UNWORDED_THING_HAPPENED"

    assert sentence_of(Unworded(), NAMES) == "Unworded thing happened."


def test_a_review_cut_is_a_cut_not_an_expiry() -> None:
    text = sentence_of(_review(2016, 48_000_000), NAMES)
    assert "$480,000.00 cut" in text and "expired" not in text.lower()


def test_party_facts_read_with_the_tech_eligibility_facts_when_given() -> None:
    plain = PartyFactsRecorded(party_id="pty_s", naics_code="541714", employees={"2025": 40})
    assert sentence_of(plain, NAMES) == (
        "Camden Robotics's industry was recorded as NAICS 541714, with employees 40 in 2025."
    )
    tech = PartyFactsRecorded(
        party_id="pty_s",
        naics_code="541714",
        employees={"2025": 40},
        us_employees=40,
        nj_full_time_employees=12,
        formed_on="2006-03-01",
    )
    assert sentence_of(tech, NAMES).endswith(
        " TECH eligibility facts: 40 employees in the United States, 12 full-time in New "
        "Jersey, formed on 2006-03-01."
    )


def test_a_counter_offer_reads_in_cents_on_the_dollar_with_its_last_day() -> None:
    terms = {"offer_id": "ofr_1", "listing_id": "lst_1"}
    counter = OfferCountered(
        **terms, amount_cents=100_000_000, price_cents=85_500_000, expires_on="2014-09-10"
    )
    assert sentence_of(counter, {}) == (
        "The seller countered the offer: $855,000.00 for $1,000,000.00 of credit "
        "(85.5¢ per $1), open through 2014-09-10."
    )
    standing = OfferCountered(**terms, amount_cents=100_000_000, price_cents=85_500_000)
    assert sentence_of(standing, {}).endswith("(85.5¢ per $1).")
    accepted = CounterOfferAccepted(**terms, transfer_id="trf_1")
    assert "accepted" in sentence_of(accepted, {})
    assert "declined" in sentence_of(CounterOfferDeclined(**terms), {})


def test_an_offer_with_a_last_day_says_so() -> None:
    offer = _offer(amount_cents=100, price_cents=80)
    last_day = _offer(amount_cents=100, price_cents=80, expires_on="2014-09-10")
    assert ", open through 2014-09-10." in sentence_of(last_day, {})
    assert "open through" not in sentence_of(offer, {})


def test_a_uth_review_reads_its_finding_as_a_sentence_not_a_code() -> None:
    text = sentence_of(_review(2014, 50_000_000), NAMES)
    assert text == (
        "The annual review of tax period 2014 found fewer than 200 new positions (UTH-11(1)): "
        "reduced; $500,000.00 cut from the unsold part."
    )
    assert "_" not in text
