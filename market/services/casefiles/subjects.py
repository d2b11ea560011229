"""What an exhibit is filed against, and whose it is (PRODUCT.md 9.1): a party, a
registration, a TECH application, a transfer (its seller and its buyer) or a certificate
(its holder). Anyone else is told the subject does not exist."""

from __future__ import annotations

from dataclasses import dataclass

from market.domain.errors import InvalidRequestError
from market.services.kernel.actor import AUDITOR, AUTHORITY, Actor
from market.services.kernel.errors import not_found
from market.services.kernel.reads import Source, repositories

SUBJECT_TYPES = ("party", "registration", "tech_application", "transfer", "certificate")


@dataclass(frozen=True)
class Subject:
    subject_type: str
    subject_id: str
    party_ids: tuple[str, ...]  # the parties it belongs to, the first its owner

    @property
    def party_id(self) -> str | None:
        return self.party_ids[0] if self.party_ids else None


def row_parties(source: Source, subject_type: str, subject_id: str) -> tuple[str, ...] | None:
    repos = repositories(source)
    if subject_type == "party":
        return (subject_id,) if repos.parties.get(subject_id) else None
    if subject_type == "tech_application":
        app = repos.tech_applications.get(subject_id)
        return (str(app["party_id"]),) if app else None
    if subject_type == "transfer":
        t = repos.transfers.get(subject_id)
        return (str(t["seller_party_id"]), str(t["buyer_party_id"])) if t else None
    if subject_type == "certificate":
        c = repos.certificates.get(subject_id)
        return (str(c["holder_party_id"]),) if c else None
    return None


def resolve(source: Source, subject_type: str, subject_id: str, *, exists: bool = False) -> Subject:
    """The subject, or 404. A registration (the registration context's stream
    `registration-<id>`) belongs to no party yet: `exists` says whether its stream is on
    the ledger."""
    if subject_type not in SUBJECT_TYPES:
        raise InvalidRequestError(
            f"subject_type must be one of {', '.join(SUBJECT_TYPES)}.",
            {"subject_type": subject_type, "allowed": list(SUBJECT_TYPES)},
        )
    hidden = not_found("Subject", "subject_id", subject_id)
    if subject_type == "registration":
        if not exists:
            raise hidden
        return Subject(subject_type, subject_id, ())
    parties = row_parties(source, subject_type, subject_id)
    if parties is None:
        raise hidden
    return Subject(subject_type, subject_id, parties)


def may_see(actor: Actor, subject: Subject) -> bool:
    """The subject's parties, the Authority and auditors."""
    if actor.role in (AUTHORITY, AUDITOR):
        return True
    return actor.party_id is not None and actor.party_id in subject.party_ids
