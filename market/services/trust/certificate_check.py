"""Anyone checks a certificate by its number and verification code (no sign-in).

The verification code is `<seq>-<first 16 hex digits of the hash>` of the certificate's
`CERT_ISSUED` event: it is in the ledger itself, so a restart, a replay or a rebuild
gives the same code, and no key or setting can rotate it away. Numbers are sequential
and printed; the code's 64 bits of hash are not guessable, so a number alone tells
nothing (docs/TRUST.md, "Checking a certificate by its number").

The answer is the certificate's status, program, fiscal year, face and balance (no party)
and the inclusion proof of its issuing event against the latest signed checkpoint, with
the key that signed it, which the page checks again in the browser. A wrong code answers
exactly as a number nobody holds. Reads only: no checkpoint is made for an outsider.
"""

from __future__ import annotations

import base64
import hmac
import re
from typing import NotRequired, TypedDict

from sqlalchemy import select
from sqlalchemy.engine import Connection

from market.adapters import merkle_store
from market.adapters.eventstore import events_t
from market.adapters.projections.store import Row
from market.domain import merkle
from market.domain.events.certificates import CertificateIssued
from market.services.certificates import halts
from market.services.kernel.errors import NotFoundError
from market.services.kernel.reads import repositories
from market.services.trust.checkpoint_views import PublicCheckpoint
from market.services.trust.checkpoints import TrustSettings, as_public, latest_row, trusted_keys

CODE = re.compile(r"^(\d{1,18})-([0-9a-f]{16})$")


def verification_code(seq: int, event_hash: str) -> str:
    """The code printed on the certificate, from its `CERT_ISSUED` event."""
    return f"{seq}-{event_hash[:16]}"


class IssueEvent(TypedDict):
    seq: int
    hash: str


class SigningKeyShown(TypedDict):
    key_id: str
    name: str
    public_key: str
    verifier_key: str


class IssueProof(TypedDict):
    """The issuing event's inclusion proof; only `checkpoint` (None) before one covers it."""

    checkpoint: PublicCheckpoint | None
    leaf_index: NotRequired[int]
    leaf_hash: NotRequired[str]
    path: NotRequired[list[str]]
    key: NotRequired[SigningKeyShown | None]


class CertificateCheck(TypedDict):
    """What anyone learns of a certificate by its number and code: no party."""

    number: str
    program: str
    fiscal_year: int
    face_cents: int
    balance_cents: int
    status: str
    halted: bool
    code: str
    event: IssueEvent
    proof: IssueProof


def issue_event(conn: Connection, cert: Row) -> IssueEvent | None:
    """The certificate's CERT_ISSUED event (seq, hash), or None for a row without one."""
    issued_seq: int = cert["issued_seq"]
    row = conn.execute(
        select(events_t.c.seq, events_t.c.type, events_t.c.payload, events_t.c.hash).where(
            events_t.c.seq == issued_seq
        )
    ).first()
    if row is None or row.type != CertificateIssued.TYPE:
        return None
    if (row.payload or {}).get("certificate_id") != cert["id"]:
        return None
    return {"seq": int(row.seq), "hash": str(row.hash)}


def code_of(conn: Connection, number: str) -> str | None:
    """The verification code of the certificate with that number (what its holder's page
    and its paper print), or None."""
    named = repositories(conn).certificates.where(number=number)
    issued = issue_event(conn, named[0]) if named else None
    return verification_code(issued["seq"], issued["hash"]) if issued else None


def _unknown() -> NotFoundError:
    # One answer for an unknown number, a wrong code and a malformed one: nothing echoed.
    return NotFoundError("No certificate has that number and verification code.", {})


def check(conn: Connection, settings: TrustSettings, number: str, code: str) -> CertificateCheck:
    """The public facts and the proof, or NotFoundError (the same for every miss)."""
    typed = code.strip().lower()
    named = (
        repositories(conn).certificates.where(number=number.strip()) if CODE.match(typed) else []
    )
    cert = named[0] if named else None
    issued = issue_event(conn, cert) if cert else None
    expected = verification_code(issued["seq"], issued["hash"]) if issued else ""
    # Compared in constant time, so the answer's timing does not spell the code out.
    if cert is None or issued is None or not hmac.compare_digest(expected, typed):
        raise _unknown()
    return {
        "number": cert["number"],
        "program": cert["program"],
        "fiscal_year": cert["fiscal_year"],
        "face_cents": cert["face_cents"],
        "balance_cents": cert["balance_cents"],
        "status": cert["status"],
        "halted": halts.is_halted(conn, cert),
        "code": expected,
        "event": issued,
        "proof": _proof(conn, settings, issued),
    }


def _proof(conn: Connection, settings: TrustSettings, issued: IssueEvent) -> IssueProof:
    """The inclusion proof of the issuing event against the latest trusted checkpoint (None
    when that checkpoint does not reach it yet), with the key the checkpoint names."""
    row = latest_row(conn, settings)
    if row is None or row["tree_size"] < issued["seq"]:
        return {"checkpoint": None}
    size, index = row["tree_size"], issued["seq"] - 1
    reader = merkle_store.NodeReader(conn)
    path = reader.run(lambda nodes: merkle.inclusion_proof(nodes, index, size))
    leaf = merkle.leaf_hash(bytes.fromhex(issued["hash"]))
    return {
        "checkpoint": as_public(row),
        "leaf_index": index,
        "leaf_hash": leaf.hex(),
        "path": [p.hex() for p in path],
        "key": _signing_key(settings, row["key_id"]),
    }


def _signing_key(settings: TrustSettings, key_id: str) -> SigningKeyShown | None:
    """The trusted key whose C2SP key hash is the checkpoint's `key_id` (after a rotation,
    the older key signed the older checkpoints)."""
    for key in trusted_keys(settings):
        if key.key_hash.hex() == key_id:
            return {
                "key_id": key_id,
                "name": key.name,
                "public_key": base64.b64encode(key.public_key).decode(),
                "verifier_key": key.text,
            }
    return None
