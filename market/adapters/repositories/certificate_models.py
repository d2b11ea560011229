"""Cap usage and digital media queue rows read as typed records (market.domain.model)."""

from __future__ import annotations

from market.adapters.projections.store import Row
from market.domain.model.certificate import DerivedCertificate
from market.domain.model.dm_pool import CapUse, QueuedCredit


def derived_certificate_of(row: Row) -> DerivedCertificate:
    return DerivedCertificate(
        id=str(row["id"]),
        number=str(row["number"]),
        holder_party_id=str(row["holder_party_id"]),
        face_cents=int(row["face_cents"]),
        origin=str(row["origin"]),
        issued_seq=int(row["issued_seq"]),
    )


def cap_use_of(row: Row) -> CapUse:
    return CapUse(
        id=str(row["id"]),
        bucket=str(row["bucket"]),
        fiscal_year=int(row["fiscal_year"]),
        cap_cents=int(row["cap_cents"]),
        used_cents=int(row["used_cents"]),
        queued_cents=int(row["queued_cents"] or 0),
    )


def queued_credit_of(row: Row) -> QueuedCredit:
    return QueuedCredit(
        id=str(row["id"]),
        pool=str(row["pool"]),
        origin_fiscal_year=int(row["origin_fiscal_year"]),
        remaining_cents=int(row["remaining_cents"]),
        received_at=str(row["received_at"]),
        position=int(row["position"]),
    )
