"""The audit trail page: pick a user, see every event its actions appended, each in a
sentence (the ledger's), its raw payload one click away."""

from __future__ import annotations

from flask import render_template, request
from flask.typing import ResponseReturnValue

from market.domain.errors import DomainError
from market.services.kernel import lookups
from market.services.kernel.uow import ReadOnly
from market.services.queries import audit, ledger_search
from market.web.base import actor, bp, engine, roles_required
from market.web.event_sentences import sentence


@bp.get("/audit", endpoint="audit")
@roles_required("authority", "auditor")
def audit_page() -> ResponseReturnValue:
    users = audit.users(engine(), actor())
    user_id = request.args.get("user") or None
    after = request.args.get("after", type=int)
    who: audit.AuditUser | None = None
    items: list[audit.AuditEvent] = []
    nxt: int | None = None
    status = 200
    if user_id:
        try:
            who, items, nxt = audit.user_events(engine(), actor(), user_id[:40], after, 50)
        except DomainError:
            status = 404
    with ReadOnly(engine()) as conn:
        # Whom each event was for, and the parties and certificates its sentence names.
        names = lookups.names_of(conn, [e.get("acted_for") for e in items])
        names |= ledger_search.display_names(conn, items)
    page = render_template(
        "audit.html",
        users=users,
        who=who,
        items=items,
        next=nxt,
        user_id=user_id,
        names=names,
        sentence=sentence,
    )
    return page, status
