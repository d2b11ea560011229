"""A certificate's proof bundle for signed-in page users (the API's
GET /api/v1/certificates/{id}/proof, with the session instead of a bearer token)."""

from __future__ import annotations

from flask import current_app, jsonify
from flask.typing import ResponseReturnValue

from market.services.certificates import certificate_views
from market.services.kernel.uow import ReadOnly
from market.services.trust import proofs
from market.services.trust.checkpoints import TrustSettings
from market.web.base import actor, bp, engine, roles_required


@bp.get("/certificates/<certificate_id>/proof.json", endpoint="certificate_proof")
# The printed certificate's QR code points here (certificate_qr.proof_url).
@bp.get("/certificates/<certificate_id>/proof", endpoint="certificate_proof_link")
@roles_required("authority", "participant", "auditor")
def certificate_proof(certificate_id: str) -> ResponseReturnValue:
    # The certificate page's own access rule first (a stranger gets its 403).
    with ReadOnly(engine()) as conn:
        holder = certificate_views.load_certificate(conn, certificate_id)["holder_party_id"]
    actor().require_reader_of(holder)
    settings = TrustSettings.from_config(current_app.config, current_app.instance_path)
    signer = current_app.extensions["market.signer_engine"]  # SIGNER_DATABASE_URL
    bundle = proofs.certificate_bundle(engine(), actor(), settings, certificate_id, None, signer)
    response = jsonify(bundle)
    response.headers["Content-Disposition"] = f'attachment; filename="{certificate_id}-proof.json"'
    return response
