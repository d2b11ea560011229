"""The ledger others can check (PRODUCT.md 8.1, 9.3): the public key, the signed checkpoints
and the Merkle proofs (anyone, no sign-in; the proofs at PROOF_RATE_PER_MINUTE per client
address), making a checkpoint (authority) and a certificate's proof bundle (holder,
authority, auditor)."""

from __future__ import annotations

from typing import Any

from flask import current_app, jsonify, request
from flask.typing import ResponseReturnValue
from marshmallow import Schema, fields, validate
from sqlalchemy import Engine

from market.api.blueprint import Blueprint
from market.api.context import current_actor, engine
from market.api.openapi_errors import answers
from market.api.schemas import MAX_CURSOR, EventOut, page_of
from market.services.kernel import rate_limit
from market.services.kernel.actor import AUTHORITY
from market.services.kernel.errors import NotFoundError
from market.services.trust import checkpoints, cosigned, proofs, signer
from market.services.trust.checkpoints import TrustSettings

blp = Blueprint("trust", __name__, url_prefix="/api/v1", description="Checkpoints and proofs")
SIZE = validate.Range(1, MAX_CURSOR)
PUBLIC: list[dict[str, list[str]]] = []  # OpenAPI: no bearer token needed
# A proof: no checkpoint yet (404); the tree behind or contradicting the ledger (409).
TREE_ANSWERS = (404, 409)
RATE_LIMITED = (
    "More than PROOF_RATE_PER_MINUTE proofs from this address in a minute: "
    "`rate_limited` in the error shape, with Retry-After (seconds)"
)


def signer_engine() -> Engine:
    """The connection that may write the trust tables (SIGNER_DATABASE_URL)."""
    return current_app.extensions["market.signer_engine"]  # type: ignore[no-any-return]


def settings() -> TrustSettings:
    return TrustSettings.from_config(current_app.config, current_app.instance_path)


def limit_proofs() -> None:
    """One request of this client address's allowance (429 with Retry-After past it).
    `remote_addr` is the real client's: ProxyFix sets it when TRUSTED_PROXIES > 0."""
    buckets = current_app.extensions.setdefault("market.proof_rate", rate_limit.Buckets())
    per_minute = int(current_app.config.get("PROOF_RATE_PER_MINUTE", 600))
    buckets.take(request.remote_addr or "unknown", per_minute)


class PublicKeyOut(Schema):
    key_id = fields.String(metadata={"description": "8 hex digits: the signed-note key hash"})
    algorithm = fields.String(metadata={"example": "ed25519"})
    public_key = fields.String(metadata={"description": "base64 of the raw 32-byte key"})
    name = fields.String(metadata={"description": "the key name: the log's origin"})
    verifier_key = fields.String(
        metadata={
            "description": "C2SP signed-note verifier key, name+keyhash+base64(0x01 || key), "
            "as Go's note.NewVerifier reads it"
        }
    )


HEX = {"description": "SHA-256, 64 lowercase hex digits"}


class InclusionOut(Schema):
    seq = fields.Integer()
    leaf_index = fields.Integer(metadata={"description": "seq - 1"})
    tree_size = fields.Integer()
    leaf_hash = fields.String(metadata={"description": "SHA-256(0x00 || event hash), hex"})
    proof = fields.List(fields.String(metadata=HEX), metadata={"description": "RFC 9162 2.1.3"})
    root_hash = fields.String(metadata=HEX)


class ConsistencyOut(Schema):
    from_ = fields.Integer(data_key="from")
    to = fields.Integer()
    proof = fields.List(fields.String(metadata=HEX), metadata={"description": "RFC 9162 2.1.4"})
    from_root_hash = fields.String(metadata=HEX)
    to_root_hash = fields.String(metadata=HEX)


class CosignatureOut(Schema):
    witness = fields.String()
    key_id = fields.String()
    timestamp = fields.Integer()


class QuorumOut(Schema):
    required = fields.Integer()
    cosigned = fields.Integer()
    met = fields.Boolean()
    missing = fields.List(fields.String())


class CheckpointOut(Schema):
    tree_size = fields.Integer()
    root_hash = fields.String()
    timestamp = fields.String()
    key_id = fields.String()
    signature = fields.String()
    note = fields.String()
    signed_note = fields.String()
    # The latest checkpoint's (and a bundle's): its witnesses (PRODUCT.md 9.3).
    cosignatures = fields.List(fields.Nested(CosignatureOut))
    quorum = fields.Nested(QuorumOut)


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
@blp.alt_response(200, schema=PublicKeyOut)
def public_key() -> ResponseReturnValue:
    """The Ed25519 key that signs checkpoints (anyone)."""
    return jsonify(checkpoints.public_key(settings()))


@blp.route("/ledger/checkpoints/latest", methods=["GET"])
@blp.doc(security=PUBLIC, **answers(add=(404,)))
@blp.alt_response(200, schema=CheckpointOut)
def latest() -> ResponseReturnValue:
    """The latest signed checkpoint (anyone)."""
    found = checkpoints.latest(engine(), settings())
    if found is None:
        raise NotFoundError("No checkpoint has been made yet.", {})
    return jsonify(cosigned.with_cosignatures(engine(), settings().witnesses, found))


@blp.route("/ledger/checkpoints", methods=["GET"])
@blp.doc(security=PUBLIC)
@blp.arguments(PageArgs, location="query")
@blp.alt_response(200, schema=page_of(CheckpointOut, "CheckpointPage"))
def list_checkpoints(args: dict[str, Any]) -> ResponseReturnValue:
    """Every signed checkpoint, smallest tree first (anyone); `next` is the `after` cursor."""
    items, nxt = checkpoints.checkpoints_page(engine(), settings(), args["after"], args["limit"])
    shown = cosigned.page_with_cosignatures(engine(), settings().witnesses, items)
    return jsonify({"items": shown, "next": nxt})


@blp.route("/ledger/checkpoints", methods=["POST"])
@blp.alt_response(201, schema=CheckpointOut)
@blp.alt_response(200, schema=CheckpointOut)
def make() -> ResponseReturnValue:
    """Sign the ledger now (authority); 200 with the latest if the ledger has not grown."""
    current_actor().require(AUTHORITY)
    made, created = signer.make_checkpoint(
        signer_engine(), settings(), max_backlog=checkpoints.REQUEST_BACKLOG
    )
    shown = cosigned.with_cosignatures(engine(), settings().witnesses, made)
    return jsonify(shown), 201 if created else 200


@blp.route("/ledger/proofs/inclusion", methods=["GET"])
@blp.doc(security=PUBLIC, **answers(add=TREE_ANSWERS))
@blp.arguments(InclusionArgs, location="query")
@blp.alt_response(200, schema=InclusionOut)
@blp.alt_response(429, description=RATE_LIMITED)
def inclusion(args: dict[str, Any]) -> ResponseReturnValue:
    """RFC 9162 inclusion proof of event `seq` in the tree of `tree_size` (default: the
    latest checkpoint's) (anyone: hashes only; PROOF_RATE_PER_MINUTE per address)."""
    limit_proofs()
    found = proofs.inclusion(engine(), args["seq"], args["tree_size"], signer_engine())
    return jsonify(found)


@blp.route("/ledger/proofs/consistency", methods=["GET"])
@blp.doc(security=PUBLIC, **answers(add=TREE_ANSWERS))
@blp.arguments(ConsistencyArgs, location="query")
@blp.alt_response(200, schema=ConsistencyOut)
@blp.alt_response(429, description=RATE_LIMITED)
def consistency(args: dict[str, Any]) -> ResponseReturnValue:
    """RFC 9162 consistency proof between the trees of sizes `from` and `to` (anyone:
    hashes only; PROOF_RATE_PER_MINUTE per address)."""
    limit_proofs()
    return jsonify(proofs.consistency(engine(), args["from_"], args["to"], signer_engine()))


class BundleArgs(Schema):
    since = fields.Integer(load_default=None, validate=SIZE)


class PathOut(Schema):
    seq = fields.Integer(required=True)
    proof = fields.List(fields.String(metadata=HEX), required=True)


class BundleConsistencyOut(Schema):
    from_ = fields.Integer(data_key="from", required=True)
    to = fields.Integer(required=True)
    proof = fields.List(fields.String(metadata=HEX), required=True)


class BundleDocumentOut(Schema):
    """An exhibit of the certificate's case: its bytes' SHA-256 is in its DOCUMENT_FILED
    event (in `events`), so the proof covers the file as well as the record."""

    id = fields.String(required=True)
    kind = fields.String(required=True)
    subject_type = fields.String(required=True)
    subject_id = fields.String(required=True)
    version = fields.Integer(required=True)
    sha256 = fields.String(required=True, metadata=HEX)
    bytes = fields.Integer(required=True)
    media_type = fields.String(required=True)
    filed_seq = fields.Integer(required=True)


class BundleOut(Schema):
    certificate_id = fields.String(required=True)
    checkpoint = fields.Nested(CheckpointOut, required=True)
    events = fields.List(fields.Nested(EventOut), required=True)
    inclusion = fields.List(fields.Nested(PathOut), required=True)
    documents = fields.List(fields.Nested(BundleDocumentOut), required=True)
    hash_rule = fields.String(required=True)
    consistency = fields.Nested(BundleConsistencyOut, metadata={"description": "with `since`"})


@blp.route("/certificates/<certificate_id>/proof", methods=["GET"])
@blp.doc(**answers(add=TREE_ANSWERS))
@blp.arguments(BundleArgs, location="query")
@blp.alt_response(200, schema=BundleOut)
def certificate_proof(args: dict[str, Any], certificate_id: str) -> ResponseReturnValue:
    """The certificate's events with inclusion proofs against a signed checkpoint
    (holder, authority, auditor); `since=N` adds the consistency proof from the checkpoint
    of size N the reader holds. Check it offline with scripts/verify-proof."""
    request = proofs.BundleRequest(certificate_id, args["since"])
    bundle = proofs.certificate_bundle(
        engine(), current_actor(), settings(), request, signer_engine()
    )
    return jsonify(bundle)
