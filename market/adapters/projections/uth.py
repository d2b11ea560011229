"""The UTH annual review (market/services/uth_reviews.py): the award's reviewed tranches,
its cut, the cap room it releases and the flags on tranches already transferred."""

from __future__ import annotations

from market.adapters.eventstore import Event
from market.adapters.projections.registry import handles
from market.adapters.projections.store import Store, require


@handles("UTH_REVIEW_RECORDED")
def uth_review_recorded(store: Store, event: Event) -> None:
    """Payload: certificate_id, cut_cents (leaves allowed and balance, counted as
    expired), certificate_status, tax_periods (the award's tranches afterwards),
    cap_releases [{cap_id, cents}], descendants [{certificate_id, tax_periods}]; the rest
    (finding, periods, assessment, ...) is the record."""
    p = event.payload
    cut = p["cut_cents"]
    cert = require(store, "certificates", p["certificate_id"])
    store.update(
        "certificates",
        p["certificate_id"],
        {
            "allowed_cents": cert["allowed_cents"] - cut,
            "balance_cents": cert["balance_cents"] - cut,
            "expired_cents": cert["expired_cents"] + cut,
            "status": p["certificate_status"],
            "tax_periods": p["tax_periods"],
        },
    )
    for release in p["cap_releases"]:
        row = require(store, "cap_usage", release["cap_id"])
        store.update(
            "cap_usage", release["cap_id"], {"used_cents": row["used_cents"] - release["cents"]}
        )
    for held in p["descendants"]:
        require(store, "certificates", held["certificate_id"])
        store.update("certificates", held["certificate_id"], {"tax_periods": held["tax_periods"]})
