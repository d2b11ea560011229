"""What the Authority's approval of a transfer decides on, loaded inside the unit of work
that appends it (the ledger head held from here to commit, so none of it can change).

The guards whose facts are other contexts' records refuse while loading, first, as they
always have: a trading halt (PRODUCT.md 8.3), the closing record's funding (8.3) and the
ADM case file at closing (ADM-8, ADM-12). Every statutory rule of the sale itself is
decided afterwards by the pure `market.domain.deciders.transfers.decide_approval`."""

from __future__ import annotations

from datetime import date
from typing import Any, NamedTuple

from market.adapters.repositories.certificates import ActiveNotice
from market.adapters.repositories.models import certificate_of, transfer_of
from market.domain.commands.trading import ApproveTransfer
from market.domain.deciders.transfers import ApprovalFacts, ListingSold
from market.domain.model import Transfer, TransferStatus
from market.domain.rulesets import Ruleset
from market.services.casefiles import gates
from market.services.certificates import halts
from market.services.certificates.certificate_views import activity_ids_of
from market.services.kernel import reads
from market.services.kernel.errors import not_found
from market.services.kernel.numbering import new_id
from market.services.kernel.uow import AbstractUnitOfWork
from market.services.trading import funding
from market.services.trading.rule_checks import sale_facts, today
from market.services.trading.trade_views import load_listing, load_offer, sold_from_listing


class SaleRows(NamedTuple):
    """A transfer's certificate (None: unknown) and its lineage's active notices."""

    cert: dict[str, Any] | None
    active: list[ActiveNotice]

    def for_trading(self, certificate_id: str) -> tuple[dict[str, Any], list[ActiveNotice]]:
        """What `halts.load_for_trading` answers, from this read: 404 if unknown."""
        if self.cert is None:
            raise not_found("Certificate", "certificate_id", certificate_id)
        return self.cert, self.active


def read_sale(uow: AbstractUnitOfWork, transfer_id: str) -> SaleRows:
    """The transfer, its certificate and the lineage's active notices in one read, before
    any check (the first thing a decision on a transfer reads, as `halts.load_for_trading`
    and the transfer's own read did in two). The transfer and the certificate are held by
    the unit of work from here: the checks that follow read them without a round trip,
    and in their own order (an unknown transfer is still a 404 first)."""
    _, cert, active = uow.transfers.with_certificate(transfer_id)
    return SaleRows(cert, active)


def undecided(uow: AbstractUnitOfWork, transfer_id: str, *allowed: TransferStatus) -> Transfer:
    """The transfer, if its state allows the step (else 409); its stream's version is
    noted, so a concurrent decision on it fails the commit."""
    transfer = transfer_of(reads.transfer(uow, transfer_id))
    transfer.check_undecided(*allowed)
    uow.note_version(transfer.stream, transfer.version)
    return transfer


def _listing(uow: AbstractUnitOfWork, transfer: Transfer) -> ListingSold | None:
    if transfer.offer_id is None:
        return None
    listing = load_listing(uow, load_offer(uow, transfer.offer_id).listing_id)
    sold = sold_from_listing(uow, listing.id)
    return ListingSold(listing.id, listing.amount_cents, listing.status.value, sold)


def approval_facts(
    uow: AbstractUnitOfWork, command: ApproveTransfer, ruleset: Ruleset
) -> ApprovalFacts:
    sale = read_sale(uow, command.transfer_id)
    transfer = undecided(uow, command.transfer_id, TransferStatus.PENDING_APPROVAL)
    row = reads.transfer(uow, transfer.id)
    on: date = command.exchange_on or today()
    listing = _listing(uow, transfer)
    cert_row, active = sale.for_trading(transfer.certificate_id)
    halts.check_not_halted(uow, cert_row, active)  # PRODUCT.md 8.3 trading halts
    funding.check_funded(uow, transfer, ruleset)  # PRODUCT.md 8.3 closing record
    # ADM-8, ADM-12: at closing
    cert = certificate_of(cert_row)
    gates.check_final_approval(uow, transfer, cert, ruleset, on)
    uow.transfers.remember(row)
    uow.certificates.remember(cert_row)
    parties = (transfer.seller_party_id, transfer.buyer_party_id)
    return ApprovalFacts(
        transfer=transfer,
        sale=sale_facts(uow, cert, *parties, ruleset),
        listing=listing,
        activity_ids=tuple(activity_ids_of(uow, cert)),
        buyer_certificate_id=new_id("crt"),
        today=today(),
    )
