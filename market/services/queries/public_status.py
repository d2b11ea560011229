"""A filing's public status by its unguessable reference: status, next step and deadline,
and nothing else (no party names, no amounts, no ids)."""

from __future__ import annotations

from typing import TypedDict

from sqlalchemy import Engine, select

from market.adapters.tables import FilingReference, TechApplication, Transfer
from market.domain.rules import tech_caps
from market.domain.rulesets import Ruleset
from market.services.kernel.errors import NotFoundError
from market.services.notify import fanout
from market.services.queries import timelines

refs_t = FilingReference.__table__  # type: ignore[attr-defined]
transfers_t = Transfer.__table__  # type: ignore[attr-defined]
apps_t = TechApplication.__table__  # type: ignore[attr-defined]

KIND_WORDS = {
    "transfer": "transfer of a tax credit transfer certificate",
    "tech_application": "TECH benefit transfer application",
}


class PublicStep(TypedDict):
    status: str
    at: str | None


class PublicStatus(TypedDict):
    """The body of GET /public/status/{reference} and of its page."""

    reference: str
    kind: str
    filing: str
    status: str
    updated_at: str | None
    filed_at: str | None
    next_step: str
    deadline: str | None
    steps: list[PublicStep]


def status(engine: Engine, reference: str, ruleset: Ruleset) -> PublicStatus:
    fanout.catch_up(engine)
    with engine.connect() as conn:
        ref = conn.execute(select(refs_t).where(refs_t.c.reference == reference)).first()
        if ref is None:
            raise NotFoundError("No filing has that reference.", {})
        if ref.kind == "transfer":
            line = timelines.transfer_timeline(conn, ref.entity_id)
            deadline = None
        else:
            year = conn.execute(
                select(apps_t.c.fiscal_year).where(apps_t.c.id == ref.entity_id)
            ).scalar_one()
            line = timelines.tech_timeline(conn, ref.entity_id, int(year))
            deadline = tech_caps.deadline(int(year), ruleset).isoformat()
    current: PublicStep = (
        {"status": line[-1]["status"], "at": line[-1]["at"]}
        if line
        else {"status": "received", "at": None}
    )
    return {
        "reference": reference,
        "kind": ref.kind,
        "filing": KIND_WORDS.get(ref.kind, ref.kind),
        "status": current["status"],
        "updated_at": current["at"],
        "filed_at": line[0]["at"] if line else None,
        "next_step": timelines.next_step(line),
        "deadline": deadline,
        "steps": [{"status": s["status"], "at": s["at"]} for s in line],
    }
