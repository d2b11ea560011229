"""Exhibits (PRODUCT.md 9.1, ADM-10): filed against a subject, the type read from the bytes,
stored by content before the ledger records them, versioned, never deleted, and shown only
to the subject's parties, the Authority and auditors (anyone else: the same 404 as for an
unknown id)."""

from __future__ import annotations

import re
from dataclasses import dataclass

from market.adapters.document_store import DocumentStore
from market.domain.casefile_errors import (
    DocumentEmptyError,
    DocumentTooLargeError,
)
from market.domain.errors import InvalidRequestError
from market.domain.events.casefiles import DocumentFiled
from market.domain.model.case_file import Document
from market.services.casefiles import application_lock, media_types, subjects
from market.services.kernel.actor import AUDITOR, Actor
from market.services.kernel.clock import now_utc
from market.services.kernel.errors import not_found
from market.services.kernel.numbering import new_id
from market.services.kernel.reads import Source, repositories
from market.services.kernel.uow import AbstractUnitOfWork

DEFAULT_MAX_BYTES = 20 * 1024 * 1024
KIND = re.compile(r"^[a-z][a-z0-9_]{1,79}$")


@dataclass(frozen=True)
class NewDocument:
    kind: str
    subject_type: str
    subject_id: str
    filename: str
    data: bytes


def check_bytes(data: bytes, max_bytes: int) -> str:
    """The media type of acceptable bytes; refuses empty (422), too large (413) and
    anything but the allowed types (415)."""
    if not data:
        raise DocumentEmptyError("The file is empty.", {"bytes": 0})
    if len(data) > max_bytes:
        raise DocumentTooLargeError(
            f"The file is {len(data)} bytes; the limit is {max_bytes} bytes.",
            {"bytes": len(data), "max_bytes": max_bytes},
        )
    return media_types.media_type_of(data)


def file_document(
    uow: AbstractUnitOfWork,
    actor: Actor,
    store: DocumentStore,
    new: NewDocument,
    max_bytes: int = DEFAULT_MAX_BYTES,
) -> Document:
    """Check, store the bytes (fsynced and renamed into place), then append the event."""
    if actor.role == AUDITOR:
        actor.require("authority", "participant")
    if not KIND.match(new.kind):
        raise InvalidRequestError(
            "kind is a lower-case word with underscores (for example business_plan).",
            {"kind": new.kind},
        )
    exists = new.subject_type == "registration" and uow.stream_exists(
        f"registration-{new.subject_id}"
    )
    subject = subjects.resolve(uow, new.subject_type, new.subject_id, exists=exists)
    if not subjects.may_see(actor, subject):
        raise not_found("Subject", "subject_id", new.subject_id)
    _check_not_locked(uow, subject)
    media_type = check_bytes(new.data, max_bytes)
    sha = store.put(new.data)
    version = uow.documents.latest_version(subject.subject_type, subject.subject_id, new.kind)
    document_id = new_id("doc")
    uow.append(
        f"document-{document_id}",
        DocumentFiled(
            document_id=document_id,
            kind=new.kind,
            subject_type=subject.subject_type,
            subject_id=subject.subject_id,
            party_id=subject.party_id,
            sha256=sha,
            bytes=len(new.data),
            media_type=media_type,
            filename=(new.filename or "document")[-255:],
            version=version + 1,
            filed_by=actor.label,
            filed_at=now_utc().isoformat(timespec="seconds"),
        ),
        actor.label,
        new_stream=True,
    )
    return load_document(uow, document_id)


def _check_not_locked(uow: AbstractUnitOfWork, subject: subjects.Subject) -> None:
    """ADM-6: a TECH application's exhibits lock with that year's applications."""
    if subject.subject_type == "tech_application":
        application_lock.check_open(uow, subject.subject_id)


def load_document(source: Source, document_id: str) -> Document:
    found = repositories(source).documents.load(document_id)
    if found is None:
        raise not_found("Document", "document_id", document_id)
    return found


def get_document(source: Source, actor: Actor, document_id: str) -> Document:
    """The record, for those who may see its subject; anyone else: 404 as if unknown."""
    row = load_document(source, document_id)
    parties = subjects.Subject(row["subject_type"], row["subject_id"], ())
    if row["subject_type"] != "registration":
        found = subjects.row_parties(source, row["subject_type"], row["subject_id"])
        parties = subjects.Subject(row["subject_type"], row["subject_id"], found or ())
    if not subjects.may_see(actor, parties):
        raise not_found("Document", "document_id", document_id)
    return row


def content(
    source: Source, actor: Actor, store: DocumentStore, document_id: str
) -> tuple[Document, bytes]:
    row = get_document(source, actor, document_id)
    return row, store.get(row["sha256"])


def of_subject(source: Source, subject_type: str, subject_id: str) -> list[Document]:
    return repositories(source).documents.of_subject(subject_type, subject_id)


def filed_by_kind(source: Source, subject_type: str, subject_id: str) -> dict[str, list[str]]:
    """kind -> the ids of its versions, oldest first (only recorded ones: an orphan file
    is never here)."""
    filed: dict[str, list[str]] = {}
    for row in repositories(source).documents.of_subject(subject_type, subject_id):
        filed.setdefault(row["kind"], []).append(row["id"])
    return filed


def of_certificate(source: Source, certificate_id: str, root_id: str | None) -> list[Document]:
    """The exhibits a certificate's proof bundle lists: filed against it, against the
    transfers that sold or made it, and against the TECH application it came from."""
    repos = repositories(source)
    subjects_of = [("certificate", certificate_id)]
    for t in repos.transfers.where(certificate_id=certificate_id):
        subjects_of.append(("transfer", str(t["id"])))
    for t in repos.transfers.where(buyer_certificate_id=certificate_id):
        subjects_of.append(("transfer", str(t["id"])))
    app = repos.tech_applications.of_certificate(root_id or certificate_id)
    if app is not None:
        subjects_of.append(("tech_application", str(app["id"])))
    found = [d for s in subjects_of for d in repos.documents.of_subject(*s)]
    return sorted(found, key=lambda d: d["filed_seq"])
