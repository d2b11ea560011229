"""A certificate: number, program, holder, balances, waiver, lineage, UTH tranches with
their annual review, history. On an original UTH award the Authority also sees the annual
review form (uth_review_pages). `/certificates/<key>` takes the certificate's id or the
number printed on it. Its print view (`/certificates/<key>/print`) is the paper copy: the
issue date, the Authority's name, the verification code and a QR code of the public
verification page (verify_pages), the history in words, no raw payloads."""

from __future__ import annotations

from typing import Any

from flask import current_app, render_template, request
from flask.typing import ResponseReturnValue

from market.adapters.repositories.models import certificate_of
from market.domain.programs import Program
from market.services.certificates import certificate_views
from market.services.kernel import lookups
from market.services.kernel.actor import AUTHORITY, PARTICIPANT
from market.services.kernel.uow import ReadOnly
from market.services.parties.parties import load_party
from market.services.queries import ledger_search
from market.services.trading import sale_windows
from market.services.trust import certificate_check, proofs
from market.services.trust.checkpoints import TrustSettings
from market.web.base import actor, bp, engine, roles_required, ruleset
from market.web.certificate_qr import qr_svg, verify_url
from market.web.event_sentences import sentence
from market.web.uth_labels import finding_labels, review_state


def is_original_uth(cert: dict[str, Any]) -> bool:
    return bool(cert["program"] == Program.UTH.value and cert["origin"] == "issued")


def render_certificate(certificate_id: str, status: int = 200) -> ResponseReturnValue:
    who = actor()
    with ReadOnly(engine()) as conn:
        cert = certificate_views.find_certificate(
            conn,
            who,
            certificate_id,
            children_after=request.args.get("children_after", type=int),
            history_after=request.args.get("history_after", type=int),
        )
        holder = load_party(conn, cert["holder_party_id"])
        original = load_party(conn, cert["original_holder_party_id"])
        trust = TrustSettings.from_config(current_app.config, current_app.instance_path)
        proven = proofs.covering_checkpoint(conn, trust, (e["seq"] for e in cert["history"]))
        names = ledger_search.display_names(conn, cert["history"], {cert["id"]})
        issued = ledger_search.issue_record(conn, cert["history"], cert["id"])
        # Who acted: a participant reads whom each acted for, never another's address.
        users = lookups.user_names_of(
            conn, [e["actor"] for e in cert["history"]], emails=who.role != PARTICIPANT
        )
    tranches = certificate_views.uth_tranches(cert) or []
    unreviewed = [t["period"] for t in tranches if not t.get("review")]
    # An annual review's cut is counted with expirations in the projection; the page
    # names the two apart, so a reduction never reads as an expiry.
    review_cut = sum(int(t.get("cut_cents") or 0) for t in tranches)
    return (
        render_template(
            "certificate.html",
            cert=cert,
            window=sale_windows.window_fields(certificate_of(cert), ruleset()),
            proven=proven,
            holder=holder,
            original=original,
            tranches=tranches,
            is_original=cert["origin"] == "issued",
            findings=finding_labels(ruleset()),
            review_state=review_state,
            can_review=who.role == AUTHORITY and is_original_uth(cert) and bool(tranches),
            form=request.form,
            default_period=str(unreviewed[0] if unreviewed else ""),
            review_cut_cents=review_cut,
            expired_cents=int(cert["expired_cents"]) - review_cut,
            names=names,
            sentence=sentence,
            issued=issued,
            users=users,
            code=certificate_check.verification_code(issued["seq"], issued["hash"])
            if issued
            else None,
        ),
        status,
    )


@bp.get("/certificates/<certificate_id>")
@roles_required("authority", "participant", "auditor")
def certificate(certificate_id: str) -> ResponseReturnValue:
    return render_certificate(certificate_id)


AUTHORITY_NAME = "New Jersey Economic Development Authority"


@bp.get("/certificates/<certificate_id>/print")
@roles_required("authority", "participant", "auditor")
def certificate_print(certificate_id: str) -> ResponseReturnValue:
    with ReadOnly(engine()) as conn:
        cert = certificate_views.find_certificate(conn, actor(), certificate_id)
        holder = load_party(conn, cert["holder_party_id"])
        original = load_party(conn, cert["original_holder_party_id"])
        names = ledger_search.display_names(conn, cert["history"], {cert["id"]})
        issued = ledger_search.issue_record(conn, cert["history"], cert["id"])
    code = certificate_check.verification_code(issued["seq"], issued["hash"]) if issued else None
    url = verify_url(cert["number"], code) if code else None
    return render_template(
        "certificate_print.html",
        cert=cert,
        holder=holder,
        original=original,
        issued=issued,
        authority=AUTHORITY_NAME,
        window=sale_windows.window_fields(certificate_of(cert), ruleset()),
        code=code,
        verify_url=url,
        qr=qr_svg(url, f"QR code of the page that checks certificate {cert['number']}: {url}")
        if url
        else None,
        names=names,
        sentence=sentence,
    )
