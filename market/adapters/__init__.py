"""Storage: tables, the append-only event store and the projections folded from it."""
