"""The ledger others can check (PRODUCT.md 8.1): the public key and the signed checkpoints
(anyone, no sign-in), making a checkpoint (authority), Merkle proofs (authority, auditor)
and a certificate's proof bundle (holder, authority, auditor)."""

from __future__ import annotations

from typing import Any

from flask import current_app, jsonify
from flask.typing import ResponseReturnValue
from marshmallow import Schema, fields, validate
from sqlalchemy import Engine

from market.api.blueprint import Blueprint
from market.api.context import current_actor, engine
from market.api.schemas import MAX_CURSOR, page_of
from market.services import checkpoints, proofs, signer
from market.services.actor import AUTHORITY
from market.services.checkpoints import TrustSettings
from market.services.errors import NotFoundError

blp = Blueprint("trust", __name__, url_prefix="/api/v1", description="Checkpoints and proofs")
SIZE = validate.Range(1, MAX_CURSOR)
PUBLIC: list[dict[str, list[str]]] = []  # OpenAPI: no bearer token needed


def signer_engine() -> Engine:
    """The connection that may write the trust tables (SIGNER_DATABASE_URL)."""
    return current_app.extensions["market.signer_engine"]  # type: ignore[no-any-return]


def settings() -> TrustSettings:
    return TrustSettings.from_config(current_app.config, current_app.instance_path)


class CheckpointOut(Schema):
    tree_size = fields.Integer()
    root_hash = fields.String()
    timestamp = fields.String()
    key_id = fields.String()
    signature = fields.String()
    note = fields.String()
    signed_note = fields.String()


class PageArgs(Schema):
    after = fields.Integer(load_default=0, validate=validate.Range(0, MAX_CURSOR))
    limit = fields.Integer(load_default=100, validate=validate.Range(1, 1000))


class InclusionArgs(Schema):
    seq = fields.Integer(required=True, validate=SIZE)
    tree_size = fields.Integer(load_default=None, validate=SIZE)


class ConsistencyArgs(Schema):
    from_ = fields.Integer(required=True, data_key="from", validate=SIZE)
    to = fields.Integer(required=True, validate=SIZE)


@blp.route("/ledger/public-key", methods=["GET"])
@blp.doc(security=PUBLIC)
def public_key() -> ResponseReturnValue:
    """The Ed25519 key that signs checkpoints (anyone)."""
    return jsonify(checkpoints.public_key(settings()))


@blp.route("/ledger/checkpoints/latest", methods=["GET"])
@blp.doc(security=PUBLIC)
@blp.alt_response(200, schema=CheckpointOut)
def latest() -> ResponseReturnValue:
    """The latest signed checkpoint (anyone)."""
    found = checkpoints.latest(engine())
    if found is None:
        raise NotFoundError("No checkpoint has been made yet.", {})
    return jsonify(found)


@blp.route("/ledger/checkpoints", methods=["GET"])
@blp.doc(security=PUBLIC)
@blp.arguments(PageArgs, location="query")
@blp.alt_response(200, schema=page_of(CheckpointOut, "CheckpointPage"))
def list_checkpoints(args: dict[str, Any]) -> ResponseReturnValue:
    """Every signed checkpoint, smallest tree first (anyone); `next` is the `after` cursor."""
    items, nxt = checkpoints.checkpoints_page(engine(), args["after"], args["limit"])
    return jsonify({"items": items, "next": nxt})


@blp.route("/ledger/checkpoints", methods=["POST"])
@blp.alt_response(201, schema=CheckpointOut)
@blp.alt_response(200, schema=CheckpointOut)
def make() -> ResponseReturnValue:
    """Sign the ledger now (authority); 200 with the latest if the ledger has not grown."""
    current_actor().require(AUTHORITY)
    made, created = signer.make_checkpoint(
        signer_engine(), settings(), max_backlog=checkpoints.REQUEST_BACKLOG
    )
    return jsonify(made), 201 if created else 200


@blp.route("/ledger/proofs/inclusion", methods=["GET"])
@blp.arguments(InclusionArgs, location="query")
def inclusion(args: dict[str, Any]) -> ResponseReturnValue:
    """RFC 9162 inclusion proof of event `seq` in the tree of `tree_size` (default: the
    latest checkpoint's) (authority, auditor)."""
    found = proofs.inclusion(
        engine(), current_actor(), args["seq"], args["tree_size"], signer_engine()
    )
    return jsonify(found)


@blp.route("/ledger/proofs/consistency", methods=["GET"])
@blp.arguments(ConsistencyArgs, location="query")
def consistency(args: dict[str, Any]) -> ResponseReturnValue:
    """RFC 9162 consistency proof between the trees of sizes `from` and `to`."""
    found = proofs.consistency(
        engine(), current_actor(), args["from_"], args["to"], signer_engine()
    )
    return jsonify(found)


class BundleArgs(Schema):
    since = fields.Integer(load_default=None, validate=SIZE)


@blp.route("/certificates/<certificate_id>/proof", methods=["GET"])
@blp.arguments(BundleArgs, location="query")
def certificate_proof(args: dict[str, Any], certificate_id: str) -> ResponseReturnValue:
    """The certificate's events with inclusion proofs against a signed checkpoint
    (holder, authority, auditor); `since=N` adds the consistency proof from the checkpoint
    of size N the reader holds. Check it offline with scripts/verify-proof."""
    bundle = proofs.certificate_bundle(
        engine(), current_actor(), settings(), certificate_id, args["since"], signer_engine()
    )
    return jsonify(bundle)
