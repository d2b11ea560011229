"""Single sign-on with the State's identity provider (OpenID Connect, authorization code
with PKCE; authlib). Off unless OIDC_ISSUER is set (then /login/oidc starts it).

authlib keeps the state, the nonce and the PKCE verifier in the session between the two
legs, refuses a callback whose state is not the one it sent, exchanges the code with the
verifier, and checks the ID token's signature (the provider's published keys), audience,
expiry, nonce and issuer; the issuer is also compared with OIDC_ISSUER here, both in the
token and in the callback's `iss` parameter (RFC 9207: no mix-up with another provider).
Who that is, and whether the provider's `amr` counts as the second factor
(OIDC_SATISFIES_MFA), is services/oidc_signin's."""

from __future__ import annotations

from typing import Any

from authlib.integrations.base_client.errors import OAuthError
from authlib.integrations.flask_client import OAuth
from flask import abort, current_app, flash, redirect, request, url_for
from flask.typing import ResponseReturnValue
from joserfc.errors import JoseError

from market.services.identity import oidc_signin, signin
from market.services.kernel.errors import UnauthorizedError
from market.web.base import bp, engine
from market.web.signin_pages import ask_second_factor, complete

NAME = "state_idp"


def _issuer() -> str:
    issuer = current_app.config.get("OIDC_ISSUER")
    if not issuer:
        abort(404)
    return str(issuer).rstrip("/")


def _client() -> Any:
    oauth = current_app.extensions.get("market.oidc")
    if oauth is None:
        issuer = _issuer()
        oauth = OAuth(current_app)
        oauth.register(
            NAME,
            client_id=current_app.config["OIDC_CLIENT_ID"],
            client_secret=current_app.config["OIDC_CLIENT_SECRET"],
            server_metadata_url=f"{issuer}/.well-known/openid-configuration",
            client_kwargs={"scope": "openid email", "code_challenge_method": "S256"},
        )
        current_app.extensions["market.oidc"] = oauth
    return oauth.create_client(NAME)


@bp.get("/login/oidc")
def oidc_login() -> ResponseReturnValue:
    _issuer()
    answer: ResponseReturnValue = _client().authorize_redirect(
        url_for("pages.oidc_callback", _external=True)
    )
    return answer


def _refuse(message: str) -> ResponseReturnValue:
    flash(message, "error")
    return redirect(url_for("pages.login")), 303


@bp.get("/login/oidc/callback")
def oidc_callback() -> ResponseReturnValue:
    issuer = _issuer()
    if request.args.get("error"):
        return _refuse("The identity provider did not sign you in.")
    if request.args.get("iss", issuer).rstrip("/") != issuer:
        return _refuse("That answer came from another identity provider.")
    try:
        token = _client().authorize_access_token()
    except (OAuthError, JoseError):
        return _refuse("The identity provider's answer could not be checked; sign in again.")
    claims = token.get("userinfo") or {}
    if str(claims.get("iss", "")).rstrip("/") != issuer:
        return _refuse("That answer came from another identity provider.")
    try:
        actor, email = oidc_signin.linked_actor(engine(), claims)
    except UnauthorizedError as e:
        return _refuse(e.message)
    counts = current_app.config["OIDC_SATISFIES_MFA"] and oidc_signin.multi_factor(
        claims.get("amr")
    )
    if signin.needs_second_factor(engine(), actor) and not counts:
        return ask_second_factor(actor, email)
    return complete(actor, email)
