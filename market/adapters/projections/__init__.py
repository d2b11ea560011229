"""Projections: current state folded from the events.

A handler is registered per event type and writes through a `Store`. The same handlers
run live (a `DbStore` on the write transaction) and in replay/verify (a `MemoryStore`),
so the live tables and a rebuild from the events can only differ if something outside
the handlers changed a table or an event.
"""

from market.adapters.projections.registry import apply, apply_typed, handles, known_types
from market.adapters.projections.store import DbStore, MemoryStore, Store

# Importing the handler modules registers them.
from market.adapters.projections import certificates, parties  # noqa: F401  isort: skip
from market.adapters.projections import returns  # noqa: F401  isort: skip
from market.adapters.projections import tech  # noqa: F401  isort: skip
from market.adapters.projections import trading  # noqa: F401  isort: skip
from market.adapters.projections import uth  # noqa: F401  isort: skip
from market.adapters.projections import deals  # noqa: F401  isort: skip
from market.adapters.projections import halts, funding  # noqa: F401  isort: skip
from market.adapters.projections import records  # noqa: F401  isort: skip
from market.adapters.projections import registration  # noqa: F401  isort: skip
from market.adapters.projections import casefiles  # noqa: F401  isort: skip

__all__ = ["DbStore", "MemoryStore", "Store", "apply", "apply_typed", "handles", "known_types"]
