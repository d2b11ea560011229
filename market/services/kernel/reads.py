"""The repositories a use case reads through, and its aggregates loaded by id or 404.

A write use case passes its unit of work (which is its repositories: `uow.certificates`,
`uow.transfers`, ...); a read-only one passes its connection, and gets the same
repositories over it (market.adapters.repositories)."""

from __future__ import annotations

from typing import Any

from sqlalchemy import Engine
from sqlalchemy.engine import Connection

from market.adapters.projections.store import DbStore
from market.adapters.repositories import Repositories
from market.services.kernel.errors import NotFoundError

Source = Repositories | Connection
# Connection: the read handle contexts take; Engine: what a context hands its adapters
# when they open their own transactions.
__all__ = ["Connection", "Engine", "Source", "repositories"]


def repositories(source: Source) -> Repositories:
    if isinstance(source, Repositories):
        return source
    return Repositories.over(DbStore(source))


def _found(row: dict[str, Any] | None, what: str, field: str, key: str) -> dict[str, Any]:
    if row is None:
        raise NotFoundError(f"{what} {key} does not exist.", {field: key})
    return row


def certificate(source: Source, certificate_id: str) -> dict[str, Any]:
    row = repositories(source).certificates.get(certificate_id)
    return _found(row, "Certificate", "certificate_id", certificate_id)


def listing(source: Source, listing_id: str) -> dict[str, Any]:
    return _found(
        repositories(source).listings.get(listing_id), "Listing", "listing_id", listing_id
    )


def offer(source: Source, offer_id: str) -> dict[str, Any]:
    return _found(repositories(source).offers.get(offer_id), "Offer", "offer_id", offer_id)


def transfer(source: Source, transfer_id: str) -> dict[str, Any]:
    row = repositories(source).transfers.get(transfer_id)
    return _found(row, "Transfer", "transfer_id", transfer_id)


def party(source: Source, party_id: str) -> dict[str, Any]:
    return _found(repositories(source).parties.get(party_id), "Party", "party_id", party_id)
