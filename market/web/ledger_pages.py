"""The ledger explorer: events page by page, each in a sentence with its raw payload one
click away, filtered by type, party, stream and the day recorded (GET parameters, so a
filtered view can be bookmarked); a stream's history; verification status."""

from __future__ import annotations

from datetime import date
from typing import Any

from flask import current_app, render_template, request
from flask.typing import ResponseReturnValue
from sqlalchemy.engine import Connection

from market.domain.errors import DomainError
from market.services.kernel import lookups
from market.services.kernel.uow import ReadOnly
from market.services.queries import ledger_search, pickers
from market.services.trust import checkpoints, cosigned, ledger, trust_recent
from market.services.trust.checkpoints import TrustSettings
from market.web.base import actor, bp, engine, roles_required
from market.web.event_sentences import sentence, type_in_words

PAGE = 50


def _day(name: str, problems: dict[str, str]) -> date | None:
    raw = (request.args.get(name) or "").strip()
    if not raw:
        return None
    try:
        return date.fromisoformat(raw)
    except ValueError:
        problems[name] = "Enter a date like 2026-03-31."
        return None


def _party(conn: Connection, problems: dict[str, str]) -> pickers.PartyChoice | None:
    """The party filter: `Name · tax id` from the picker, a tax id or a party id."""
    typed = (request.args.get("party") or "").strip()
    if not typed:
        return None
    try:
        return pickers.resolve_party(conn, typed)
    except DomainError as refused:
        problems["party"] = refused.message
        return None


def _filter(
    party: pickers.PartyChoice | None, problems: dict[str, str]
) -> ledger_search.EventFilter:
    return ledger_search.EventFilter(
        event_type=request.args.get("type") or None,
        party_id=party["id"] if party else None,
        stream=request.args.get("stream") or None,
        recorded_from=_day("from", problems),
        recorded_to=_day("to", problems),
    )


@bp.get("/ledger", endpoint="ledger")
@roles_required("authority", "auditor")
def ledger_page() -> ResponseReturnValue:
    after = max(0, request.args.get("after", 0, type=int))
    problems: dict[str, str] = {}
    with ReadOnly(engine()) as conn:
        party = _party(conn, problems)
        wanted = _filter(party, problems)
        items, nxt = ledger_search.filtered_events(conn, actor(), wanted, after, PAGE)
        names = ledger_search.display_names(conn, items)
        users = lookups.user_names_of(conn, [e["actor"] for e in items])
        types = ledger_search.event_types()
        choices = pickers.party_choices(conn)
    trust = TrustSettings.from_config(current_app.config, current_app.instance_path)
    # The incremental check from the last signed checkpoint: never the whole ledger in a
    # request (that is `flask verify`).
    report = (
        trust_recent.verify_recent_for(engine(), actor(), trust)
        if request.args.get("verify")
        else None
    )
    head_seq, head_hash = ledger.head_of(engine())
    kept: dict[str, Any] = {
        k: v
        for k, v in request.args.items()
        if k in {"type", "party", "stream", "from", "to"} and v
    }
    return render_template(
        "ledger.html",
        events=items,
        next=nxt,
        after=after,
        stream=wanted.stream,
        report=report,
        witness_quorum=cosigned.latest_quorum(  # PRODUCT.md 9.3
            engine(), trust.witnesses, checkpoints.latest(engine(), trust)
        ),
        head_seq=head_seq,
        head_hash=head_hash,
        names=names,
        users=users,
        sentence=sentence,
        types=types,
        type_in_words=type_in_words,
        party=party,
        choices=choices,
        args=kept,
        problems=problems,
    ), 400 if problems else 200
