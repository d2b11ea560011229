"""What happens to the demo's credits after sale and issue: a buyer's return, a
partnership's pass-through and a partner's GIT return (PT-2's section 40 limit), a
recapture, and the UTH annual reviews (UTH-11)."""

from __future__ import annotations

from functools import partial

from market.domain.commands.certificates import RecordUthReview
from market.services.certificates import pass_through_allocations, recaptures, returns, uth_reviews
from market.services.demo.context import EDA, THOUSAND, Seeding
from market.services.demo.credits import Credits
from market.services.demo.trades import Sales


def use_credits(s: Seeding, c: Credits, sales: Sales) -> None:
    year = s.dates.year
    utility_brrag = s.buyer_certificate(sales.brrag)
    s.do(
        lambda uow: returns.apply_to_return(
            uow,
            s.who("utility"),
            s.ruleset,
            returns.NewCreditApplication(
                certificate_id=utility_brrag,
                tax_type="CBT",
                tax_year=year,
                liability_cents=1_200 * THOUSAND,
                amount_cents=600 * THOUSAND,
            ),
        )
    )
    raritan_cert = s.buyer_certificate(sales.dm_git)
    shares = s.do(
        lambda uow: pass_through_allocations.pass_through_allocate(
            uow, s.who("raritan"), raritan_cert, None, s.ruleset
        )
    )
    partner_a_cert = next(
        a["certificate_id"] for a in shares["allocations"] if a["party_id"] == s.ids["partner_a"]
    )
    s.do(
        lambda uow: returns.apply_to_return(
            uow,
            EDA,
            s.ruleset,
            returns.NewCreditApplication(
                certificate_id=partner_a_cert,
                tax_type="GIT",
                tax_year=year,
                liability_cents=40_000_00,
                amount_cents=400 * THOUSAND,
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
    s.do(
        lambda uow: recaptures.assess_recapture(
            uow,
            EDA,
            recaptures.NewRecapture(
                party_id=s.ids["pixel"],
                certificate_id=c.dm_cbt[1],
                amount_cents=250 * THOUSAND,
                reason=(
                    "New full-time positions were not maintained in FY "
                    f"{s.dates.fiscal_year} (DMC-3)."
                ),
            ),
        )
    )
    s.say("applied credits to returns, passed a credit through to partners, assessed a recapture")


def review_uth(s: Seeding, c: Credits) -> tuple[list[int], int]:
    """Every installment period before this year approved, the last one cut by 20% for
    fewer than 200 new positions (UTH-11(1)); answers (approved periods, cut period)."""
    first = s.dates.uth_first_period
    cut = first + 9
    approved = list(range(first, min(cut, s.dates.year)))
    for period, finding in [(p, "approved") for p in approved] + [(cut, "new_positions_below_200")]:
        s.do(
            partial(
                uth_reviews.record_review,
                actor=EDA,
                command=RecordUthReview(c.uth, period, finding),
                ruleset=s.ruleset,
            )
        )
    s.say(
        f"recorded UTH annual reviews: {approved[0]}-{approved[-1]} approved,"
        f" {cut} cut by 20% (UTH-11(1))"
    )
    return approved, cut
