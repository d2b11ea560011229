"""A certificate's status from its amounts (CMN-4(a), DMQ-2, DMQ-3): what every event that
moves a balance (issue, queue allowance, transfer, use on a return, expiry, recapture,
review) records as the certificate's status afterwards."""

from __future__ import annotations

ISSUED = "issued"
QUEUED = "queued"
PARTIALLY_QUEUED = "partially_queued"
EXHAUSTED = "exhausted"


def certificate_status(allowed_cents: int, balance_cents: int, queued_cents: int) -> str:
    """`queued`/`partially_queued` while a digital media pool defers part of it (DMQ-2),
    `exhausted` once nothing is usable or waiting, `issued` otherwise."""
    if queued_cents > 0:
        return PARTIALLY_QUEUED if allowed_cents > 0 else QUEUED
    return ISSUED if balance_cents > 0 else EXHAUSTED
