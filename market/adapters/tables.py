"""Every table, in one module (SQLModel families; Alembic targets `SQLModel.metadata`).

Two kinds of table live here:
- the ledger (`events`, `ledger_head`) and identity (`users`, `api_tokens`,
  `idempotency_keys`), which are written directly;
- projections, which are folded from the events by `market.adapters.projections`
  and can be dropped and rebuilt at any time (`PROJECTION_TABLES`).
"""

from __future__ import annotations

from typing import Any

from sqlalchemy import (
    JSON,
    BigInteger,
    CheckConstraint,
    Column,
    Index,
    Integer,
    LargeBinary,
    MetaData,
    SmallInteger,
    String,
    Text,
    UniqueConstraint,
)
from sqlmodel import Field, SQLModel

SQLModel.metadata.naming_convention = {
    "ix": "ix_%(column_0_label)s",
    "uq": "uq_%(table_name)s_%(column_0_name)s",
    "ck": "ck_%(table_name)s_%(constraint_name)s",
    "fk": "fk_%(table_name)s_%(column_0_name)s_%(referred_table_name)s",
    "pk": "pk_%(table_name)s",
}
metadata: MetaData = SQLModel.metadata


class EventRow(SQLModel, table=True):
    __tablename__ = "events"
    __table_args__ = (UniqueConstraint("stream", "version", name="stream_version"),)

    seq: int = Field(sa_column=Column(BigInteger, primary_key=True, autoincrement=False))
    stream: str = Field(max_length=120, index=True)
    version: int
    type: str = Field(max_length=64)
    payload: dict[str, Any] = Field(sa_column=Column(JSON, nullable=False))
    actor: str = Field(max_length=120)
    recorded_at: str = Field(max_length=32)
    prev_hash: str = Field(max_length=64)
    hash: str = Field(sa_column=Column(String(64), nullable=False, unique=True))


class LedgerHead(SQLModel, table=True):
    """One row: the last seq and hash. Writers lock it, which orders commits by seq."""

    __tablename__ = "ledger_head"
    __table_args__ = (CheckConstraint("id = 1", name="single_row"),)

    id: int = Field(primary_key=True)
    seq: int = Field(sa_column=Column(BigInteger, nullable=False))
    hash: str = Field(max_length=64)


class User(SQLModel, table=True):
    __tablename__ = "users"
    __table_args__ = (
        CheckConstraint("role in ('authority','participant','auditor')", name="role"),
    )

    id: str = Field(primary_key=True, max_length=40)
    email: str = Field(max_length=254, unique=True)
    password_hash: str = Field(max_length=255)
    role: str = Field(max_length=20)
    party_id: str | None = Field(default=None, max_length=40)
    created_at: str = Field(max_length=32)
    active: bool = True


class ApiToken(SQLModel, table=True):
    __tablename__ = "api_tokens"

    id: str = Field(primary_key=True, max_length=40)
    user_id: str = Field(foreign_key="users.id", max_length=40, index=True)
    token_hash: str = Field(max_length=64, unique=True)
    created_at: str = Field(max_length=32)
    expires_at: str = Field(max_length=32)
    revoked_at: str | None = Field(default=None, max_length=32)


class IdempotencyKey(SQLModel, table=True):
    __tablename__ = "idempotency_keys"

    scope: str = Field(primary_key=True, max_length=40)
    key: str = Field(primary_key=True, max_length=200)
    request_hash: str = Field(max_length=64)
    status_code: int
    response_body: dict[str, Any] = Field(sa_column=Column(JSON, nullable=False))
    created_at: str = Field(max_length=32)


# ---- projections --------------------------------------------------------------------


class Party(SQLModel, table=True):
    __tablename__ = "parties"

    id: str = Field(primary_key=True, max_length=40)
    name: str = Field(max_length=200)
    tax_id: str = Field(max_length=40, unique=True)
    entity_type: str = Field(max_length=30)
    tax_types: list[str] = Field(sa_column=Column(JSON, nullable=False))
    in_innovation_zone: bool = False
    us_employees: int | None = None
    nj_full_time_employees: int | None = None
    formed_on: str | None = Field(default=None, max_length=10)
    operating_income_cents_by_year: dict[str, int] = Field(sa_column=Column(JSON, nullable=False))
    created_seq: int = Field(sa_column=Column(BigInteger, nullable=False))
    # PT-7 / AMB-53: the Director's exception letting this individual buy a GIT credit
    # directly (its recorded reason; None: none on record).
    director_exception: str | None = Field(default=None, max_length=500)


class Ownership(SQLModel, table=True):
    __tablename__ = "ownerships"
    __table_args__ = (
        CheckConstraint("voting_bps between 0 and 10000", name="voting_bps"),
        CheckConstraint("value_bps between 0 and 10000", name="value_bps"),
        CheckConstraint("owner_party_id <> owned_party_id", name="not_self"),
    )

    id: str = Field(primary_key=True, max_length=90)
    owned_party_id: str = Field(foreign_key="parties.id", max_length=40, index=True)
    owner_party_id: str = Field(foreign_key="parties.id", max_length=40, index=True)
    voting_bps: int
    value_bps: int
    income_share_bps: int | None = None


class OwnersAgreement(SQLModel, table=True):
    """The owners' agreement in force for a partnership (UTH-14, AMB-17): the latest one the
    Authority recorded as filed with the Director. Earlier filings stay in the ledger."""

    __tablename__ = "owners_agreements"

    party_id: str = Field(primary_key=True, foreign_key="parties.id", max_length=40)
    agreement_id: str = Field(max_length=40)
    shares: list[Any] = Field(sa_column=Column(JSON, nullable=False))
    filed_on: str = Field(max_length=10)
    reference: str | None = Field(default=None, max_length=200)
    recorded_seq: int = Field(sa_column=Column(BigInteger, nullable=False))


class Certificate(SQLModel, table=True):
    """A transfer certificate: the seller's original (`is_original`) or one derived from it
    by an approved transfer, a TECH allocation or a pass-through allocation.

    Conservation is a database constraint: every cent of face is in exactly one place.
    """

    __tablename__ = "certificates"
    __table_args__ = (
        CheckConstraint(
            "face_cents = balance_cents + queued_cents + transferred_cents + applied_cents"
            " + expired_cents + recaptured_cents",
            name="conservation",
        ),
        CheckConstraint(
            "balance_cents >= 0 and queued_cents >= 0 and transferred_cents >= 0"
            " and applied_cents >= 0 and expired_cents >= 0 and recaptured_cents >= 0",
            name="non_negative",
        ),
        CheckConstraint("face_cents > 0", name="positive_face"),
    )

    id: str = Field(primary_key=True, max_length=40)
    number: str = Field(max_length=40, unique=True)
    # Indexed with fiscal_year and is_original (ix_certificates_numbering, migration 0012).
    program: str = Field(max_length=10)
    holder_party_id: str = Field(foreign_key="parties.id", max_length=40, index=True)
    original_holder_party_id: str = Field(foreign_key="parties.id", max_length=40)
    parent_id: str | None = Field(
        default=None, foreign_key="certificates.id", max_length=40, index=True
    )
    # Certificates derived from this one (transfers, pass-through): numbers the next one.
    children_count: int = Field(
        default=0, sa_column=Column(Integer, nullable=False, default=0, server_default="0")
    )
    root_id: str = Field(max_length=40, index=True)
    origin: str = Field(max_length=20)  # issued | transfer | allocation | pass_through
    is_original: bool
    face_cents: int = Field(sa_column=Column(BigInteger, nullable=False))
    allowed_cents: int = Field(sa_column=Column(BigInteger, nullable=False))
    balance_cents: int = Field(sa_column=Column(BigInteger, nullable=False))
    queued_cents: int = Field(sa_column=Column(BigInteger, nullable=False, default=0))
    transferred_cents: int = Field(sa_column=Column(BigInteger, nullable=False, default=0))
    applied_cents: int = Field(sa_column=Column(BigInteger, nullable=False, default=0))
    expired_cents: int = Field(sa_column=Column(BigInteger, nullable=False, default=0))
    recaptured_cents: int = Field(sa_column=Column(BigInteger, nullable=False, default=0))
    status: str = Field(max_length=20)
    fiscal_year: int
    tax_types: list[str] = Field(sa_column=Column(JSON, nullable=False))
    tax_periods: list[Any] = Field(sa_column=Column(JSON, nullable=False))
    credit_year: int | None = None
    carryover_last_year: int | None = None
    waiver_statement: str = Field(max_length=2000)
    attributes: dict[str, Any] = Field(sa_column=Column(JSON, nullable=False))
    ruleset: str = Field(max_length=20)
    issued_seq: int = Field(sa_column=Column(BigInteger, nullable=False))


class CapUsage(SQLModel, table=True):
    """Use of one cap or pool in one fiscal year (fiscal_year 0 = cumulative)."""

    __tablename__ = "cap_usage"
    __table_args__ = (
        CheckConstraint("used_cents >= 0 and queued_cents >= 0", name="non_negative"),
        CheckConstraint("used_cents <= cap_cents", name="within_cap"),
    )

    id: str = Field(primary_key=True, max_length=40)
    bucket: str = Field(max_length=30)
    fiscal_year: int
    cap_cents: int = Field(sa_column=Column(BigInteger, nullable=False))
    used_cents: int = Field(sa_column=Column(BigInteger, nullable=False))
    queued_cents: int = Field(sa_column=Column(BigInteger, nullable=False, default=0))


class QueueEntry(SQLModel, table=True):
    """Digital media FIFO queue (DMQ-3): what is deferred to a later fiscal year."""

    __tablename__ = "dm_queue"
    __table_args__ = (CheckConstraint("remaining_cents >= 0", name="non_negative"),)

    id: str = Field(primary_key=True, max_length=40)  # the certificate id
    pool: str = Field(max_length=30, index=True)
    origin_fiscal_year: int
    remaining_cents: int = Field(sa_column=Column(BigInteger, nullable=False))
    received_at: str = Field(max_length=32)
    position: int = Field(sa_column=Column(BigInteger, nullable=False))


class Listing(SQLModel, table=True):
    __tablename__ = "listings"
    __table_args__ = (CheckConstraint("amount_cents > 0 and ask_cents >= 0", name="amounts"),)

    id: str = Field(primary_key=True, max_length=40)
    certificate_id: str = Field(foreign_key="certificates.id", max_length=40, index=True)
    seller_party_id: str = Field(foreign_key="parties.id", max_length=40)
    amount_cents: int = Field(sa_column=Column(BigInteger, nullable=False))
    ask_cents: int = Field(sa_column=Column(BigInteger, nullable=False))
    status: str = Field(max_length=20)  # open | withdrawn | sold
    created_seq: int = Field(sa_column=Column(BigInteger, nullable=False))


class Offer(SQLModel, table=True):
    __tablename__ = "offers"
    __table_args__ = (CheckConstraint("amount_cents > 0 and price_cents >= 0", name="amounts"),)

    id: str = Field(primary_key=True, max_length=40)
    listing_id: str = Field(foreign_key="listings.id", max_length=40, index=True)
    certificate_id: str = Field(foreign_key="certificates.id", max_length=40)
    seller_party_id: str = Field(foreign_key="parties.id", max_length=40)
    buyer_party_id: str = Field(foreign_key="parties.id", max_length=40, index=True)
    amount_cents: int = Field(sa_column=Column(BigInteger, nullable=False))
    price_cents: int = Field(sa_column=Column(BigInteger, nullable=False))
    status: str = Field(max_length=20)  # open | accepted | declined
    transfer_id: str | None = Field(default=None, max_length=40)
    created_seq: int = Field(sa_column=Column(BigInteger, nullable=False))


class Transfer(SQLModel, table=True):
    __tablename__ = "transfers"
    __table_args__ = (
        CheckConstraint("amount_cents > 0 and consideration_cents >= 0", name="amounts"),
    )

    id: str = Field(primary_key=True, max_length=40)
    certificate_id: str = Field(foreign_key="certificates.id", max_length=40, index=True)
    program: str = Field(max_length=10)
    seller_party_id: str = Field(foreign_key="parties.id", max_length=40, index=True)
    buyer_party_id: str = Field(foreign_key="parties.id", max_length=40, index=True)
    amount_cents: int = Field(sa_column=Column(BigInteger, nullable=False))
    consideration_cents: int = Field(sa_column=Column(BigInteger, nullable=False))
    status: str = Field(max_length=20)  # awaiting_buyer | pending_approval | approved | rejected
    buyer_certificate_id: str | None = Field(default=None, max_length=40)
    offer_id: str | None = Field(default=None, max_length=40)
    agreement_ref: str | None = Field(default=None, max_length=200)
    # BR-14 / TB-25: the seller's attested uses of the proceeds (None before 0004).
    use_of_proceeds: list[Any] | None = Field(
        default=None, sa_column=Column(JSON(none_as_null=True), nullable=True)
    )
    reasons: list[Any] = Field(sa_column=Column(JSON, nullable=False))
    checks: list[Any] = Field(sa_column=Column(JSON, nullable=False))
    exchange_date: str | None = Field(default=None, max_length=10)
    hq_window_end: str | None = Field(default=None, max_length=10)
    ruleset: str = Field(max_length=20)
    created_seq: int = Field(sa_column=Column(BigInteger, nullable=False))
    decided_seq: int | None = Field(default=None, sa_column=Column(BigInteger, nullable=True))
    # PRODUCT.md 8.2: the buyer's confirmation of a negotiated transfer (None: not needed or
    # not yet given).
    confirmed_seq: int | None = Field(default=None, sa_column=Column(BigInteger, nullable=True))


class TechApplication(SQLModel, table=True):
    __tablename__ = "tech_applications"

    id: str = Field(primary_key=True, max_length=40)
    party_id: str = Field(foreign_key="parties.id", max_length=40, index=True)
    fiscal_year: int = Field(index=True)
    received_on: str = Field(max_length=10)
    # TB-6 / CMN-1: the receipt instant (ISO, New York offset); an Authority-recorded paper
    # filing's reason (None for a receipt the service stamped).
    received_at: str | None = Field(default=None, max_length=40)
    receipt_reason: str | None = Field(default=None, max_length=500)
    received_seq: int = Field(sa_column=Column(BigInteger, nullable=False))
    nol_cents: int = Field(sa_column=Column(BigInteger, nullable=False))
    allocation_factor: str = Field(max_length=40)
    seller_tax_regime: str = Field(max_length=3)
    rnd_credit_cents: int = Field(sa_column=Column(BigInteger, nullable=False))
    in_innovation_zone: bool
    benefit_cents: int = Field(sa_column=Column(BigInteger, nullable=False))
    requested_cents: int = Field(sa_column=Column(BigInteger, nullable=False))
    eligible: bool
    reasons: list[Any] = Field(sa_column=Column(JSON, nullable=False))
    facts: dict[str, Any] = Field(sa_column=Column(JSON, nullable=False))
    allocated_cents: int | None = Field(default=None, sa_column=Column(BigInteger))
    certificate_id: str | None = Field(default=None, max_length=40)
    ruleset: str = Field(max_length=20)


class TechAllocation(SQLModel, table=True):
    """One committed allocation per fiscal year (TB-14); the primary key makes it once-only."""

    __tablename__ = "tech_allocations"

    id: str = Field(primary_key=True, max_length=10)  # the fiscal year
    fiscal_year: int = Field(unique=True)
    triggered: bool
    total_cents: int = Field(sa_column=Column(BigInteger, nullable=False))
    ruleset: str = Field(max_length=20)
    committed_seq: int = Field(sa_column=Column(BigInteger, nullable=False))


class CreditApplication(SQLModel, table=True):
    __tablename__ = "credit_applications"
    __table_args__ = (
        CheckConstraint("applied_cents >= 0 and carried_forward_cents >= 0", name="amounts"),
    )

    id: str = Field(primary_key=True, max_length=40)
    certificate_id: str = Field(foreign_key="certificates.id", max_length=40, index=True)
    party_id: str = Field(foreign_key="parties.id", max_length=40, index=True)
    tax_type: str = Field(max_length=3)
    tax_year: int
    liability_cents: int = Field(sa_column=Column(BigInteger, nullable=False))
    other_credits_cents: int = Field(sa_column=Column(BigInteger, nullable=False))
    statutory_minimum_cents: int = Field(sa_column=Column(BigInteger, nullable=False))
    requested_cents: int = Field(sa_column=Column(BigInteger, nullable=False))
    applied_cents: int = Field(sa_column=Column(BigInteger, nullable=False))
    carried_forward_cents: int = Field(sa_column=Column(BigInteger, nullable=False))
    limited_by: str = Field(max_length=40)
    limits: dict[str, Any] = Field(sa_column=Column(JSON, nullable=False))
    ruleset: str = Field(max_length=20)


class Recapture(SQLModel, table=True):
    __tablename__ = "recaptures"
    __table_args__ = (CheckConstraint("amount_cents > 0", name="positive"),)

    id: str = Field(primary_key=True, max_length=40)
    party_id: str = Field(foreign_key="parties.id", max_length=40, index=True)
    certificate_id: str | None = Field(default=None, max_length=40)
    amount_cents: int = Field(sa_column=Column(BigInteger, nullable=False))
    fund: str = Field(max_length=30)
    reason: str = Field(max_length=500)
    assessed_seq: int = Field(sa_column=Column(BigInteger, nullable=False))


PROJECTION_TABLES: list[str] = [
    "parties",
    "ownerships",
    "owners_agreements",
    "certificates",
    "cap_usage",
    "dm_queue",
    "listings",
    "offers",
    "transfers",
    "tech_applications",
    "tech_allocations",
    "credit_applications",
    "recaptures",
]


# ---- reads at scale (migration 0012) ---------------------------------------------------
# Each index serves a read that must not grow with the ledger (README, "Reads at scale"):
# the keyset pages of the lists and desks, the certificate page's children and the
# transfers naming a buyer certificate, and the count behind a new certificate's number.
_certs = Certificate.__table__  # type: ignore[attr-defined]
_transfers = Transfer.__table__  # type: ignore[attr-defined]
_listings = Listing.__table__  # type: ignore[attr-defined]
_offers = Offer.__table__  # type: ignore[attr-defined]
_credit_apps = CreditApplication.__table__  # type: ignore[attr-defined]
SCALE_INDEXES = (
    Index(
        "ix_certificates_numbering", _certs.c.program, _certs.c.fiscal_year, _certs.c.is_original
    ),
    Index("ix_certificates_holder_seq", _certs.c.holder_party_id, _certs.c.issued_seq),
    Index("ix_certificates_parent_seq", _certs.c.parent_id, _certs.c.issued_seq),
    Index("ix_transfers_buyer_certificate_id", _transfers.c.buyer_certificate_id),
    Index("ix_transfers_created_seq", _transfers.c.created_seq),
    Index("ix_transfers_certificate_seq", _transfers.c.certificate_id, _transfers.c.created_seq),
    Index(
        "ix_transfers_certificate_decided",
        _transfers.c.certificate_id,
        _transfers.c.decided_seq,
    ),
    Index("ix_transfers_status_seq", _transfers.c.status, _transfers.c.created_seq),
    Index("ix_transfers_status_decided", _transfers.c.status, _transfers.c.decided_seq),
    # consideration_cents last: the seller's paid total is a SUM read from the index alone.
    Index(
        "ix_transfers_seller_status_seq",
        _transfers.c.seller_party_id,
        _transfers.c.status,
        _transfers.c.created_seq,
        _transfers.c.consideration_cents,
    ),
    Index("ix_transfers_buyer_seq", _transfers.c.buyer_party_id, _transfers.c.created_seq),
    Index("ix_listings_status_seq", _listings.c.status, _listings.c.created_seq),
    Index(
        "ix_listings_seller_status_seq",
        _listings.c.seller_party_id,
        _listings.c.status,
        _listings.c.created_seq,
    ),
    Index("ix_offers_seller_seq", _offers.c.seller_party_id, _offers.c.created_seq),
    Index("ix_offers_buyer_seq", _offers.c.buyer_party_id, _offers.c.created_seq),
    Index(
        "ix_credit_applications_party_year",
        _credit_apps.c.party_id,
        _credit_apps.c.tax_year,
        _credit_apps.c.id,
    ),
)
# --- Trust: the Merkle tree over the events and the signed checkpoints (PRODUCT.md 8.1) ---
# Neither is a projection: replay never touches them, and both are append-only (triggers
# in migration 0007); `flask verify` recomputes them from the events and the checkpoint
# files outside the database.


class MerkleNode(SQLModel, table=True):
    """Every complete subtree of the tree over the events: level 0 is the leaves
    (leaf `idx` = event `seq = idx + 1`), level L index k covers leaves [k*2^L, (k+1)*2^L)."""

    __tablename__ = "merkle_nodes"
    __table_args__ = (CheckConstraint("level >= 0 AND level < 64 AND idx >= 0", name="slot"),)

    level: int = Field(sa_column=Column(SmallInteger, primary_key=True, autoincrement=False))
    idx: int = Field(sa_column=Column(BigInteger, primary_key=True, autoincrement=False))
    hash: bytes = Field(sa_column=Column(LargeBinary(32), nullable=False))


class CheckpointRow(SQLModel, table=True):
    """A signed checkpoint (C2SP tlog-checkpoint note signed with Ed25519)."""

    __tablename__ = "checkpoints"
    __table_args__ = (CheckConstraint("tree_size > 0", name="tree_size"),)

    tree_size: int = Field(sa_column=Column(BigInteger, primary_key=True, autoincrement=False))
    root_hash: str = Field(max_length=64)
    timestamp: str = Field(max_length=32)
    key_id: str = Field(max_length=16)
    signature: str = Field(max_length=100)
    note: str = Field(sa_column=Column(Text, nullable=False))


# ---- security (issue 15): failed sign-ins, page sessions, TOTP --------------------------
from market.adapters.security_tables import (  # noqa: E402,F401
    LoginFailure,
    MfaCredential,
    MfaRecoveryCode,
    WebSession,
)

# ---- deals: notifications, e-mail, webhooks, the worker's clock (issue 18) -----------
# Written directly (not projections): what the ledger owes people and machines. The
# events table is the outbox; each consumer keeps a cursor (`consumer_cursors`) advanced
# in the same transaction as the rows it derives, so nothing committed is forgotten and
# nothing is derived twice (see market/services/fanout.py).


class ConsumerCursor(SQLModel, table=True):
    __tablename__ = "consumer_cursors"

    name: str = Field(primary_key=True, max_length=40)
    seq: int = Field(sa_column=Column(BigInteger, nullable=False))


class Notification(SQLModel, table=True):
    __tablename__ = "notifications"
    __table_args__ = (UniqueConstraint("user_id", "seq", "type", name="notification_user_event"),)

    id: str = Field(primary_key=True, max_length=40)
    user_id: str = Field(foreign_key="users.id", max_length=40, index=True)
    seq: int = Field(sa_column=Column(BigInteger, nullable=False))
    type: str = Field(max_length=64)
    subject: str = Field(max_length=300)
    body: str = Field(max_length=4000)
    link: str | None = Field(default=None, max_length=300)
    created_at: str = Field(max_length=32)
    read_at: str | None = Field(default=None, max_length=32)


class EmailMessage(SQLModel, table=True):
    __tablename__ = "email_outbox"
    __table_args__ = (
        UniqueConstraint("user_id", "seq", "type", name="email_user_event"),
        CheckConstraint("status in ('pending','sent')", name="status"),
    )

    id: str = Field(primary_key=True, max_length=40)
    user_id: str = Field(foreign_key="users.id", max_length=40, index=True)
    seq: int = Field(sa_column=Column(BigInteger, nullable=False))
    type: str = Field(max_length=64)
    to_addr: str = Field(max_length=254)
    subject: str = Field(max_length=300)
    text_body: str = Field(max_length=8000)
    html_body: str = Field(max_length=16000)
    status: str = Field(max_length=10, index=True)
    attempts: int = 0
    next_attempt_at: str = Field(max_length=32)
    last_error: str | None = Field(default=None, max_length=500)
    created_at: str = Field(max_length=32)
    sent_at: str | None = Field(default=None, max_length=32)


class Webhook(SQLModel, table=True):
    __tablename__ = "webhooks"

    id: str = Field(primary_key=True, max_length=40)
    user_id: str = Field(foreign_key="users.id", max_length=40, index=True)
    party_id: str | None = Field(default=None, max_length=40)  # None: the Authority's (all)
    url: str = Field(max_length=2000)
    event_types: list[str] = Field(sa_column=Column(JSON, nullable=False))
    secret: str = Field(max_length=80)  # whsec_..., kept plain: it must sign (README)
    created_at: str = Field(max_length=32)
    created_seq: int = Field(sa_column=Column(BigInteger, nullable=False))
    active: bool = True


class WebhookDelivery(SQLModel, table=True):
    """One message (one webhook-id) per webhook and event; retried until a 2xx."""

    __tablename__ = "webhook_deliveries"
    __table_args__ = (
        UniqueConstraint("webhook_id", "seq", name="delivery_webhook_event"),
        CheckConstraint("status in ('pending','delivered')", name="status"),
    )

    id: str = Field(primary_key=True, max_length=40)  # the webhook-id header
    webhook_id: str = Field(foreign_key="webhooks.id", max_length=40, index=True)
    seq: int = Field(sa_column=Column(BigInteger, nullable=False))
    type: str = Field(max_length=64)
    status: str = Field(max_length=10, index=True)
    attempts: int = 0
    next_attempt_at: str = Field(max_length=32)
    created_at: str = Field(max_length=32)
    delivered_at: str | None = Field(default=None, max_length=32)


class WebhookAttempt(SQLModel, table=True):
    __tablename__ = "webhook_attempts"

    id: str = Field(primary_key=True, max_length=40)
    delivery_id: str = Field(foreign_key="webhook_deliveries.id", max_length=40, index=True)
    webhook_id: str = Field(max_length=40, index=True)
    seq: int = Field(sa_column=Column(BigInteger, nullable=False))
    attempted_at: str = Field(max_length=32)
    status_code: int | None = None
    error: str | None = Field(default=None, max_length=500)
    duration_ms: int


class FilingReference(SQLModel, table=True):
    """The unguessable public reference of a filing (a transfer, a TECH application)."""

    __tablename__ = "filing_references"
    __table_args__ = (UniqueConstraint("kind", "entity_id", name="filing_entity"),)

    reference: str = Field(primary_key=True, max_length=64)
    kind: str = Field(max_length=20)
    entity_id: str = Field(max_length=40)


class TickRun(SQLModel, table=True):
    """A tick step done for a business date: a second run that day does nothing."""

    __tablename__ = "tick_runs"

    step: str = Field(primary_key=True, max_length=40)
    as_of: str = Field(primary_key=True, max_length=10)
    done_at: str = Field(max_length=32)
    result: dict[str, Any] = Field(sa_column=Column(JSON, nullable=False))


class WorkerLease(SQLModel, table=True):
    """A named lease (`tick`): two ticks never overlap, on any number of machines."""

    __tablename__ = "worker_leases"

    name: str = Field(primary_key=True, max_length=40)
    holder: str = Field(max_length=80)
    expires_at: str = Field(max_length=32)


class PasswordReset(SQLModel, table=True):
    """A reset link's token, kept as its SHA-256 only; single use, 30 minutes."""

    __tablename__ = "password_resets"

    token_hash: str = Field(primary_key=True, max_length=64)
    user_id: str = Field(foreign_key="users.id", max_length=40, index=True)
    created_at: str = Field(max_length=32)
    expires_at: str = Field(max_length=32)
    used_at: str | None = Field(default=None, max_length=32)


# ---- market information and risk (PRODUCT.md 8.3): trading halts, closing record ----------


class CertificateNotice(SQLModel, table=True):
    """A recapture or invalidity notice: while active it halts trading in the certificate
    and every certificate derived from it (`market.domain.rules.halts`)."""

    __tablename__ = "certificate_notices"
    __table_args__ = (
        CheckConstraint("kind in ('recapture','invalidity')", name="kind"),
        CheckConstraint("status in ('active','lifted')", name="status"),
        CheckConstraint(
            "(status = 'active' and lifted_seq is null)"
            " or (status = 'lifted' and lifted_seq is not null)",
            name="lifted_has_seq",
        ),
    )

    id: str = Field(primary_key=True, max_length=40)
    certificate_id: str = Field(foreign_key="certificates.id", max_length=40, index=True)
    root_id: str = Field(max_length=40, index=True)
    kind: str = Field(max_length=20)
    reason: str = Field(max_length=500)
    status: str = Field(max_length=10)
    halted_certificate_ids: list[Any] = Field(sa_column=Column(JSON, nullable=False))
    suspended_listing_ids: list[Any] = Field(sa_column=Column(JSON, nullable=False))
    resumed_listing_ids: list[Any] = Field(sa_column=Column(JSON, nullable=False))
    lift_reason: str | None = Field(default=None, max_length=500)
    issued_seq: int = Field(sa_column=Column(BigInteger, nullable=False))
    lifted_seq: int | None = Field(default=None, sa_column=Column(BigInteger, nullable=True))


class TransferFunding(SQLModel, table=True):
    """The closing record of a transfer: the buyer's payment, the seller's receipt and,
    for a rejected transfer, the refund owed."""

    __tablename__ = "transfer_fundings"
    __table_args__ = (
        CheckConstraint("amount_cents > 0", name="positive"),
        CheckConstraint(
            "refund_owed_cents >= 0 and refund_owed_cents <= amount_cents", name="refund"
        ),
        CheckConstraint(
            "(confirmed_on is null) = (confirmed_seq is null)", name="confirmed_has_seq"
        ),
    )

    transfer_id: str = Field(primary_key=True, foreign_key="transfers.id", max_length=40)
    buyer_party_id: str = Field(foreign_key="parties.id", max_length=40)
    seller_party_id: str = Field(foreign_key="parties.id", max_length=40)
    reference: str = Field(max_length=200)
    amount_cents: int = Field(sa_column=Column(BigInteger, nullable=False))
    paid_on: str = Field(max_length=10)
    recorded_seq: int = Field(sa_column=Column(BigInteger, nullable=False))
    confirmed_on: str | None = Field(default=None, max_length=10)
    confirmed_seq: int | None = Field(default=None, sa_column=Column(BigInteger, nullable=True))
    refund_owed_cents: int = Field(
        default=0, sa_column=Column(BigInteger, nullable=False, default=0, server_default="0")
    )


PROJECTION_TABLES += ["certificate_notices", "transfer_fundings"]
