"""The buyer calculator (PRODUCT.md 8.3): what a TECH purchase is worth to this buyer and
the price per dollar of the benefit it can actually use (`domain.rules.buyer_value`),
with the pre-trade check when a certificate or listing and a buyer are named."""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from market.adapters.repositories.models import certificate_of
from market.domain.errors import InvalidRequestError
from market.domain.model import Certificate
from market.domain.programs import Program, TaxType
from market.domain.rules import buyer_value
from market.domain.rulesets import Ruleset
from market.domain.values import floor_int, parse_ratio, round_half_up
from market.services.certificates.certificate_views import load_certificate
from market.services.kernel import clock
from market.services.kernel.actor import PARTICIPANT, Actor
from market.services.kernel.errors import not_found
from market.services.kernel.reads import Connection, repositories
from market.services.trading import pretrade
from market.services.trading.rule_checks import terms
from market.services.trading.trade_views import load_listing


@dataclass(frozen=True)
class TechPurchase:
    amount_cents: int
    price_cents: int
    tax_type: str = "CBT"
    liability_cents: int | None = None
    entire_net_income_cents: int | None = None
    allocation_factor: str | None = None
    other_credits_cents: int = 0
    statutory_minimum_cents: int = 0
    first_tax_year: int | None = None
    usable_through: int | None = None
    rnd_cents: int | None = None
    certificate_id: str | None = None
    listing_id: str | None = None
    buyer_party_id: str | None = None


def _certificate(conn: Connection, actor: Actor, p: TechPurchase) -> Certificate | None:
    """The certificate priced: a listing's (on the market: anyone may price it), or one
    named by id, which only its readers may (to another participant it does not exist)."""
    cert_id = p.certificate_id
    if p.listing_id is not None:
        cert_id = load_listing(conn, p.listing_id).certificate_id
    if cert_id is None:
        return None
    cert = certificate_of(load_certificate(conn, cert_id))
    # An open listing shows the certificate to every participant.
    if p.listing_id is None and not repositories(conn).listings.open_of_certificate(cert_id):
        actor.require_reader_of(
            cert.holder_party_id, not_found("Certificate", "certificate_id", cert_id)
        )
    if cert.program is not Program.TECH:
        raise InvalidRequestError(
            f"Certificate {cert_id} is {cert.program.value}, not TECH.",
            {"certificate_id": cert_id},
        )
    return cert


def _rnd_part(conn: Connection, p: TechPurchase, cert: Certificate | None) -> int:
    """The R&D carryover share of the amount: given, else the allocation's split of the
    lineage's original certificate pro rata, else all of it."""
    if p.rnd_cents is not None:
        if not 0 <= p.rnd_cents <= p.amount_cents:
            raise InvalidRequestError("rnd_cents must lie between 0 and amount_cents.", {})
        return p.rnd_cents
    if cert is not None:
        root = load_certificate(conn, cert.root_id)
        split = dict(root["attributes"] or {}).get("benefit_split")
        if split:
            rnd: int = split["rnd_credit_cents"]  # TECH's allocation records whole cents
            face: int = root["face_cents"]
            return floor_int(Fraction(p.amount_cents * rnd, face))
    return p.amount_cents


def _liability(p: TechPurchase, ruleset: Ruleset) -> tuple[int, str]:
    if p.liability_cents is not None:
        return p.liability_cents, "given"
    if p.entire_net_income_cents is None or p.allocation_factor is None:
        raise InvalidRequestError(
            "Give liability_cents, or entire_net_income_cents with allocation_factor.", {}
        )
    factor = parse_ratio(p.allocation_factor)
    return (
        buyer_value.liability_from_income(p.entire_net_income_cents, factor, ruleset),
        "allocation_factor",
    )


def _bps(numerator: int, denominator: int) -> int | None:
    return round_half_up(Fraction(numerator * 10_000, denominator)) if denominator else None


def tech_value(conn: Connection, actor: Actor, p: TechPurchase, ruleset: Ruleset) -> dict[str, Any]:
    if p.amount_cents <= 0 or p.price_cents < 0:
        raise InvalidRequestError("amount_cents must be positive and price_cents not negative.", {})
    try:
        tax_type = TaxType(p.tax_type)
    except ValueError:
        raise InvalidRequestError(
            "tax_type must be CBT or GIT.", {"tax_type": p.tax_type}
        ) from None
    cert = _certificate(conn, actor, p)
    liability, source = _liability(p, ruleset)
    first = p.first_tax_year or clock.today().year
    last = p.usable_through
    if last is None and cert is not None:
        last = pretrade.usable_through(cert)
    if last is None:
        last = first + ruleset.git_rnd_carryover_years  # TB-27, AMB-45 default
    rnd = _rnd_part(conn, p, cert)
    year = buyer_value.BuyerYear(liability, p.other_credits_cents, p.statutory_minimum_cents)
    uses = buyer_value.use_by_year(rnd, p.amount_cents - rnd, tax_type, year, first, last, ruleset)
    usable = sum(u.applied_cents for u in uses)
    buyer = p.buyer_party_id or (actor.party_id if actor.role == PARTICIPANT else None)
    checks = None
    if cert is not None and buyer is not None:
        actor.require_reader_of(buyer)
        checks = pretrade.pretrade_checks(
            conn, cert, buyer, terms(p.amount_cents, p.price_cents), ruleset
        )
    return {
        "amount_cents": p.amount_cents,
        "price_cents": p.price_cents,
        "tax_type": tax_type.value,
        "liability_cents": liability,
        "liability_from": source,
        "rnd_cents": rnd,
        "nol_derived_cents": p.amount_cents - rnd,
        "first_tax_year": first,
        "usable_through": last,
        "years": [
            {
                "tax_year": u.tax_year,
                "rnd_applied_cents": u.rnd_applied_cents,
                "nol_applied_cents": u.nol_applied_cents,
                "applied_cents": u.applied_cents,
                "limited_by": u.limited_by,
            }
            for u in uses
        ],
        "usable_cents": usable,
        "expires_unused_cents": p.amount_cents - usable,
        "price_per_dollar_bps": _bps(p.price_cents, p.amount_cents),
        "price_per_dollar_of_benefit_bps": _bps(p.price_cents, usable),
        "net_benefit_cents": usable - p.price_cents,
        "certificate_id": cert.id if cert is not None else None,
        "buyer_party_id": buyer,
        "checks": checks,
    }
