"""Names and numbers looked up by id for the rows a page or a notice shows: a party's name,
a certificate's number or program, a user's name, in IN lists of CHUNK, never a whole table."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from sqlalchemy import select
from sqlalchemy.engine import Connection

from market.adapters.tables import Certificate, Party, User

certs_t = Certificate.__table__  # type: ignore[attr-defined]
parties_t = Party.__table__  # type: ignore[attr-defined]
users_t = User.__table__  # type: ignore[attr-defined]

CHUNK = 500  # ids per IN list: far below either driver's bind-parameter limit


def _lookup(conn: Connection, column: Any, ids: Iterable[str | None]) -> dict[str, str]:
    """`column` of the rows whose id is among `ids` (its table's id -> value), in
    IN lists of CHUNK: the names or numbers of the rows a page shows, never a whole table."""
    wanted = sorted({i for i in ids if i})
    found: dict[str, str] = {}
    for start in range(0, len(wanted), CHUNK):
        chunk = wanted[start : start + CHUNK]
        id_column = column.table.c.id
        rows = conn.execute(select(id_column, column).where(id_column.in_(chunk)))
        found.update({str(r[0]): str(r[1]) for r in rows})
    return found


def names_of(conn: Connection, party_ids: Iterable[str | None]) -> dict[str, str]:
    return _lookup(conn, parties_t.c.name, party_ids)


def numbers_of(conn: Connection, certificate_ids: Iterable[str | None]) -> dict[str, str]:
    return _lookup(conn, certs_t.c.number, certificate_ids)


def holders_of(conn: Connection, certificate_ids: Iterable[str | None]) -> dict[str, str]:
    return _lookup(conn, certs_t.c.holder_party_id, certificate_ids)


def programs_of(conn: Connection, certificate_ids: Iterable[str | None]) -> dict[str, str]:
    return _lookup(conn, certs_t.c.program, certificate_ids)


ROLE_WORDS = {"authority": "the Authority", "auditor": "an auditor"}


def user_names_of(
    conn: Connection, actors: Iterable[str | None], emails: bool = True
) -> dict[str, str]:
    """Who acted, in words, for each actor label (`user:<id>@<party or role>`, or the older
    `user:<id>`) or bare user id given: "ana@example.com for Meadowlands Energy", "eda@x.nj
    (the Authority)"; a label of no user on file (the system, the demo seed) reads as whom
    it acted for. Keyed by what was given, so a page writes `names.get(e.actor, e.actor)`.
    `emails=False` (a page a participant reads about others): whom each acted for only,
    "Meadowlands Energy", "the Authority", never a user's address."""
    given = {a for a in actors if a}
    parsed = {a: a.removeprefix("user:").partition("@") for a in given}
    user_ids = {user_id for user_id, _, _ in parsed.values()}
    users = {str(k): (email, role, party) for k, email, role, party in _users(conn, user_ids)}
    party_ids = {p for _, _, p in users.values()} | {f for _, _, f in parsed.values()}
    parties = names_of(conn, party_ids)
    out: dict[str, str] = {}
    for label, (user_id, _, acted_for) in parsed.items():
        email, role, own_party = users.get(user_id, (None, None, None))
        party = acted_for if acted_for in parties else own_party
        if role == "participant":
            whom = parties.get(party or "", "a participant")
            out[label] = f"{email} for {whom}" if emails else whom
        elif email is not None:
            whom = ROLE_WORDS.get(str(role), str(role))
            out[label] = f"{email} ({whom})" if emails else whom
        elif user_id == "system":
            out[label] = "the system"
        else:  # no user on file: the demo seed, an import
            out[label] = parties.get(acted_for) or ROLE_WORDS.get(acted_for, "the system")
    return out


def _users(conn: Connection, user_ids: set[str]) -> list[Any]:
    wanted = sorted(user_ids)
    rows: list[Any] = []
    cols = (users_t.c.id, users_t.c.email, users_t.c.role, users_t.c.party_id)
    for start in range(0, len(wanted), CHUNK):
        chunk = wanted[start : start + CHUNK]
        rows += conn.execute(select(*cols).where(users_t.c.id.in_(chunk))).all()
    return rows
