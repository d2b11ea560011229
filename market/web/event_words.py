"""The words the event sentences share: dollars, shares and prices in words, a code in
words, and a party's or certificate's name from the names the page knows (an id it does
not know is shown as it is)."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from fractions import Fraction
from typing import Any

from market.domain.values import format_cents
from market.web import filters

Names = Mapping[str, str]
# A typed event in one sentence; each takes its own class (see event_sentences.SENTENCES).
Sentence = Callable[[Any, Names], str]

FUNDS = {
    "general_fund": "the General Fund",
    "property_tax_relief_fund": "the Property Tax Relief Fund",
}
LIMITS = {
    "requested": "the amount asked",
    "balance": "the usable balance",
    "fifty_percent_ceiling": "the 50% ceiling",
    "statutory_minimum": "the CBT statutory minimum",
    "liability": "the tax liability",
    "section_40_ratio": "the owner's §40 share",
}
ENTITIES = {
    "c_corporation": "a C corporation",
    "s_corporation": "an S corporation",
    "partnership": "a partnership",
    "llc": "an LLC",
    "sole_proprietorship": "a sole proprietorship",
    "individual": "an individual",
    "insurance_company": "an insurance company",
}


def dollars(cents: Any) -> str:
    return "an unknown amount" if cents is None else format_cents(int(cents))


def share(bps: Any) -> str:
    """Basis points as a percentage, exactly when it is whole (2,500 bps = 25%)."""
    value = Fraction(int(bps), 100)
    return f"{value.numerator}%" if value.denominator == 1 else f"{float(value):.2f}%"


def per_dollar(price: Any, amount: Any) -> str:
    """A price in cents on the dollar, as the pages show it (filters.per_dollar)."""
    return filters.per_dollar(None if price is None else int(price), amount and int(amount))


def words(code: Any) -> str:
    return str(code or "").replace("_", " ")


def named(names: Names, value: object) -> str:
    """A party's or certificate's name from its id: the id itself when the page does not
    know it, "someone" for none."""
    return names.get(str(value), str(value)) if value else "someone"
