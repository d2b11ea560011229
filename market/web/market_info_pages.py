"""Market information and risk pages (PRODUCT.md 8.3); each area in its own module."""

from market.web import (  # noqa: F401
    calculator_pages,
    covenant_pages,
    funding_pages,
    halt_pages,
    price_tape_pages,
    simulator_pages,
)
