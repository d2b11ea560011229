"""The invariants verify and replay re-check (domain/invariants.py; PRODUCT.md section 3,
RULES.md CMN-4), and a certificate's commitments from its rows (commitments_from)."""

from __future__ import annotations

from dataclasses import replace

from hypothesis import given
from hypothesis import strategies as st

from market.domain.invariants import (
    ACQUIRED,
    COMMITTED,
    FACE,
    NON_NEGATIVE,
    CertificateFigures,
    check_certificate,
)
from market.domain.rules.commitments import Commitments, commitments_from

M = 100_000_000  # $1,000,000
NONE = Commitments()
# A $2m original: $0.5m transferred, $0.25m applied, $0.25m queued, $1m left.
ORIGINAL = CertificateFigures(
    "crt_1", "BRRAG-2014-000001", True, 2 * M, M, M // 4, M // 2, M // 4, 0, 0
)
# A buyer's $0.5m: $0.1m applied, $0.05m expired, $0.05m recaptured.
DERIVED = CertificateFigures(
    "crt_2", "BRRAG-2014-000001-01", False, M // 2, 3 * M // 10, 0, 0, M // 10, M // 20, M // 20
)


def rules(found: list) -> list[str]:  # type: ignore[type-arg]
    return [b.rule for b in found]


def test_sound_rows_keep_every_invariant() -> None:
    assert check_certificate(ORIGINAL, NONE) == []
    assert check_certificate(DERIVED, NONE) == []
    # A pass-through entity's certificate: what it passed on counts as transferred.
    passed = replace(DERIVED, balance_cents=M // 10, transferred_cents=M // 5)
    assert check_certificate(passed, NONE) == []


def test_a_balance_raised_alone_breaks_conservation_naming_the_certificate() -> None:
    (breach,) = check_certificate(replace(ORIGINAL, balance_cents=ORIGINAL.balance_cents + 1), NONE)
    assert breach.rule == FACE and breach.certificate_id == "crt_1"
    assert "BRRAG-2014-000001" in str(breach) and FACE in str(breach)
    assert "face $2,000,000.00" in breach.message


def test_a_derived_certificate_with_cents_queued_or_missing_breaks_acquired() -> None:
    assert rules(check_certificate(replace(DERIVED, applied_cents=0), NONE)) == [ACQUIRED]
    queued = replace(DERIVED, queued_cents=1, balance_cents=DERIVED.balance_cents - 1)
    (breach,) = check_certificate(queued, NONE)
    assert breach.rule == ACQUIRED and "$0.01 queued" in breach.message


def test_a_negative_bucket_is_named() -> None:
    bad = replace(ORIGINAL, balance_cents=-5, applied_cents=ORIGINAL.applied_cents + M + 5)
    (breach,) = check_certificate(bad, NONE)
    assert breach.rule == NON_NEGATIVE and breach.message == "balance -$0.05"


def test_commitments_over_the_balance_and_what_was_used_are_a_breach() -> None:
    # $1m left and $0.25m applied since the listing and the transfer were made.
    within = Commitments({"lst_1": (M, 0)}, loose_cents=M // 4)
    assert check_certificate(ORIGINAL, within) == []
    over = Commitments({"lst_1": (M, 0)}, loose_cents=M // 4 + 1)
    (breach,) = check_certificate(ORIGINAL, over)
    assert breach.rule == COMMITTED
    assert "$1,250,000.01, over the balance of $1,000,000.00 and the $250,000.00" in str(breach)


def test_every_broken_rule_is_reported_in_order() -> None:
    bad = replace(ORIGINAL, balance_cents=-1)
    assert rules(check_certificate(bad, Commitments(loose_cents=M))) == [
        NON_NEGATIVE,
        FACE,
        COMMITTED,
    ]


def test_commitments_from_rows_count_what_is_left_or_pending_and_loose_transfers() -> None:
    found = commitments_from(
        {"lst_1": 100, "lst_2": 50},
        {"lst_1": 30},
        [("lst_1", 20), ("lst_1", 60), (None, 7), ("lst_gone", 5)],
    )
    # lst_1: 70 left but 80 pending; lst_2: 50 left; loose: the negotiated and the
    # transfer from a listing no longer open.
    assert found.listings == {"lst_1": (70, 80), "lst_2": (50, 0)}
    assert found.loose_cents == 12 and found.total() == 142


@given(
    st.lists(st.integers(0, 10 * M), min_size=6, max_size=6),
    st.booleans(),
)
def test_rows_built_to_conserve_pass_and_one_cent_more_face_fails(
    parts: list[int], original: bool
) -> None:
    balance, queued, transferred, applied, expired, recaptured = parts
    if not original:
        queued = 0
    face = balance + queued + transferred + applied + expired + recaptured
    if face == 0:
        return
    row = CertificateFigures(
        "c", "n", original, face, balance, queued, transferred, applied, expired, recaptured
    )
    assert check_certificate(row, Commitments(loose_cents=balance)) == []
    assert rules(check_certificate(replace(row, face_cents=face + 1), NONE)) == [
        FACE if original else ACQUIRED
    ]
