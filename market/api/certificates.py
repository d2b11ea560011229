"""Certificates: issuance by the Authority, reads with lineage and history."""

from __future__ import annotations

from typing import Any

from flask import jsonify
from flask.typing import ResponseReturnValue
from marshmallow import Schema, ValidationError, fields, validate

from market.adapters.repositories.models import certificate_of
from market.api.blueprint import Blueprint
from market.api.context import command, current_actor, engine, page, ruleset
from market.api.schemas import MAX_CURSOR, SeqPageArgs, cents, page_of, text
from market.domain.commands.certificates import RecordUthReview
from market.domain.rules.activities import MAX_ACTIVITIES, MAX_ACTIVITY_ID_LENGTH
from market.domain.rules.uth_review import FINDINGS
from market.services.casefiles import uth_fees
from market.services.certificates import (
    certificate_reads,
    certificate_views,
    certificates,
)
from market.services.kernel.uow import ReadOnly, UnitOfWork
from market.services.trading import sale_windows

blp = Blueprint("certificates", __name__, url_prefix="/api/v1", description="Transfer certificates")

YEAR = validate.Range(1900, 2200)


def _no_repeats(ids: list[str]) -> None:
    repeated = sorted({a for a in ids if ids.count(a) > 1})
    if repeated:
        raise ValidationError(f"Creditable activity ids must not repeat: {', '.join(repeated)}.")


class CertificateIn(Schema):
    program = fields.String(
        required=True, validate=validate.OneOf(["BRRAG", "UTH", "DM_GIT", "DM_CBT", "TECH"])
    )
    holder_party_id = text(40)
    face_cents = cents(minimum=1)
    fiscal_year = fields.Integer(strict=True, required=True, validate=YEAR)
    tax_types = fields.List(
        fields.String(validate=validate.OneOf(["CBT", "GIT", "IPT"])),
        load_default=None,
        validate=validate.Length(min=1, max=3),
    )
    tax_periods = fields.List(
        fields.Integer(strict=True, validate=YEAR),
        load_default=None,
        validate=validate.Length(min=1, max=20),
    )
    credit_year = fields.Integer(strict=True, load_default=None, validate=YEAR)
    # BRRAG awards (BR-1, BR-2, BR-6): required for BRRAG only.
    retained_jobs = fields.Integer(
        strict=True,
        load_default=None,
        validate=validate.Range(0, 10**7),
        metadata={"description": "BR-6: retained full-time jobs ($1,500 each a year)"},
    )
    award_years = fields.Integer(
        strict=True,
        load_default=None,
        validate=validate.Range(1, 50),
        metadata={"description": "BR-4: the years the certificate covers (default 1)"},
    )
    nj_operations_since = fields.Date(
        load_default=None,
        metadata={"description": "BR-1: continuous NJ operation since (10 years needed)"},
    )
    cannot_use_before_expiry = fields.Boolean(
        load_default=None,
        metadata={"description": "BR-2/AMB-9: the Authority/Director determination"},
    )
    tax_period_start_month = fields.Integer(
        strict=True,
        load_default=None,
        validate=validate.Range(1, 12),
        metadata={"description": "UTH-13: the month the holder's tax year begins (default 1)"},
    )
    # PT-1 / AMB-56: the projects, job cohorts or expense batches the credit is for.
    creditable_activity_ids = fields.List(
        fields.String(validate=validate.Length(min=1, max=MAX_ACTIVITY_ID_LENGTH)),
        load_default=None,
        validate=[validate.Length(max=MAX_ACTIVITIES), _no_repeats],
    )


class ReviewIn(Schema):
    tax_period = fields.Integer(strict=True, required=True, validate=YEAR)
    finding = fields.String(required=True, validate=validate.OneOf(sorted(FINDINGS)))


class LineageOut(Schema):
    ancestors = fields.List(fields.Dict())
    children = fields.List(fields.Dict())
    children_next = fields.Integer(allow_none=True)  # ?children_after= for the next page


class CertificatePageArgs(Schema):
    """Cursors of the certificate's children and history pages (50 each)."""

    children_after = fields.Integer(
        strict=False, load_default=None, validate=validate.Range(0, MAX_CURSOR)
    )
    history_after = fields.Integer(
        strict=False, load_default=None, validate=validate.Range(0, MAX_CURSOR)
    )


class CertificateOut(Schema):
    id = fields.String()
    number = fields.String()
    program = fields.String()
    holder_party_id = fields.String()
    original_holder_party_id = fields.String()
    parent_id = fields.String(allow_none=True)
    root_id = fields.String()
    origin = fields.String()
    is_original = fields.Boolean()
    face_cents = fields.Integer()
    allowed_cents = fields.Integer()
    balance_cents = fields.Integer()
    queued_cents = fields.Integer()
    transferred_cents = fields.Integer()
    applied_cents = fields.Integer()
    expired_cents = fields.Integer()
    recaptured_cents = fields.Integer()
    status = fields.String()
    fiscal_year = fields.Integer()
    tax_types = fields.List(fields.String())
    tax_periods = fields.List(fields.Raw())
    credit_year = fields.Integer(allow_none=True)
    carryover_last_year = fields.Integer(allow_none=True)
    usable_through = fields.Integer(
        allow_none=True,
        metadata={"description": "PRODUCT.md 8.4: the last tax year (UTH: period) usable"},
    )
    usable_until = fields.String(
        allow_none=True,
        metadata={"description": "the last business date a buyer could still use it"},
    )
    queued_usable_from = fields.String(
        allow_none=True,
        metadata={
            "description": "DMQ-3: the earliest day a queued amount can be allowed and "
            "used (the first day of a fiscal year); null when nothing is queued"
        },
    )
    waiver_statement = fields.String()
    attributes = fields.Dict()
    creditable_activity_ids = fields.List(fields.String())
    ruleset = fields.String()
    halted = fields.Boolean(
        metadata={
            "description": "PRODUCT.md 8.3: a recapture or invalidity notice on it or "
            "an ancestor halts its trading"
        }
    )
    lineage = fields.Nested(LineageOut)
    history = fields.List(fields.Dict())
    history_next = fields.Integer(allow_none=True)  # ?history_after= for the next page
    review = fields.Dict()  # POST .../reviews only: the UTH_REVIEW_RECORDED payload


@blp.route("/certificates", methods=["POST"])
@blp.arguments(CertificateIn)
@blp.alt_response(201, schema=CertificateOut)
def issue(data: dict[str, Any]) -> ResponseReturnValue:
    """Issue a BRRAG, UTH or digital media certificate (authority); caps and queues apply."""
    actor = current_actor()
    new = certificates.NewCertificate(**data)
    rules = ruleset()

    def run(uow: UnitOfWork) -> dict[str, Any]:
        # The answer carries every field GET /certificates/{id} does (its first page).
        cert = uth_fees.issue_certificate(uow, actor, new, rules)
        history = certificate_reads.appended_history(uow.appended, cert["id"])
        return (
            cert
            | sale_windows.window_fields(certificate_of(cert), rules)
            | {"history": history, "history_next": None}
        )

    return command(run, CertificateOut())


@blp.route("/certificates/<certificate_id>", methods=["GET"])
@blp.arguments(CertificatePageArgs, location="query")
@blp.alt_response(200, schema=CertificateOut)
def get_certificate(args: dict[str, Any], certificate_id: str) -> ResponseReturnValue:
    """A certificate with its lineage and history (holder, authority, auditor); children
    and history come 50 at a time (`lineage.children_next`, `history_next`)."""
    actor = current_actor()
    with ReadOnly(engine()) as conn:
        cert = certificate_views.get_certificate(
            conn,
            actor,
            certificate_id,
            children_after=args["children_after"],
            history_after=args["history_after"],
        )
    return jsonify(
        CertificateOut().dump(cert | sale_windows.window_fields(certificate_of(cert), ruleset()))
    )


@blp.route("/parties/<party_id>/certificates", methods=["GET"])
@blp.arguments(SeqPageArgs, location="query")
@blp.alt_response(200, schema=page_of(CertificateOut, "CertificatePage"))
def party_certificates(args: dict[str, Any], party_id: str) -> ResponseReturnValue:
    """The certificates a party holds, page by page."""
    actor = current_actor()
    with ReadOnly(engine()) as conn:
        items, nxt = certificate_views.list_party_certificates(
            conn, actor, party_id, args["after"], args["limit"]
        )
    rules = ruleset()
    items = [c | sale_windows.window_fields(certificate_of(c), rules) for c in items]
    return page(items, CertificateOut(), nxt)


@blp.route("/certificates/<certificate_id>/reviews", methods=["POST"])
@blp.arguments(ReviewIn)
@blp.alt_response(201, schema=CertificateOut)
def record_review(data: dict[str, Any], certificate_id: str) -> ResponseReturnValue:
    """Record the annual review of one tax period of an original UTH award (authority):
    `approved`, a UTH-11 reduction or forfeiture, or `restored` (UTH-11, UTH-26)."""
    actor = current_actor()
    rules = ruleset()

    def run(uow: UnitOfWork) -> dict[str, Any]:
        return uth_fees.record_review(
            uow, actor, RecordUthReview(certificate_id, data["tax_period"], data["finding"]), rules
        )

    return command(run, CertificateOut())
