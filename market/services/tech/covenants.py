"""The covenant monitor (PRODUCT.md 8.3): each TECH seller's headquarters window per
transfer, its exposure if it moved today, and the next use-of-proceeds certification due
(`domain.rules.covenants`), for the Authority and auditors. Dates a reminder needs
(`reminders: [{kind, remind_on, due_on}]`) are in the data for the notifications."""

from __future__ import annotations

from datetime import date
from typing import Any

from market.adapters.reads import tech as tech_rows
from market.domain.rules import covenants
from market.domain.rules.recapture import hq_window_end
from market.domain.rulesets import Ruleset
from market.services.kernel import clock
from market.services.kernel.actor import AUDITOR, AUTHORITY, Actor
from market.services.kernel.reads import Connection


def _line(t: Any, today: date, ruleset: Ruleset) -> dict[str, Any]:
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


def covenant_monitor(conn: Connection, actor: Actor, ruleset: Ruleset) -> dict[str, Any]:
    actor.require(AUTHORITY, AUDITOR)
    today = clock.today()
    rows = tech_rows.approved_tech_sales(conn)
    sellers: dict[str, dict[str, Any]] = {}
    for t in rows:
        seller = sellers.setdefault(
            t.seller_party_id,
            {"party_id": t.seller_party_id, "name": t.name, "transfers": []},
        )
        seller["transfers"].append(_line(t, today, ruleset))
    items = []
    for s in sellers.values():
        lines = s["transfers"]
        open_lines = [x for x in lines if x["window_open"]]
        dues = [x["next_certification_due"] for x in lines if x["next_certification_due"]]
        items.append(
            s
            | {
                "open_windows": len(open_lines),
                "exposure_if_moved_today_cents": sum(
                    x["exposure_if_moved_today_cents"] for x in lines
                ),
                "last_window_end": max((x["hq_window_end"] for x in open_lines), default=None),
                "next_certification_due": min(dues, default=None),
            }
        )
    return {
        "as_of": today.isoformat(),
        "scale": ruleset.tech_hq_recapture_scale,
        "items": items,
        "next": None,
    }
