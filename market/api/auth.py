"""POST /api/v1/auth/token (and revoke)."""

from __future__ import annotations

from flask import current_app, jsonify, request
from flask.typing import ResponseReturnValue
from marshmallow import Schema, fields, validate

from market.api.blueprint import Blueprint
from market.api.context import current_actor, engine, token_hasher
from market.api.openapi_errors import answers
from market.domain.commands.identity import SignInAttempt
from market.services.identity import identity, signin

blp = Blueprint("auth", __name__, url_prefix="/api/v1/auth", description="Bearer tokens")


class Credentials(Schema):
    email = fields.String(required=True, validate=validate.Length(min=3, max=254))
    password = fields.String(required=True, validate=validate.Length(min=1, max=1024))
    otp = fields.String(
        load_default=None,
        validate=validate.Length(max=20),
        metadata={
            "description": "The TOTP code (or a recovery code) once two-step sign-in "
            "is set up on /account. Missing, wrong or spent, it is 401 `unauthorized` "
            "exactly as a wrong password is (one answer: no oracle)"
        },
    )


class TokenOut(Schema):
    token = fields.String()
    role = fields.String()
    party_id = fields.String(allow_none=True)


@blp.route("/token", methods=["POST"])
@blp.doc(security=[], **answers(add=(401, 429)))
@blp.arguments(Credentials)
@blp.alt_response(200, schema=TokenOut)
def issue_token(creds: dict[str, str | None]) -> ResponseReturnValue:
    """Exchange an email and password (and `otp` once two-step sign-in is set up) for a
    bearer token. Failed attempts are throttled per account and per address (429 with
    Retry-After after LOGIN_MAX_FAILURES in a row)."""
    actor = signin.sign_in(
        engine(),
        SignInAttempt(str(creds["email"]), request.remote_addr),
        str(creds["password"]),
        creds.get("otp"),
        signin.policy_from(current_app.config),
    )
    ttl = current_app.config["TOKEN_TTL_HOURS"]
    token = identity.issue_token(engine(), actor, ttl, token_hasher())
    return jsonify({"token": token, "role": actor.role, "party_id": actor.party_id}), 200


class RevokedOut(Schema):
    revoked = fields.Boolean(required=True, metadata={"example": True})


@blp.route("/revoke", methods=["POST"])
@blp.alt_response(200, schema=RevokedOut)
def revoke_token() -> ResponseReturnValue:
    """Revoke the bearer token this request carries."""
    current_actor()
    token = request.headers["Authorization"].partition(" ")[2].strip()
    identity.revoke_token(engine(), token, token_hasher())
    return jsonify({"revoked": True}), 200
