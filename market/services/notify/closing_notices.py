"""What a transfer's closing record tells its parties (PRODUCT.md 8.3): the seller is asked
to confirm a recorded payment, the buyer hears it was received, both hear of a refund
owed; each by e-mail too, linking the deal room. notices.py folds this mapping into
NOTICES (it imports this module last, so import that one)."""

from __future__ import annotations

from market.domain.events import DomainEvent
from market.domain.events.deals import DealMessagePosted
from market.domain.events.funding import (
    TransferPaymentRecorded,
    TransferReceiptConfirmed,
    TransferRefundOwed,
)
from market.services.notify.notices import TRANSFER_LINK, Notice, keys

CLOSING_NOTICES: dict[type[DomainEvent], Notice] = {
    DealMessagePosted: Notice(
        keys("to_party_id"),
        "Message from {from_party} about {certificate_number}",
        "{from_party} wrote: {body}",
        TRANSFER_LINK,
    ),
    TransferPaymentRecorded: Notice(
        keys("seller_party_id"),
        "Payment recorded: {amount_dollars} for {certificate_number}",
        "{buyer_party} recorded a payment of {amount_dollars} (reference {reference}) for "
        "certificate {certificate_number}. Confirm its receipt on the deal's page.",
        TRANSFER_LINK,
        email=True,
    ),
    TransferReceiptConfirmed: Notice(
        keys("buyer_party_id"),
        "Payment received: {certificate_number}",
        "{seller_party} confirmed receipt of your payment for certificate {certificate_number}. "
        "The deal is complete.",
        TRANSFER_LINK,
        email=True,
    ),
    TransferRefundOwed: Notice(
        keys("seller_party_id", "buyer_party_id"),
        "Refund owed: {refund_owed_dollars}",
        "The transfer of certificate {certificate_number} was rejected after payment: "
        "{seller_party} owes {buyer_party} a refund of {refund_owed_dollars}.",
        TRANSFER_LINK,
        email=True,
    ),
}
