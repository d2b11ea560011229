"""The certificates commands: the Authority's annual UTH review (UTH-11, UTH-27)."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class RecordUthReview:
    """The review of an award's installment for `tax_period`, with its finding."""

    certificate_id: str
    tax_period: int
    finding: str
