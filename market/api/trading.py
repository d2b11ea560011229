"""Trading: listings, offers, negotiated transfers and the Authority's decision."""

from __future__ import annotations

from typing import Any

from flask import jsonify
from flask.typing import ResponseReturnValue
from marshmallow import Schema, fields, validate

from market.adapters.repositories.casefiles import transfer_on_file
from market.api.blueprint import Blueprint
from market.api.casefile_schemas import ChecklistItemOut
from market.api.context import command, current_actor, engine, page, ruleset
from market.api.schemas import SeqPageArgs, page_of
from market.api.timeline_schema import timeline_fields
from market.domain.commands.trading import CreateListing, CreateTransfer, MakeOffer
from market.services.casefiles import checklists
from market.services.kernel.paging import Page
from market.services.kernel.uow import ReadOnly, UnitOfWork
from market.services.queries import deal_views
from market.services.trading import trading
from market.validation import (
    AcceptIn,
    ApproveIn,
    ListingIn,
    OfferIn,
    RejectIn,
    TransferIn,
)

blp = Blueprint("trading", __name__, url_prefix="/api/v1", description="Listings and transfers")


class ListingOut(Schema):
    id = fields.String()
    certificate_id = fields.String()
    certificate_number = fields.String()
    seller_party_id = fields.String()
    program = fields.String()
    fiscal_year = fields.Integer()
    amount_cents = fields.Integer()
    ask_cents = fields.Integer()
    price_per_dollar = fields.String()
    floor_bps = fields.Integer()
    sold_cents = fields.Integer()
    available_cents = fields.Integer()
    available_ask_cents = fields.Integer(
        metadata={
            "description": "the ask for what is still available: ask_cents pro rata, "
            "rounded up to a whole cent"
        }
    )
    conditional_cents = fields.Integer(
        metadata={
            "description": "UTH-27: of the available cents, what falls on installments not "
            "yet reviewed (sold as conditional tranches)"
        }
    )
    status = fields.String()
    usable_through = fields.Integer(
        allow_none=True,
        metadata={"description": "PRODUCT.md 8.4: the last tax year (UTH: period) usable"},
    )
    usable_until = fields.String(
        allow_none=True,
        metadata={"description": "the last business date a buyer could still use it"},
    )


class ListingArgs(SeqPageArgs):
    program = fields.String(
        load_default=None, validate=validate.OneOf(["BRRAG", "UTH", "DM_GIT", "DM_CBT", "TECH"])
    )


class TransferOut(Schema):
    id = fields.String()
    certificate_id = fields.String()
    program = fields.String()
    seller_party_id = fields.String()
    buyer_party_id = fields.String()
    amount_cents = fields.Integer()
    consideration_cents = fields.Integer()
    price_per_dollar = fields.String()
    status = fields.String()
    buyer_certificate_id = fields.String(allow_none=True)
    offer_id = fields.String(allow_none=True)
    agreement_ref = fields.String(allow_none=True)
    use_of_proceeds = fields.List(fields.String(), allow_none=True)
    reasons = fields.List(fields.Raw())
    checks = fields.List(fields.Dict())
    exchange_date = fields.String(allow_none=True)
    hq_window_end = fields.String(allow_none=True)
    ruleset = fields.String()
    checklist = fields.List(fields.Nested(ChecklistItemOut))  # RULES.md section 7, on reads


class OfferOut(Schema):
    id = fields.String()
    listing_id = fields.String()
    certificate_id = fields.String()
    seller_party_id = fields.String()
    buyer_party_id = fields.String()
    amount_cents = fields.Integer()
    price_cents = fields.Integer()
    price_per_dollar = fields.String()
    status = fields.String(
        metadata={
            "description": "open, countered (the seller's counter awaits the buyer), "
            "accepted, declined, or expired (open or countered past its expires_on)"
        }
    )
    transfer_id = fields.String(allow_none=True)
    transfer = fields.Nested(TransferOut)
    expires_on = fields.String(
        allow_none=True, metadata={"description": "the offer's last business date, if any"}
    )
    expired = fields.Boolean(
        metadata={"description": "the terms awaiting an answer are past their last day"}
    )
    counter_amount_cents = fields.Integer(allow_none=True)
    counter_price_cents = fields.Integer(allow_none=True)
    counter_price_per_dollar = fields.String(allow_none=True)
    counter_expires_on = fields.String(allow_none=True)


class TransferArgs(SeqPageArgs):
    status = fields.String(
        load_default=None,
        validate=validate.OneOf(
            ["awaiting_buyer", "pending_approval", "approved", "rejected", "declined"]
        ),
    )


# A single transfer read: with its timeline, next step and public reference (deals).
TransferDetailOut = TransferOut.from_dict(timeline_fields(), name="TransferDetailOut")
OfferDetailOut = OfferOut.from_dict(
    timeline_fields() | {"deal_status": fields.String()}, name="OfferDetailOut"
)

# Built once and shared: dumping does not change a schema, and building one per request
# costs more than the dump.
LISTING_OUT, OFFER_OUT, TRANSFER_OUT = ListingOut(), OfferOut(), TransferOut()


@blp.route("/listings", methods=["POST"])
@blp.arguments(ListingIn)
@blp.alt_response(201, schema=ListingOut)
def create_listing(data: dict[str, Any]) -> ResponseReturnValue:
    """Offer part or all of a certificate for sale (its original holder only)."""
    actor, rules = current_actor(), ruleset()

    def run(uow: UnitOfWork) -> trading.ListedView:
        return trading.create_listing(
            uow,
            actor,
            CreateListing(data["certificate_id"], data["amount_cents"], data["ask_cents"]),
            rules,
        )

    return command(run, LISTING_OUT)


@blp.route("/listings", methods=["GET"])
@blp.arguments(ListingArgs, location="query")
@blp.alt_response(200, schema=page_of(ListingOut, "ListingPage"))
def list_listings(args: dict[str, Any]) -> ResponseReturnValue:
    """Open listings with price per dollar and the program's floor."""
    current_actor()  # any signed-in user may browse the market (401 otherwise)
    with ReadOnly(engine()) as conn:
        items, nxt = trading.list_listings(
            conn, args["program"], Page(args["after"], args["limit"]), ruleset()
        )
    return page(items, LISTING_OUT, nxt)


@blp.route("/listings/<listing_id>/withdraw", methods=["POST"])
@blp.alt_response(200, schema=ListingOut)
def withdraw_listing(listing_id: str) -> ResponseReturnValue:
    actor, rules = current_actor(), ruleset()
    return command(
        lambda uow: trading.withdraw_listing(uow, actor, listing_id, rules), LISTING_OUT, 200
    )


@blp.route("/listings/<listing_id>/offers", methods=["POST"])
@blp.arguments(OfferIn)
@blp.alt_response(201, schema=OfferOut)
def make_offer(data: dict[str, Any], listing_id: str) -> ResponseReturnValue:
    """A buyer's offer; refused at once below the floor, for affiliated parties (TECH) or
    for a buyer that pays none of the program's taxes."""
    actor, rules = current_actor(), ruleset()

    def run(uow: UnitOfWork) -> trading.OfferView:
        return trading.make_offer(
            uow,
            actor,
            MakeOffer(listing_id, data["amount_cents"], data["price_cents"], data["expires_on"]),
            rules,
        )

    return command(run, OFFER_OUT)


@blp.route("/offers/<offer_id>/accept", methods=["POST"])
@blp.arguments(AcceptIn)
@blp.alt_response(201, schema=OfferOut)
def accept_offer(data: dict[str, Any], offer_id: str) -> ResponseReturnValue:
    """The seller accepts: a transfer awaiting the Authority's approval is created."""
    actor, rules, uses = current_actor(), ruleset(), data["use_of_proceeds"]
    return command(lambda uow: trading.accept_offer(uow, actor, offer_id, rules, uses), OFFER_OUT)


@blp.route("/offers/<offer_id>/decline", methods=["POST"])
@blp.alt_response(200, schema=OfferOut)
def decline_offer(offer_id: str) -> ResponseReturnValue:
    actor = current_actor()
    return command(lambda uow: trading.decline_offer(uow, actor, offer_id), OFFER_OUT, 200)


@blp.route("/transfers", methods=["POST"])
@blp.arguments(TransferIn)
@blp.alt_response(201, schema=TransferOut)
def create_transfer(data: dict[str, Any]) -> ResponseReturnValue:
    """A negotiated transfer without a listing (the seller); it awaits the buyer's
    confirmation (`awaiting_buyer`) before it reaches the Authority."""
    actor, rules = current_actor(), ruleset()

    def run(uow: UnitOfWork) -> trading.TransferView:
        sale = CreateTransfer(
            data["certificate_id"],
            data["buyer_party_id"],
            data["amount_cents"],
            data["consideration_cents"],
            data.get("agreement_ref"),
            tuple(data["use_of_proceeds"] or ()),
        )
        return trading.create_transfer(uow, actor, sale, rules)

    return command(run, TRANSFER_OUT)


@blp.route("/transfers", methods=["GET"])
@blp.arguments(TransferArgs, location="query")
@blp.alt_response(200, schema=page_of(TransferOut, "TransferPage"))
def list_transfers(args: dict[str, Any]) -> ResponseReturnValue:
    """Transfers (authority and auditor: all; a participant: its own)."""
    actor = current_actor()
    with ReadOnly(engine()) as conn:
        items, nxt = trading.list_transfers(
            conn, actor, args["status"], args["after"], args["limit"]
        )
    return page(items, TRANSFER_OUT, nxt)


@blp.route("/transfers/<transfer_id>", methods=["GET"])
@blp.alt_response(200, schema=TransferDetailOut)
def get_transfer(transfer_id: str) -> ResponseReturnValue:
    actor = current_actor()
    with ReadOnly(engine()) as conn:
        found = trading.get_transfer(conn, actor, transfer_id)
        life = deal_views.transfer_fields(conn, str(found["id"]))
        detail = {**found, **life, **checklists.for_transfer(conn, transfer_on_file(found))}
        return jsonify(TransferDetailOut().dump(detail))


@blp.route("/transfers/<transfer_id>/approve", methods=["POST"])
@blp.arguments(ApproveIn)
@blp.alt_response(200, schema=TransferOut)
def approve_transfer(data: dict[str, Any], transfer_id: str) -> ResponseReturnValue:
    """Re-check every rule atomically; on success the buyer holds a new certificate."""
    actor, rules = current_actor(), ruleset()

    def run(uow: UnitOfWork) -> trading.TransferView:
        return trading.approve_transfer(uow, actor, transfer_id, rules, data["exchange_date"])

    return command(run, TRANSFER_OUT, 200)


@blp.route("/transfers/<transfer_id>/reject", methods=["POST"])
@blp.arguments(RejectIn)
@blp.alt_response(200, schema=TransferOut)
def reject_transfer(data: dict[str, Any], transfer_id: str) -> ResponseReturnValue:
    actor = current_actor()
    return command(
        lambda uow: trading.reject_transfer(uow, actor, transfer_id, data["reason"]),
        TRANSFER_OUT,
        200,
    )
