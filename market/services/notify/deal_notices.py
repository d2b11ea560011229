"""What the steps of a deal tell people: an offer made, accepted or declined, and a
transfer proposed, confirmed, declined, approved or rejected. notices.py folds this
mapping into NOTICES (it imports this module last, so import that one)."""

from __future__ import annotations

from market.domain.events import DomainEvent
from market.domain.events.trading import (
    OfferAccepted,
    OfferDeclined,
    OfferMade,
    TransferApproved,
    TransferConfirmed,
    TransferDeclined,
    TransferProposed,
    TransferRejected,
)
from market.services.notify.notices import (
    AUTHORITY,
    OFFER_LINK,
    TRANSFER_LINK,
    Facts,
    Notice,
    keys,
)


def _proposal_concerns(f: Facts) -> list[str | None]:
    """One notice per step per party: a proposal that came from an accepted offer is news
    to the Authority only (the buyer was told of the acceptance); one that waits for the
    buyer's confirmation is the buyer's to act on (the Authority hears of the
    confirmation); an older proposal that waits for neither goes to both."""
    if f.get("offer_id"):
        return [AUTHORITY]
    if f.get("awaiting_buyer"):
        return [f.get("buyer_party_id")]
    return [f.get("buyer_party_id"), AUTHORITY]


DEAL_NOTICES: dict[type[DomainEvent], Notice] = {
    OfferMade: Notice(
        keys("seller_party_id"),
        "New offer: {price_dollars} for {amount_dollars} of {certificate_number}",
        "{buyer_party} offers {price_dollars} for {amount_dollars} of certificate "
        "{certificate_number}{until}. Accept, counter or decline it on your Selling page.",
        OFFER_LINK,
        email=True,
    ),
    OfferAccepted: Notice(
        keys("buyer_party_id"),
        "Offer accepted: {amount_dollars} of {certificate_number}",
        "{seller_party} accepted your offer of {price_dollars} for {amount_dollars} of "
        "certificate {certificate_number}. Next: the Authority approves or rejects the transfer.",
        OFFER_LINK,
        email=True,
    ),
    OfferDeclined: Notice(
        keys("buyer_party_id"),
        "Offer declined: {amount_dollars} of {certificate_number}",
        "{seller_party} declined your offer of {price_dollars} for {amount_dollars} of "
        "certificate {certificate_number}.",
        OFFER_LINK,
    ),
    TransferProposed: Notice(
        _proposal_concerns,
        "Transfer proposed: {amount_dollars} of {certificate_number}",
        "{seller_party} proposes to transfer {amount_dollars} of certificate "
        "{certificate_number} to {buyer_party} for {consideration_dollars}. "
        "Next: {next_step}",
        TRANSFER_LINK,
        email=True,
    ),
    TransferConfirmed: Notice(
        lambda f: [f.get("seller_party_id"), AUTHORITY],
        "Transfer confirmed: {amount_dollars} of {certificate_number}",
        "{buyer_party} confirmed the transfer of {amount_dollars} of certificate "
        "{certificate_number} from {seller_party}. Next: the Authority's approval.",
        TRANSFER_LINK,
        email=True,
    ),
    TransferDeclined: Notice(
        keys("seller_party_id"),
        "Transfer declined by the buyer: {amount_dollars} of {certificate_number}",
        "{buyer_party} declined the transfer of {amount_dollars} of certificate "
        "{certificate_number}. Reason: {reason}",
        TRANSFER_LINK,
        email=True,
    ),
    TransferApproved: Notice(
        keys("seller_party_id", "buyer_party_id"),
        "Transfer approved: {amount_dollars} of {certificate_number}",
        "The Authority approved the transfer of {amount_dollars} of certificate "
        "{certificate_number} from {seller_party} to {buyer_party} for "
        "{consideration_dollars}, exchanged on {exchange_date}. Next: {buyer_party} records "
        "its payment; {seller_party} then confirms receipt.",
        TRANSFER_LINK,
        email=True,
    ),
    TransferRejected: Notice(
        keys("seller_party_id", "buyer_party_id"),
        "Transfer rejected: {amount_dollars} of {certificate_number}",
        "The Authority rejected the transfer of {amount_dollars} of certificate "
        "{certificate_number} from {seller_party} to {buyer_party}. Reason: {reason}",
        TRANSFER_LINK,
        email=True,
    ),
}
