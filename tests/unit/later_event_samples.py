"""Payloads of event types newer than the old ledger (tests/fixtures/ledger_v1.jsonl),
for the round-trip test: one or more per type, as the services write them."""

from __future__ import annotations

from typing import Any

from tests.casefile_events import SAMPLES as CASEFILE_SAMPLES

LATER_SAMPLES: dict[str, list[dict[str, Any]]] = {
    "DEAL_MESSAGE_POSTED": [
        {
            "transfer_id": "trf_1",
            "from_party_id": "pty_s",
            "to_party_id": "pty_b",
            "body": "The wire goes out Friday.",
        }
    ],
    "PARTY_FACTS_RECORDED": [
        {"party_id": "pty_1", "naics_code": "541715", "employees": {"2024": 12, "2025": 14}},
        {"party_id": "pty_2", "naics_code": None, "employees": {}},
    ],
    "RECORDS_IMPORTED": [
        {
            "import_id": "imp_1",
            "kind": "certificates",
            "sha256": "ab" * 32,
            "file_name": "registry.csv",
            "rows": 3,
            "imported": 3,
            "first_seq": 10,
            "last_seq": 18,
        }
    ],
    # Registration and accounts (issue 29 item 1, issue 28 item 9).
    "REGISTRATION_REQUESTED": [
        {
            "affiliates": [{"name": "Pine Holdings", "relationship": "parent", "tax_id": None}],
            "contact_email": "990000001@example.com",
            "entity_type": "llc",
            "legal_name": "Pinelands Robotics LLC",
            "nj_tax_registration": "NJ-000111",
            "officers": [{"name": "Ada Pine", "title": "CEO"}],
            "registration_id": "reg_fixture0000000000001",
            "requested_at": "2026-12-02T09:00:00.000000Z",
            "tax_id": "990000001",
            "tax_types": ["CBT"],
        },
        {
            "affiliates": [{"name": "Pine Holdings", "relationship": "parent", "tax_id": None}],
            "contact_email": "990000002@example.com",
            "entity_type": "llc",
            "legal_name": "Shore Point Labs",
            "nj_tax_registration": "NJ-000111",
            "officers": [{"name": "Ada Pine", "title": "CEO"}],
            "registration_id": "reg_fixture0000000000002",
            "requested_at": "2026-12-02T09:00:00.000000Z",
            "tax_id": "990000002",
            "tax_types": ["CBT"],
        },
    ],
    "REGISTRATION_EMAIL_VERIFIED": [
        {"registration_id": "reg_fixture0000000000001"},
        {"registration_id": "reg_fixture0000000000002"},
    ],
    "REGISTRATION_APPROVED": [
        {
            "email": "990000001@example.com",
            "party_id": "pty_cb03f1a71fc04bdd96cb",
            "registration_id": "reg_fixture0000000000001",
            "user_id": "reg_fixture0000000000001",
        }
    ],
    "REGISTRATION_REJECTED": [
        {"reason": "No match.", "registration_id": "reg_fixture0000000000002"}
    ],
    "ACCOUNT_EVENT_RECORDED": [
        {
            "at": "2026-12-02T09:00:00.000000Z",
            "by_user_id": None,
            "detail": None,
            "kind": "signed_in",
            "user_id": "reg_fixture0000000000001",
        }
    ],
}

# Counter-offers (issue 28 item 3); an OFFER_MADE with `expires_on` is
# tests/unit/test_offer_terms.py's.
_OFFER = {"offer_id": "ofr_fixture0000000000001", "listing_id": "lst_fixture0000000000001"}
LATER_SAMPLES.update(
    {
        "OFFER_COUNTERED": [
            _OFFER | {"amount_cents": 100_000_000, "price_cents": 90_500_000},
            _OFFER
            | {"amount_cents": 50_000_000, "expires_on": "2014-09-30", "price_cents": 45_000_000},
        ],
        "COUNTER_OFFER_ACCEPTED": [_OFFER | {"transfer_id": "trf_fixture0000000000001"}],
        "COUNTER_OFFER_DECLINED": [_OFFER],
    }
)

# The case file's (RULES.md section 7), kept beside the tests that build them.
LATER_SAMPLES.update(CASEFILE_SAMPLES)
