"""The demo's businesses, their ownership and their logins."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date
from functools import partial

from market.domain.commands.parties import RecordOwnership
from market.services.demo.context import EDA, Seeding
from market.services.identity import identity
from market.services.kernel.actor import AUTHORITY, PARTICIPANT
from market.services.kernel.uow import UnitOfWork
from market.services.parties.parties import NewParty, record_ownership, register_party

DEMO_PASSWORD = "demo-password"
AUTHORITY_EMAIL, AUDITOR_EMAIL = "eda@demo.nj", "auditor@demo.nj"


@dataclass(frozen=True)
class DemoParty:
    key: str
    name: str
    entity_type: str
    tax_types: tuple[str, ...]
    login: bool = True
    zone: bool = False
    us_employees: int = 60
    nj_ftes: int = 25
    young: bool = False  # formed two years before the allocated TECH year's filings


PARTIES = [
    DemoParty("meadowlands", "Meadowlands Logistics Inc", "c_corporation", ("CBT",)),
    DemoParty("transit", "Newark Transit Towers LLC", "llc", ("CBT",)),
    DemoParty("pixel", "Hoboken Pixel Studios Inc", "c_corporation", ("CBT",)),
    DemoParty("asbury", "Asbury Park Media LLC", "llc", ("GIT",)),
    DemoParty("photonics", "Princeton Photonics Inc", "c_corporation", ("CBT",), zone=True),
    DemoParty("bioworks", "Camden BioWorks Inc", "c_corporation", ("CBT",), zone=True),
    DemoParty("genomics", "New Brunswick Genomics Inc", "c_corporation", ("CBT",)),
    DemoParty("quantum", "Trenton Quantum Labs Inc", "c_corporation", ("CBT",)),
    DemoParty("meddev", "Morristown MedDevices Inc", "c_corporation", ("CBT",)),
    DemoParty("robotics", "Hackensack Robotics Inc", "c_corporation", ("CBT",), login=False),
    DemoParty(
        "sensors", "Montclair Sensors LLC", "llc", ("CBT",), login=False, nj_ftes=3, young=True
    ),
    DemoParty("insurer", "Garden State Mutual Insurance Co", "insurance_company", ("IPT",)),
    DemoParty("utility", "Jersey Shore Utilities Inc", "c_corporation", ("CBT",)),
    DemoParty("raritan", "Raritan Partners LP", "partnership", ("GIT",)),
    DemoParty("liberty", "Liberty Ventures LLC", "llc", ("GIT",), login=False),
    DemoParty("partner_a", "Alice Alvarez", "individual", ("GIT",), login=False),
    DemoParty("partner_b", "Ben Okafor", "individual", ("GIT",), login=False),
    DemoParty("partner_c", "Chen Li", "individual", ("GIT",), login=False),
]

# (owned, owner, voting bps, value bps, income bps)
OWNERS = [
    ("quantum", "liberty", 1000, 1000, None),  # Liberty holds 10% of Trenton Quantum...
    ("utility", "liberty", 600, 600, None),  # ...and 6% of Jersey Shore: affiliated (TB-20)
    ("raritan", "partner_a", 5000, 5000, 5000),
    ("raritan", "partner_b", 3000, 3000, 3000),
    ("raritan", "partner_c", 2000, 2000, 2000),
]


def register_all(s: Seeding) -> None:
    """Register every party, record the ownership, create the logins."""
    for i, p in enumerate(PARTIES):
        formed = date(s.dates.tech_allocated_year - 2, 9, 1) if p.young else date(2008, 5, 1)
        new = NewParty(
            name=p.name,
            tax_id=f"22-{3100000 + i}",
            entity_type=p.entity_type,
            tax_types=list(p.tax_types),
            in_innovation_zone=p.zone,
            us_employees=p.us_employees,
            nj_full_time_employees=p.nj_ftes,
            formed_on=formed.isoformat(),
            operating_income_cents_by_year=s.dates.income_by_year(-400_000_000),
        )
        s.ids[p.key] = s.do(partial(_register, new=new))
    s.say(f"registered {len(s.ids)} parties")
    for owned, owner, voting, value, income in OWNERS:
        s.do(partial(_own, party=s.ids[owned], owner=s.ids[owner], shares=(voting, value, income)))
    identity.create_user(s.engine, AUTHORITY_EMAIL, AUTHORITY, DEMO_PASSWORD)
    identity.create_user(s.engine, AUDITOR_EMAIL, "auditor", DEMO_PASSWORD)
    for p in PARTIES:
        if p.login:
            identity.create_user(
                s.engine, f"{p.key}@demo.nj", PARTICIPANT, DEMO_PASSWORD, s.ids[p.key]
            )


def _register(uow: UnitOfWork, new: NewParty) -> str:
    """The new party's id."""
    return str(register_party(uow, EDA, new)["id"])


def _own(uow: UnitOfWork, party: str, owner: str, shares: tuple[int, int, int | None]) -> None:
    record_ownership(uow, EDA, RecordOwnership(party, owner, *shares))
