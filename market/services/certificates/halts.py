"""Trading halts (PRODUCT.md 8.3): a recapture or invalidity notice on a certificate halts
it and every certificate derived from it until the notice is lifted.

`check_not_halted(uow, certificate)` is the one guard: listings, offers, offer
acceptance, negotiated transfers, buyer confirmations and approvals call it before
deciding, and it raises 422 `trading_halted`. It costs one indexed query on
`certificate_notices` by the lineage's root; only when that lineage has an active notice
does it read the lineage's parent links to see whether the notice sits on an ancestor.

Events: CERTIFICATE_NOTICE_ISSUED and CERTIFICATE_NOTICE_LIFTED on stream
`notice-<id>`; each names `holder_party_ids` (the lineage's holders, to be notified).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any, TypedDict

from market.adapters.reads import certificates as rows_of
from market.adapters.repositories.certificates import ActiveNotice
from market.domain.errors import InvalidRequestError
from market.domain.events.halts import CertificateNoticeIssued, CertificateNoticeLifted
from market.domain.rules import halts
from market.services.kernel import reads
from market.services.kernel.actor import AUDITOR, AUTHORITY, Actor
from market.services.kernel.errors import ConflictError, NotFoundError, not_found
from market.services.kernel.numbering import new_id
from market.services.kernel.reads import Connection, Source
from market.services.kernel.uow import AbstractUnitOfWork

MAX_REASON = 500


class Notice(TypedDict):
    """A notice as the pages and the API show it: its row, and whether it halts now."""

    id: str
    certificate_id: str
    root_id: str
    kind: str
    reason: str
    status: str
    halted_certificate_ids: list[str]
    suspended_listing_ids: list[str]
    resumed_listing_ids: list[str]
    lift_reason: str | None
    issued_seq: int
    lifted_seq: int | None
    halted: bool


def _cert(source: Source, certificate: str | Mapping[str, Any]) -> Mapping[str, Any]:
    if not isinstance(certificate, str):
        return certificate
    return reads.certificate(source, certificate)


def load_for_trading(
    source: Source, certificate_id: str
) -> tuple[dict[str, Any], list[ActiveNotice]]:
    """The certificate a trading step is about (404 if unknown) and its lineage's active
    notices, read in one statement; `check_not_halted(source, row, active)` then decides
    without reading them again."""
    row, active = reads.repositories(source).certificates.with_active_notices(certificate_id)
    if row is None:
        raise not_found("Certificate", "certificate_id", certificate_id)
    return row, active


def halting_notice_ids(
    source: Source,
    certificate: str | Mapping[str, Any],
    active: list[ActiveNotice] | None = None,
) -> list[str]:
    """The active notices that halt this certificate (empty: it may trade). `active`: the
    lineage's active notices if already read (load_for_trading)."""
    repos = reads.repositories(source)
    cert = _cert(repos, certificate)
    if active is None:
        found = repos.notices.active_on_root(cert["root_id"])
        active = [(r["id"], r["certificate_id"]) for r in found]
    if not active:
        return []
    return halts.halting_notices(cert["id"], repos.certificates.ancestry(cert["id"]), active)


def halted_among(conn: Connection, certs: Iterable[tuple[str, str]]) -> set[str]:
    """Which of these certificates (id, root id) are halted: one query for all their
    lineages' notices, and the ancestry only of a certificate whose lineage has an active
    one."""
    pairs = list(certs)
    roots = sorted({root_id for _, root_id in pairs})
    if not roots:
        return set()
    active: dict[str, list[tuple[str, str]]] = {}
    for r in rows_of.active_notices_on(conn, roots):
        active.setdefault(r["root_id"], []).append((r["id"], r["certificate_id"]))
    lineages = reads.repositories(conn).certificates
    return {
        cid
        for cid, root_id in pairs
        if root_id in active and halts.halting_notices(cid, lineages.ancestry(cid), active[root_id])
    }


def is_halted(source: Source, certificate: str | Mapping[str, Any]) -> bool:
    return bool(halting_notice_ids(source, certificate))


def check_not_halted(
    source: Source,
    certificate: str | Mapping[str, Any],
    active: list[ActiveNotice] | None = None,
) -> None:
    """Refuse (422 `trading_halted`) any trading step in a halted certificate. Takes the
    certificate's id or its row (anything with `id` and `root_id`), and its lineage's
    active notices if `load_for_trading` read them."""
    cert = _cert(source, certificate)
    halts.check_not_halted(str(cert["id"]), halting_notice_ids(source, cert, active))


def _reason(reason: str) -> str:
    text = (reason or "").strip()
    if not text or len(text) > MAX_REASON:
        raise InvalidRequestError(
            f"A notice needs a reason of 1 to {MAX_REASON} characters.", {"reason": reason}
        )
    return text


def notice_view(source: Source, notice_id: str) -> Notice:
    row = reads.repositories(source).notices.get(notice_id)
    if row is None:
        raise NotFoundError(f"Notice {notice_id} does not exist.", {"notice_id": notice_id})
    return Notice(
        id=row["id"],
        certificate_id=row["certificate_id"],
        root_id=row["root_id"],
        kind=row["kind"],
        reason=row["reason"],
        status=row["status"],
        halted_certificate_ids=list(row["halted_certificate_ids"]),
        suspended_listing_ids=list(row["suspended_listing_ids"]),
        resumed_listing_ids=list(row["resumed_listing_ids"]),
        lift_reason=row["lift_reason"],
        issued_seq=row["issued_seq"],
        lifted_seq=row["lifted_seq"],
        halted=row["status"] == "active",
    )


def issue_notice(
    uow: AbstractUnitOfWork, actor: Actor, certificate_id: str, kind: str, reason: str
) -> Notice:
    """The Authority's notice: halts the certificate and its descendants, suspends their
    open listings."""
    actor.require(AUTHORITY)
    if kind not in halts.NOTICE_KINDS:
        raise InvalidRequestError(
            f"kind must be one of {', '.join(halts.NOTICE_KINDS)}.", {"kind": kind}
        )
    text = _reason(reason)
    cert = _cert(uow, certificate_id)
    lineage = uow.certificates.where(root_id=cert["root_id"])
    parents = {r["id"]: r["parent_id"] for r in lineage}
    halted = halts.descendants_or_self(certificate_id, parents)
    holders = sorted({r["holder_party_id"] for r in lineage if r["id"] in set(halted)})
    suspended = [r["id"] for r in uow.listings.of_certificates(halted, "open")]
    notice_id = new_id("ntc")
    uow.append(
        f"notice-{notice_id}",
        CertificateNoticeIssued(
            notice_id=notice_id,
            certificate_id=certificate_id,
            root_id=cert["root_id"],
            kind=kind,
            reason=text,
            halted_certificate_ids=halted,
            holder_party_ids=holders,
            suspended_listing_ids=suspended,
        ),
        actor.label,
        new_stream=True,
    )
    return notice_view(uow, notice_id)


def lift_notice(
    uow: AbstractUnitOfWork, actor: Actor, certificate_id: str, notice_id: str, reason: str | None
) -> Notice:
    """Lift one notice: the suspended listings under it resume unless another notice still
    halts their certificate (a listing its seller withdrew meanwhile stays withdrawn)."""
    actor.require(AUTHORITY)
    notice = notice_view(uow, notice_id)
    if notice["certificate_id"] != certificate_id:
        raise NotFoundError(
            f"Certificate {certificate_id} has no notice {notice_id}.",
            {"certificate_id": certificate_id, "notice_id": notice_id},
        )
    if notice["status"] != "active":
        raise ConflictError(
            f"Notice {notice_id} was already lifted.", {"notice_id": notice_id, "status": "lifted"}
        )
    text = _reason(reason or "lifted")
    lineage = uow.certificates.where(root_id=notice["root_id"])
    parents = {r["id"]: r["parent_id"] for r in lineage}
    others = [
        (r["id"], r["certificate_id"])
        for r in uow.notices.active_on_root(notice["root_id"])
        if r["id"] != notice_id
    ]
    # Every suspended listing under the notice resumes unless another notice still halts
    # it: also one a later notice found suspended already (and so did not list).
    halted_now = halts.descendants_or_self(certificate_id, parents)
    resumed = []
    for row in uow.listings.of_certificates(halted_now, "suspended"):
        if not halts.halting_notices(row["certificate_id"], parents, others):
            resumed.append(row["id"])
    uow.append(
        f"notice-{notice_id}",
        CertificateNoticeLifted(
            notice_id=notice_id,
            certificate_id=certificate_id,
            reason=text,
            resumed_listing_ids=resumed,
            holder_party_ids=sorted(
                {r["holder_party_id"] for r in lineage if r["id"] in set(halted_now)}
            ),
        ),
        actor.label,
    )
    return notice_view(uow, notice_id)


def list_notices(conn: Connection, actor: Actor, certificate_id: str) -> list[Notice]:
    """Notices on the certificate itself and on its ancestors (what halts or halted it)."""
    actor.require(AUTHORITY, AUDITOR)
    cert = _cert(conn, certificate_id)
    parents = reads.repositories(conn).certificates.ancestry(cert["id"])
    line = halts.ancestors_or_self(cert["id"], parents)
    return [notice_view(conn, i) for i in rows_of.notice_ids_on(conn, line)]
