"""What every API view needs: the engine, the ruleset and the authenticated actor."""

from __future__ import annotations

import hashlib
from collections.abc import Callable
from typing import Any, TypeVar

from flask import Response, current_app, g, jsonify, request
from flask.typing import ResponseReturnValue
from marshmallow import Schema
from sqlalchemy import Engine
from structlog.contextvars import bind_contextvars

from market.adapters.eventstore import canonical_json
from market.api.errors import error_body
from market.api.principals import LEDGER_COMMANDS, KeptPrincipals, Unchecked
from market.domain.errors import InvalidRequestError
from market.domain.rulesets import Ruleset, get_ruleset
from market.services.identity.principals import principal_current, principal_for_token
from market.services.identity.token_digest import TokenHasher
from market.services.kernel.actor import Actor
from market.services.kernel.errors import UnauthorizedError
from market.services.kernel.runner import Idempotency, execute
from market.services.kernel.uow import UnitOfWork
from market.validation.error_codes import status_of

T = TypeVar("T")


def engine() -> Engine:
    return current_app.extensions["market.engine"]  # type: ignore[no-any-return]


def token_hasher() -> TokenHasher:
    return current_app.extensions["market.token_hasher"]  # type: ignore[no-any-return]


def ruleset() -> Ruleset:
    return get_ruleset(current_app.config["RULESET"])


def kept_principals() -> KeptPrincipals:
    return current_app.extensions["market.principals"]  # type: ignore[no-any-return]


def current_actor() -> Actor:
    """The bearer token's actor. A ledger command (principals.LEDGER_COMMANDS) may take it
    from the principals this process keeps, checked later under the ledger head."""
    if "actor" in g:
        return g.actor  # type: ignore[no-any-return]
    header = request.headers.get("Authorization", "")
    scheme, _, token = header.partition(" ")
    if scheme.lower() != "bearer" or not token.strip():
        raise UnauthorizedError("Send 'Authorization: Bearer <token>' (POST /api/v1/auth/token).")
    digest = token_hasher().digest(token.strip())
    kept = kept_principals().get(digest) if request.endpoint in LEDGER_COMMANDS else None
    if kept is not None:
        g.unchecked = Unchecked(digest, kept)
    else:
        kept = principal_for_token(engine(), digest)
        kept_principals().keep(digest, kept)
    g.actor = kept.actor
    bind_contextvars(user_id=g.actor.user_id)  # the request's log line names the user
    return g.actor  # type: ignore[no-any-return]


def _checked_first(
    fn: Callable[[UnitOfWork], T], unchecked: Unchecked
) -> Callable[[UnitOfWork], T]:
    """`fn` run only once the kept principal holds under the ledger head."""

    def checked(uow: UnitOfWork) -> T:
        try:
            now = principal_current(uow, unchecked.digest, unchecked.principal)
        except UnauthorizedError:
            kept_principals().drop(unchecked.digest)
            raise
        kept_principals().keep(unchecked.digest, now)
        g.pop("unchecked", None)
        return fn(uow)

    return checked


def checked_before_answer(response: Response) -> Response:
    """After every request: a kept principal that no unit of work checked (the request
    ended before its command ran, or was answered from its Idempotency-Key) is read now,
    and the answer becomes 401 if the database no longer grants it."""
    unchecked: Unchecked | None = g.pop("unchecked", None)
    if unchecked is None:
        return response
    try:
        kept_principals().keep(unchecked.digest, principal_for_token(engine(), unchecked.digest))
    except UnauthorizedError as refused:
        kept_principals().drop(unchecked.digest)
        answer = jsonify(error_body(refused.code, refused.message))
        answer.status_code = status_of(refused)
        return answer
    return response


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
    unchecked: Unchecked | None = g.get("unchecked")
    if unchecked is not None:
        fn = _checked_first(fn, unchecked)
    code, payload = execute(
        engine(), fn, lambda result: (status, schema.dump(result)), idem, writer=writer
    )
    return jsonify(payload), code


def page(items: list[Any], schema: Schema, next_cursor: Any) -> ResponseReturnValue:
    return jsonify({"items": schema.dump(items, many=True), "next": next_cursor})
