"""Proof suites: the ledger's invariants under load, faults, bad input and tampering."""
