"""The seller's desk: its certificates and their lineage, listings, incoming offers, TECH
applications and what it has been paid."""

from __future__ import annotations

from typing import Any

from flask import abort, flash, redirect, render_template, request, url_for
from flask.typing import ResponseReturnValue

from market.adapters.repositories.trading_models import offer_row
from market.domain.commands.trading import CreateListing
from market.domain.programs import Program
from market.domain.rules import proceeds
from market.services.certificates import certificate_views
from market.services.kernel import lookups, runner
from market.services.kernel.paging import Page
from market.services.kernel.uow import ReadOnly
from market.services.parties import parties
from market.services.queries import desk_queries
from market.services.tech import tech
from market.services.trading import trade_lists, trade_views, trading
from market.services.trading.trading import today
from market.validation import ListingIn
from market.web import confirm, forms
from market.web.base import actor, bp, engine, roles_required, ruleset
from market.web.fields import Fields
from market.web.filters import per_dollar


def party_id() -> str:
    party = actor().party_id
    if party is None:
        abort(403, "Your user is not linked to a party.")
    return party


TECH_REGIMES = {"CBT", "GIT"}


def can_sell_tech(party: dict[str, Any]) -> bool:
    """A TECH seller is a technology or biotechnology business surrendering CBT or GIT
    benefits (TB-3, TB-10); an insurance company, paying the insurance premiums tax, can
    buy TECH benefits but has none to sell, so the surrender form is not offered to it."""
    return party["entity_type"] != "insurance_company" and bool(
        TECH_REGIMES & set(party["tax_types"])
    )


def _render(status: int = 200) -> ResponseReturnValue:
    """The seller's certificates, approved sales, listings and offers 50 at a time (the
    `?certs_after=` and `?paid_after=` cursors page on); the paid total is a SQL sum of
    every approved sale."""
    me, who, args = party_id(), actor(), request.args
    with ReadOnly(engine()) as conn:
        certs, certs_next = certificate_views.list_party_certificates(
            conn, who, me, args.get("certs_after", type=int), 50
        )
        usable = desk_queries.usable_certificates(conn, me)
        listings, _ = trading.list_listings(conn, None, Page(None, 50), ruleset(), me)
        offers = [
            trade_views.offer_state(offer_row(o), today())
            for o in desk_queries.offers_page(conn, me, "seller")[0]
        ]
        applications = tech.list_applications(conn, who, None, me)
        paid, paid_next = trade_lists.transfers_page(
            conn, "approved", Page(args.get("paid_after", type=int), 50), seller=me
        )
        paid_total, paid_count = desk_queries.paid_summary(conn, me)
        proposed = desk_queries.proposed_transfers(conn, me)
        names = lookups.names_of(
            conn,
            [
                me,
                *(t["buyer_party_id"] for t in paid),
                *(t.buyer_party_id for t in proposed),
                *(o["buyer_party_id"] for o in offers),
            ],
        )
        numbers = lookups.numbers_of(
            conn, [*(c["parent_id"] for c in certs), *(o["certificate_id"] for o in offers)]
        )
        offered = lookups.programs_of(conn, [o["certificate_id"] for o in offers])
        party = parties.load_party(conn, me)
    numbers |= {c["id"]: c["number"] for c in certs}
    return (
        render_template(
            "seller.html",
            party_name=names.get(me, me),
            certs=certs,
            certs_next=certs_next,
            usable=usable,
            numbers=numbers,
            attest={c for c, program in offered.items() if proceeds.applies(Program(program))},
            uses=proceeds.USES,
            listings=listings,
            offers=offers,
            applications=applications,
            paid=paid,
            paid_next=paid_next,
            paid_count=paid_count,
            paid_total=paid_total,
            proposed=proposed,
            names=names,
            today=today(),
            can_sell_tech=can_sell_tech(party),
            form=request.form,
        ),
        status,
    )


def desk(status: int = 200) -> ResponseReturnValue:
    """The Selling desk again (another module's form refused, with its status)."""
    return _render(status)


@bp.get("/seller", endpoint="seller")
@roles_required("participant")
def seller_page() -> ResponseReturnValue:
    return _render()


def _run(action: Any, message: Any) -> ResponseReturnValue:
    return forms.finish(action, message, _render, "pages.seller")


@bp.post("/seller/listings", endpoint="create_listing")
@roles_required("participant")
def create_listing() -> ResponseReturnValue:
    """The amount in dollars, the ask in cents on the dollar (`per_dollar`, to whole cents
    rounded up). The API's ListingIn checks the fields (an amount of $0 is refused beside
    its field); the service then checks the certificate and the seller."""
    who, rules, f = actor(), ruleset(), Fields(request.form)
    amount = f.cents("amount", "The amount of credit")
    data = {
        "certificate_id": f.text("certificate_id"),
        "amount_cents": amount,
        "ask_cents": f.price("per_dollar", "The asking price", amount),
    }
    names = {
        "certificate_id": "certificate_id",
        "amount_cents": "amount",
        "ask_cents": "per_dollar",
    }
    listing = f.load(ListingIn(), data, names)
    if not f.ok:
        return _render(f.refuse())
    return _run(
        lambda: runner.run(
            engine(),
            lambda uow: trading.create_listing(
                uow,
                who,
                CreateListing(
                    listing["certificate_id"], listing["amount_cents"], listing["ask_cents"]
                ),
                rules,
            ),
        ),
        lambda x: f"Listed {forms.dollars(x['amount_cents'])} of {x['certificate_number']} "
        f"at {per_dollar(x['ask_cents'], x['amount_cents'])}: {forms.dollars(x['ask_cents'])}.",
    )


@bp.post("/seller/listings/<listing_id>/withdraw", endpoint="withdraw_listing")
@roles_required("participant")
def withdraw_listing(listing_id: str) -> ResponseReturnValue:
    who, rules = actor(), ruleset()
    if not confirm.confirmed():
        with ReadOnly(engine()) as conn:
            listing = trading.listing_view(conn, listing_id, rules)
        who.require_party(listing["seller_party_id"])
        return confirm.review(
            title=f"Withdraw your listing of {listing['certificate_number']}",
            action=url_for("pages.withdraw_listing", listing_id=listing_id),
            lines=[
                ("Certificate", listing["certificate_number"]),
                ("Credit listed", forms.dollars(listing["amount_cents"])),
                ("Still available", forms.dollars(listing["available_cents"])),
                ("Asking", forms.dollars(listing["ask_cents"])),
            ],
            carry={},
            button="Confirm: withdraw the listing",
            back=url_for("pages.seller"),
            warning="Withdrawing records a LISTING_WITHDRAWN event: buyers can no longer "
            "offer on it, and it cannot be reopened (list the credit again instead).",
        )
    return _run(
        lambda: runner.run(
            engine(), lambda uow: trading.withdraw_listing(uow, who, listing_id, rules)
        ),
        lambda x: "Listing withdrawn.",
    )


@bp.post("/seller/offers/<offer_id>/accept", endpoint="accept_offer")
@roles_required("participant")
def accept_offer(offer_id: str) -> ResponseReturnValue:
    """Accepting binds the seller to the sale: reviewed first, the review rehearsing it."""
    who, rules = actor(), ruleset()
    uses = request.form.getlist("use_of_proceeds")  # BR-14 / TB-25, optional

    def review_of(x: dict[str, Any]) -> ResponseReturnValue:
        price, amount = int(x["price_cents"]), int(x["amount_cents"])
        with ReadOnly(engine()) as conn:
            buyer = lookups.names_of(conn, [x["buyer_party_id"]]).get(x["buyer_party_id"], "")
        return confirm.review(
            title="Accept this offer",
            action=url_for("pages.accept_offer", offer_id=offer_id),
            lines=[
                ("Buyer", buyer),
                ("Credit sold", forms.dollars(amount)),
                ("Price", f"{forms.dollars(price)} ({per_dollar(price, amount)})"),
                ("Rules checked", "all pass now; the Authority approves or rejects next"),
            ],
            carry={"use_of_proceeds": uses},
            button="Confirm: accept the offer",
            back=url_for("pages.deal_offer", offer_id=offer_id),
            warning="Accepting records OFFER_ACCEPTED and proposes the transfer to the "
            "Authority; it cannot be withdrawn.",
            danger=False,
        )

    def done(x: dict[str, Any]) -> ResponseReturnValue:
        flash(
            f"Offer accepted: {forms.dollars(x['price_cents'])} for "
            f"{forms.dollars(x['amount_cents'])}; the transfer now awaits the Authority's "
            "approval.",
            "success",
        )
        return redirect(url_for("pages.deal_transfer", transfer_id=x["transfer"]["id"]))

    return confirm.rehearsed(
        engine(),
        lambda uow: trading.accept_offer(uow, who, offer_id, rules, uses),
        refused=_render,
        review_of=review_of,
        done=done,
    )


@bp.post("/seller/offers/<offer_id>/decline", endpoint="decline_offer")
@roles_required("participant")
def decline_offer(offer_id: str) -> ResponseReturnValue:
    who = actor()
    return _run(
        lambda: runner.run(engine(), lambda uow: trading.decline_offer(uow, who, offer_id)),
        lambda x: "Offer declined.",
    )
