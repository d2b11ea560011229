"""Every page that names a certificate links it (templates/_certificate.html): the
numbers of the certificates a page names, read in one query from the template, and whether
the viewer may open a certificate held by a party (another party's would answer 404)."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from flask_login import current_user

from market.services.kernel import lookups
from market.services.kernel.actor import AUDITOR, AUTHORITY
from market.services.kernel.uow import ReadOnly
from market.web.base import bp, engine


def certificate_numbers(certificate_ids: Iterable[str | None]) -> dict[str, str]:
    """Certificate id -> number, for the ids a page names (None and repeats skipped)."""
    wanted = {i for i in certificate_ids if i}
    if not wanted:
        return {}
    with ReadOnly(engine()) as conn:
        return lookups.numbers_of(conn, wanted)


def certificate_holders(certificate_ids: Iterable[str | None]) -> dict[str, str]:
    """Certificate id -> the party holding it (for `may_open` on another's certificate)."""
    wanted = {i for i in certificate_ids if i}
    if not wanted:
        return {}
    with ReadOnly(engine()) as conn:
        return lookups.holders_of(conn, wanted)


def may_open(holder_party_id: str | None) -> bool:
    """Whether the signed-in viewer may open a certificate `holder_party_id` holds (None:
    the page knows the viewer may)."""
    if not current_user.is_authenticated:
        return False
    if holder_party_id is None or current_user.role in (AUTHORITY, AUDITOR):
        return True
    return bool(current_user.actor.party_id == holder_party_id)


@bp.app_context_processor
def _certificate_link_helpers() -> dict[str, Any]:
    return {
        "certificate_numbers": certificate_numbers,
        "certificate_holders": certificate_holders,
        "may_open_certificate": may_open,
    }
