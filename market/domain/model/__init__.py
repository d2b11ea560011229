"""The aggregates the rules decide on, as frozen typed values: what a repository returns
and a decider takes. Each knows its ledger stream's name and guards its own states."""

from market.domain.model.certificate import Certificate, DerivedCertificate, Tranche
from market.domain.model.dm_pool import CapUse, QueuedCredit
from market.domain.model.listing import Listing, ListingStatus, Offer, OfferStatus
from market.domain.model.party import Party
from market.domain.model.tech_application import TechApplication
from market.domain.model.transfer import Transfer, TransferStatus

__all__ = [
    "CapUse",
    "Certificate",
    "DerivedCertificate",
    "Listing",
    "ListingStatus",
    "Offer",
    "OfferStatus",
    "Party",
    "QueuedCredit",
    "TechApplication",
    "Tranche",
    "Transfer",
    "TransferStatus",
]
