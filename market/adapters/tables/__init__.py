"""Every table (SQLModel families; Alembic targets `SQLModel.metadata`), one module per area.

Importing this package imports every area module, so `metadata` holds every table
whichever module a caller names. Two kinds of table:
- written directly: the ledger (`ledger`), identity (`identity`), trust (`trust`),
  security (`security`) and what the ledger owes people and machines (`deals`);
- projections, folded from the events by `market.adapters.projections` and dropped and
  rebuilt at any time (`PROJECTION_TABLES`, in the order they are filled): parties,
  certificates, trading, TECH, returns and market information.
"""

from __future__ import annotations

from market.adapters.tables.base import SQLModel, metadata
from market.adapters.tables.casefiles import (
    BoardAction,
    Document,
    Fee,
    FeePayment,
    TaxClearance,
    TechCaseFile,
)
from market.adapters.tables.certificates import CapUsage, Certificate, QueueEntry
from market.adapters.tables.deals import (
    ConsumerCursor,
    EmailMessage,
    FilingReference,
    Notification,
    RequestTrace,
    TickRun,
    Webhook,
    WebhookAttempt,
    WebhookDelivery,
    WorkerLease,
)
from market.adapters.tables.identity import (
    ApiToken,
    AuthEpoch,
    IdempotencyKey,
    PasswordReset,
    User,
)
from market.adapters.tables.ledger import EventRow, LedgerHead
from market.adapters.tables.market_info import CertificateNotice, TransferFunding
from market.adapters.tables.parties import OwnersAgreement, Ownership, Party, PartyEpoch
from market.adapters.tables.records import PartyFacts, RecordsImport
from market.adapters.tables.registration import (
    AccountEvent,
    AccountInvite,
    PartyMembership,
    Registration,
    RegistrationLink,
)
from market.adapters.tables.returns import CreditApplication, Recapture
from market.adapters.tables.scale_indexes import SCALE_INDEXES
from market.adapters.tables.security import (
    LoginFailure,
    MfaCredential,
    MfaRecoveryCode,
    WebSession,
)
from market.adapters.tables.tech import TechAllocation, TechApplication
from market.adapters.tables.trading import Listing, Offer, Transfer
from market.adapters.tables.trust import CheckpointRow, CosignatureRow, MerkleNode

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
    "certificate_notices",
    "transfer_fundings",
    "account_events",
    "board_actions",
    "documents",
    "fees",
    "fee_payments",  # after the fees they pay (a foreign key)
    "party_facts",
    "records_imports",
    "registrations",
    "tax_clearances",
    "tech_case_files",
]

__all__ = [
    "PROJECTION_TABLES",
    "SCALE_INDEXES",
    "AccountEvent",
    "AccountInvite",
    "ApiToken",
    "AuthEpoch",
    "BoardAction",
    "CapUsage",
    "Certificate",
    "CertificateNotice",
    "CheckpointRow",
    "ConsumerCursor",
    "CosignatureRow",
    "CreditApplication",
    "Document",
    "EmailMessage",
    "EventRow",
    "Fee",
    "FeePayment",
    "FilingReference",
    "IdempotencyKey",
    "LedgerHead",
    "Listing",
    "LoginFailure",
    "MerkleNode",
    "MfaCredential",
    "MfaRecoveryCode",
    "Notification",
    "Offer",
    "OwnersAgreement",
    "Ownership",
    "Party",
    "PartyEpoch",
    "PartyFacts",
    "PartyMembership",
    "PasswordReset",
    "QueueEntry",
    "Recapture",
    "RecordsImport",
    "Registration",
    "RegistrationLink",
    "RequestTrace",
    "SQLModel",
    "TaxClearance",
    "TechAllocation",
    "TechApplication",
    "TechCaseFile",
    "TickRun",
    "Transfer",
    "TransferFunding",
    "User",
    "WebSession",
    "Webhook",
    "WebhookAttempt",
    "WebhookDelivery",
    "WorkerLease",
    "metadata",
]
