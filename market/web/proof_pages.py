"""A certificate's proof bundle for signed-in page users (the API's
GET /api/v1/certificates/{id}/proof, with the session instead of a bearer token), by the
certificate's id or number."""

from __future__ import annotations

from flask import current_app, jsonify
from flask.typing import ResponseReturnValue

from market.services.certificates import certificate_views
from market.services.kernel.uow import ReadOnly
from market.services.trust import proofs
from market.services.trust.checkpoints import TrustSettings
from market.web.base import actor, bp, engine, roles_required


@bp.get("/certificates/<certificate_id>/proof.json", endpoint="certificate_proof")
# Printed certificates before the public check (verify_pages) carry this address.
@bp.get("/certificates/<certificate_id>/proof", endpoint="certificate_proof_link")
@roles_required("authority", "participant", "auditor")
def certificate_proof(certificate_id: str) -> ResponseReturnValue:
    # The certificate page's own access rule first: a stranger's 404 is an unknown one's.
    with ReadOnly(engine()) as conn:
        certificate_id = certificate_views.readable_id(conn, actor(), certificate_id)
    settings = TrustSettings.from_config(current_app.config, current_app.instance_path)
    signer = current_app.extensions["market.signer_engine"]  # SIGNER_DATABASE_URL
    request = proofs.BundleRequest(certificate_id)
    bundle = proofs.certificate_bundle(engine(), actor(), settings, request, signer)
    response = jsonify(bundle)
    response.headers["Content-Disposition"] = f'attachment; filename="{certificate_id}-proof.json"'
    return response
