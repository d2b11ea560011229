"""Reading certificates: one by id or by its number, its status, its lineage (ancestors
and a page of children), its history, its creditable activities (PT-1), its UTH
installments, and a party's list.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from market.adapters.reads import certificates as certificate_rows
from market.adapters.repositories.models import certificate_of, party_of
from market.domain.events.certificates import ACTIVITY_KEY
from market.domain.model import Certificate, Party
from market.domain.programs import Program
from market.services.certificates import certificate_reads, halts
from market.services.kernel import reads
from market.services.kernel.actor import Actor
from market.services.kernel.errors import not_found
from market.services.kernel.paging import split_page
from market.services.kernel.reads import Connection, Source, repositories
from market.services.parties.parties import load_party


def load_certificate(source: Source, certificate_id: str) -> dict[str, Any]:
    return reads.certificate(source, certificate_id)


def certificate_record(source: Source, certificate_id: str) -> Certificate:
    """The certificate as the rules read it (market.domain.model), or 404."""
    return certificate_of(reads.certificate(source, certificate_id))


def party_record(source: Source, party_id: str) -> Party:
    """The party as the rules read it (market.domain.model), or 404."""
    return party_of(load_party(source, party_id))


def resolve(source: Source, key: str) -> str:
    """The id of the certificate `key` names: its id, or the number printed on it. A key
    that names none comes back as it is, so the read that follows answers as for any
    unknown id."""
    if repositories(source).certificates.get(key) is not None:
        return key
    named = repositories(source).certificates.where(number=key)
    return str(named[0]["id"]) if named else key


def uth_tranches(cert: dict[str, Any]) -> list[dict[str, Any]] | None:
    """A UTH certificate's installments (copies), or None for other programs, whose
    `tax_periods` are plain period numbers."""
    periods = list(cert["tax_periods"] or [])
    if cert["program"] != Program.UTH.value or not periods or not isinstance(periods[0], dict):
        return None
    return [dict(t) for t in periods]


def lineage_activity_ids(
    source: Source, certificate_id: str, root_id: str, attributes: Mapping[str, Any] | None
) -> list[str]:
    """PT-1: a certificate's creditable activity ids. A derived certificate carries its
    parent's in `attributes`; one whose CERT_ISSUED payload did not copy them (a transfer
    approved before they were inherited) has its root's, the award the activity belongs to."""
    own = dict(attributes or {})
    if ACTIVITY_KEY in own or root_id == certificate_id:
        return list(own.get(ACTIVITY_KEY) or [])
    root = repositories(source).certificates.load(root_id)
    return list((root.attributes if root is not None else {}).get(ACTIVITY_KEY) or [])


def activity_ids_of(source: Source, cert: Certificate) -> list[str]:
    """PT-1: the certificate's creditable activity ids (`lineage_activity_ids`)."""
    return lineage_activity_ids(source, cert.id, cert.root_id, cert.attributes)


def certificate_view(
    source: Source, certificate_id: str, *, children_after: int | None = None
) -> dict[str, Any]:
    """The certificate with its ancestors (up to 50) and a page of its children
    (`lineage.children_next` is the cursor of the next page, or None)."""
    cert = load_certificate(source, certificate_id)
    ancestors: list[certificate_reads.CertificateBrief] = []
    parent_id = cert["parent_id"]
    while parent_id is not None and len(ancestors) < 50:
        parent = certificate_record(source, parent_id)
        ancestors.append(certificate_reads.brief(parent))
        parent_id = parent.parent_id
    children, children_next = certificate_reads.children_page(
        source, certificate_id, children_after
    )
    cert["lineage"] = {
        "ancestors": ancestors,
        "children": children,
        "children_next": children_next,
    }
    cert["halted"] = halts.is_halted(source, cert)  # PRODUCT.md 8.3
    cert[ACTIVITY_KEY] = lineage_activity_ids(
        source, cert["id"], cert["root_id"], cert["attributes"]
    )
    return cert


def get_certificate(
    conn: Connection,
    actor: Actor,
    certificate_id: str,
    *,
    children_after: int | None = None,
    history_after: int | None = None,
) -> dict[str, Any]:
    """The certificate, a page of its children and a page of its history (`history_next`
    is the seq to ask for the next one from, or None)."""
    cert = load_certificate(conn, certificate_id)
    actor.require_reader_of(
        cert["holder_party_id"], not_found("Certificate", "certificate_id", certificate_id)
    )
    view = certificate_view(conn, certificate_id, children_after=children_after)
    view["history"], view["history_next"] = certificate_reads.history_page(
        conn, certificate_id, history_after
    )
    return view


def readable_id(source: Source, actor: Actor, key: str) -> str:
    """The id of the certificate `key` (id or number) names, if `actor` may read it. Not
    found, or another party's, is worded with the key as typed: a number answers a
    stranger exactly as a number nobody holds."""
    hidden = not_found("Certificate", "certificate_id", key)
    row = repositories(source).certificates.get(resolve(source, key))
    if row is None:
        raise hidden
    actor.require_reader_of(row["holder_party_id"], hidden)
    return str(row["id"])


def find_certificate(
    conn: Connection, actor: Actor, key: str, **pages: int | None
) -> dict[str, Any]:
    """`get_certificate` by id or number (`readable_id`)."""
    return get_certificate(conn, actor, readable_id(conn, actor, key), **pages)


def certificate_history(
    conn: Connection, certificate_id: str
) -> list[certificate_reads.HistoryItem]:
    """The first page of the certificate's history (`certificate_reads.history_page`)."""
    return certificate_reads.history_page(conn, certificate_id)[0]


def list_party_certificates(
    conn: Connection, actor: Actor, party_id: str, after: int | None, limit: int
) -> tuple[list[dict[str, Any]], int | None]:
    load_party(conn, party_id)
    actor.require_reader_of(party_id, not_found("Party", "party_id", party_id))
    rows = certificate_rows.held_by(conn, party_id, after, limit + 1)
    halted = halts.halted_among(conn, ((r["id"], r["root_id"]) for r in rows))  # PRODUCT.md 8.3
    for row in rows:
        row[ACTIVITY_KEY] = lineage_activity_ids(conn, row["id"], row["root_id"], row["attributes"])
        row["halted"] = row["id"] in halted
    return split_page(rows, limit, lambda r: r["issued_seq"])
