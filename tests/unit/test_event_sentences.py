"""Every event type the services append reads as one sentence in words and dollars."""

from __future__ import annotations

from market.domain.events import event_types
from market.web.event_sentences import SENTENCES, sentence

NAMES = {"pty_s": "Camden Robotics", "pty_b": "Newark Insurance", "crt_1": "BRRAG-2014-000001"}


def test_every_event_type_the_services_append_has_a_sentence() -> None:
    # uow.append takes only an event of a class, so the classes are every type appended.
    assert len(event_types()) == 53
    assert event_types() <= set(SENTENCES), event_types() - set(SENTENCES)


def test_a_transfer_proposal_names_both_parties_and_the_price_per_dollar() -> None:
    text = sentence(
        "TRANSFER_PROPOSED",
        {
            "seller_party_id": "pty_s",
            "buyer_party_id": "pty_b",
            "amount_cents": 100_000_000,
            "consideration_cents": 92_000_000,
            "program": "BRRAG",
        },
        NAMES,
    )
    assert text == (
        "Camden Robotics asked to transfer $1,000,000.00 of BRRAG credit to Newark Insurance "
        "for $920,000.00 (92¢ per $1); it awaits the Authority's approval."
    )


def test_an_ownership_edge_reads_in_whole_percentages() -> None:
    text = sentence(
        "OWNERSHIP_RECORDED",
        {"owner_party_id": "pty_b", "party_id": "pty_s", "voting_bps": 2500, "value_bps": 1050},
        NAMES,
    )
    assert (
        text == "Newark Insurance owns 25% of the votes and 10.50% of the value of Camden Robotics."
    )


def test_a_listing_names_the_certificate_number_not_its_id() -> None:
    text = sentence(
        "LISTING_CREATED",
        {"seller_party_id": "pty_s", "certificate_id": "crt_1", "amount_cents": 1, "ask_cents": 1},
        NAMES,
    )
    assert "BRRAG-2014-000001" in text and "crt_1" not in text


def test_an_unknown_id_is_shown_as_it_is() -> None:
    text = sentence(
        "OFFER_MADE", {"buyer_party_id": "pty_x", "amount_cents": 0, "price_cents": 0}, {}
    )
    assert text.startswith("pty_x offered $0.00 for $0.00")


def test_an_unknown_type_reads_as_its_type_in_words() -> None:
    assert sentence("CHECKPOINT_SIGNED", {"tree_size": 3}, NAMES) == "Checkpoint signed."


def test_a_payload_missing_a_field_falls_back_to_the_type_in_words() -> None:
    assert sentence("OWNERSHIP_RECORDED", {}, NAMES) == "Ownership recorded."


def test_a_review_cut_is_a_cut_not_an_expiry() -> None:
    text = sentence(
        "UTH_REVIEW_RECORDED",
        {
            "tax_period": 2016,
            "finding": "new_positions_below_200",
            "review": "reduced",
            "cut_cents": 48_000_000,
        },
        NAMES,
    )
    assert "$480,000.00 cut" in text and "expired" not in text.lower()


def test_party_facts_read_with_the_tech_eligibility_facts_when_given() -> None:
    plain = {"party_id": "pty_s", "naics_code": "541714", "employees": {"2025": 40}}
    assert sentence("PARTY_FACTS_RECORDED", plain, NAMES) == (
        "Camden Robotics's industry was recorded as NAICS 541714, with employees 40 in 2025."
    )
    tech = plain | {"us_employees": 40, "nj_full_time_employees": 12, "formed_on": "2006-03-01"}
    assert sentence("PARTY_FACTS_RECORDED", tech, NAMES).endswith(
        " TECH eligibility facts: 40 employees in the United States, 12 full-time in New "
        "Jersey, formed on 2006-03-01."
    )


def test_a_counter_offer_reads_in_cents_on_the_dollar_with_its_last_day() -> None:
    payload = {
        "offer_id": "ofr_1",
        "listing_id": "lst_1",
        "amount_cents": 100_000_000,
        "price_cents": 85_500_000,
        "expires_on": "2014-09-10",
    }
    assert sentence("OFFER_COUNTERED", payload, {}) == (
        "The seller countered the offer: $855,000.00 for $1,000,000.00 of credit "
        "(85.5¢ per $1), open through 2014-09-10."
    )
    payload.pop("expires_on")
    assert sentence("OFFER_COUNTERED", payload, {}).endswith("(85.5¢ per $1).")
    assert "accepted" in sentence("COUNTER_OFFER_ACCEPTED", {"offer_id": "ofr_1"}, {})
    assert "declined" in sentence("COUNTER_OFFER_DECLINED", {"offer_id": "ofr_1"}, {})


def test_an_offer_with_a_last_day_says_so() -> None:
    payload = {"buyer_party_id": "pty_x", "amount_cents": 100, "price_cents": 80}
    assert ", open through 2014-09-10." in sentence(
        "OFFER_MADE", payload | {"expires_on": "2014-09-10"}, {}
    )
    assert "open through" not in sentence("OFFER_MADE", payload, {})


def test_a_uth_review_reads_its_finding_as_a_sentence_not_a_code() -> None:
    text = sentence(
        "UTH_REVIEW_RECORDED",
        {
            "tax_period": 2014,
            "finding": "new_positions_below_200",
            "review": "reduced",
            "cut_cents": 50_000_000,
        },
        NAMES,
    )
    assert text == (
        "The annual review of tax period 2014 found fewer than 200 new positions (UTH-11(1)): "
        "reduced; $500,000.00 cut from the unsold part."
    )
    assert "_" not in text
