"""The UTH annual review (market/services/certificates/uth_reviews.py): the award's reviewed
tranches, its cut, the cap room it releases and the flags on tranches already transferred."""

from __future__ import annotations

from market.adapters.projections.registry import handles
from market.adapters.projections.store import Store, require
from market.domain.events.uth import UthReviewRecorded


@handles(UthReviewRecorded)
def uth_review_recorded(store: Store, seq: int, e: UthReviewRecorded) -> None:
    """The cut leaves allowed and balance, counted as expired; the rest of the event
    (finding, periods, assessment, ...) is the record."""
    cut = e.cut_cents
    cert = require(store, "certificates", e.certificate_id)
    store.update(
        "certificates",
        e.certificate_id,
        {
            "allowed_cents": cert["allowed_cents"] - cut,
            "balance_cents": cert["balance_cents"] - cut,
            "expired_cents": cert["expired_cents"] + cut,
            "status": e.certificate_status,
            "tax_periods": list(e.tax_periods),
        },
    )
    for release in e.cap_releases:
        row = require(store, "cap_usage", release["cap_id"])
        store.update(
            "cap_usage", release["cap_id"], {"used_cents": row["used_cents"] - release["cents"]}
        )
    for held in e.descendants:
        require(store, "certificates", held["certificate_id"])
        store.update("certificates", held["certificate_id"], {"tax_periods": held["tax_periods"]})
