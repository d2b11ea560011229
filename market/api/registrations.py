"""Registration (PRODUCT.md 9.1): a business asks to join (no sign-in; throttled like
signing in), verifies its e-mail by a single-use link, and the Authority approves or
rejects it; a party's owner invites its users; the Authority's account actions."""

from __future__ import annotations

from typing import Any

from flask import current_app, jsonify, request
from flask.typing import ResponseReturnValue
from marshmallow import Schema, fields, validate

from market.api.blueprint import Blueprint
from market.api.context import current_actor, engine, token_hasher
from market.api.openapi_errors import answers
from market.api.registration_schemas import (
    DeactivatedOut,
    InvitedUserOut,
    MfaResetOut,
    PartyUserPage,
    RegistrationOut,
    RegistrationPage,
    RegistrationReviewOut,
    RegistrationStatusOut,
)
from market.domain.commands.identity import InviteUser
from market.services.identity import accounts, invitations, signin
from market.services.kernel.actor import PARTY_ROLES
from market.services.kernel.errors import not_found
from market.services.kernel.uow import ReadOnly
from market.services.registration import applications, registration_views
from market.services.registration.registrations import NewRegistration
from market.validation import RegistrationIn

blp = Blueprint(
    "registrations", __name__, url_prefix="/api/v1", description="Registration and accounts"
)


class TokenIn(Schema):
    token = fields.String(required=True, validate=validate.Length(min=10, max=100))


class ReasonIn(Schema):
    reason = fields.String(required=True, validate=validate.Length(min=1, max=1000))


class InviteIn(Schema):
    email = fields.String(required=True, validate=validate.Length(min=3, max=254))
    role = fields.String(required=True, validate=validate.OneOf(PARTY_ROLES))


class ReadArgs(Schema):
    token = fields.String(load_default=None, validate=validate.Length(max=100))


@blp.route("/registrations", methods=["POST"])
@blp.arguments(RegistrationIn)
@blp.alt_response(202, schema=RegistrationStatusOut)
@blp.doc(security=[], **answers(add=(429,)))
def ask_to_join(data: dict[str, Any]) -> ResponseReturnValue:
    """Ask to join (no sign-in): 202 `{id, status: "email_unverified"}`; an e-mailed
    single-use link verifies the address. A tax id already registered (or waiting) is 409
    `tax_id_registered`; an address with an account 409 `email_taken`; too many requests
    429 `too_many_attempts`."""
    made, _token = applications.submit(
        engine(),
        token_hasher(),
        NewRegistration(**data),
        request.remote_addr,
        signin.policy_from(current_app.config).throttle,
    )
    return jsonify({"id": made["id"], "status": made["status"]}), 202


@blp.route("/registrations/verify", methods=["POST"])
@blp.arguments(TokenIn)
@blp.alt_response(200, schema=RegistrationStatusOut)
@blp.doc(security=[])
def verify_email(data: dict[str, str]) -> ResponseReturnValue:
    """Spend the e-mailed link: the registration goes to the Authority (`submitted`).
    A used, expired or unknown link is 400 `link_invalid`."""
    done = applications.verify(engine(), token_hasher(), data["token"])
    return jsonify({"id": done["id"], "status": done["status"]}), 200


@blp.route("/registrations", methods=["GET"])
@blp.alt_response(200, schema=RegistrationPage)
def list_registrations() -> ResponseReturnValue:
    """The Authority's desk (authority, auditor): `?status=` to filter."""
    actor = current_actor()
    with ReadOnly(engine()) as conn:
        rows = registration_views.desk(conn, actor, request.args.get("status"))
    return jsonify({"items": rows, "next": None}), 200


@blp.route("/registrations/<registration_id>", methods=["GET"])
@blp.arguments(ReadArgs, location="query")
@blp.alt_response(200, schema=RegistrationReviewOut)
def get_registration(args: dict[str, Any], registration_id: str) -> ResponseReturnValue:
    """The applicant (with `?token=` from its e-mailed link) sees the status and a
    rejection's reason; the Authority sees everything and the similar parties."""
    if args.get("token") and "Authorization" not in request.headers:
        owner = applications.registration_for_link(engine(), token_hasher(), args["token"])
        with ReadOnly(engine()) as conn:
            if owner != registration_id:
                raise not_found("Registration", "registration_id", registration_id)
            return jsonify(registration_views.get(conn, registration_id, None)), 200
    actor = current_actor()
    with ReadOnly(engine()) as conn:
        row = registration_views.get(conn, registration_id, actor)
        similar = registration_views.similar(conn, actor, row)
    return jsonify({**row, "similar": similar}), 200


@blp.route("/registrations/<registration_id>/approve", methods=["POST"])
@blp.alt_response(200, schema=RegistrationOut)
def approve(registration_id: str) -> ResponseReturnValue:
    """Approve (authority): the party and its first user, who sets a password from an
    e-mailed link. Not submitted: 409 `registration_not_pending`."""
    done, _token = applications.approve(engine(), token_hasher(), current_actor(), registration_id)
    return jsonify(done), 200


@blp.route("/registrations/<registration_id>/reject", methods=["POST"])
@blp.arguments(ReasonIn)
@blp.alt_response(200, schema=RegistrationOut)
def reject(data: dict[str, str], registration_id: str) -> ResponseReturnValue:
    """Reject (authority) with the reason the business sees."""
    done = applications.reject(engine(), current_actor(), registration_id, data["reason"])
    return jsonify(done), 200


@blp.route("/parties/<party_id>/users", methods=["POST"])
@blp.arguments(InviteIn)
@blp.alt_response(201, schema=InvitedUserOut)
def invite_user(data: dict[str, str], party_id: str) -> ResponseReturnValue:
    """Invite a user (the party's owner, or the Authority) as owner, preparer or viewer:
    an e-mailed single-use link lets them choose a password."""
    invited = InviteUser(party_id, data["email"], data["role"])
    user, _token = invitations.invite(engine(), token_hasher(), current_actor(), invited)
    return jsonify(user), 201


@blp.route("/parties/<party_id>/users", methods=["GET"])
@blp.alt_response(200, schema=PartyUserPage)
def party_users(party_id: str) -> ResponseReturnValue:
    """A party's users, roles, MFA and open invitations."""
    users = accounts.party_users(engine(), current_actor(), party_id)
    return jsonify({"items": users, "next": None}), 200


@blp.route("/users/<user_id>/deactivate", methods=["POST"])
@blp.arguments(ReasonIn)
@blp.alt_response(200, schema=DeactivatedOut)
def deactivate(data: dict[str, str], user_id: str) -> ResponseReturnValue:
    """Deactivate a user (the Authority, or an owner of its party): its sessions, tokens
    and links end at once."""
    return jsonify(accounts.deactivate(engine(), current_actor(), user_id, data["reason"])), 200


@blp.route("/users/<user_id>/mfa-reset", methods=["POST"])
@blp.arguments(ReasonIn)
@blp.alt_response(200, schema=MfaResetOut)
def reset_mfa(data: dict[str, str], user_id: str) -> ResponseReturnValue:
    """Remove a user's second factor (authority), recorded with the reason."""
    return jsonify(accounts.reset_mfa(engine(), current_actor(), user_id, data["reason"])), 200
