"""Listings, offers and transfers: the trading aggregates (PRODUCT.md 8.1, 8.2)."""

from __future__ import annotations

from dataclasses import dataclass

from sqlalchemy import and_, bindparam, func, literal, select, union_all

from market.adapters.eventstore import CHUNK
from market.adapters.projections.store import Row
from market.adapters.queries import Query
from market.adapters.repositories.base import Repository, SqlMixin
from market.adapters.repositories.certificates import (
    NOTICE_COLUMNS,
    ActiveNotice,
    CertificateRepository,
    SqlCertificateRepository,
    active_notices_in,
    certs_t,
    notices_t,
    with_lineage_notices,
)
from market.adapters.repositories.models import listing_of, offer_of, transfer_of
from market.adapters.tables import Listing, Offer, Transfer
from market.domain import model

listings_t = Listing.__table__  # type: ignore[attr-defined]
offers_t = Offer.__table__  # type: ignore[attr-defined]
transfers_t = Transfer.__table__  # type: ignore[attr-defined]

UNDECIDED = ("awaiting_buyer", "pending_approval")

_SOLD = Query(
    select(func.coalesce(func.sum(transfers_t.c.amount_cents), 0))
    .select_from(transfers_t.join(offers_t, offers_t.c.transfer_id == transfers_t.c.id))
    .where(offers_t.c.listing_id == bindparam("listing_id"), transfers_t.c.status == "approved")
)
# Summed in SQL per listing: a certificate sold in pieces can have thousands of undecided
# transfers. An undecided transfer has no decided_seq, so the walk is the
# (certificate_id, decided_seq IS NULL) range of ix_transfers_certificate_decided.
_UNDECIDED_WHERE = (
    transfers_t.c.certificate_id == bindparam("certificate_id"),
    transfers_t.c.decided_seq.is_(None),
    # Fixed parameters, not a list: a list is an expanding IN, rendered again every run.
    transfers_t.c.status.in_([bindparam(f"undecided_{s}", s) for s in UNDECIDED]),
)
_UNDECIDED_SUM = func.sum(transfers_t.c.amount_cents).label("amount_cents")
_UNDECIDED = Query(
    select(offers_t.c.listing_id, _UNDECIDED_SUM)
    .select_from(transfers_t.outerjoin(offers_t, and_(offers_t.c.id == transfers_t.c.offer_id)))
    .where(*_UNDECIDED_WHERE)
    .group_by(offers_t.c.listing_id)
)


# What a certificate's balance is promised to, in one statement (a new transfer's, offer's
# or listing's balance check): its open listings, the approved sales from each, and its
# undecided transfers per listing. Each part walks the index it walked alone.
_OPEN = and_(
    listings_t.c.certificate_id == bindparam("certificate_id"), listings_t.c.status == "open"
)
_PROMISED = Query(
    union_all(
        select(literal("open").label("kind"), listings_t.c.id, listings_t.c.amount_cents).where(
            _OPEN
        ),
        select(literal("sold"), listings_t.c.id, func.sum(transfers_t.c.amount_cents))
        .select_from(
            listings_t.join(offers_t, offers_t.c.listing_id == listings_t.c.id).join(
                transfers_t, transfers_t.c.id == offers_t.c.transfer_id
            )
        )
        .where(_OPEN, transfers_t.c.status == "approved")
        .group_by(listings_t.c.id),
        select(literal("undecided"), offers_t.c.listing_id, _UNDECIDED_SUM)
        .select_from(transfers_t.outerjoin(offers_t, offers_t.c.id == transfers_t.c.offer_id))
        .where(*_UNDECIDED_WHERE)
        .group_by(offers_t.c.listing_id),
    )
)


# A transfer beside its certificate and the certificate lineage's active notices (a row
# each; one row of NULL notice columns if none): what confirming or approving it reads
# first. The transfer's columns are prefixed, the certificate's are as they are.
_T = "t_"
_WITH_CERTIFICATE = Query(
    select(*(c.label(_T + c.name) for c in transfers_t.c), certs_t, *NOTICE_COLUMNS)
    .select_from(
        with_lineage_notices(
            transfers_t.outerjoin(certs_t, certs_t.c.id == transfers_t.c.certificate_id)
        )
    )
    .where(transfers_t.c.id == bindparam("id"))
    .order_by(notices_t.c.id)
)
Sale = tuple[Row | None, Row | None, list[ActiveNotice]]


@dataclass(frozen=True)
class Promised:
    """A certificate's open listings (cents offered), the cents sold from each, and its
    undecided transfers' cents per listing (None: negotiated)."""

    open_listings: dict[str, int]
    sold: dict[str, int]
    undecided: dict[str | None, int]


class ListingRepository(Repository):
    table = "listings"

    def load(self, listing_id: str) -> model.Listing | None:
        row = self.get(listing_id)
        return None if row is None else listing_of(row)

    def open_of_certificate(self, certificate_id: str) -> list[model.Listing]:
        return [listing_of(r) for r in self.where(certificate_id=certificate_id, status="open")]

    def of_certificates(self, certificate_ids: list[str], status: str) -> list[Row]:
        """The listings of these certificates in this status, oldest first."""
        found = [r for c in certificate_ids for r in self.where(certificate_id=c, status=status)]
        return sorted(found, key=lambda r: int(r["created_seq"]))

    def sold_cents(self, listing_id: str) -> int:
        """Cents of the listing's accepted offers whose transfers were approved."""
        total = 0
        for offer in self.store.rows("offers", listing_id=listing_id):
            transfer_id = offer["transfer_id"]
            transfer = self.store.get("transfers", transfer_id) if transfer_id else None
            if transfer is not None and transfer["status"] == "approved":
                total += int(transfer["amount_cents"])
        return total


class SqlListingRepository(SqlMixin, ListingRepository):
    def of_certificates(self, certificate_ids: list[str], status: str) -> list[Row]:
        found: list[Row] = []
        for start in range(0, len(certificate_ids), CHUNK):
            stmt = select(listings_t).where(
                listings_t.c.certificate_id.in_(certificate_ids[start : start + CHUNK]),
                listings_t.c.status == status,
            )
            found.extend(dict(r) for r in self.conn.execute(stmt).mappings())
        return sorted(found, key=lambda r: int(r["created_seq"]))

    def sold_cents(self, listing_id: str) -> int:
        return int(_SOLD.scalar(self.conn, {"listing_id": listing_id}) or 0)


class OfferRepository(Repository):
    table = "offers"

    def load(self, offer_id: str) -> model.Offer | None:
        row = self.get(offer_id)
        return None if row is None else offer_of(row)


class TransferRepository(Repository):
    table = "transfers"

    def load(self, transfer_id: str) -> model.Transfer | None:
        row = self.get(transfer_id)
        return None if row is None else transfer_of(row)

    def _certificates(self) -> CertificateRepository:
        return CertificateRepository(self.store)

    def with_certificate(self, transfer_id: str) -> Sale:
        """The transfer (None: unknown), its certificate and that certificate lineage's
        active notices: what a decision on a transfer reads before deciding."""
        row = self.get(transfer_id)
        if row is None:
            return None, None, []
        cert, active = self._certificates().with_active_notices(row["certificate_id"])
        return row, cert, active

    def undecided_by_listing(self, certificate_id: str) -> dict[str | None, int]:
        """The cents of the certificate's transfers still awaiting the buyer or the
        Authority, summed per listing of their offer (None: a negotiated transfer): what
        the certificate's balance is promised to."""
        found: dict[str | None, int] = {}
        for t in self.where(certificate_id=certificate_id):
            if t["status"] not in UNDECIDED:
                continue
            offer = self.store.get("offers", t["offer_id"]) if t["offer_id"] else None
            listing_id = offer["listing_id"] if offer else None
            found[listing_id] = found.get(listing_id, 0) + int(t["amount_cents"])
        return found

    def promised(self, certificate_id: str) -> Promised:
        """What the certificate's balance is promised to (commitments)."""
        listings = self.store.rows("listings", certificate_id=certificate_id, status="open")
        open_listings = {str(r["id"]): int(r["amount_cents"]) for r in listings}
        sold: dict[str, int] = {}
        for listing_id in open_listings:
            for offer in self.store.rows("offers", listing_id=listing_id):
                transfer_id = offer["transfer_id"]
                transfer = self.store.get("transfers", transfer_id) if transfer_id else None
                if transfer is not None and transfer["status"] == "approved":
                    sold[listing_id] = sold.get(listing_id, 0) + int(transfer["amount_cents"])
        return Promised(open_listings, sold, self.undecided_by_listing(certificate_id))


class SqlTransferRepository(SqlMixin, TransferRepository):
    def _certificates(self) -> CertificateRepository:
        return SqlCertificateRepository(self.store)

    def with_certificate(self, transfer_id: str) -> Sale:
        """One statement where the transfer and its certificate with its notices took two.
        Both rows are held by a unit of work like any other it reads."""
        found = self.joined(_WITH_CERTIFICATE, transfer_id)
        if found is None:
            return super().with_certificate(transfer_id)
        if not found:
            return None, None, []
        first = found[0]
        row = {c.name: first[_T + c.name] for c in transfers_t.c}
        cert = None if first["id"] is None else {c.name: first[c.name] for c in certs_t.c}
        self.db.remember_read(self.table, row)
        if cert is not None:
            self.db.remember_read("certificates", cert)
        return row, cert, active_notices_in(found)

    def promised(self, certificate_id: str) -> Promised:
        """One statement where the parts took two and one per open listing."""
        found = Promised({}, {}, {})
        for r in _PROMISED.rows(self.conn, {"certificate_id": certificate_id}):
            cents = int(r["amount_cents"])  # PostgreSQL sums bigints as numeric
            if r["kind"] == "open":
                found.open_listings[r["id"]] = cents
            elif r["kind"] == "sold":
                found.sold[r["id"]] = cents
            else:
                found.undecided[r["id"]] = cents
        return found

    def undecided_by_listing(self, certificate_id: str) -> dict[str | None, int]:
        rows = _UNDECIDED.rows(self.conn, {"certificate_id": certificate_id})
        return {r["listing_id"]: int(r["amount_cents"]) for r in rows}
