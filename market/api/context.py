"""What every API view needs: the engine, the ruleset and the authenticated actor."""

from __future__ import annotations

import hashlib
from collections.abc import Callable
from typing import Any, TypeVar

from flask import current_app, g, jsonify, request
from flask.typing import ResponseReturnValue
from marshmallow import Schema
from sqlalchemy import Engine
from structlog.contextvars import bind_contextvars

from market.adapters.eventstore import canonical_json
from market.domain.errors import InvalidRequestError
from market.domain.rulesets import Ruleset, get_ruleset
from market.services.identity import identity
from market.services.identity.token_digest import TokenHasher
from market.services.kernel.actor import Actor
from market.services.kernel.errors import UnauthorizedError
from market.services.kernel.runner import Idempotency, execute
from market.services.kernel.uow import UnitOfWork

T = TypeVar("T")


def engine() -> Engine:
    return current_app.extensions["market.engine"]  # type: ignore[no-any-return]


def token_hasher() -> TokenHasher:
    return current_app.extensions["market.token_hasher"]  # type: ignore[no-any-return]


def ruleset() -> Ruleset:
    return get_ruleset(current_app.config["RULESET"])


def current_actor() -> Actor:
    if "actor" in g:
        return g.actor  # type: ignore[no-any-return]
    header = request.headers.get("Authorization", "")
    scheme, _, token = header.partition(" ")
    if scheme.lower() != "bearer" or not token.strip():
        raise UnauthorizedError("Send 'Authorization: Bearer <token>' (POST /api/v1/auth/token).")
    g.actor = identity.actor_for_token(engine(), token.strip(), token_hasher())
    bind_contextvars(user_id=g.actor.user_id)  # the request's log line names the user
    return g.actor  # type: ignore[no-any-return]


def command(
    fn: Callable[[UnitOfWork], T], schema: Schema, status: int = 201
) -> ResponseReturnValue:
    """Run a write use case, honouring Idempotency-Key, and answer with `schema`."""
    actor = current_actor()
    actor.require_writer()  # a party's viewer reads only (issue 29)
    idem = None
    key = request.headers.get("Idempotency-Key")
    if key is not None:
        if not 1 <= len(key) <= 200:
            raise InvalidRequestError("Idempotency-Key must be 1 to 200 characters.")
        body: Any = request.get_json(silent=True)
        fingerprint = canonical_json([request.method, request.path, body])
        idem = Idempotency(actor.user_id, key, hashlib.sha256(fingerprint.encode()).hexdigest())
    writer = current_app.extensions["market.writer"]
    code, payload = execute(
        engine(), fn, lambda result: (status, schema.dump(result)), idem, writer=writer
    )
    return jsonify(payload), code


def page(items: list[Any], schema: Schema, next_cursor: Any) -> ResponseReturnValue:
    return jsonify({"items": schema.dump(items, many=True), "next": next_cursor})
