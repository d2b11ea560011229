"""Trading halts on a certificate's lineage (PRODUCT.md 8.3; TB-40, CMN-9).

A recapture or invalidity notice on a certificate halts trading in it and in every
certificate derived from it (by transfer or pass-through, at any depth) until the
notice is lifted. A certificate is halted while any of its ancestors-or-self carries an
active notice, so a certificate derived after the notice is halted as well.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping

from market.domain.errors import DomainError

NOTICE_KINDS = ("recapture", "invalidity")


class TradingHaltedError(DomainError):
    code = "trading_halted"


def descendants_or_self(certificate_id: str, parents: Mapping[str, str | None]) -> list[str]:
    """Every certificate in `parents` (id -> parent id, one lineage) that is the given one
    or descends from it, in a stable order."""
    children: dict[str, list[str]] = {}
    for cid, parent in parents.items():
        if parent is not None:
            children.setdefault(parent, []).append(cid)
    found, todo = [], [certificate_id]
    while todo:
        cid = todo.pop()
        found.append(cid)
        todo.extend(sorted(children.get(cid, []), reverse=True))
    return found


def ancestors_or_self(certificate_id: str, parents: Mapping[str, str | None]) -> list[str]:
    chain: list[str] = []
    cid: str | None = certificate_id
    seen: set[str] = set()
    while cid is not None and cid not in seen:
        seen.add(cid)
        chain.append(cid)
        cid = parents.get(cid)
    return chain


def halting_notices(
    certificate_id: str,
    parents: Mapping[str, str | None],
    active: Iterable[tuple[str, str]],
) -> list[str]:
    """The active notices (notice id, noticed certificate id) that halt this certificate."""
    line = set(ancestors_or_self(certificate_id, parents))
    return sorted(nid for nid, cid in active if cid in line)


def check_not_halted(certificate_id: str, notice_ids: list[str]) -> None:
    if notice_ids:
        raise TradingHaltedError(
            f"Trading in certificate {certificate_id} is halted by a recapture or invalidity "
            "notice on it or on a certificate it derives from; nothing may be listed, offered, "
            "transferred, confirmed or approved until the notice is lifted.",
            {"certificate_id": certificate_id, "notice_ids": notice_ids},
        )
