"""A small market in a FakeUnitOfWork: parties registered by the service, certificates
given as the CERT_ISSUED event issuance appends (TECH ones come from an allocation run,
which these tests do not need), and the actors who act in it."""

from __future__ import annotations

import itertools
from typing import Any

from market.domain.commands.parties import RecordOwnership
from market.domain.events.certificates import certificate_issued
from market.domain.programs import Program, buyer_tax_types
from market.domain.rulesets import A1178
from market.services.kernel.actor import AUTHORITY, PARTICIPANT, Actor
from market.services.parties.parties import NewParty, record_ownership, register_party
from tests.unit.fakes import FakeUnitOfWork

RULES = A1178
AUTHORITY_USER = Actor("u_authority", AUTHORITY)
_tax_ids = itertools.count(1)
_cert_ids = itertools.count(1)


def participant(party_id: str) -> Actor:
    return Actor(f"u_{party_id}", PARTICIPANT, party_id)


def party(uow: FakeUnitOfWork, name: str, **facts: Any) -> str:
    """A party registered by the Authority (CBT and GIT payer, a TECH-eligible business
    unless told otherwise), committed."""
    new = NewParty(
        name=name,
        tax_id=f"{next(_tax_ids):02d}-0000000",
        entity_type=facts.pop("entity_type", "c_corporation"),
        tax_types=facts.pop("tax_types", ["CBT", "GIT"]),
        us_employees=facts.pop("us_employees", 50),
        nj_full_time_employees=facts.pop("nj_full_time_employees", 20),
        formed_on=facts.pop("formed_on", "2010-01-01"),
        **facts,
    )
    with uow:
        found = register_party(uow, AUTHORITY_USER, new)
        uow.commit()
    return str(found["id"])


def owns(
    uow: FakeUnitOfWork, owner: str, owned: str, bps: int, income_bps: int | None = None
) -> None:
    """`owner` holds `bps` of `owned`'s votes and value (and `income_bps` of its income)."""
    with uow:
        record_ownership(uow, AUTHORITY_USER, RecordOwnership(owned, owner, bps, bps, income_bps))
        uow.commit()


def certificate(
    uow: FakeUnitOfWork,
    holder: str,
    program: Program = Program.DM_CBT,
    face_cents: int = 100_000_000,
    fiscal_year: int = 2014,
) -> str:
    """An original certificate issued to `holder` (what issuance or the TECH allocation
    append), committed."""
    cert_id = f"crt_{next(_cert_ids):020d}"
    event = certificate_issued(
        certificate_id=cert_id,
        number=f"{program.value}-{fiscal_year}-{next(_cert_ids):06d}",
        program=program.value,
        holder_party_id=holder,
        origin="allocation" if program is Program.TECH else "issued",
        face_cents=face_cents,
        fiscal_year=fiscal_year,
        tax_types=sorted(t.value for t in buyer_tax_types(program)),
        tax_periods=[],
        credit_year=None if program is Program.TECH else fiscal_year - 1,
        carryover_last_year=None,
        waiver_statement="",
        creditable_activity_ids=[],
        attributes={"received_on": f"{fiscal_year - 1}-09-01"},
        ruleset=RULES.name,
    )
    with uow:
        uow.append(f"certificate-{cert_id}", event, "user:u_authority@authority")
        uow.commit()
    return cert_id
