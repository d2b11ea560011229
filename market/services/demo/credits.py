"""The demo's credits: BRRAG, UTH and digital media certificates issued in the current
fiscal year (the DM_CBT pool oversubscribed, so part of an issuance waits in the FIFO
queue for the next year's pool), last fiscal year's TECH intake allocated and committed,
and this fiscal year's TECH intake open with applications in it."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date
from fractions import Fraction
from functools import partial
from typing import Any

from market.services.certificates import certificates
from market.services.demo import casefile
from market.services.demo.context import EDA, MILLION, THOUSAND, Seeding
from market.services.tech import tech, tech_allocations

# TECH, the allocated year (request $, of which R&D $, allocation factor), each within the
# $15M lifetime cap: $66.2M asked against the $60M cap, $14M of it from zone businesses.
TECH_REQUESTS = [
    ("photonics", 6_000_000, 2_650_000, "0.62"),
    ("bioworks", 8_000_000, 1_800_000, "0.55"),
    ("genomics", 13_000_000, 0, "1"),
    ("quantum", 15_000_000, 0, "1"),
    ("meddev", 15_000_000, 0, "0.8"),
    ("robotics", 9_000_000, 500_000, "1"),
    ("sensors", 200_000, 200_000, "1"),
]
# TECH, the current year's intake (still open): a paper filing the Authority recorded and
# one the seller files on the business date itself.
TECH_INTAKE = [("bioworks", 3_000_000, 600_000, "0.55", 40), ("photonics", 4_000_000, 0, "1", 0)]


@dataclass
class Credits:
    """The ids of the certificates issued."""

    brrag: str
    uth: str
    dm_cbt: list[str]
    dm_git: str
    tech: dict[str, str]  # party id -> TECH certificate id


def issue_all(s: Seeding) -> Credits:
    d = s.dates

    def issue(key: str, program: str, face: int, fy: int, **extra: Any) -> str:
        new = certificates.NewCertificate(
            program=program, holder_party_id=s.ids[key], face_cents=face, fiscal_year=fy, **extra
        )
        issued = s.do(lambda uow: certificates.issue_certificate(uow, EDA, new, s.ruleset))
        return str(issued["id"])

    brrag = issue(
        "meadowlands",
        "BRRAG",
        2_500 * THOUSAND,
        d.fiscal_year,
        credit_year=d.year,  # BR-11: usable this tax period and the next
        creditable_activity_ids=["meadowlands-hq-relocation"],
        # BR-6: 834 retained jobs x $1,500 x 2 years = $2,502,000 supports the $2.5M face;
        # BR-1: in New Jersey since 1987; BR-2: the determination is on record.
        retained_jobs=834,
        award_years=2,
        nj_operations_since=date(1987, 4, 1),
        cannot_use_before_expiry=True,
    )
    uth = issue(
        "transit",
        "UTH",
        24 * MILLION,
        d.uth_first_period + 1,
        tax_periods=[d.uth_first_period],
        creditable_activity_ids=["newark-transit-hub-tower"],
    )
    dm_cbt = [
        issue("pixel", "DM_CBT", amount * THOUSAND, d.fiscal_year, credit_year=d.year)
        for amount in (2_000, 2_500, 1_200, 300)
    ]
    dm_git = issue(
        "asbury",
        "DM_GIT",
        800 * THOUSAND,
        d.fiscal_year,
        credit_year=d.year,
        creditable_activity_ids=[f"asbury-film-{d.year}"],
    )
    s.say(
        f"issued BRRAG, UTH (periods from {d.uth_first_period}) and digital media certificates"
        f" in FY {d.fiscal_year} (the DM_CBT pool queues $1.0M)"
    )
    return Credits(brrag, uth, dm_cbt, dm_git, _allocate_tech(s))


@dataclass(frozen=True)
class TechRequest:
    """A TECH seller's ask: the party's key, the dollars requested, of which R&D, and its
    allocation factor."""

    key: str
    request: int
    rnd: int
    factor: str


def _application(s: Seeding, asked: TechRequest, received: date | None) -> tech.NewTechApplication:
    # NOL x factor x 9% is the NOL part of the benefit (TB-10): surrender enough NOL.
    rnd, factor = asked.rnd, asked.factor
    nol_cents = int((asked.request - rnd) * 100 / (Fraction(factor) * Fraction(9, 100)))
    return tech.NewTechApplication(
        party_id=s.ids[asked.key],
        received_on=received,
        # TB-6: a paper filing is one the Authority records, with its reason.
        receipt_reason="Paper filing received by mail (demo)" if received else None,
        nol_cents=nol_cents,
        allocation_factor=factor,
        seller_tax_regime="CBT",
        rnd_credit_cents=rnd * 100,
    )


def _allocate_tech(s: Seeding) -> dict[str, str]:
    fy = s.dates.tech_allocated_year
    for key, request, rnd, factor in TECH_REQUESTS:
        received = s.dates.allocated_year_receipt(1 + len(key) % 20)
        app = _application(s, TechRequest(key, request, rnd, factor), received)
        casefile.filed_in_time(s, app, received)  # ADM-6: submitted by June 30
    allocation = s.do(lambda uow: tech_allocations.commit_allocation(uow, EDA, fy, s.ruleset))
    s.say(
        f"TECH FY {fy} allocated {allocation['total_cents'] / 100:,.2f} dollars"
        f" (triggered: {allocation['triggered']})"
    )
    for key, request, rnd, factor, days in TECH_INTAKE:
        paper = s.dates.days_ago(days) if days else None
        app = _application(s, TechRequest(key, request, rnd, factor), paper)
        actor = EDA if paper else s.who(key)
        s.do(partial(tech.submit_application, actor=actor, ruleset=s.ruleset, new=app))
    s.say(f"TECH FY {s.dates.fiscal_year} intake open with {len(TECH_INTAKE)} applications")
    lines: list[dict[str, Any]] = [dict(a) for a in allocation["allocations"]]
    return {a["party_id"]: a["certificate_id"] for a in lines}
