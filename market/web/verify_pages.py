"""The public check of a certificate (no sign-in): by its number and verification code,
the status, program, face and balance, and the inclusion proof of its issuing event
against the latest signed checkpoint, which static/verify.js checks again in the browser
(WebCrypto SHA-256 and Ed25519). The printed certificate's QR code opens this page.

A wrong code, a malformed one and a number nobody holds get one answer (404, the same
page), so the page tells nothing about a number without its code. Like the public Merkle
proofs, it spends the address's PROOF_RATE_PER_MINUTE allowance."""

from __future__ import annotations

from datetime import datetime

from flask import current_app, jsonify, render_template, request
from flask.typing import ResponseReturnValue

from market.services.kernel import rate_limit
from market.services.kernel.clock import NEW_YORK
from market.services.kernel.errors import NotFoundError
from market.services.kernel.uow import ReadOnly
from market.services.trust import certificate_check
from market.services.trust.checkpoints import TrustSettings
from market.web.base import bp, engine
from market.web.price_chart import PROGRAM_NAMES

MAX_TYPED = 100  # a certificate number is at most 40 characters, a code about 35


def _limit() -> None:
    buckets = current_app.extensions.setdefault("market.proof_rate", rate_limit.Buckets())
    per_minute = int(current_app.config.get("PROOF_RATE_PER_MINUTE", 600))
    buckets.take(request.remote_addr or "unknown", per_minute)


def _typed() -> tuple[str, str]:
    number = request.args.get("number", "")[:MAX_TYPED].strip()
    code = request.args.get("code", "")[:MAX_TYPED].strip()
    return number, code


def _check(number: str, code: str) -> certificate_check.CertificateCheck | None:
    _limit()
    settings = TrustSettings.from_config(current_app.config, current_app.instance_path)
    try:
        with ReadOnly(engine()) as conn:
            return certificate_check.check(conn, settings, number, code)
    except NotFoundError:
        return None


def new_york(timestamp: str) -> str:
    """An ISO UTC time as New York time, in words the page prints."""
    at = datetime.fromisoformat(timestamp.replace("Z", "+00:00")).astimezone(NEW_YORK)
    return at.strftime("%Y-%m-%d %H:%M %Z")


@bp.get("/verify", endpoint="verify_certificate")
def verify_certificate() -> ResponseReturnValue:
    number, code = _typed()
    found = _check(number, code) if number or code else None
    page = render_template(
        "verify.html",
        found=found,
        number=number,
        code=code,
        asked=bool(number or code),
        program_names=PROGRAM_NAMES,
        new_york=new_york,
    )
    return page, 404 if (number or code) and not found else 200


@bp.get("/verify/proof.json", endpoint="verify_certificate_json")
def verify_certificate_json() -> ResponseReturnValue:
    """The page's data as JSON: what the browser checks, for a script to check again."""
    number, code = _typed()
    found = _check(number, code)
    if found is None:
        body = {
            "error": {
                "code": "not_found",
                "message": "No certificate has that number and verification code.",
                "details": {},
            }
        }
        return jsonify(body), 404
    return jsonify(found)
