"""Certificates: issuing BRRAG, UTH and digital media certificates under their caps (BR-12,
UTH-7, UTH-12, UTH-13, DMQ-1..3), the digital media FIFO queue and its roll into the next
fiscal year, certificate reads with lineage and history, and the caps report.

Fiscal-year buckets:
- BRRAG: the `fiscal_year` of the request, the State FY of approval (AMB-4).
- UTH: each 1/10 installment is charged to the FY in which its tax period commences
  (UTH-13, AMB-13). A tax period is an integer year P beginning on the first day of the
  holder's tax-year month (`tax_period_start_month`, else the ruleset's
  `uth_period_start_month`, 1: a calendar-year filer's period P commences in FY P; a July
  filer's in FY P+1). Without `tax_periods`/`credit_year` the first period is
  `fiscal_year - 1`.
- DM_CBT / DM_GIT: the `fiscal_year` of the request is the FY in which the credited
  privilege period or taxable year commences (AMB-23).

Cap usage lives in `cap_usage` rows `f"{bucket}:{fy}"` (fy 0 for the UTH cumulative cap),
created on first use with the ruleset's cap. For a digital media pool, `queued_cents` is
counted on the row of the FY the amount was deferred from, until it is allowed.
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass
from datetime import date
from types import MappingProxyType
from typing import Any

from sqlalchemy import bindparam, func, select
from sqlalchemy.engine import Connection

from market.adapters.eventstore import utcnow_iso
from market.adapters.queries import Query
from market.adapters.tables import CapUsage, Certificate, EventRow, Listing, QueueEntry, Transfer
from market.domain.errors import InvalidRequestError, TaxTypeNotAllowedError
from market.domain.programs import Program, TaxType, buyer_tax_types, waiver_statement
from market.domain.rules import brrag, dm_queue, uth
from market.domain.rules.activities import normalize_activity_ids
from market.domain.rules.credit_use import carryover_last_year
from market.domain.rulesets import Ruleset
from market.services import certificate_reads, clock, halts
from market.services.actor import AUTHORITY, Actor
from market.services.errors import BadRequestError, NotFoundError, not_found
from market.services.numbering import new_id, next_number
from market.services.paging import split_page
from market.services.parties import load_party
from market.services.uow import UnitOfWork

certs_t = Certificate.__table__  # type: ignore[attr-defined]
caps_t = CapUsage.__table__  # type: ignore[attr-defined]
queue_t = QueueEntry.__table__  # type: ignore[attr-defined]
events_t = EventRow.__table__  # type: ignore[attr-defined]
transfers_t = Transfer.__table__  # type: ignore[attr-defined]
listings_t = Listing.__table__  # type: ignore[attr-defined]

ISSUABLE = (Program.BRRAG, Program.UTH, Program.DM_GIT, Program.DM_CBT)
BUCKETS = (
    "BRRAG",
    "UTH",
    "UTH_CUMULATIVE",
    "DM_CBT",
    "DM_GIT_FILM_POOL",
    "TECH",
    "TECH_ZONE_SET_ASIDE",
)
POOLS = (dm_queue.DM_CBT, dm_queue.DM_GIT_FILM_POOL)


@dataclass(frozen=True)
class NewCertificate:
    program: str
    holder_party_id: str
    face_cents: int
    fiscal_year: int
    tax_types: list[str] | None = None
    tax_periods: list[int] | None = None
    credit_year: int | None = None
    creditable_activity_ids: list[str] | None = None  # PT-1 registry (AMB-56)
    # BRRAG awards (BR-1, BR-2, BR-6): required for BRRAG, refused for other programs.
    retained_jobs: int | None = None
    award_years: int | None = None
    nj_operations_since: date | None = None
    cannot_use_before_expiry: bool | None = None
    # UTH-13: the month the holder's tax year begins (None: the ruleset's, calendar years).
    tax_period_start_month: int | None = None


ACTIVITY_KEY = "creditable_activity_ids"


def cap_id(bucket: str, fiscal_year: int) -> str:
    return f"{bucket}:{fiscal_year}"


def bucket_cap_cents(bucket: str, ruleset: Ruleset) -> int:
    caps = {
        "BRRAG": ruleset.brrag_fy_cap_cents,
        "UTH": ruleset.uth_fy_cap_cents,
        "UTH_CUMULATIVE": ruleset.uth_cumulative_cap_cents,
        "DM_CBT": ruleset.dm_cbt_pool_cents,
        "DM_GIT_FILM_POOL": ruleset.dm_git_film_pool_cents,
        "TECH": ruleset.tech_fy_cap_cents,
        "TECH_ZONE_SET_ASIDE": ruleset.tech_zone_setaside_cents,
    }
    return caps[bucket]


def uth_period_fiscal_year(period: int, ruleset: Ruleset, start_month: int | None = None) -> int:
    """UTH-13 / AMB-13: the FY in which tax period P commences (uth.period_commences_on:
    January 1 of P for a calendar-year filer, so FY P; July 1 of P, FY P+1), or with the
    ruleset's `approval` reading the FY of the business date of issuance."""
    commences = uth.period_commences_on(period, ruleset, start_month)
    return uth.bucket_fiscal_year(commences, clock.today(), ruleset)


def certificate_status(allowed_cents: int, balance_cents: int, queued_cents: int) -> str:
    """`queued`/`partially_queued` while a pool defers part of it, `exhausted` once nothing
    is usable or waiting, `issued` otherwise."""
    if queued_cents > 0:
        return "partially_queued" if allowed_cents > 0 else "queued"
    return "issued" if balance_cents > 0 else "exhausted"


def parse_program(value: str) -> Program:
    try:
        return Program(value)
    except ValueError:
        raise InvalidRequestError(
            f"Unknown program {value!r}.", {"program": value, "known": [p.value for p in Program]}
        ) from None


# ---- issuing ---------------------------------------------------------------------------


def issue_certificate(
    uow: UnitOfWork, actor: Actor, new: NewCertificate, ruleset: Ruleset
) -> dict[str, Any]:
    actor.require(AUTHORITY)
    program = parse_program(new.program)
    if program not in ISSUABLE:
        raise InvalidRequestError(
            "TECH certificates are issued only by the fiscal-year allocation "
            "(POST /api/v1/tech/allocations/{fiscal_year}).",
            {"program": str(program)},
        )
    if new.face_cents <= 0:
        raise InvalidRequestError("face_cents must be positive.", {"face_cents": new.face_cents})
    activity_ids = normalize_activity_ids(new.creditable_activity_ids)
    if program is not Program.UTH and new.tax_period_start_month is not None:
        raise BadRequestError(
            "validation_failed",
            "tax_period_start_month sets when a UTH installment's tax period begins (UTH-13).",
            {"program": program.value},
        )
    award_facts = (new.retained_jobs, new.award_years, new.nj_operations_since)
    if program is not Program.BRRAG and (
        any(f is not None for f in award_facts) or new.cannot_use_before_expiry is not None
    ):
        raise BadRequestError(
            "validation_failed",
            "retained_jobs, award_years, nj_operations_since and cannot_use_before_expiry "
            "describe a BRRAG award only.",
            {"program": program.value},
        )
    holder = load_party(uow.conn, new.holder_party_id)
    tax_types = _certificate_tax_types(program, new.tax_types)
    cert_id = new_id("crt")
    waiver = (
        ""
        if program is Program.BRRAG and not ruleset.brrag_print_waiver
        else waiver_statement(program, new.face_cents, str(holder["name"]))
    )
    payload: dict[str, Any] = {
        "certificate_id": cert_id,
        "number": next_number(uow.conn, program.value, new.fiscal_year),
        "program": program.value,
        "holder_party_id": new.holder_party_id,
        "original_holder_party_id": new.holder_party_id,
        "parent_id": None,
        "root_id": cert_id,
        "origin": "issued",
        "is_original": True,
        "face_cents": new.face_cents,
        "allowed_cents": new.face_cents,
        "queued_cents": 0,
        "status": "issued",
        "fiscal_year": new.fiscal_year,
        "tax_types": tax_types,
        "tax_periods": list(new.tax_periods or []),
        "credit_year": new.credit_year,
        "carryover_last_year": None,
        "waiver_statement": waiver,
        "attributes": {
            "approved_fiscal_year": new.fiscal_year,
            "waiver": bool(waiver),
            ACTIVITY_KEY: activity_ids,
        },
        "ruleset": ruleset.name,
    }
    if new.credit_year is not None and program is not Program.UTH:
        payload["carryover_last_year"] = carryover_last_year(
            program, TaxType(tax_types[0]), new.credit_year, ruleset
        )
    stream = f"certificate-{cert_id}"
    if program is Program.BRRAG:
        payload["attributes"]["brrag_award"] = brrag_award(new, ruleset)
        bucket = cap_id("BRRAG", new.fiscal_year)
        brrag.check_fy_cap(cap_used(uow.conn, bucket), new.face_cents, ruleset)
        uow.append(stream, "CERT_ISSUED", payload, actor.label, new_stream=True)
        charge = _charge("BRRAG", new.fiscal_year, new.face_cents, ruleset)
        uow.append(
            stream, "CAP_CHARGED", {"certificate_id": cert_id, "charges": [charge]}, actor.label
        )
    elif program is Program.UTH:
        _issue_uth(uow, actor, new, payload, ruleset)
    else:
        _issue_dm(uow, actor, program, new, payload, ruleset)
    return certificate_view(uow.conn, cert_id)


def brrag_award(new: NewCertificate, ruleset: Ruleset) -> dict[str, object]:
    """BR-1, BR-2, BR-6 on the business date: what the BRRAG certificate records."""
    facts = {
        "retained_jobs": new.retained_jobs,
        "nj_operations_since": new.nj_operations_since,
        "cannot_use_before_expiry": new.cannot_use_before_expiry,
    }
    missing = [name for name, value in facts.items() if value is None]
    if missing or new.retained_jobs is None or new.nj_operations_since is None:
        raise BadRequestError(
            "validation_failed",
            f"A BRRAG certificate needs the award's {', '.join(missing)} (BR-1, BR-2, BR-6).",
            {"missing": missing},
        )
    award = brrag.BrragAward(
        retained_jobs=new.retained_jobs,
        award_years=new.award_years or 1,
        nj_operations_since=new.nj_operations_since,
        cannot_use_before_expiry=bool(new.cannot_use_before_expiry),
    )
    return brrag.check_award(new.face_cents, award, clock.today(), ruleset)


def _certificate_tax_types(program: Program, requested: list[str] | None) -> list[str]:
    allowed = sorted(t.value for t in buyer_tax_types(program))
    if requested is None:
        return allowed
    chosen = sorted(set(requested))
    if not chosen:
        raise InvalidRequestError("tax_types must not be empty.", {"tax_types": requested})
    refused = [t for t in chosen if t not in allowed]
    if refused:
        raise TaxTypeNotAllowedError(
            f"{program} certificates may not be used against {', '.join(refused)}.",
            {"program": program.value, "tax_types": refused, "allowed": allowed},
        )
    return chosen


def _charge(bucket: str, fiscal_year: int, used_cents: int, ruleset: Ruleset) -> dict[str, Any]:
    return {
        "cap_id": cap_id(bucket, fiscal_year),
        "bucket": bucket,
        "fiscal_year": fiscal_year,
        "cap_cents": bucket_cap_cents(bucket, ruleset),
        "used_cents": used_cents,
        "queued_cents": 0,
    }


def cap_used(conn: Connection, key: str) -> int:
    """Cents a cap row (`cap_id`) has charged; 0 before its first charge."""
    found = conn.execute(select(caps_t.c.used_cents).where(caps_t.c.id == key)).scalar()
    return int(found or 0)


def _uth_first_period(new: NewCertificate) -> int:
    periods = list(new.tax_periods or [])
    if not periods:
        return new.credit_year if new.credit_year is not None else new.fiscal_year - 1
    first = periods[0]
    if periods != list(range(first, first + len(periods))):
        raise InvalidRequestError(
            "For UTH, tax_periods is the first credited tax period, or the consecutive "
            "periods of all the installments.",
            {"tax_periods": periods},
        )
    return first


def _issue_uth(
    uow: UnitOfWork, actor: Actor, new: NewCertificate, payload: dict[str, Any], ruleset: Ruleset
) -> None:
    first = _uth_first_period(new)
    tranches = uth.installments(new.face_cents, first, ruleset)
    if new.tax_periods and len(new.tax_periods) not in (1, len(tranches)):
        raise InvalidRequestError(
            f"A UTH certificate covers {len(tranches)} installments; give the first tax "
            f"period or all {len(tranches)}.",
            {"tax_periods": list(new.tax_periods)},
        )
    per_fy: dict[int, int] = defaultdict(int)
    for period, cents in tranches:
        per_fy[uth_period_fiscal_year(period, ruleset, new.tax_period_start_month)] += cents
    for fy, cents in sorted(per_fy.items()):
        uth.check_fy_cap(cap_used(uow.conn, cap_id("UTH", fy)), cents, ruleset)
    uth.check_cumulative_cap(
        cap_used(uow.conn, cap_id("UTH_CUMULATIVE", 0)), new.face_cents, ruleset
    )
    payload["tax_periods"] = [
        {
            "period": period,
            "fiscal_year": uth_period_fiscal_year(period, ruleset, new.tax_period_start_month),
            "cents": cents,
            "unsold_cents": cents,
            "carryforward_last_period": uth.carryforward_last_period(period, ruleset),
        }
        for period, cents in tranches
    ]
    if payload["credit_year"] is None:
        payload["credit_year"] = first
    cert_id = payload["certificate_id"]
    stream = f"certificate-{cert_id}"
    uow.append(stream, "CERT_ISSUED", payload, actor.label, new_stream=True)
    charges = [_charge("UTH", fy, cents, ruleset) for fy, cents in sorted(per_fy.items())]
    charges.append(_charge("UTH_CUMULATIVE", 0, new.face_cents, ruleset))
    uow.append(stream, "CAP_CHARGED", {"certificate_id": cert_id, "charges": charges}, actor.label)


# ---- digital media pools and the FIFO queue -----------------------------------------------


def _pool_current_fy(conn: Connection, pool: str) -> int | None:
    found = conn.execute(
        select(func.max(caps_t.c.fiscal_year)).where(caps_t.c.bucket == pool)
    ).scalar()
    return int(found) if found is not None else None


def _pool_state(conn: Connection, pool: str) -> dm_queue.PoolLedger:
    used = {
        int(r.fiscal_year): int(r.used_cents)
        for r in conn.execute(select(caps_t).where(caps_t.c.bucket == pool))
    }
    queue = tuple(
        dm_queue.QueueItem(r.id, int(r.remaining_cents), r.received_at)
        for r in conn.execute(
            select(queue_t)
            .where(queue_t.c.pool == pool, queue_t.c.remaining_cents > 0)
            .order_by(queue_t.c.position)
        )
    )
    return dm_queue.PoolLedger(
        pool, MappingProxyType(used), queue, rolled_to=_pool_current_fy(conn, pool)
    )


def roll_pool(
    uow: UnitOfWork, actor: Actor, pool: str, target_fy: int, ruleset: Ruleset
) -> list[dict[str, Any]]:
    """July 1 of each FY after the pool's latest one, up to `target_fy`: allow what is
    queued, in order of receipt (DMQ-3). Returns what was allowed."""
    current = _pool_current_fy(uow.conn, pool)
    done: list[dict[str, Any]] = []
    if current is None or target_fy <= current:
        return done
    cap = dm_queue.pool_cap_cents(pool, ruleset)
    for fy in range(current + 1, target_fy + 1):
        state = _pool_state(uow.conn, pool)
        if not state.queue:
            break
        _, allowed = dm_queue.roll_to(state, fy, ruleset)
        for cert_id, cents, bucket_fy in allowed:
            cert = load_certificate(uow.conn, cert_id)
            entry = uow.conn.execute(select(queue_t).where(queue_t.c.id == cert_id)).one()
            status = certificate_status(
                int(cert["allowed_cents"]) + cents,
                int(cert["balance_cents"]) + cents,
                int(cert["queued_cents"]) - cents,
            )
            event = {
                "certificate_id": cert_id,
                "pool": pool,
                "fiscal_year": bucket_fy,
                "cap_id": cap_id(pool, bucket_fy),
                "cap_cents": cap,
                "allowed_cents": cents,
                "status": status,
                "from_queue": True,
                "queued_cap_id": cap_id(pool, int(entry.origin_fiscal_year)),
                "remaining_cents": int(entry.remaining_cents) - cents,
                "effective_date": date(bucket_fy - 1, 7, 1).isoformat(),
            }
            uow.append(f"certificate-{cert_id}", "QUEUE_ALLOWED", event, actor.label)
            done.append(
                {
                    "certificate_id": cert_id,
                    "pool": pool,
                    "fiscal_year": bucket_fy,
                    "allowed_cents": cents,
                }
            )
    return done


def roll_fiscal_year(
    uow: UnitOfWork, actor: Actor, fiscal_year: int, ruleset: Ruleset
) -> dict[str, Any]:
    """The `roll-fiscal-year` command: every pool reaches `fiscal_year`."""
    actor.require(AUTHORITY)
    allowed: list[dict[str, Any]] = []
    for pool in POOLS:
        allowed.extend(roll_pool(uow, actor, pool, fiscal_year, ruleset))
    return {"fiscal_year": fiscal_year, "allowed": allowed}


def _issue_dm(
    uow: UnitOfWork,
    actor: Actor,
    program: Program,
    new: NewCertificate,
    payload: dict[str, Any],
    ruleset: Ruleset,
) -> None:
    pool = dm_queue.pool_for(program)
    fy = new.fiscal_year
    # The ledger reaches a later fiscal year of the pool before processing this request.
    roll_pool(uow, actor, pool, fy, ruleset)
    cert_id = payload["certificate_id"]
    received_at = utcnow_iso()
    state = _pool_state(uow.conn, pool)
    item = dm_queue.QueueItem(cert_id, new.face_cents, received_at)
    _, allowed, deferred = dm_queue.admit(state, item, fy, ruleset)
    stream = f"certificate-{cert_id}"
    cap = dm_queue.pool_cap_cents(pool, ruleset)
    payload |= {"allowed_cents": 0, "queued_cents": new.face_cents, "status": "queued"}
    payload["attributes"] = payload["attributes"] | {"pool": pool, "received_at": received_at}
    uow.append(stream, "CERT_ISSUED", payload, actor.label, new_stream=True)
    if allowed:
        uow.append(
            stream,
            "QUEUE_ALLOWED",
            {
                "certificate_id": cert_id,
                "pool": pool,
                "fiscal_year": fy,
                "cap_id": cap_id(pool, fy),
                "cap_cents": cap,
                "allowed_cents": allowed,
                "status": certificate_status(allowed, allowed, deferred),
                "from_queue": False,
            },
            actor.label,
        )
    if deferred:
        position = uow.conn.execute(
            select(func.max(queue_t.c.position)).where(queue_t.c.pool == pool)
        ).scalar()
        uow.append(
            stream,
            "QUEUE_DEFERRED",
            {
                "certificate_id": cert_id,
                "pool": pool,
                "fiscal_year": fy,
                "cap_id": cap_id(pool, fy),
                "cap_cents": cap,
                "deferred_cents": deferred,
                "received_at": received_at,
                "position": int(position or 0) + 1,
            },
            actor.label,
        )


# ---- reads ---------------------------------------------------------------------------


# Built once (market.adapters.queries): read on every trade.
_CERT_BY_ID = Query(select(certs_t).where(certs_t.c.id == bindparam("certificate_id")))


def load_certificate(conn: Connection, certificate_id: str) -> dict[str, Any]:
    row = _CERT_BY_ID.first(conn, {"certificate_id": certificate_id})
    if row is None:
        raise NotFoundError(
            f"Certificate {certificate_id} does not exist.", {"certificate_id": certificate_id}
        )
    return row


def uth_tranches(cert: dict[str, Any]) -> list[dict[str, Any]] | None:
    """A UTH certificate's installments (copies), or None for other programs, whose
    `tax_periods` are plain period numbers."""
    periods = list(cert["tax_periods"] or [])
    if cert["program"] != Program.UTH.value or not periods or not isinstance(periods[0], dict):
        return None
    return [dict(t) for t in periods]


def activity_ids_of(conn: Connection, cert: dict[str, Any]) -> list[str]:
    """PT-1: the certificate's creditable activity ids. A derived certificate carries its
    parent's in `attributes`; one whose CERT_ISSUED payload did not copy them (a transfer
    approved before they were inherited) has its root's, the award the activity belongs to."""
    own = dict(cert["attributes"] or {})
    if ACTIVITY_KEY in own or cert["root_id"] == cert["id"]:
        return list(own.get(ACTIVITY_KEY) or [])
    root = conn.execute(
        select(certs_t.c.attributes).where(certs_t.c.id == cert["root_id"])
    ).scalar()
    return list(dict(root or {}).get(ACTIVITY_KEY) or [])


def certificate_view(
    conn: Connection, certificate_id: str, *, children_after: int | None = None
) -> dict[str, Any]:
    """The certificate with its ancestors (up to 50) and a page of its children
    (`lineage.children_next` is the cursor of the next page, or None)."""
    cert = load_certificate(conn, certificate_id)
    ancestors: list[dict[str, Any]] = []
    parent_id = cert["parent_id"]
    while parent_id is not None and len(ancestors) < 50:
        parent = load_certificate(conn, parent_id)
        ancestors.append(certificate_reads.brief(parent))
        parent_id = parent["parent_id"]
    children, children_next = certificate_reads.children_page(conn, certificate_id, children_after)
    cert["lineage"] = {
        "ancestors": ancestors,
        "children": children,
        "children_next": children_next,
    }
    cert["halted"] = halts.is_halted(conn, cert)  # PRODUCT.md 8.3
    cert[ACTIVITY_KEY] = activity_ids_of(conn, cert)
    return cert


def get_certificate(
    conn: Connection,
    actor: Actor,
    certificate_id: str,
    *,
    children_after: int | None = None,
    history_after: int | None = None,
) -> dict[str, Any]:
    """The certificate, a page of its children and a page of its history (`history_next`
    is the seq to ask for the next one from, or None)."""
    cert = load_certificate(conn, certificate_id)
    actor.require_reader_of(
        cert["holder_party_id"], not_found("Certificate", "certificate_id", certificate_id)
    )
    view = certificate_view(conn, certificate_id, children_after=children_after)
    view["history"], view["history_next"] = certificate_reads.history_page(
        conn, certificate_id, history_after
    )
    return view


def certificate_history(conn: Connection, certificate_id: str) -> list[dict[str, Any]]:
    """The first page of the certificate's history (`certificate_reads.history_page`)."""
    return certificate_reads.history_page(conn, certificate_id)[0]


def list_party_certificates(
    conn: Connection, actor: Actor, party_id: str, after: int | None, limit: int
) -> tuple[list[dict[str, Any]], int | None]:
    load_party(conn, party_id)
    actor.require_reader_of(party_id, not_found("Party", "party_id", party_id))
    stmt = (
        select(certs_t)
        .where(certs_t.c.holder_party_id == party_id)
        .order_by(certs_t.c.issued_seq)
        .limit(limit + 1)
    )
    if after is not None:
        stmt = stmt.where(certs_t.c.issued_seq > after)
    rows = [dict(r) for r in conn.execute(stmt).mappings()]
    halted = halts.halted_among(conn, rows)  # PRODUCT.md 8.3
    for row in rows:
        row[ACTIVITY_KEY] = activity_ids_of(conn, row)
        row["halted"] = row["id"] in halted
    return split_page(rows, limit, lambda r: int(r["issued_seq"]))


def caps_report(conn: Connection, fiscal_year: int, ruleset: Ruleset) -> dict[str, Any]:
    """One row per program cap or pool for the fiscal year; UTH_CUMULATIVE is lifetime."""
    programs = []
    for bucket in BUCKETS:
        key = cap_id(bucket, 0 if bucket == "UTH_CUMULATIVE" else fiscal_year)
        row = conn.execute(select(caps_t).where(caps_t.c.id == key)).mappings().first()
        cap = int(row["cap_cents"]) if row is not None else bucket_cap_cents(bucket, ruleset)
        used = int(row["used_cents"]) if row is not None else 0
        queued = int(row["queued_cents"]) if row is not None else 0
        programs.append(
            {
                "program": bucket,
                "cap_cents": cap,
                "used_cents": used,
                "queued_cents": queued,
                "remaining_cents": max(0, cap - used),
            }
        )
    return {"fiscal_year": fiscal_year, "programs": programs}
