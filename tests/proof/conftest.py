"""Proof-suite parameters: a SHORT form by default, a LONG one with PROOF_SCALE=soak.

Every suite reads its sizes from `SCALE` (or the `scale` fixture), so `scripts/soak`
(`PROOF_SCALE=soak pytest tests/proof`) runs the same assertions at soak size.
"""

from __future__ import annotations

import os
from dataclasses import dataclass

import pytest


@dataclass(frozen=True)
class Scale:
    name: str
    bank_clients: int  # concurrent HTTP clients in the bank test
    bank_ops: int  # operations per client
    bank_hot_certs: int  # hot certificates they fight over
    race_approvals: int  # simultaneous approvals per double-spend round
    race_rounds: int
    crash_kills: int  # SIGKILLs of the gunicorn process group
    crash_load_seconds: float  # load before each kill
    idem_retries: int
    mbt_examples: int  # hypothesis examples of the state machine
    mbt_steps: int  # steps per example
    fuzz_examples: int  # schemathesis examples per endpoint and role
    tamper_sqlite: int  # events tampered with, one at a time
    tamper_postgresql: int
    tamper_ledger: int  # events in the ledger the tampered ones are drawn from


SHORT = Scale(
    name="short",
    bank_clients=8,
    bank_ops=40,
    bank_hot_certs=4,
    race_approvals=12,
    race_rounds=3,
    crash_kills=3,
    crash_load_seconds=1.5,
    idem_retries=20,
    mbt_examples=15,
    mbt_steps=20,
    fuzz_examples=8,
    tamper_sqlite=100,
    tamper_postgresql=100,
    tamper_ledger=300,
)

SOAK = Scale(
    name="soak",
    bank_clients=16,
    bank_ops=500,
    bank_hot_certs=8,
    race_approvals=50,
    race_rounds=20,
    crash_kills=10,
    crash_load_seconds=3.0,
    idem_retries=20,
    mbt_examples=100,
    mbt_steps=100,
    fuzz_examples=40,
    tamper_sqlite=100,
    tamper_postgresql=100,
    tamper_ledger=600,
)

SCALE = SOAK if os.environ.get("PROOF_SCALE", "").lower() == "soak" else SHORT


@pytest.fixture
def scale() -> Scale:
    return SCALE
