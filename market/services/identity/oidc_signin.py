"""Sign-in through the State's identity provider (OpenID Connect, PRODUCT.md 9.4): who
the provider's verified e-mail links to, and whether its `amr` counts as the second
factor. The protocol (state, nonce, PKCE, the ID token's signature and issuer) is
authlib's, in market/web/oidc_pages.py; these are the market's own rules."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from sqlalchemy import Engine

from market.services.identity import identity
from market.services.kernel.actor import Actor
from market.services.kernel.errors import UnauthorizedError

# RFC 8176 method values: something the user has or is, beside what they know.
_KNOWS = frozenset({"pwd", "pin", "kba"})
_HAS_OR_IS = frozenset(
    {"otp", "hwk", "swk", "sms", "tel", "sc", "fpt", "face", "iris", "retina", "vbm", "user"}
)


def multi_factor(amr: object) -> bool:
    """The provider says two kinds of factor were used ("mfa", or a password with a
    possession or inherence method)."""
    if not isinstance(amr, list) or not all(isinstance(m, str) for m in amr):
        return False
    methods = set(amr)
    return "mfa" in methods or (bool(methods & _KNOWS) and bool(methods & _HAS_OR_IS))


def linked_actor(engine: Engine, claims: Mapping[str, Any]) -> tuple[Actor, str]:
    """The active user whose e-mail the provider verified; refused otherwise."""
    email = claims.get("email")
    if not isinstance(email, str) or claims.get("email_verified") is not True:
        raise UnauthorizedError("The identity provider did not vouch for an e-mail address.", {})
    actor = identity.actor_for_email(engine, email)
    if actor is None:
        raise UnauthorizedError(
            "No active account uses the e-mail address the identity provider gave.", {}
        )
    return actor, email.strip().lower()
