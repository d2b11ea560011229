"""What every certificate row must keep after every committed transaction (PRODUCT.md
section 3; RULES.md CMN-4(a), CMN-4(b)), re-checked by `verify` and `replay` over the
tables, since a projection rebuilt from the events is only as sound as the events:
replay re-applies them without the checks that admitted them.

In the table's words (adapters/tables/certificates.py): an original certificate's face is
its unsold cents (balance + queued + applied + expired + recaptured) plus what it
transferred; a derived one's face is what it acquired, all of it usable (nothing queued),
and it equals balance + applied + expired + recaptured, plus what a pass-through entity
passed on to its members. No bucket is negative.

The certificate's open listings and undecided transfers (domain/rules/commitments.py)
were each within its balance when made; a sale takes its cents out of both the balance and
the promises, but a credit applied on a return, expired or recaptured leaves the balance
without releasing a promise (the Authority's approval re-checks the balance). So the
promises never exceed the balance plus the cents that left it that way: a listing over the
balance, admitted under a balance raised by hand, breaks it.
"""

from __future__ import annotations

from dataclasses import dataclass

from market.domain.rules.commitments import Commitments
from market.domain.values import format_cents

NON_NEGATIVE = "non_negative"
FACE = "face_is_unsold_plus_transferred"
ACQUIRED = "acquired_is_balance_applied_expired_recaptured"
COMMITTED = "commitments_within_balance"
BUCKETS = ("balance", "queued", "transferred", "applied", "expired", "recaptured")


@dataclass(frozen=True)
class CertificateFigures:
    certificate_id: str
    number: str
    is_original: bool
    face_cents: int
    balance_cents: int
    queued_cents: int
    transferred_cents: int
    applied_cents: int
    expired_cents: int
    recaptured_cents: int

    def buckets(self) -> tuple[int, ...]:
        """In the order of BUCKETS."""
        return (
            self.balance_cents,
            self.queued_cents,
            self.transferred_cents,
            self.applied_cents,
            self.expired_cents,
            self.recaptured_cents,
        )

    def used_cents(self) -> int:
        """What left the balance other than by transfer."""
        return self.applied_cents + self.expired_cents + self.recaptured_cents


@dataclass(frozen=True)
class Breach:
    certificate_id: str
    number: str
    rule: str
    message: str

    def __str__(self) -> str:
        return (
            f"certificate {self.number} ({self.certificate_id}) breaks {self.rule}: {self.message}"
        )


def _conservation(c: CertificateFigures) -> Breach | None:
    if c.is_original:
        unsold = c.balance_cents + c.queued_cents + c.used_cents()
        if c.face_cents == unsold + c.transferred_cents:
            return None
        return Breach(
            c.certificate_id,
            c.number,
            FACE,
            f"face {format_cents(c.face_cents)} but unsold {format_cents(unsold)} plus "
            f"transferred {format_cents(c.transferred_cents)}",
        )
    held = c.balance_cents + c.used_cents() + c.transferred_cents
    if c.queued_cents == 0 and c.face_cents == held:
        return None
    return Breach(
        c.certificate_id,
        c.number,
        ACQUIRED,
        f"acquired {format_cents(c.face_cents)} but balance, applied, expired, recaptured "
        f"and passed through come to {format_cents(held)}, with "
        f"{format_cents(c.queued_cents)} queued",
    )


def check_certificate(c: CertificateFigures, committed: Commitments) -> list[Breach]:
    """Every rule the row breaks, in a fixed order; empty when it keeps them all."""
    found: list[Breach] = []
    buckets = c.buckets()
    if min(buckets) < 0:
        words = ", ".join(
            f"{name} {format_cents(cents)}"
            for name, cents in zip(BUCKETS, buckets, strict=True)
            if cents < 0
        )
        found.append(Breach(c.certificate_id, c.number, NON_NEGATIVE, words))
    conservation = _conservation(c)
    if conservation is not None:
        found.append(conservation)
    # A negative balance is named above; it leaves no room for a promise.
    if committed.total() > max(c.balance_cents, 0) + c.used_cents():
        found.append(
            Breach(
                c.certificate_id,
                c.number,
                COMMITTED,
                f"open listings and undecided transfers come to "
                f"{format_cents(committed.total())}, over the balance of "
                f"{format_cents(c.balance_cents)} and the {format_cents(c.used_cents())} "
                "applied, expired or recaptured",
            )
        )
    return found
