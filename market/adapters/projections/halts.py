"""Trading halts (PRODUCT.md 8.3): notices on a certificate, the listings they suspend and
resume. The service decides which listings; the event carries them."""

from __future__ import annotations

from market.adapters.projections.registry import handles
from market.adapters.projections.store import Store
from market.domain.events.halts import CertificateNoticeIssued, CertificateNoticeLifted


@handles(CertificateNoticeIssued)
def notice_issued(store: Store, seq: int, e: CertificateNoticeIssued) -> None:
    store.insert(
        "certificate_notices",
        {
            "id": e.notice_id,
            "certificate_id": e.certificate_id,
            "root_id": e.root_id,
            "kind": e.kind,
            "reason": e.reason,
            "status": "active",
            "halted_certificate_ids": list(e.halted_certificate_ids),
            "suspended_listing_ids": list(e.suspended_listing_ids),
            "resumed_listing_ids": [],
            "lift_reason": None,
            "issued_seq": seq,
            "lifted_seq": None,
        },
    )
    for listing_id in e.suspended_listing_ids:
        store.update("listings", listing_id, {"status": "suspended"})


@handles(CertificateNoticeLifted)
def notice_lifted(store: Store, seq: int, e: CertificateNoticeLifted) -> None:
    store.update(
        "certificate_notices",
        e.notice_id,
        {
            "status": "lifted",
            "lift_reason": e.reason,
            "resumed_listing_ids": list(e.resumed_listing_ids),
            "lifted_seq": seq,
        },
    )
    for listing_id in e.resumed_listing_ids:
        store.update("listings", listing_id, {"status": "open"})
