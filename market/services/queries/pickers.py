"""What a person typed into a type-ahead picker, resolved to exactly one party or
certificate, or refused in words: an irreversible form never guesses which business it
means. The pickers offer `Name · tax id` and certificate numbers; an id also resolves.

A page carries only the first CHOICES of each (a market of thousands of parties would
otherwise put every one of them into every form); the picker asks for the matches of what
is typed (`/pickers/parties?q=`, market/web/picker_pages.py), and whatever is typed is
resolved here on submit, listed or not."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypedDict

from sqlalchemy import func, or_, select
from sqlalchemy.engine import Connection

from market.adapters.tables import Certificate, Party
from market.domain.errors import InvalidRequestError
from market.services.kernel.paging import numbered_page

parties_t = Party.__table__  # type: ignore[attr-defined]
certs_t = Certificate.__table__  # type: ignore[attr-defined]

SEPARATOR = " · "


class PartyChoice(TypedDict):
    """A party as a picker lists it: `label` is what the picker offers (name · tax id)."""

    id: str
    name: str
    tax_id: str
    entity_type: str
    label: str


class CertificateChoice(TypedDict):
    id: str
    number: str
    program: str
    holder_party_id: str


def party_label(party: Mapping[str, Any]) -> str:
    return f"{party['name']}{SEPARATOR}{party['tax_id']}"


def _labelled(row: Mapping[str, Any]) -> PartyChoice:
    return {
        "id": row["id"],
        "name": row["name"],
        "tax_id": row["tax_id"],
        "entity_type": row["entity_type"],
        "label": party_label(row),
    }


def _certificate(row: Mapping[str, Any]) -> CertificateChoice:
    return {
        "id": row["id"],
        "number": row["number"],
        "program": row["program"],
        "holder_party_id": row["holder_party_id"],
    }


CHOICES = 50
BY_NAME = (parties_t.c.name, parties_t.c.tax_id)


def party_choices(conn: Connection, typed: str = "", limit: int = CHOICES) -> list[PartyChoice]:
    """The first `limit` parties by name whose name or tax id contains `typed`."""
    rows = conn.execute(_matching(typed).order_by(*BY_NAME).limit(limit))
    return [_labelled(dict(r)) for r in rows.mappings()]


def _matching(typed: str) -> Any:
    stmt = select(parties_t.c.id, parties_t.c.name, parties_t.c.tax_id, parties_t.c.entity_type)
    typed = typed.strip()
    if not typed:
        return stmt
    text = typed.rsplit(SEPARATOR, 1)[0] if SEPARATOR in typed else typed
    return stmt.where(
        or_(
            parties_t.c.name.icontains(text, autoescape=True),
            parties_t.c.tax_id.icontains(text, autoescape=True),
        )
    )


def party_count(conn: Connection, typed: str = "") -> int:
    """How many parties `party_choices(conn, typed)` would list without a limit."""
    inner = _matching(typed).subquery()
    return int(conn.execute(select(func.count()).select_from(inner)).scalar() or 0)


def party_page(
    conn: Connection, typed: str, page: int, per_page: int
) -> tuple[list[PartyChoice], int, int, int]:
    """(page `page` of the parties matching `typed` by name, how many match, the page
    shown, pages in all): paging.numbered_page's."""
    rows, matching, page, pages = numbered_page(conn, _matching(typed), BY_NAME, page, per_page)
    return [_labelled(r) for r in rows], matching, page, pages


def resolve_party(conn: Connection, typed: str, what: str = "party") -> PartyChoice:
    """`Name · tax id` as the picker offers it, a tax id, a party id, or a name that only
    one party has (case-insensitive)."""
    typed = typed.strip()
    if not typed:
        raise InvalidRequestError(f"Choose the {what} from the list.", {"field": what})
    tax_id = typed.rsplit(SEPARATOR, 1)[-1].strip() if SEPARATOR in typed else typed
    cols = (parties_t.c.id, parties_t.c.name, parties_t.c.tax_id, parties_t.c.entity_type)
    rows = (
        conn.execute(
            select(*cols).where(
                or_(
                    parties_t.c.id == typed,
                    parties_t.c.tax_id == tax_id,
                    func.lower(parties_t.c.name) == typed.lower(),
                )
            )
        )
        .mappings()
        .all()
    )
    if len(rows) != 1:
        found = "No party matches" if not rows else f"{len(rows)} parties match"
        raise InvalidRequestError(
            f"{found} “{typed}”: choose the {what} from the list (name · tax id).",
            {"field": what, "typed": typed},
        )
    return _labelled(dict(rows[0]))


def certificate_choices(
    conn: Connection, typed: str = "", limit: int = CHOICES
) -> list[CertificateChoice]:
    """The first `limit` certificates by number whose number starts with `typed`."""
    stmt = select(certs_t.c.id, certs_t.c.number, certs_t.c.program, certs_t.c.holder_party_id)
    if typed.strip():
        stmt = stmt.where(certs_t.c.number.startswith(typed.strip().upper(), autoescape=True))
    rows = conn.execute(stmt.order_by(certs_t.c.number).limit(limit)).mappings()
    return [_certificate(dict(r)) for r in rows]


def resolve_certificate(conn: Connection, typed: str) -> CertificateChoice:
    """A certificate number (as printed) or id."""
    typed = typed.strip()
    row = (
        conn.execute(
            select(
                certs_t.c.id, certs_t.c.number, certs_t.c.program, certs_t.c.holder_party_id
            ).where(or_(certs_t.c.number == typed.upper(), certs_t.c.id == typed))
        )
        .mappings()
        .first()
    )
    if row is None:
        raise InvalidRequestError(
            f"No certificate is numbered “{typed}”: choose one from the list.",
            {"field": "certificate", "typed": typed},
        )
    return _certificate(dict(row))
