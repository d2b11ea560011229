"""Using certificates on returns, closing carryover windows, and GIT pass-through
(CMN-4(d), CMN-8, DMG-5/6, DMC-6, UTH-10/24, TB-27, PT-1..PT-7, AMB-45/52/54/56).

The limits are the domain's (`credit_use`, `pass_through`, `activities`, `programs`); this
module loads the certificate, asks the domain and appends the events.

PT-1 (no duplicate use, AMB-56) is checked on every CREDIT_APPLIED, whatever the tax type,
although §40's text names "a GIT credit": see `market.domain.rules.activities` for why.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from sqlalchemy import func, select
from sqlalchemy.engine import Connection

from market.adapters.projections.store import require
from market.adapters.tables import Certificate, CreditApplication, Ownership
from market.domain.errors import InsufficientBalanceError, InvalidRequestError
from market.domain.programs import Program, TaxType, check_tax_type
from market.domain.rules import activities, credit_use, pass_through, uth
from market.domain.rulesets import Ruleset
from market.services.actor import AUTHORITY, PARTICIPANT, Actor
from market.services.certificates import (
    ACTIVITY_KEY,
    activity_ids_of,
    certificate_status,
    load_certificate,
    uth_tranches,
)
from market.services.errors import BadRequestError, RuleRefusedError, not_found
from market.services.numbering import derived_number, new_id
from market.services.parties import load_party, owners_agreement, ownership_graph
from market.services.uow import UnitOfWork

certs_t = Certificate.__table__  # type: ignore[attr-defined]
credit_apps_t = CreditApplication.__table__  # type: ignore[attr-defined]
owners_t = Ownership.__table__  # type: ignore[attr-defined]

PASS_THROUGH_ENTITIES = ("partnership", "s_corporation", "llc")


@dataclass(frozen=True)
class NewCreditApplication:
    certificate_id: str
    tax_type: str
    tax_year: int
    liability_cents: int
    amount_cents: int
    other_credits_cents: int = 0
    statutory_minimum_cents: int | None = None
    cap40_cents: int | None = None
    # PT-2: the figures of the §40 ratio (entity_income_cents, category_amounts_cents,
    # other_categories_net_cents), when cap40_cents is not given.
    section_40: dict[str, Any] | None = None


def _stream(certificate_id: str) -> str:
    return f"certificate-{certificate_id}"


def check_not_waived(cert: dict[str, Any]) -> None:
    """CMN-4(d): the original holder gave its own claim up (waiver or surrender)."""
    if cert["is_original"] and cert["holder_party_id"] == cert["original_holder_party_id"]:
        raise RuleRefusedError(
            "waived_by_seller",
            "The original holder waived (or surrendered) its own claim to this credit in "
            "exchange for the certificate; only a buyer or a pass-through owner may use it.",
            {"certificate_id": cert["id"], "program": cert["program"]},
        )


def carryover_window(cert: dict[str, Any], tax_type: TaxType, ruleset: Ruleset) -> int | None:
    """The last tax year the certificate may be used in, or None when no window is stated:
    TECH NOL amounts (AMB-45) and UTH, whose 20-period clock runs per tranche."""
    if cert["carryover_last_year"] is not None:
        return int(cert["carryover_last_year"])
    program = Program(cert["program"])
    if program in (Program.TECH, Program.UTH):
        return None
    base = cert["credit_year"] if cert["credit_year"] is not None else cert["fiscal_year"]
    return credit_use.carryover_last_year(program, tax_type, int(base), ruleset)


S40_FIGURES = ("entity_income_cents", "category_amounts_cents", "other_categories_net_cents")


def section_40_cap(
    cert: dict[str, Any],
    holder: dict[str, Any],
    new: NewCreditApplication,
    tax_type: TaxType,
    ruleset: Ruleset,
) -> int | None:
    """PT-2 / PT-7: the most GIT liability the credit may be applied against. Given as
    `cap40_cents`, or computed from the application's `section_40` figures; an owner's
    passed-through credit needs one or the other (never skipped); an individual buying
    directly under the Director's exception has ratio 1 (AMB-53)."""
    if tax_type is not TaxType.GIT:
        return new.cap40_cents
    if new.cap40_cents is not None:
        return new.cap40_cents
    if new.section_40 is not None:
        figures = new.section_40
        ratio = pass_through.liability_share_ratio(
            int(figures["entity_income_cents"]),
            [int(x) for x in figures["category_amounts_cents"]],
            [int(x) for x in figures["other_categories_net_cents"]],
            ruleset,
        )
        return pass_through.cap40_cents(ratio, new.liability_cents)
    if cert["origin"] == "pass_through":
        raise BadRequestError(
            "section_40_figures_required",
            "An owner's use of a passed-through credit against GIT is limited by its §40 "
            "liability-share ratio (PT-2), which the ledger cannot compute without the "
            "owner's income: send section_40 {entity_income_cents, category_amounts_cents, "
            "other_categories_net_cents} or cap40_cents.",
            {"missing": ["section_40", "cap40_cents"], "figures": list(S40_FIGURES)},
        )
    if holder["entity_type"] == "individual" and holder.get("director_exception"):
        return new.liability_cents  # PT-7 / AMB-53: ratio = 1
    return None


def _applied_this_year(conn: Connection, party_id: str, tax_type: str, tax_year: int) -> int:
    total = conn.execute(
        select(func.coalesce(func.sum(credit_apps_t.c.applied_cents), 0)).where(
            credit_apps_t.c.party_id == party_id,
            credit_apps_t.c.tax_type == tax_type,
            credit_apps_t.c.tax_year == tax_year,
        )
    ).scalar()
    return int(total or 0)


_WITHHELD_WORDS = {
    "frozen": "the unapplied credit of tax period {periods} is frozen: the Authority's annual "
    "review reduced or forfeited that installment after it was transferred, and an "
    "EDA/Director determination is pending (UTH-26)",
    "conditional": "tax period {periods} was bought as a conditional tranche and the "
    "Authority has not reviewed it yet (UTH-27, AMB-18)",
    "not_yet_usable": "the installment of tax period {periods} is first usable on a return "
    "for the tax year in which that period ends (AMB-15)",
    "expired": "the installment of tax period {periods} was carried forward for its 20 "
    "successive periods and has expired (UTH-10)",
}


def _usable_balance(
    cert: dict[str, Any], tranches: list[dict[str, Any]], balance: int, tax_year: int
) -> tuple[int, dict[str, tuple[int, list[int]]]]:
    """The balance less what tranches not usable in `tax_year` withhold (uth.withheld), and
    those; refused, naming every reason, when they withhold all that is left, with the code
    of the first (`tranche_at_risk`, `tranche_not_reviewed`, `tranche_not_yet_usable`,
    `carryforward_expired`)."""
    held = uth.withheld(tranches, tax_year)
    available = max(0, balance - sum(cents for cents, _ in held.values()))
    if available or not held:
        return available, held
    details: dict[str, Any] = {
        "certificate_id": cert["id"],
        "balance_cents": balance,
        "tax_year": tax_year,
    }
    reasons = []
    for state in uth.WITHHELD:
        if state in held:
            cents, periods = held[state]
            details |= {f"{state}_cents": cents, f"{state}_periods": periods}
            words = ", ".join(str(p) for p in periods)
            reasons.append(_WITHHELD_WORDS[state].format(periods=words))
    first = next(state for state in uth.WITHHELD if state in held)
    raise RuleRefusedError(
        uth.WITHHELD[first],
        "Nothing on this certificate can be applied for tax year "
        f"{tax_year}: " + "; ".join(reasons) + ".",
        details | {"tax_periods": held[first][1]},
    )


def _prior_uses(conn: Connection, parties: frozenset[str]) -> list[activities.PriorUse]:
    """Every CREDIT_APPLIED of a positive amount by one of `parties`, with the activity ids
    of the certificate it used."""
    rows = conn.execute(
        select(
            credit_apps_t.c.id.label("application_id"),
            credit_apps_t.c.party_id,
            credit_apps_t.c.tax_type,
            credit_apps_t.c.tax_year,
            certs_t.c.id,
            certs_t.c.number,
            certs_t.c.root_id,
            certs_t.c.attributes,
        )
        .join(certs_t, certs_t.c.id == credit_apps_t.c.certificate_id)
        .where(credit_apps_t.c.party_id.in_(sorted(parties)), credit_apps_t.c.applied_cents > 0)
        .order_by(credit_apps_t.c.tax_year, credit_apps_t.c.id)
    ).mappings()
    return [
        activities.PriorUse(
            application_id=r["application_id"],
            party_id=r["party_id"],
            certificate_id=r["id"],
            certificate_number=r["number"],
            root_id=r["root_id"],
            tax_type=r["tax_type"],
            tax_year=int(r["tax_year"]),
            activity_ids=tuple(activity_ids_of(conn, dict(r))),
        )
        for r in [dict(x) for x in rows]
    ]


def check_activities_unused(
    conn: Connection, cert: dict[str, Any], party_id: str, ruleset: Ruleset
) -> list[str]:
    """PT-1 / AMB-56: refuse `activity_already_used` when another credit (another root)
    sharing one of the certificate's creditable activities was already applied on a return
    by the applicant or, under the default scope, anyone in its ownership chain. Returns the
    activity ids checked."""
    ids = activity_ids_of(conn, cert)
    if not ids:
        return ids
    scope = ruleset.pt1_activity_scope
    parties = activities.parties_in_scope(ownership_graph(conn), party_id, scope)
    conflicts = activities.conflicting_uses(ids, cert["root_id"], _prior_uses(conn, parties))
    if not conflicts:
        return ids
    names = {c.use.party_id: load_party(conn, c.use.party_id)["name"] for c in conflicts}
    shared = list(dict.fromkeys(a for c in conflicts for a in c.activity_ids))
    used = "; ".join(
        f"{', '.join(c.activity_ids)} by {names[c.use.party_id]} ({c.use.party_id}) with "
        f"certificate {c.use.certificate_number} against {c.use.tax_type} for {c.use.tax_year}"
        for c in conflicts
    )
    raise RuleRefusedError(
        "activity_already_used",
        f"Creditable activity {', '.join(shared)} was already used for another State tax "
        f"credit: {used}. A credit is not allowed for an activity already used (PT-1, "
        f"scope {scope}).",
        {
            "certificate_id": cert["id"],
            "creditable_activity_ids": shared,
            "scope": scope,
            "conflicts": [
                {
                    "activity_ids": list(c.activity_ids),
                    "application_id": c.use.application_id,
                    "certificate_id": c.use.certificate_id,
                    "certificate_number": c.use.certificate_number,
                    "party_id": c.use.party_id,
                    "party_name": names[c.use.party_id],
                    "tax_type": c.use.tax_type,
                    "tax_year": c.use.tax_year,
                }
                for c in conflicts
            ],
        },
    )


def apply_to_return(
    uow: UnitOfWork, actor: Actor, ruleset: Ruleset, new: NewCreditApplication
) -> dict[str, Any]:
    """CREDIT_APPLIED: the smallest limit binds; the rest stays on the certificate."""
    actor.require(AUTHORITY, PARTICIPANT)
    cert = load_certificate(uow.conn, new.certificate_id)
    actor.require_party(
        cert["holder_party_id"], not_found("Certificate", "certificate_id", new.certificate_id)
    )
    program = Program(cert["program"])
    try:
        tax_type = TaxType(new.tax_type)
    except ValueError:
        raise InvalidRequestError("tax_type must be CBT, GIT or IPT.", {}) from None
    check_tax_type(program, tax_type)
    holder = load_party(uow.conn, cert["holder_party_id"])
    if tax_type.value not in holder["tax_types"]:
        raise RuleRefusedError(
            "tax_type_not_allowed",
            f"The holder is not registered for {tax_type}; it files no such return.",
            {"tax_type": tax_type.value, "holder_tax_types": list(holder["tax_types"])},
        )
    check_not_waived(cert)
    pass_through.check_direct_git_use(str(holder["entity_type"]), tax_type.value)
    last = carryover_window(cert, tax_type, ruleset)
    if last is not None and new.tax_year > last:
        raise RuleRefusedError(
            "carryforward_expired",
            f"This credit could be carried forward to tax year {last} at the latest.",
            {"certificate_id": cert["id"], "carryover_last_year": last, "tax_year": new.tax_year},
        )
    if cert["credit_year"] is not None and new.tax_year < int(cert["credit_year"]):
        raise InvalidRequestError(
            f"The credit is first usable in tax year {cert['credit_year']}.",
            {"credit_year": cert["credit_year"], "tax_year": new.tax_year},
        )
    balance = int(cert["balance_cents"])
    if balance == 0:
        raise InsufficientBalanceError(
            "Nothing on this certificate is usable (queued amounts are not).",
            {"balance_cents": 0, "queued_cents": int(cert["queued_cents"])},
        )
    tranches = uth_tranches(cert)
    available, withheld = balance, dict[str, tuple[int, list[int]]]()
    if tranches is not None:
        available, withheld = _usable_balance(cert, tranches, balance, new.tax_year)
    activity_ids = check_activities_unused(uow.conn, cert, holder["id"], ruleset)
    statutory_minimum = new.statutory_minimum_cents
    if statutory_minimum is None:
        statutory_minimum = ruleset.cbt_statutory_minimum_by_year.get(new.tax_year, 0)
    cap40 = section_40_cap(cert, holder, new, tax_type, ruleset)
    earlier = _applied_this_year(uow.conn, holder["id"], tax_type.value, new.tax_year)
    other = new.other_credits_cents + earlier
    use = credit_use.apply_credit(
        credit_use.CreditLimitInput(
            program=program,
            tax_type=tax_type,
            available_cents=available,
            liability_cents=new.liability_cents,
            other_credits_cents=other,
            statutory_minimum_cents=statutory_minimum,
            cap40_cents=cap40,
        ),
        new.amount_cents,
        ruleset,
    )
    application_id = new_id("capp")
    after = balance - use.applied_cents
    payload = {
        "application_id": application_id,
        "certificate_id": cert["id"],
        "party_id": holder["id"],
        "tax_type": tax_type.value,
        "tax_year": new.tax_year,
        "liability_cents": new.liability_cents,
        "other_credits_cents": other,
        "statutory_minimum_cents": statutory_minimum,
        "requested_cents": new.amount_cents,
        "applied_cents": use.applied_cents,
        "carried_forward_cents": use.carried_forward_cents,
        "limited_by": use.limited_by,
        "limits": {
            "declared_other_credits_cents": new.other_credits_cents,
            "ledger_other_credits_cents": earlier,
            "cap40_cents": cap40,
            "carryover_last_year": last,
            # PT-1: what the duplicate-use check compared (absent from older events).
            "creditable_activity_ids": activity_ids,
            "pt1_activity_scope": ruleset.pt1_activity_scope,
        },
        "certificate_status": certificate_status(
            int(cert["allowed_cents"]), after, int(cert["queued_cents"])
        ),
        "ruleset": ruleset.name,
    }
    if tranches is not None:
        payload["limits"]["uth_withheld_cents"] = {k: v[0] for k, v in withheld.items()}
        payload["tax_periods"] = uth.consume_tranches(tranches, use.applied_cents, new.tax_year)
    uow.append(_stream(cert["id"]), "CREDIT_APPLIED", payload, actor.label)
    return load_credit_application(uow.conn, application_id)


def load_credit_application(conn: Connection, application_id: str) -> dict[str, Any]:
    row = (
        conn.execute(select(credit_apps_t).where(credit_apps_t.c.id == application_id))
        .mappings()
        .one()
    )
    return dict(row)


def expire_carryforwards(
    uow: UnitOfWork, actor: Actor, ruleset: Ruleset, tax_year: int
) -> list[dict[str, Any]]:
    """CARRYFORWARD_EXPIRED for every held (non-original) certificate whose window closed
    before `tax_year`: its remaining balance moves to expired_cents. A UTH certificate's
    tranches each have their own window (UTH-10): only what is left of those that closed
    expires, and the event records the tranches afterwards."""
    actor.require(AUTHORITY)
    expired: list[dict[str, Any]] = []
    rows = uow.conn.execute(
        select(certs_t)
        .where(certs_t.c.balance_cents > 0, certs_t.c.is_original.is_(False))
        .order_by(certs_t.c.issued_seq)
    ).mappings()
    held = [dict(r) for r in rows]
    uow.events.read_versions(_stream(c["id"]) for c in held)  # one query per 1,000, not each
    for cert in held:
        uow.store.remember("certificates", cert)  # read under the head lock: no second read
        tax_type = TaxType(sorted(cert["tax_types"])[0])
        last = carryover_window(cert, tax_type, ruleset)
        tranches = uth_tranches(cert)
        after: list[dict[str, Any]] | None = None
        if tranches is not None:  # UTH-10: each tranche has its own 20 periods
            amount, after = uth.expire_tranches(tranches, tax_year)
            last = max(
                (int(t["carryforward_last_period"]) for t in after if t.get("expired_cents")),
                default=None,
            )
        elif last is not None and last < tax_year:
            amount = int(cert["balance_cents"])
        else:
            continue
        amount = min(amount, int(cert["balance_cents"]))
        if amount <= 0:
            continue
        payload = {
            "certificate_id": cert["id"],
            "party_id": cert["holder_party_id"],
            "amount_cents": amount,
            "carryover_last_year": last,
            "tax_year": tax_year,
            "certificate_status": certificate_status(
                int(cert["allowed_cents"]),
                int(cert["balance_cents"]) - amount,
                int(cert["queued_cents"]),
            ),
        }
        if after is not None:
            payload["tax_periods"] = after
        uow.append(_stream(cert["id"]), "CARRYFORWARD_EXPIRED", payload, actor.label)
        expired.append(payload)
    return expired


# ---- pass-through ---------------------------------------------------------------------


def pass_through_allocate(
    uow: UnitOfWork,
    actor: Actor,
    certificate_id: str,
    amount_cents: int | None,
    ruleset: Ruleset,
) -> dict[str, Any]:
    """PT-5/PT-6: an entity's acquired credit goes to its owners by income share; with no
    positive income shares, by the owners' value stakes (AMB-54), flagged for review.

    UTH-14 / AMB-17: a UTH credit held by a partnership that filed an owners' agreement with
    the Director goes by the agreement's shares instead (under the ruleset's
    `uth_partnership_basis`)."""
    rules = ruleset
    actor.require(AUTHORITY, PARTICIPANT)
    cert = load_certificate(uow.conn, certificate_id)
    actor.require_party(
        cert["holder_party_id"], not_found("Certificate", "certificate_id", certificate_id)
    )
    # Head first: nothing else changes the row before commit, and the copy follows what
    # this unit of work does to it (each owner's certificate adds to children_count).
    uow.store.remember("certificates", cert)
    entity = load_party(uow.conn, cert["holder_party_id"])
    if entity["entity_type"] not in PASS_THROUGH_ENTITIES:
        raise RuleRefusedError(
            "not_a_pass_through_entity",
            f"A {entity['entity_type']} does not pass credits through to owners (PT-5, PT-6).",
            {"entity_type": entity["entity_type"], "allowed": list(PASS_THROUGH_ENTITIES)},
        )
    check_not_waived(cert)
    balance = int(cert["balance_cents"])
    amount = balance if amount_cents is None else amount_cents
    if amount <= 0 or amount > balance:
        raise InsufficientBalanceError(
            f"{amount} cents cannot be passed through; {balance} cents are usable.",
            {"amount_cents": amount, "balance_cents": balance},
        )
    edges = [
        dict(r)
        for r in uow.conn.execute(
            select(owners_t)
            .where(owners_t.c.owned_party_id == entity["id"])
            .order_by(owners_t.c.owner_party_id)
        ).mappings()
    ]
    if not edges:
        raise InvalidRequestError(
            "The entity has no recorded owners to allocate to.", {"party_id": entity["id"]}
        )
    income = {e["owner_party_id"]: int(e["income_share_bps"] or 0) for e in edges}
    value = {e["owner_party_id"]: int(e["value_bps"]) for e in edges}
    agreement = owners_agreement(uow.conn, entity["id"])
    basis = pass_through.allocation_basis(
        Program(cert["program"]), entity["entity_type"], agreement is not None, rules
    )
    agreed: dict[str, int] = {}
    agreement_basis: dict[str, Any] | None = None
    if basis == "owners_agreement" and agreement is not None:
        agreed = {s["owner_party_id"]: int(s["share_bps"]) for s in agreement["shares"]}
        split = pass_through.allocate_by_agreement(amount, agreed)
        fallback = False
        agreement_basis = {
            "agreement_id": agreement["agreement_id"],
            "filed_on": agreement["filed_on"],
            "reference": agreement["reference"],
            "shares": agreement["shares"],
        }
    else:
        split = pass_through.allocate_by_income_share(amount, income, value)
        fallback = sum(income.values()) <= 0
        basis = "profit_sharing_fallback" if fallback else "income_share"
    allocations: list[dict[str, Any]] = []
    for owner_id, cents in sorted(split.items()):
        if cents > 0:
            allocations.append(
                {"party_id": owner_id, "amount_cents": cents, "certificate_id": new_id("crt")}
            )
    payload = {
        "certificate_id": cert["id"],
        "party_id": entity["id"],
        "amount_cents": amount,
        "basis": basis,
        "owners_agreement": agreement_basis,
        "uth_partnership_basis": rules.uth_partnership_basis,
        "ruleset": rules.name,
        "director_review": fallback,
        "allocations": allocations,
        "certificate_status": certificate_status(
            int(cert["allowed_cents"]), balance - amount, int(cert["queued_cents"])
        ),
    }
    tranches = uth_tranches(cert)
    owner_tranches: dict[str, list[dict[str, Any]]] = {}
    if tranches is not None:
        # UTH-24: each owner's certificate holds its share of the tranches it came from.
        payload["tax_periods"], owner_tranches = uth.pass_through_tranches(
            tranches, {a["party_id"]: a["amount_cents"] for a in allocations}
        )
    stream = _stream(cert["id"])
    uow.append(stream, "PASS_THROUGH_ALLOCATED", payload, actor.label)
    # PT-1: the owners' certificates carry the entity's creditable activities.
    inherited = {ACTIVITY_KEY: activity_ids_of(uow.conn, cert)}
    for a in allocations:
        shares = {"income_share_bps": income[a["party_id"]], "value_bps": value[a["party_id"]]}
        if agreed:
            shares["agreement_share_bps"] = agreed[a["party_id"]]
        owner_cert = {
            "certificate_id": a["certificate_id"],
            "number": derived_number(require(uow.store, "certificates", cert["id"]), "P"),
            "program": cert["program"],
            "holder_party_id": a["party_id"],
            "original_holder_party_id": cert["original_holder_party_id"],
            "parent_id": cert["id"],
            "root_id": cert["root_id"],
            "origin": "pass_through",
            "is_original": False,
            "face_cents": a["amount_cents"],
            "allowed_cents": a["amount_cents"],
            "queued_cents": 0,
            "status": "issued",
            "fiscal_year": cert["fiscal_year"],
            "tax_types": list(cert["tax_types"]),
            "tax_periods": owner_tranches.get(a["party_id"], list(cert["tax_periods"])),
            "credit_year": cert["credit_year"],
            "carryover_last_year": cert["carryover_last_year"],
            "waiver_statement": cert["waiver_statement"],
            "attributes": dict(cert["attributes"] or {})
            | {
                "pass_through_from": cert["id"],
                "pass_through_entity_id": entity["id"],
                "pass_through_basis": payload["basis"],
                "director_review": fallback,
            }
            | inherited
            | shares,
            "ruleset": cert["ruleset"],
        }
        uow.append(
            _stream(a["certificate_id"]), "CERT_ISSUED", owner_cert, actor.label, new_stream=True
        )
    return {
        "certificate_id": cert["id"],
        "amount_cents": amount,
        "basis": payload["basis"],
        "owners_agreement": agreement_basis,
        "director_review": fallback,
        "allocations": allocations,
    }
