"""The Authority's parties: register a business, record who owns how much of whom, record
an owners' agreement filed with the Director, and see the ownership web as a table beside a
nested list of each party's owners (their owners beneath them). The forms validate with the
API's own schemas (market.validation), so they accept exactly what the API accepts."""

from __future__ import annotations

from typing import Any

from flask import render_template, request
from flask.typing import ResponseReturnValue

from market.domain.commands.parties import RecordOwnership
from market.services.kernel import lookups, runner
from market.services.kernel.uow import ReadOnly
from market.services.parties import ownership_views, parties
from market.services.queries import pickers
from market.services.records import party_facts
from market.validation import OwnerIn, OwnersAgreementIn, PartyFields
from market.web import forms
from market.web.base import actor, bp, engine, roles_required
from market.web.fields import Fields

AGREEMENT_ROWS = 6
PER_PAGE = 50  # registered parties a page, by name
ENTITY_WORDS = {t: t.replace("_", " ") for t in parties.ENTITY_TYPES}


def render_parties(status: int = 200) -> ResponseReturnValue:
    q = (request.args.get("q") or "").strip()[:100]
    with ReadOnly(engine()) as conn:
        asked = request.args.get("page", 1, type=int)
        shown, matching, page, pages = pickers.party_page(conn, q, asked, PER_PAGE)
        total = pickers.party_count(conn) if q else matching
        choices = pickers.party_choices(conn)
        edges = ownership_views.ownership_edges(conn)
        agreements = ownership_views.agreements_in_force(conn)
        facts = party_facts.facts_for(conn, [p["id"] for p in shown])
        # The names the ownership web shows: its parties' only, not every party's.
        names = lookups.names_of(
            conn, [p for e in edges for p in (e["owner_party_id"], e["owned_party_id"])]
        )
    return (
        render_template(
            "party_admin.html",
            parties=shown,
            choices=choices,
            total=total,
            matching=matching,
            page=page,
            pages=pages,
            first=(page - 1) * PER_PAGE + 1,
            q=q,
            names=names,
            edges=edges,
            trees=sorted(
                ownership_views.owner_trees(edges),
                key=lambda t: names.get(t["party_id"], t["party_id"]),
            ),
            agreements=agreements,
            facts=facts,
            entity_types=ENTITY_WORDS,
            tax_types=parties.TAX_TYPES,
            agreement_rows=range(AGREEMENT_ROWS),
            form=request.form,
        ),
        status,
    )


@bp.get("/authority/parties", endpoint="party_admin")
@roles_required("authority")
def party_admin() -> ResponseReturnValue:
    return render_parties()


def _finish(run: Any, message: Any) -> ResponseReturnValue:
    return forms.finish(run, message, render_parties, "pages.party_admin")


@bp.post("/authority/parties", endpoint="register_party")
@roles_required("authority")
def register_party() -> ResponseReturnValue:
    who, form, f = actor(), request.form, Fields(request.form)
    data = {
        "name": (form.get("name") or "").strip(),
        "tax_id": (form.get("tax_id") or "").strip(),
        "entity_type": form.get("entity_type") or "",
        "tax_types": form.getlist("tax_types"),
        "in_innovation_zone": form.get("in_innovation_zone") == "yes",
    }
    loaded = f.load(PartyFields(), data, {k: k for k in data})
    if not f.ok:
        return render_parties(f.refuse())
    new = parties.NewParty(**loaded)
    return _finish(
        lambda: runner.run(engine(), lambda uow: parties.register_party(uow, who, new)),
        lambda p: f"{p['name']} ({p['tax_id']}) registered.",
    )


@bp.post("/authority/parties/ownership", endpoint="record_ownership")
@roles_required("authority")
def record_ownership() -> ResponseReturnValue:
    who, form, f = actor(), request.form, Fields(request.form)
    with ReadOnly(engine()) as conn:
        owned = f.read(
            "owned", lambda: pickers.resolve_party(conn, form.get("owned", ""), "owned party")
        )
        owner = f.read("owner", lambda: pickers.resolve_party(conn, form.get("owner", ""), "owner"))
    data = {
        "owner_party_id": owner["id"] if owner else "",
        "voting_bps": f.percent_bps("voting", "The share of the votes"),
        "value_bps": f.percent_bps("value", "The share of the value"),
        "income_share_bps": f.percent_bps("income", "The share of income", required=False),
    }
    fields = {
        "owner_party_id": "owner",
        "voting_bps": "voting",
        "value_bps": "value",
        "income_share_bps": "income",
    }
    # Every field is checked at once: a value already refused keeps its own message.
    loaded = f.load(OwnerIn(), {k: v for k, v in data.items() if v is not None}, fields)
    if not f.ok or owned is None or owner is None or loaded is None:
        return render_parties(f.refuse())
    return _finish(
        lambda: runner.run(
            engine(),
            lambda uow: parties.record_ownership(uow, who, RecordOwnership(owned["id"], **loaded)),
        ),
        lambda o: f"Recorded: {owner['name']} owns {form.get('voting')}% of the votes and "
        f"{form.get('value')}% of the value of {owned['name']}.",
    )


def _resolver(conn: Any, typed: str) -> Any:
    return lambda: pickers.resolve_party(conn, typed, "owner")


@bp.post("/authority/parties/agreement", endpoint="file_agreement")
@roles_required("authority")
def file_agreement() -> ResponseReturnValue:
    who, form, f = actor(), request.form, Fields(request.form)
    shares: list[dict[str, Any]] = []
    with ReadOnly(engine()) as conn:
        party = f.read(
            "partnership",
            lambda: pickers.resolve_party(conn, form.get("partnership", ""), "partnership"),
        )
        for i in range(AGREEMENT_ROWS):
            typed = (form.get(f"share_owner_{i}") or "").strip()
            if not typed and not (form.get(f"share_pct_{i}") or "").strip():
                continue
            o = f.read(f"share_owner_{i}", _resolver(conn, typed))
            bps = f.percent_bps(f"share_pct_{i}", "The share")
            if o is not None and bps is not None:
                shares.append({"owner_party_id": o["id"], "share_bps": bps})
    if not shares and "share_owner_0" not in f.errors:
        f.errors["share_owner_0"] = "Name at least one owner and its share."
    data: dict[str, Any] = {"shares": shares}
    if (form.get("filed_on") or "").strip():
        data["filed_on"] = form["filed_on"].strip()
    if (form.get("reference") or "").strip():
        data["reference"] = form["reference"].strip()
    fields = {"shares": "share_owner_0", "filed_on": "filed_on", "reference": "reference"}
    loaded = f.load(OwnersAgreementIn(), data, fields) if f.ok else None
    if not f.ok or party is None or loaded is None:
        return render_parties(f.refuse())
    party_id = party["id"]
    new = parties.NewOwnersAgreement(
        shares=[(s["owner_party_id"], s["share_bps"]) for s in loaded["shares"]],
        filed_on=loaded["filed_on"].isoformat(),
        reference=loaded.get("reference"),
    )

    def run() -> Any:
        return runner.run(
            engine(), lambda uow: parties.file_owners_agreement(uow, who, party_id, new)
        )

    return _finish(
        run, lambda a: f"Owners' agreement of {party['name']} recorded (filed {a['filed_on']})."
    )
