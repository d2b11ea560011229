"""Reading registrations: one (the applicant through its link, or the Authority), the
Authority's desk, and, for the review, the parties and other registrations that share
the tax id or have a similar name (the words of the name, suffixes like "LLC" or "Inc"
left out, compared by difflib's ratio)."""

from __future__ import annotations

import difflib
import re
from typing import TypedDict, overload

from sqlalchemy import func, or_, select
from sqlalchemy.engine import Connection

from market.adapters.repositories.registrations import RegistrationRecord, registration_record
from market.adapters.tables import Party, Registration
from market.services.kernel.actor import AUDITOR, AUTHORITY, Actor
from market.services.kernel.errors import not_found

registrations_t = Registration.__table__  # type: ignore[attr-defined]
parties_t = Party.__table__  # type: ignore[attr-defined]
SIMILAR_AT = 0.8
CANDIDATES = 200
_SUFFIXES = {"inc", "llc", "llp", "lp", "corp", "corporation", "co", "company", "ltd", "the"}


def words(name: str) -> list[str]:
    return [w for w in re.findall(r"[a-z0-9]+", name.lower()) if w not in _SUFFIXES]


def similar_names(a: str, b: str) -> bool:
    left, right = " ".join(words(a)), " ".join(words(b))
    if not left or not right:
        return False
    return difflib.SequenceMatcher(None, left, right).ratio() >= SIMILAR_AT


class PublicRegistration(TypedDict):
    """What the applicant sees through its link."""

    id: str
    legal_name: str
    status: str
    reason: str | None
    requested_at: str
    party_id: str | None


class SimilarParty(TypedDict):
    id: str
    name: str
    tax_id: str
    why: str


class SimilarRegistration(TypedDict):
    id: str
    legal_name: str
    tax_id: str
    status: str
    why: str


class Similar(TypedDict):
    """Parties and other registrations a reviewer should compare (`why`: same tax id or
    similar name)."""

    parties: list[SimilarParty]
    registrations: list[SimilarRegistration]


def _public(record: RegistrationRecord) -> PublicRegistration:
    return PublicRegistration(
        id=record["id"],
        legal_name=record["legal_name"],
        status=record["status"],
        reason=record["reason"],
        requested_at=record["requested_at"],
        party_id=record["party_id"],
    )


@overload
def get(conn: Connection, registration_id: str, actor: Actor) -> RegistrationRecord: ...


@overload
def get(conn: Connection, registration_id: str, actor: None) -> PublicRegistration: ...


def get(
    conn: Connection, registration_id: str, actor: Actor | None
) -> RegistrationRecord | PublicRegistration:
    """Everything for the Authority and auditors; for the applicant (actor None, having
    shown its link) its status and the reason of a rejection."""
    if actor is not None:
        actor.require(AUTHORITY, AUDITOR)
    row = (
        conn.execute(select(registrations_t).where(registrations_t.c.id == registration_id))
        .mappings()
        .first()
    )
    if row is None:
        raise not_found("Registration", "registration_id", registration_id)
    record = registration_record(dict(row))
    if actor is None:
        return _public(record)
    return record


def desk(conn: Connection, actor: Actor, status: str | None) -> list[RegistrationRecord]:
    """The Authority's registrations, oldest first (those waiting first by default)."""
    actor.require(AUTHORITY, AUDITOR)
    stmt = select(registrations_t).order_by(registrations_t.c.requested_seq)
    if status:
        stmt = stmt.where(registrations_t.c.status == status)
    return [registration_record(dict(r)) for r in conn.execute(stmt.limit(500)).mappings()]


def similar(conn: Connection, actor: Actor, registration: RegistrationRecord) -> Similar:
    """Parties and other registrations sharing the tax id or with a similar name."""
    actor.require(AUTHORITY, AUDITOR)
    keys = sorted(words(registration["legal_name"]), key=len, reverse=True)[:2]
    name_like = [func.lower(parties_t.c.name).contains(k) for k in keys]
    party_rows = conn.execute(
        select(parties_t.c.id, parties_t.c.name, parties_t.c.tax_id)
        .where(or_(parties_t.c.tax_id == registration["tax_id"], *name_like))
        .limit(CANDIDATES)
    ).mappings()
    reg_like = [func.lower(registrations_t.c.legal_name).contains(k) for k in keys]
    reg_rows = conn.execute(
        select(
            registrations_t.c.id,
            registrations_t.c.legal_name,
            registrations_t.c.tax_id,
            registrations_t.c.status,
        )
        .where(registrations_t.c.id != registration["id"])
        .where(or_(registrations_t.c.tax_id == registration["tax_id"], *reg_like))
        .limit(CANDIDATES)
    ).mappings()

    def why(tax_id: str, name: str) -> str | None:
        if tax_id == registration["tax_id"]:
            return "same tax id"
        if similar_names(name, registration["legal_name"]):
            return "similar name"
        return None

    parties = [
        SimilarParty(id=p["id"], name=p["name"], tax_id=p["tax_id"], why=w)
        for p in party_rows
        if (w := why(p["tax_id"], p["name"]))
    ]
    others = [
        SimilarRegistration(
            id=r["id"], legal_name=r["legal_name"], tax_id=r["tax_id"], status=r["status"], why=w
        )
        for r in reg_rows
        if (w := why(r["tax_id"], r["legal_name"]))
    ]
    return Similar(parties=parties, registrations=others)
