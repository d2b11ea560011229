"""The statutory reports' JSON answers, for the API document (PRODUCT.md 9.2). The
reports are computed in market/domain/rules/statutory_reports.py; each answer is a
`StatutoryOut` head (report, year, checkpoint) and the report's own body."""

from __future__ import annotations

from marshmallow import Schema, fields

Cents = fields.Integer
_ROWS = {"description": "one row per group: the group's key, `count` and its cents"}


class ReportCheckpointOut(Schema):
    tree_size = fields.Integer()
    root_hash = fields.String()
    signed = fields.Boolean()


class StatutoryOut(Schema):
    report = fields.String()
    fiscal_year = fields.Integer()
    empty = fields.Boolean()
    note = fields.String(allow_none=True)
    ruleset = fields.String()
    checkpoint = fields.Nested(ReportCheckpointOut)


class PriceFiguresOut(Schema):
    transfers = fields.Integer()
    sellers = fields.Integer()
    min_transfers = fields.Integer()
    min_sellers = fields.Integer()
    published = fields.Boolean(metadata={"description": "false below the price tape's floor"})
    figures = fields.Dict(allow_none=True, metadata={"description": "basis points"})


class TransferTotalsOut(Schema):
    count = fields.Integer()
    amount_cents = Cents()
    consideration_cents = Cents()


class DemandSideOut(Schema):
    applications = fields.Integer()
    eligible = fields.Integer()
    requested_cents = Cents()
    allocated_cents = Cents()


class ReasonCountOut(Schema):
    reason = fields.String()
    count = fields.Integer()


class DemandOut(Schema):
    applications = fields.Integer()
    applicants = fields.Integer()
    eligible = fields.Integer()
    ineligible = fields.Integer()
    ineligible_reasons = fields.List(fields.Nested(ReasonCountOut))
    requested_cents = Cents()
    allocated_cents = Cents()
    zone = fields.Nested(DemandSideOut)
    other = fields.Nested(DemandSideOut)
    allocation_run = fields.Boolean()


class TechCapOut(Schema):
    fy_cap_cents = Cents()
    zone_setaside_cents = Cents()
    used_cents = Cents()
    remaining_cents = Cents()


class BuyersOut(Schema):
    count = fields.Integer()
    by_industry = fields.List(fields.Dict(), metadata=_ROWS)


class UseCountOut(Schema):
    use = fields.String()
    transfers = fields.Integer()


class LifetimeCapOut(Schema):
    cap_cents = Cents()
    sellers_near_cap = fields.List(
        fields.Dict(), metadata={"description": "party_id, name, lifetime_cents, headroom_cents"}
    )


class YearBeforeOut(Schema):
    fiscal_year = fields.Integer()
    applications = fields.Integer()
    eligible = fields.Integer()
    requested_cents = Cents()
    allocated_cents = Cents()


class TechProgramOut(StatutoryOut):
    demand = fields.Nested(DemandOut)
    cap = fields.Nested(TechCapOut)
    total_approved_cents = Cents()
    buyers = fields.Nested(BuyersOut)
    transfers = fields.Nested(TransferTotalsOut)
    prices = fields.Nested(PriceFiguresOut)
    use_of_proceeds = fields.List(fields.Nested(UseCountOut))
    lifetime_cap = fields.Nested(LifetimeCapOut)
    year_before = fields.Nested(YearBeforeOut)


class PoolOut(Schema):
    pool = fields.String()
    cap_cents = Cents()
    used_cents = Cents()


class QueueOut(Schema):
    deferred = fields.Integer()
    deferred_cents = Cents()
    allowed_from_queue = fields.Integer()
    allowed_from_queue_cents = Cents()


class DigitalMediaOut(StatutoryOut):
    by_program_and_tax = fields.List(
        fields.Dict(), metadata={"description": "program, tax, count, face/allowed/queued cents"}
    )
    pools = fields.List(fields.Nested(PoolOut))
    queue = fields.Nested(QueueOut)
    transfers = fields.Nested(TransferTotalsOut)
    prices = fields.Nested(PriceFiguresOut)


class DistributionTotalsOut(Schema):
    granted_cents = Cents()
    sold_cents = Cents()
    used_cents = Cents()


class DistributionViewOut(Schema):
    granted = fields.List(fields.Dict(), metadata=_ROWS)
    sold = fields.List(fields.Dict(), metadata=_ROWS)
    used = fields.List(fields.Dict(), metadata=_ROWS)


class ExactMeanOut(Schema):
    cents = Cents()
    exact = fields.String(metadata={"description": "the mean as a fraction, numerator/denominator"})


class DistributionOut(StatutoryOut):
    totals = fields.Nested(DistributionTotalsOut)
    by_industry = fields.Nested(DistributionViewOut)
    by_size = fields.Nested(DistributionViewOut)
    by_jobs = fields.List(fields.Dict(), metadata=_ROWS)
    jobs = fields.Integer()
    mean_credit_per_job = fields.Nested(ExactMeanOut, allow_none=True)
