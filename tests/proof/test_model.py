"""Model-based testing: a hypothesis state machine drives the service layer (each command
in its own unit of work through `runner.run`) and compares the projections with a small
reference model of balances, the BRRAG fiscal-year cap, transfers and credit use after
every step; the ledger verifies at the end of every example."""

from __future__ import annotations

import shutil
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, settings
from hypothesis import strategies as st
from hypothesis.stateful import (
    RuleBasedStateMachine,
    invariant,
    precondition,
    rule,
    run_state_machine_as_test,
)
from sqlalchemy import Engine, select

from market.adapters.db import make_engine
from market.adapters.tables import CapUsage
from market.domain.commands.trading import CreateTransfer
from market.domain.errors import DomainError
from market.domain.rulesets import get_ruleset
from market.services.certificates import certificates, returns
from market.services.kernel.actor import PARTICIPANT, SYSTEM, Actor
from market.services.kernel.runner import run
from market.services.parties.parties import NewParty, register_party
from market.services.trading import trading
from market.services.trust.ledger import verify
from tests.conftest import reset_postgres
from tests.helpers import brrag_award_kwargs
from tests.proof.conftest import SCALE
from tests.proof.world import certificate_rows, conservation_problems

RULES = get_ruleset("A1178")
CAP = RULES.brrag_fy_cap_cents
FLOOR_PCT = RULES.min_consideration_pct[next(iter(RULES.min_consideration_pct))]
caps_t = CapUsage.__table__  # type: ignore[attr-defined]
FISCAL_YEARS = (2014, 2015)
TAX_TYPES = (["CBT"], ["CBT", "GIT"], ["GIT"], ["IPT"])


@dataclass
class Cert:
    holder: str
    face: int
    balance: int
    original: bool
    transferred: int = 0
    applied: int = 0


@dataclass
class Pending:
    cert: str
    buyer: str
    amount: int
    price: int
    status: str = "awaiting_buyer"  # a negotiated transfer waits for its buyer (PRODUCT 8.2)


@dataclass
class Model:
    certs: dict[str, Cert] = field(default_factory=dict)
    transfers: dict[str, Pending] = field(default_factory=dict)
    cap_used: dict[int, int] = field(default_factory=dict)


OUTCOMES: Counter[str] = Counter()


def _expect(code: str | None, call: Any) -> Any:
    """Run `call`; it must succeed when `code` is None, else be refused with that code."""
    try:
        result = call()
    except DomainError as exc:
        assert code is not None, f"refused unexpectedly: {exc.code}: {exc.message}"
        assert exc.code == code, (exc.code, code, exc.message)
        OUTCOMES[code] += 1
        return None
    assert code is None, f"expected {code}, but it succeeded: {result}"
    OUTCOMES["ok"] += 1
    return result


def _machine(url: str, template: Path | None, workdir: Path) -> type[RuleBasedStateMachine]:
    from market.domain.programs import Program

    floor_pct = RULES.min_consideration(Program.BRRAG)

    class LedgerMachine(RuleBasedStateMachine):
        def __init__(self) -> None:
            super().__init__()
            if template is not None:
                shutil.copy(template, workdir / "model.db")
            else:
                reset_postgres(url)
            self.engine: Engine = make_engine(url)
            self.model = Model()
            self.parties: list[str] = []
            for i, types in enumerate(TAX_TYPES):
                new = NewParty(f"Model {i}", f"mb-{i}", "c_corporation", list(types))
                party = run(self.engine, lambda uow, n=new: register_party(uow, SYSTEM, n))
                self.parties.append(party["id"])

        def teardown(self) -> None:
            try:
                report = verify(self.engine)
                assert report.ok, report.problems
            finally:
                self.engine.dispose()

        # ---- rules -------------------------------------------------------------------

        @rule(
            holder=st.integers(0, len(TAX_TYPES) - 1),
            fy=st.sampled_from(FISCAL_YEARS),
            face=st.one_of(st.integers(1, 10**6), st.integers(CAP // 10, CAP // 2)),
        )
        def issue(self, holder: int, fy: int, face: int) -> None:
            used = self.model.cap_used.get(fy, 0)
            code = "cap_exceeded" if used + face > CAP else None
            new = certificates.NewCertificate(
                "BRRAG", self.parties[holder], face, fy, **brrag_award_kwargs(face)
            )
            cert = _expect(
                code,
                lambda: run(
                    self.engine,
                    lambda uow: certificates.issue_certificate(uow, SYSTEM, new, RULES),
                ),
            )
            if cert is not None:
                self.model.cap_used[fy] = used + face
                self.model.certs[cert["id"]] = Cert(self.parties[holder], face, face, True)

        @precondition(lambda self: self.model.certs)
        @rule(
            data=st.data(),
            share_bps=st.integers(1, 13_000),
            price_pct=st.integers(floor_pct - 3, 100),
        )
        def propose(self, data: st.DataObject, share_bps: int, price_pct: int) -> None:
            cert_id = data.draw(st.sampled_from(list(self.model.certs)))
            buyer = data.draw(st.sampled_from(self.parties))
            cert = self.model.certs[cert_id]
            amount = max(1, cert.face * share_bps // 10_000)
            price = amount * price_pct // 100
            committed = sum(
                t.amount
                for t in self.model.transfers.values()
                if t.cert == cert_id and t.status in ("awaiting_buyer", "pending_approval")
            )
            if buyer == cert.holder:
                code: str | None = "invalid_request"
            elif amount > cert.balance:
                code = "insufficient_balance"
            elif not cert.original:
                code = "resale_not_allowed"
            elif 100 * price < floor_pct * amount:
                code = "below_minimum_consideration"
            elif committed + amount > cert.balance:
                # Pending transfers never promise more than the balance (commitments).
                code = "insufficient_balance"
            else:
                code = None
            t = _expect(
                code,
                lambda: run(
                    self.engine,
                    lambda uow: trading.create_transfer(
                        uow, SYSTEM, CreateTransfer(cert_id, buyer, amount, price, None), RULES
                    ),
                ),
            )
            if t is not None:
                assert t["status"] == "awaiting_buyer"
                self.model.transfers[t["id"]] = Pending(cert_id, buyer, amount, price)

        def buyer_of(self, t: Pending) -> Actor:
            return Actor(user_id=f"model-{t.buyer}", role=PARTICIPANT, party_id=t.buyer)

        @precondition(lambda self: self.model.transfers)
        @rule(data=st.data())
        def confirm(self, data: st.DataObject) -> None:
            """The buyer's consent re-runs the proposal's rules on today's balance."""
            transfer_id = data.draw(st.sampled_from(list(self.model.transfers)))
            t = self.model.transfers[transfer_id]
            if t.status != "awaiting_buyer":
                code: str | None = "conflict"
            elif t.amount > self.model.certs[t.cert].balance:
                code = "insufficient_balance"
            else:
                code = None
            done = _expect(
                code,
                lambda: run(
                    self.engine,
                    lambda uow: trading.confirm_transfer(uow, self.buyer_of(t), transfer_id, RULES),
                ),
            )
            if done is not None:
                assert done["status"] == "pending_approval"
                t.status = "pending_approval"

        @precondition(lambda self: self.model.transfers)
        @rule(data=st.data())
        def decline(self, data: st.DataObject) -> None:
            transfer_id = data.draw(st.sampled_from(list(self.model.transfers)))
            t = self.model.transfers[transfer_id]
            code = None if t.status == "awaiting_buyer" else "conflict"
            done = _expect(
                code,
                lambda: run(
                    self.engine,
                    lambda uow: trading.decline_transfer(
                        uow, self.buyer_of(t), transfer_id, "model"
                    ),
                ),
            )
            if done is not None:
                assert done["status"] == "declined"
                t.status = "declined"

        @precondition(lambda self: self.model.transfers)
        @rule(data=st.data())
        def approve(self, data: st.DataObject) -> None:
            transfer_id = data.draw(st.sampled_from(list(self.model.transfers)))
            t = self.model.transfers[transfer_id]
            cert = self.model.certs[t.cert]
            if t.status == "awaiting_buyer":
                code: str | None = "awaiting_buyer"
            elif t.status != "pending_approval":
                code = "conflict"
            elif t.amount > cert.balance:
                code = "insufficient_balance"
            else:
                code = None
            done = _expect(
                code,
                lambda: run(
                    self.engine,
                    lambda uow: trading.approve_transfer(uow, SYSTEM, transfer_id, RULES),
                ),
            )
            if done is not None:
                assert done["status"] == "approved"
                t.status = "approved"
                cert.balance -= t.amount
                cert.transferred += t.amount
                self.model.certs[done["buyer_certificate_id"]] = Cert(
                    t.buyer, t.amount, t.amount, False
                )

        @precondition(lambda self: self.model.transfers)
        @rule(data=st.data())
        def reject(self, data: st.DataObject) -> None:
            transfer_id = data.draw(st.sampled_from(list(self.model.transfers)))
            t = self.model.transfers[transfer_id]
            code = None if t.status in ("awaiting_buyer", "pending_approval") else "conflict"
            done = _expect(
                code,
                lambda: run(
                    self.engine,
                    lambda uow: trading.reject_transfer(uow, SYSTEM, transfer_id, "model"),
                ),
            )
            if done is not None:
                assert done["status"] == "rejected"
                t.status = "rejected"

        @precondition(lambda self: self.model.certs)
        @rule(data=st.data(), requested=st.integers(1, 10**8), liability=st.integers(0, 10**8))
        def apply_credit(self, data: st.DataObject, requested: int, liability: int) -> None:
            cert_id = data.draw(st.sampled_from(list(self.model.certs)))
            cert = self.model.certs[cert_id]
            holder_types = TAX_TYPES[self.parties.index(cert.holder)]
            if cert.original:
                code: str | None = "waived_by_seller"
            elif cert.balance == 0:
                code = "insufficient_balance"
            else:
                code = None
            new = returns.NewCreditApplication(
                certificate_id=cert_id,
                tax_type=holder_types[0],
                tax_year=2015,
                liability_cents=liability,
                amount_cents=requested,
                # PT-2: every GIT use gives its §40 Cap40 (ratio 1 here: the liability).
                cap40_cents=liability if holder_types[0] == "GIT" else None,
            )
            holder = Actor(user_id="model", role=PARTICIPANT, party_id=cert.holder)
            done = _expect(
                code,
                lambda: run(
                    self.engine, lambda uow: returns.apply_to_return(uow, holder, RULES, new)
                ),
            )
            if done is not None:
                applied = int(done["applied_cents"])
                assert 0 <= applied <= min(requested, cert.balance, liability), done
                # What is not applied stays on the certificate for later years.
                assert applied + int(done["carried_forward_cents"]) == cert.balance, done
                cert.balance -= applied
                cert.applied += applied

        # ---- invariants ----------------------------------------------------------------

        @invariant()
        def projections_match_the_model(self) -> None:
            OUTCOMES["checks"] += 1
            with self.engine.connect() as conn:
                rows = {r["id"]: r for r in certificate_rows(conn)}
                caps = {
                    int(r.fiscal_year): int(r.used_cents)
                    for r in conn.execute(select(caps_t).where(caps_t.c.bucket == "BRRAG"))
                }
                conn.rollback()
            assert set(rows) == set(self.model.certs)
            for cert_id, cert in self.model.certs.items():
                row = rows[cert_id]
                got = (
                    row["holder_party_id"],
                    row["face_cents"],
                    row["balance_cents"],
                    row["transferred_cents"],
                    row["applied_cents"],
                    bool(row["is_original"]),
                )
                want = (
                    cert.holder,
                    cert.face,
                    cert.balance,
                    cert.transferred,
                    cert.applied,
                    cert.original,
                )
                assert got == want, cert_id
            assert caps == {fy: used for fy, used in self.model.cap_used.items()}
            assert all(used <= CAP for used in caps.values())
            problems = conservation_problems(list(rows.values()))
            assert not problems, problems

    return LedgerMachine


def test_services_agree_with_the_reference_model(
    database_url: str, sqlite_template: Path, tmp_path: Path
) -> None:
    sqlite = database_url.startswith("sqlite")
    url = f"sqlite:///{tmp_path / 'model.db'}" if sqlite else database_url
    machine = _machine(url, sqlite_template if sqlite else None, tmp_path)
    OUTCOMES.clear()
    run_state_machine_as_test(
        machine,
        settings=settings(
            max_examples=SCALE.mbt_examples,
            stateful_step_count=SCALE.mbt_steps,
            deadline=None,
            database=None,
            suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
        ),
    )
    print(f"model: {dict(OUTCOMES)}")
    # The machine really ran: models checked after many steps, commands both done and refused.
    assert OUTCOMES["checks"] >= SCALE.mbt_examples * SCALE.mbt_steps // 4, OUTCOMES
    assert OUTCOMES["ok"] > 0 and OUTCOMES["insufficient_balance"] + OUTCOMES["conflict"] > 0


@pytest.fixture(autouse=True)
def _floor_is_the_brrag_floor() -> None:
    from market.domain.programs import Program

    assert RULES.min_consideration(Program.BRRAG) == 75
