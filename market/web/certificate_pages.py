"""A certificate: number, program, holder, balances, waiver, lineage, history; printable."""

from __future__ import annotations

from flask import render_template
from flask.typing import ResponseReturnValue

from market.services import certificates
from market.services.parties import load_party
from market.services.uow import ReadOnly
from market.web.pages import actor, bp, engine, roles_required


@bp.get("/certificates/<certificate_id>")
@roles_required("authority", "participant", "auditor")
def certificate(certificate_id: str) -> ResponseReturnValue:
    with ReadOnly(engine()) as conn:
        cert = certificates.get_certificate(conn, actor(), certificate_id)
        holder = load_party(conn, cert["holder_party_id"])
        original = load_party(conn, cert["original_holder_party_id"])
    return render_template("certificate.html", cert=cert, holder=holder, original=original)
