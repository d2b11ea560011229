"""Tamper: change one byte of each of many random events (append-only triggers dropped);
`verify` must report every one, naming its seq, and pass again once the byte is restored."""

from __future__ import annotations

import random
import string
from collections.abc import Iterator

import pytest
from sqlalchemy import Engine, text
from sqlalchemy.exc import DBAPIError

from market.domain.commands.trading import CreateTransfer
from market.domain.rulesets import get_ruleset
from market.services.certificates import certificates
from market.services.kernel.actor import PARTICIPANT, SYSTEM, Actor
from market.services.kernel.runner import run
from market.services.parties.parties import NewParty, register_party
from market.services.trading import trading
from market.services.trust.ledger import verify
from tests.helpers import brrag_award_kwargs
from tests.proof.conftest import SCALE
from tests.proof.world import M, event_count

RULES = get_ruleset("A1178")
# Columns whose text a byte change can reach without breaking the row's shape.
COLUMNS = ("payload", "stream", "actor", "recorded_at", "prev_hash", "hash")


def _build_ledger(engine: Engine, target: int) -> None:
    """Parties, certificates and transfers (proposed, approved, rejected) until `target`."""
    parties = []
    for i in range(8):
        new = NewParty(f"Tamper {i}", f"tt-{i}", "c_corporation", ["CBT", "GIT"])
        parties.append(run(engine, lambda uow, n=new: register_party(uow, SYSTEM, n))["id"])
    rng = random.Random(6)
    fy = 2014
    while event_count(engine) < target:
        seller, buyer = rng.sample(parties, 2)
        face = rng.randint(1, 5) * M
        new = certificates.NewCertificate("BRRAG", seller, face, fy, **brrag_award_kwargs(face))
        try:
            cert = run(
                engine, lambda uow, n=new: certificates.issue_certificate(uow, SYSTEM, n, RULES)
            )
        except Exception:
            fy += 1  # the fiscal year's cap is used up: go on in the next one
            continue
        amount = cert["face_cents"] // 4
        t = run(
            engine,
            lambda uow, c=cert, b=buyer, a=amount: trading.create_transfer(
                uow, SYSTEM, CreateTransfer(c["id"], b, a, a, None), RULES
            ),
        )
        buyer_actor = Actor(user_id=f"tamper-{buyer}", role=PARTICIPANT, party_id=buyer)
        if rng.random() < 0.7:
            run(
                engine,
                lambda uow, t=t, b=buyer_actor: trading.confirm_transfer(uow, b, t["id"], RULES),
            )
            run(engine, lambda uow, t=t: trading.approve_transfer(uow, SYSTEM, t["id"], RULES))
        else:
            run(engine, lambda uow, t=t: trading.reject_transfer(uow, SYSTEM, t["id"], "no"))


@pytest.fixture
def unguarded(engine: Engine) -> Iterator[Engine]:
    """The append-only triggers dropped for the test, and put back afterwards (the
    PostgreSQL database is shared by the whole session)."""
    sqlite = engine.dialect.name == "sqlite"
    with engine.begin() as conn:
        if sqlite:
            conn.execute(text("DROP TRIGGER events_no_update"))
            conn.execute(text("DROP TRIGGER events_no_delete"))
        else:
            # IF EXISTS: tests/integration/test_event_store.py drops it on the session's
            # shared database without putting it back; this fixture restores it.
            conn.execute(text("DROP TRIGGER IF EXISTS events_no_update_delete ON events"))
    yield engine
    with engine.begin() as conn:
        if sqlite:
            for action in ("UPDATE", "DELETE"):
                conn.execute(
                    text(
                        f"CREATE TRIGGER events_no_{action.lower()} BEFORE {action} ON events "
                        "BEGIN SELECT RAISE(ABORT, 'events are append-only'); END"
                    )
                )
        else:
            conn.execute(
                text(
                    "CREATE TRIGGER events_no_update_delete BEFORE UPDATE OR DELETE ON events "
                    "FOR EACH ROW EXECUTE FUNCTION events_append_only()"
                )
            )
    with pytest.raises(DBAPIError), engine.begin() as conn:
        conn.execute(text("UPDATE events SET actor = 'x' WHERE seq = 1"))


def _read(engine: Engine, seq: int, column: str) -> str:
    expr = "payload::text" if column == "payload" and engine.dialect.name != "sqlite" else column
    with engine.connect() as conn:
        value = conn.execute(text(f"SELECT {expr} FROM events WHERE seq = :s"), {"s": seq}).scalar()
        conn.rollback()
    return str(value)


def _write(engine: Engine, seq: int, column: str, value: str) -> None:
    target = "CAST(:v AS json)" if column == "payload" and engine.dialect.name != "sqlite" else ":v"
    with engine.begin() as conn:
        sql = f"UPDATE events SET {column} = {target} WHERE seq = :s"
        conn.execute(text(sql), {"v": value, "s": seq})


def _one_byte(rng: random.Random, value: str, column: str) -> str:
    """Change one character for another of its class, so the row stays well formed (valid
    JSON, same length): a letter or digit inside a payload *value*, anywhere elsewhere."""
    if column == "payload":
        # Positions inside JSON string values: after a ':' or ',' + '"' opening a value.
        spots = [i for i in _value_positions(value) if value[i].isalnum()]
    else:
        spots = [i for i, c in enumerate(value) if c.isalnum()]
    i = rng.choice(spots)
    pool = string.digits if value[i].isdigit() else string.ascii_letters
    if column in ("prev_hash", "hash"):
        pool = "0123456789abcdef"
    new = rng.choice([c for c in pool if c != value[i]])
    return value[:i] + new + value[i + 1 :]


def _value_positions(doc: str) -> list[int]:
    """Indexes of characters inside JSON string values (not keys) and inside numbers
    other than their first digit (so no leading zero appears)."""
    out: list[int] = []
    i, n = 0, len(doc)
    expecting_value = False
    while i < n:
        c = doc[i]
        if c == '"':
            j = i + 1
            while doc[j] != '"':
                j += 2 if doc[j] == "\\" else 1
            if expecting_value:
                out.extend(k for k in range(i + 1, j) if doc[k - 1] != "\\")
            i, expecting_value = j + 1, False
            continue
        if c == ":":
            expecting_value = True
        elif c in ",[":
            # Array elements are values; object members start with a key.
            expecting_value = c == "[" or _in_array(doc, i)
        elif c.isdigit():
            j = i
            while j < n and doc[j].isdigit():
                j += 1
            out.extend(range(i + 1, j))
            i, expecting_value = j, False
            continue
        i += 1
    return out


def _in_array(doc: str, comma: int) -> bool:
    depth = 0
    for k in range(comma - 1, -1, -1):
        c = doc[k]
        if c in "]}":
            depth += 1
        elif c in "[{":
            if depth == 0:
                return c == "["
            depth -= 1
    return False


def test_verify_names_every_tampered_event(unguarded: Engine) -> None:
    engine = unguarded
    _build_ledger(engine, SCALE.tamper_ledger)
    total = event_count(engine)
    assert verify(engine).ok
    rng = random.Random(1178)
    count = SCALE.tamper_sqlite if engine.dialect.name == "sqlite" else SCALE.tamper_postgresql
    caught: list[tuple[int, str]] = []
    for seq in rng.sample(range(1, total + 1), count):
        column = rng.choice(COLUMNS)
        original = _read(engine, seq, column)
        _write(engine, seq, column, _one_byte(rng, original, column))
        # verify must report, never raise (it raised LookupError for a changed id that later
        # events refer to until 49e043f; docs/RELIABILITY.md, Findings 1).
        report = verify(engine)
        assert not report.ok, (seq, column)
        assert report.first_bad_seq == seq, (seq, column, report.problems)
        assert any(p.startswith(f"seq {seq}:") for p in report.problems), report.problems
        caught.append((seq, column))
        _write(engine, seq, column, original)
        restored = verify(engine)
        assert restored.ok and restored.events == total, restored.problems
    assert len(caught) == count
    assert {c for _, c in caught} == set(COLUMNS)


@pytest.mark.parametrize("where", ["type", "transfer_id"])
def test_verify_reports_a_tampered_type_or_referenced_id(unguarded: Engine, where: str) -> None:
    """Reproduction: a byte changed in TRANSFER_PROPOSED's type or transfer_id; the
    approval or rejection that follows cannot be folded, and verify raises."""
    engine = unguarded
    _build_ledger(engine, 40)
    with engine.connect() as conn:
        seq = conn.execute(
            text("SELECT min(seq) FROM events WHERE type = 'TRANSFER_PROPOSED'")
        ).scalar()
        conn.rollback()
    column = "type" if where == "type" else "payload"
    original = _read(engine, seq, column)
    if where == "type":
        tampered = original.replace("PROPOSED", "PROPOSEE")
    else:
        tampered = original.replace('"trf_', '"trg_', 1)
    assert tampered != original
    _write(engine, seq, column, tampered)
    report = verify(engine)
    assert not report.ok and report.first_bad_seq == seq
