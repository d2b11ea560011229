"""A believable demo market, built through the same services as every other request.

A dozen parties with ownership; BRRAG, UTH and digital media certificates under their caps
(with the DM_CBT pool oversubscribed into the FIFO queue); an oversubscribed TECH fiscal
year with innovation-zone applicants, allocated and committed; listings at 85 to 94 cents
on the dollar; approved and rejected transfers; credits used on returns; a pass-through.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from datetime import date
from fractions import Fraction
from functools import partial
from typing import Any, TypeVar

from sqlalchemy import Engine

from market.adapters.eventstore import event_count
from market.domain.rulesets import Ruleset
from market.services import (
    certificates,
    clock,
    identity,
    pass_through_allocations,
    recaptures,
    returns,
    tech,
    tech_allocations,
    trading,
    uth_reviews,
)
from market.services.actor import AUTHORITY, PARTICIPANT, Actor
from market.services.parties import NewParty, record_ownership, register_party
from market.services.runner import run
from market.services.uow import UnitOfWork

T = TypeVar("T")
DEMO_PASSWORD = "demo-password"
AUTHORITY_EMAIL, AUDITOR_EMAIL = "eda@demo.nj", "auditor@demo.nj"
EDA = Actor(user_id="demo-seed", role=AUTHORITY)
# What the BRRAG and TECH sellers attest their proceeds fund (BR-14, TB-25).
PROCEEDS_USES = {
    "meadowlands": ["real_estate", "tenant_fit_out", "salaries"],
    "photonics": ["research_and_development", "salaries"],
}

_MILLION = 100_000_000  # cents


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
    formed_on: str = "2008-05-01"


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
        "sensors",
        "Montclair Sensors LLC",
        "llc",
        ("CBT",),
        login=False,
        formed_on="2011-09-01",
        nj_ftes=3,
    ),
    DemoParty("insurer", "Garden State Mutual Insurance Co", "insurance_company", ("IPT",)),
    DemoParty("utility", "Jersey Shore Utilities Inc", "c_corporation", ("CBT",)),
    DemoParty("raritan", "Raritan Partners LP", "partnership", ("GIT",)),
    DemoParty("liberty", "Liberty Ventures LLC", "llc", ("GIT",), login=False),
    DemoParty("partner_a", "Alice Alvarez", "individual", ("GIT",), login=False),
    DemoParty("partner_b", "Ben Okafor", "individual", ("GIT",), login=False),
    DemoParty("partner_c", "Chen Li", "individual", ("GIT",), login=False),
]

# TECH FY 2013 (request $, of which R&D $, allocation factor), each within the $15M
# lifetime cap: $66.2M asked against the $60M cap, $14M of it from zone businesses.
TECH_REQUESTS = [
    ("photonics", 6_000_000, 2_650_000, "0.62"),
    ("bioworks", 8_000_000, 1_800_000, "0.55"),
    ("genomics", 13_000_000, 0, "1"),
    ("quantum", 15_000_000, 0, "1"),
    ("meddev", 15_000_000, 0, "0.8"),
    ("robotics", 9_000_000, 500_000, "1"),
    ("sensors", 200_000, 200_000, "1"),
]


DEMO_TODAY = "2014-09-01"  # the business date the demo is built for (PRODUCT.md 8.4)


def is_seeded(engine: Engine) -> bool:
    with engine.connect() as conn:
        return event_count(conn) > 0


def seed(
    engine: Engine, ruleset: Ruleset, say: Callable[[str], None] = lambda _: None
) -> dict[str, Any]:
    """The demo market, built on the business date; unless MARKET_TODAY fixes one, on
    DEMO_TODAY: its credits are the bill's era's, and a credit nobody can use any more is
    not sold (PRODUCT.md 8.4). Serve it with MARKET_TODAY=DEMO_TODAY to trade on it."""
    if clock.is_fixed():
        return _seed(engine, ruleset, say)
    clock.configure(DEMO_TODAY)
    say(f"MARKET_TODAY is not set: seeding on the demo's business date {DEMO_TODAY}")
    try:
        return _seed(engine, ruleset, say)
    finally:
        clock.configure(None)


def _seed(engine: Engine, ruleset: Ruleset, say: Callable[[str], None]) -> dict[str, Any]:
    def do(fn: Callable[[UnitOfWork], T]) -> T:
        return run(engine, fn)

    ids: dict[str, str] = {}
    for i, p in enumerate(PARTIES):
        new = NewParty(
            name=p.name,
            tax_id=f"22-{3100000 + i}",
            entity_type=p.entity_type,
            tax_types=list(p.tax_types),
            in_innovation_zone=p.zone,
            us_employees=p.us_employees,
            nj_full_time_employees=p.nj_ftes,
            formed_on=p.formed_on,
            operating_income_cents_by_year={"2011": -420_000_000, "2012": -380_000_000},
        )
        ids[p.key] = do(partial(_register, new=new))["id"]
    say(f"registered {len(ids)} parties")

    owners = [
        ("quantum", "liberty", 1000, 1000, None),  # Liberty holds 10% of Trenton Quantum...
        ("utility", "liberty", 600, 600, None),  # ...and 6% of Jersey Shore: affiliated (TB-20)
        ("raritan", "partner_a", 5000, 5000, 5000),
        ("raritan", "partner_b", 3000, 3000, 3000),
        ("raritan", "partner_c", 2000, 2000, 2000),
    ]
    for owned, owner, voting, value, income in owners:
        do(partial(_own, party=ids[owned], owner=ids[owner], shares=(voting, value, income)))

    identity.create_user(engine, AUTHORITY_EMAIL, AUTHORITY, DEMO_PASSWORD)
    identity.create_user(engine, AUDITOR_EMAIL, "auditor", DEMO_PASSWORD)
    for p in PARTIES:
        if p.login:
            identity.create_user(engine, f"{p.key}@demo.nj", PARTICIPANT, DEMO_PASSWORD, ids[p.key])

    def who(key: str) -> Actor:
        return Actor(user_id=f"demo-{key}", role=PARTICIPANT, party_id=ids[key])

    def issue(key: str, program: str, face: int, fy: int, **extra: Any) -> dict[str, Any]:
        new = certificates.NewCertificate(
            program=program, holder_party_id=ids[key], face_cents=face, fiscal_year=fy, **extra
        )
        return do(lambda uow: certificates.issue_certificate(uow, EDA, new, ruleset))

    brrag = issue(
        "meadowlands",
        "BRRAG",
        250 * 10_000_00,
        2013,
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
        24 * _MILLION,
        2013,
        tax_periods=[2012],
        creditable_activity_ids=["newark-transit-hub-tower"],
    )
    dm = [
        issue("pixel", "DM_CBT", amount, 2014)
        for amount in (200 * 10_000_00, 250 * 10_000_00, 120 * 10_000_00, 30 * 10_000_00)
    ]
    dm_git = issue(
        "asbury", "DM_GIT", 80 * 10_000_00, 2014, creditable_activity_ids=["asbury-film-2014"]
    )
    say("issued BRRAG, UTH and digital media certificates (the DM_CBT pool queues $1.0M)")

    for key, request, rnd, factor in TECH_REQUESTS:
        # NOL x factor x 9% is the NOL part of the benefit (TB-10): surrender enough NOL.
        nol_cents = int((request - rnd) * 100 / (Fraction(factor) * Fraction(9, 100)))
        app = tech.NewTechApplication(
            party_id=ids[key],
            received_on=date(2013, 3, 1 + len(key) % 20),
            # TB-6: the demo's FY 2013 filings are paper ones the Authority records.
            receipt_reason="Paper filing received by mail (demo)",
            nol_cents=nol_cents,
            allocation_factor=factor,
            seller_tax_regime="CBT",
            rnd_credit_cents=rnd * 100,
        )
        do(partial(tech.submit_application, actor=EDA, ruleset=ruleset, new=app))
    allocation = do(lambda uow: tech_allocations.commit_allocation(uow, EDA, 2013, ruleset))
    say(
        f"TECH FY 2013 allocated {allocation['total_cents'] / 100:,.2f} dollars"
        f" (triggered: {allocation['triggered']})"
    )
    tech_certs = {a["party_id"]: a["certificate_id"] for a in allocation["allocations"]}

    def listing(key: str, cert_id: str, amount: int, cents_per_dollar: int) -> dict[str, Any]:
        return do(
            lambda uow: trading.create_listing(
                uow, who(key), cert_id, amount, amount * cents_per_dollar // 100, ruleset
            )
        )

    def buy(
        buyer: str, listing_row: dict[str, Any], amount: int, cents_per_dollar: int, seller: str
    ) -> dict[str, Any]:
        offer = do(
            lambda uow: trading.make_offer(
                uow,
                who(buyer),
                listing_row["id"],
                amount,
                amount * cents_per_dollar // 100,
                ruleset,
            )
        )
        # BR-14 / TB-25: the demo's sellers attest what the proceeds fund.
        uses = PROCEEDS_USES.get(seller)
        accepted = do(
            lambda uow: trading.accept_offer(uow, who(seller), offer["id"], ruleset, uses)
        )
        return accepted.get("transfer", accepted)  # type: ignore[no-any-return]

    def approve(transfer_id: str, on: date) -> dict[str, Any]:
        return do(lambda uow: trading.approve_transfer(uow, EDA, transfer_id, ruleset, on))

    l_brrag = listing("meadowlands", brrag["id"], 150 * 10_000_00, 91)
    l_uth = listing("transit", uth["id"], 240 * 10_000_00, 88)
    listing("pixel", dm[0]["id"], 200 * 10_000_00, 85)
    l_dm_git = listing("asbury", dm_git["id"], 80 * 10_000_00, 87)
    l_photonics = listing("photonics", tech_certs[ids["photonics"]], 200 * 10_000_00, 94)
    listing("genomics", tech_certs[ids["genomics"]], 500 * 10_000_00, 92)
    say("listed certificates at 85 to 94 cents on the dollar")

    t1 = buy("utility", l_brrag, 100 * 10_000_00, 90, "meadowlands")
    approve(t1["id"], date(2013, 2, 11))
    t2 = buy("insurer", l_uth, 120 * 10_000_00, 88, "transit")
    approve(t2["id"], date(2013, 4, 22))
    t3 = buy("raritan", l_dm_git, 80 * 10_000_00, 87, "asbury")
    approve(t3["id"], date(2013, 9, 30))
    t4 = buy("utility", l_photonics, 150 * 10_000_00, 94, "photonics")
    approve(t4["id"], date(2013, 6, 14))
    late = buy("insurer", l_brrag, 50 * 10_000_00, 90, "meadowlands")
    do(
        lambda uow: trading.reject_transfer(
            uow, EDA, late["id"], "The purchase agreement was not signed by both parties (TB-24)."
        )
    )
    buy("utility", l_brrag, 40 * 10_000_00, 92, "meadowlands")  # left pending for the queue
    say("approved 4 transfers, rejected 1, left 1 awaiting approval")

    utility_brrag = _buyer_cert(engine, t1)
    do(
        lambda uow: returns.apply_to_return(
            uow,
            who("utility"),
            ruleset,
            returns.NewCreditApplication(
                certificate_id=utility_brrag,
                tax_type="CBT",
                tax_year=2013,
                liability_cents=1_200_000_00,
                amount_cents=1_000_000_00,
            ),
        )
    )
    raritan_cert = _buyer_cert(engine, t3)
    shares = do(
        lambda uow: pass_through_allocations.pass_through_allocate(
            uow, who("raritan"), raritan_cert, None, ruleset
        )
    )
    partner_a_cert = next(
        a["certificate_id"] for a in shares["allocations"] if a["party_id"] == ids["partner_a"]
    )
    do(
        lambda uow: returns.apply_to_return(
            uow,
            EDA,
            ruleset,
            returns.NewCreditApplication(
                certificate_id=partner_a_cert,
                tax_type="GIT",
                tax_year=2014,
                liability_cents=40_000_00,
                amount_cents=400_000_00,
                # PT-2, RULES 5.4 partner A: P +$500,000 and Q -$100,000 in the category,
                # wages $100,000 and interest $10,000: ratio 40/51.
                section_40={
                    "entity_income_cents": 500_000_00,
                    "category_amounts_cents": [500_000_00, -100_000_00],
                    "other_categories_net_cents": [100_000_00, 10_000_00],
                },
            ),
        )
    )
    do(
        lambda uow: recaptures.assess_recapture(
            uow,
            EDA,
            recaptures.NewRecapture(
                party_id=ids["pixel"],
                certificate_id=dm[1]["id"],
                amount_cents=25 * 10_000_00,
                reason="New full-time positions were not maintained in FY 2014 (DMC-3).",
            ),
        )
    )
    say("applied credits to returns, passed a credit through to partners, assessed a recapture")
    reviews = ((2012, "approved"), (2013, "approved"), (2016, "new_positions_below_200"))
    for period, finding in reviews:
        do(
            partial(
                uth_reviews.record_review,
                actor=EDA,
                certificate_id=uth["id"],
                tax_period=period,
                finding=finding,
                ruleset=ruleset,
            )
        )
    say("recorded UTH annual reviews: 2012 and 2013 approved, 2016 cut by 20% (UTH-11(1))")
    return {"parties": ids}


def _register(uow: UnitOfWork, new: NewParty) -> dict[str, Any]:
    return register_party(uow, EDA, new)


def _own(
    uow: UnitOfWork, party: str, owner: str, shares: tuple[int, int, int | None]
) -> dict[str, Any]:
    return record_ownership(uow, EDA, party, owner, *shares)


def _buyer_cert(engine: Engine, transfer: dict[str, Any]) -> str:
    from market.services.uow import ReadOnly

    with ReadOnly(engine) as conn:
        return str(trading.load_transfer(conn, transfer["id"])["buyer_certificate_id"])


def logins() -> list[tuple[str, str, str]]:
    rows = [(AUTHORITY_EMAIL, "authority", "the EDA"), (AUDITOR_EMAIL, "auditor", "read-only")]
    rows += [(f"{p.key}@demo.nj", "participant", p.name) for p in PARTIES if p.login]
    return rows
