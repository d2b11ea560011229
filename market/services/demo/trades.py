"""The demo's market: listings at 85 to 94 cents on the dollar, sales approved on recent
exchange dates, one rejected, and a deal waiting on every role: offers the sellers have
not answered, negotiated transfers waiting for the buyer's confirmation, a sale waiting
for the Authority's approval."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date
from functools import partial

from market.domain.commands.trading import CreateListing, CreateTransfer, MakeOffer
from market.services.demo import casefile
from market.services.demo.context import EDA, THOUSAND, Seeding
from market.services.demo.credits import Credits
from market.services.trading import trading

# What the BRRAG and TECH sellers attest their proceeds fund (BR-14, TB-25).
PROCEEDS_USES = {
    "meadowlands": ["real_estate", "tenant_fit_out", "salaries"],
    "photonics": ["research_and_development", "salaries"],
    "genomics": ["research_and_development", "working_capital"],
    "meddev": ["fixed_assets", "salaries"],
}


@dataclass
class Sales:
    """The ids of the approved sales the credits are used from."""

    brrag: str  # utility's approved BRRAG purchase
    dm_git: str  # raritan's approved DM_GIT purchase


@dataclass(frozen=True)
class Listed:
    """A listing the demo made: its id, and the key of the party selling."""

    id: str
    seller: str


def trade_all(s: Seeding, c: Credits) -> Sales:
    d = s.dates

    def listing(key: str, cert_id: str, amount: int, cents_per_dollar: int) -> Listed:
        price = amount * cents_per_dollar // 100
        listed = s.do(
            lambda uow: trading.create_listing(
                uow, s.who(key), CreateListing(cert_id, amount, price), s.ruleset
            )
        )
        return Listed(str(listed["id"]), key)

    def offer(buyer: str, listed: Listed, amount: int, cents: int) -> str:
        """The offer's id."""
        price = amount * cents // 100
        made = s.do(
            lambda uow: trading.make_offer(
                uow, s.who(buyer), MakeOffer(listed.id, amount, price), s.ruleset
            )
        )
        return str(made["id"])

    def buy(buyer: str, listed: Listed, amount: int, cents: int) -> str:
        """The id of the transfer the seller's acceptance of an offer made."""
        offer_id = offer(buyer, listed, amount, cents)
        uses = PROCEEDS_USES.get(listed.seller)
        accepted = s.do(
            lambda uow: trading.accept_offer(uow, s.who(listed.seller), offer_id, s.ruleset, uses)
        )
        return str(accepted["transfer_id"])

    def approve(transfer_id: str, on: date) -> None:
        casefile.prepare_closing(s, transfer_id, on)  # ADM-8, ADM-12 where in force
        s.do(lambda uow: trading.approve_transfer(uow, EDA, transfer_id, s.ruleset, on))

    l_brrag = listing("meadowlands", c.brrag, 1_500 * THOUSAND, 91)
    l_uth = listing("transit", c.uth, 2_400 * THOUSAND, 88)
    l_dm_cbt = listing("pixel", c.dm_cbt[0], 2_000 * THOUSAND, 85)
    l_dm_git = listing("asbury", c.dm_git, 800 * THOUSAND, 87)
    l_photonics = listing("photonics", c.tech[s.ids["photonics"]], 2_000 * THOUSAND, 94)
    l_genomics = listing("genomics", c.tech[s.ids["genomics"]], 5_000 * THOUSAND, 92)
    l_meddev = listing("meddev", c.tech[s.ids["meddev"]], 3_000 * THOUSAND, 93)
    s.say("listed certificates at 85 to 94 cents on the dollar")

    t_brrag = buy("utility", l_brrag, 1_000 * THOUSAND, 90)
    approve(t_brrag, d.days_ago(40))
    approve(buy("insurer", l_uth, 1_200 * THOUSAND, 88), d.days_ago(33))
    t_dm_git = buy("raritan", l_dm_git, 800 * THOUSAND, 87)
    approve(t_dm_git, d.days_ago(26))
    # Three TECH sales by two sellers some 11 weeks back: once their quarter has closed
    # the public price tape publishes the bucket (PRODUCT.md 8.3).
    approve(buy("utility", l_photonics, 1_500 * THOUSAND, 94), d.days_ago(80))
    approve(buy("utility", l_genomics, 500 * THOUSAND, 92), d.days_ago(76))
    approve(buy("utility", l_meddev, 400 * THOUSAND, 93), d.days_ago(72))
    late = buy("insurer", l_brrag, 100 * THOUSAND, 90)
    s.do(
        lambda uow: trading.reject_transfer(
            uow, EDA, late, "The purchase agreement was not signed by both parties (TB-24)."
        )
    )
    s.say("approved 6 transfers and rejected 1 on recent exchange dates")

    # Waiting on someone, one deal for each desk:
    buy("utility", l_brrag, 400 * THOUSAND, 92)  # the Authority's approval queue
    offer("utility", l_dm_cbt, 500 * THOUSAND, 86)  # the seller pixel's incoming offers
    offer("meadowlands", l_genomics, 1_000 * THOUSAND, 90)  # the seller genomics' offers
    negotiated = [  # the buyers' confirmations (PRODUCT.md 8.2)
        ("transit", c.uth, "utility", 2_000 * THOUSAND, 86, "UTH-PA-1"),
        ("meadowlands", c.brrag, "insurer", 300 * THOUSAND, 90, "BRRAG-PA-7"),
    ]
    for seller, cert_id, buyer, amount, cents, ref in negotiated:
        s.do(
            partial(
                trading.create_transfer,
                actor=s.who(seller),
                command=CreateTransfer(
                    cert_id,
                    s.ids[buyer],
                    amount,
                    amount * cents // 100,
                    ref,
                    tuple(PROCEEDS_USES.get(seller) or ()),
                ),
                ruleset=s.ruleset,
            )
        )
    s.say("left 1 sale awaiting approval, 2 offers unanswered, 2 transfers awaiting the buyer")
    return Sales(t_brrag, t_dm_git)
