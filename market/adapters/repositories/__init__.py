"""A repository per aggregate (cosmicpython `adapters/repository.py`), over the unit of
work's projection store: `Repositories.over(store)` gives the SQL versions on a
`DbStore` and the in-memory ones on a `MemoryStore`."""

from __future__ import annotations

from market.adapters.projections.store import DbStore
from market.adapters.repositories.base import HoldingStore, Repository
from market.adapters.repositories.casefiles import (
    BoardActionRepository,
    DocumentRepository,
    FeeRepository,
    TaxClearanceRepository,
    TechCaseFileRepository,
)
from market.adapters.repositories.certificates import (
    CapRepository,
    CertificateRepository,
    QueueRepository,
    SqlCapRepository,
    SqlCertificateRepository,
    SqlQueueRepository,
)
from market.adapters.repositories.parties import (
    FundingRepository,
    NoticeRepository,
    PartyRepository,
    SqlPartyRepository,
)
from market.adapters.repositories.returns import (
    CreditApplicationRepository,
    RecaptureRepository,
    SqlCreditApplicationRepository,
)
from market.adapters.repositories.tech import (
    SqlTechApplicationRepository,
    TechAllocationRepository,
    TechApplicationRepository,
)
from market.adapters.repositories.trading import (
    ListingRepository,
    OfferRepository,
    SqlListingRepository,
    SqlTransferRepository,
    TransferRepository,
)


class Repositories:
    """One repository per aggregate, all over one store."""

    certificates: CertificateRepository
    caps: CapRepository
    queue: QueueRepository
    listings: ListingRepository
    offers: OfferRepository
    transfers: TransferRepository
    parties: PartyRepository
    notices: NoticeRepository
    fundings: FundingRepository
    tech_applications: TechApplicationRepository
    tech_allocations: TechAllocationRepository
    credit_applications: CreditApplicationRepository
    recaptures: RecaptureRepository
    documents: DocumentRepository
    fees: FeeRepository
    tax_clearances: TaxClearanceRepository
    tech_case_files: TechCaseFileRepository
    board_actions: BoardActionRepository

    def use_store(self, store: HoldingStore) -> None:
        sql = isinstance(store, DbStore)
        self.certificates = (SqlCertificateRepository if sql else CertificateRepository)(store)
        self.caps = (SqlCapRepository if sql else CapRepository)(store)
        self.queue = (SqlQueueRepository if sql else QueueRepository)(store)
        self.listings = (SqlListingRepository if sql else ListingRepository)(store)
        self.offers = OfferRepository(store)
        self.transfers = (SqlTransferRepository if sql else TransferRepository)(store)
        self.parties = (SqlPartyRepository if sql else PartyRepository)(store)
        self.notices = NoticeRepository(store)
        self.fundings = FundingRepository(store)
        self.tech_applications = (
            SqlTechApplicationRepository if sql else TechApplicationRepository
        )(store)
        self.tech_allocations = TechAllocationRepository(store)
        self.credit_applications = (
            SqlCreditApplicationRepository if sql else CreditApplicationRepository
        )(store)
        self.recaptures = RecaptureRepository(store)
        self.documents = DocumentRepository(store)
        self.fees = FeeRepository(store)
        self.tax_clearances = TaxClearanceRepository(store)
        self.tech_case_files = TechCaseFileRepository(store)
        self.board_actions = BoardActionRepository(store)

    @classmethod
    def over(cls, store: HoldingStore) -> Repositories:
        repos = cls()
        repos.use_store(store)
        return repos


__all__ = ["HoldingStore", "Repositories", "Repository"]
