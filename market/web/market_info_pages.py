"""Market information and risk pages (PRODUCT.md 8.3); each area in its own module."""

from market.web import halt_pages, price_tape_pages, simulator_pages  # noqa: F401
