"""A transfer of credit from a seller to a buyer (PRODUCT.md 8.2): proposed, awaiting the
buyer's consent where negotiated, then the Authority's decision."""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

from market.domain.errors import AwaitingBuyerError, ConflictError


class TransferStatus(StrEnum):
    AWAITING_BUYER = "awaiting_buyer"
    PENDING_APPROVAL = "pending_approval"
    APPROVED = "approved"
    REJECTED = "rejected"
    DECLINED = "declined"


@dataclass(frozen=True)
class Transfer:
    id: str
    certificate_id: str
    seller_party_id: str
    buyer_party_id: str
    amount_cents: int
    consideration_cents: int
    status: TransferStatus
    offer_id: str | None
    use_of_proceeds: tuple[str, ...] | None
    confirmed: bool

    @staticmethod
    def stream_of(transfer_id: str) -> str:
        return f"transfer-{transfer_id}"

    @property
    def stream(self) -> str:
        return self.stream_of(self.id)

    @property
    def version(self) -> int:
        """Until decided, the stream holds TransferProposed and, once given, the buyer's
        TransferConfirmed."""
        return 2 if self.confirmed else 1

    def check_undecided(self, *allowed: TransferStatus) -> None:
        """Refuse (409) a step the transfer's state does not allow."""
        if self.status is TransferStatus.AWAITING_BUYER and self.status not in allowed:
            raise AwaitingBuyerError(
                f"Transfer {self.id} is awaiting the buyer's confirmation; the Authority "
                "decides on it once the buyer has confirmed (PRODUCT.md 8.2).",
                {"transfer_id": self.id, "status": self.status.value},
            )
        if self.status not in allowed:
            raise ConflictError(
                f"Transfer {self.id} is already {self.status.value}.",
                {"transfer_id": self.id, "status": self.status.value},
            )
