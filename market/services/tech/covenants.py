"""The covenant monitor (PRODUCT.md 8.3): each TECH seller's headquarters window per
transfer, its exposure if it moved today, and the next use-of-proceeds certification due
(`domain.rules.covenants`), for the Authority and auditors. Dates a reminder needs
(`reminders: [{kind, remind_on, due_on}]`) are in the data for the notifications."""

from __future__ import annotations

from datetime import date
from typing import Any, TypedDict

from market.adapters.reads import tech as tech_rows
from market.domain.rules import covenants
from market.domain.rules.recapture import hq_window_end
from market.domain.rulesets import Ruleset
from market.services.kernel import clock
from market.services.kernel.actor import AUDITOR, AUTHORITY, Actor
from market.services.kernel.reads import Connection


class CovenantLine(TypedDict):
    """One approved TECH sale's headquarters window and certifications."""

    transfer_id: str
    certificate_id: str
    buyer_party_id: str
    amount_cents: int
    consideration_cents: int
    pfa_received_on: str
    hq_window_end: str
    window_open: bool
    days_left: int
    exposure_if_moved_today_cents: int
    use_of_proceeds: list[str]
    certifications_due: list[str]
    next_certification_due: str | None
    reminders: list[dict[str, str]]


class SellerCovenants(TypedDict):
    party_id: str
    name: str
    transfers: list[CovenantLine]
    open_windows: int
    exposure_if_moved_today_cents: int
    last_window_end: str | None
    next_certification_due: str | None


class CovenantMonitor(TypedDict):
    as_of: str
    scale: str
    items: list[SellerCovenants]
    next: None


def _line(t: Any, today: date, ruleset: Ruleset) -> CovenantLine:
    start = date.fromisoformat(t.exchange_date)
    end = date.fromisoformat(t.hq_window_end) if t.hq_window_end else hq_window_end(start, ruleset)
    window = covenants.Window(start, end)
    due = covenants.certification_dates(window, ruleset.tech_hq_years)
    next_due = covenants.next_on_or_after(due, today)
    is_open = window.is_open(today)
    return {
        "transfer_id": t.id,
        "certificate_id": t.certificate_id,
        "buyer_party_id": t.buyer_party_id,
        "amount_cents": int(t.amount_cents),
        "consideration_cents": int(t.consideration_cents),
        "pfa_received_on": start.isoformat(),
        "hq_window_end": end.isoformat(),
        "window_open": is_open,
        "days_left": window.days_left(today),
        "exposure_if_moved_today_cents": covenants.exposure_cents(
            int(t.amount_cents), window, today, ruleset.tech_hq_recapture_scale
        ),
        "use_of_proceeds": list(t.use_of_proceeds or []),
        "certifications_due": [d.isoformat() for d in due],
        "next_certification_due": next_due.isoformat() if next_due else None,
        "reminders": covenants.reminders("use_of_proceeds_certification", next_due, today)
        + (covenants.reminders("hq_window_end", end, today) if is_open else []),
    }


def _seller(party_id: str, name: str, lines: list[CovenantLine]) -> SellerCovenants:
    open_lines = [x for x in lines if x["window_open"]]
    dues = [x["next_certification_due"] for x in lines if x["next_certification_due"]]
    return {
        "party_id": party_id,
        "name": name,
        "transfers": lines,
        "open_windows": len(open_lines),
        "exposure_if_moved_today_cents": sum(x["exposure_if_moved_today_cents"] for x in lines),
        "last_window_end": max((x["hq_window_end"] for x in open_lines), default=None),
        "next_certification_due": min((d for d in dues if d is not None), default=None),
    }


def covenant_monitor(conn: Connection, actor: Actor, ruleset: Ruleset) -> CovenantMonitor:
    actor.require(AUTHORITY, AUDITOR)
    today = clock.today()
    rows = tech_rows.approved_tech_sales(conn)
    names: dict[str, str] = {}
    lines: dict[str, list[CovenantLine]] = {}
    for t in rows:
        names.setdefault(t.seller_party_id, t.name)
        lines.setdefault(t.seller_party_id, []).append(_line(t, today, ruleset))
    items = [_seller(party, names[party], found) for party, found in lines.items()]
    return {
        "as_of": today.isoformat(),
        "scale": ruleset.tech_hq_recapture_scale,
        "items": items,
        "next": None,
    }
