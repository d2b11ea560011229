"""seed-demo builds the demo market through the services, on both databases."""

from __future__ import annotations

from typing import Any

from sqlalchemy import text

from market.services import ledger


def test_seed_demo_builds_a_market_that_verifies(app: Any) -> None:
    engine = app.extensions["market.engine"]
    runner = app.test_cli_runner()
    result = runner.invoke(args=["seed-demo"])
    assert result.exit_code == 0, result.output
    assert "TECH FY 2013 allocated 60,000,000.00 dollars (triggered: True)" in result.output
    with engine.connect() as conn:
        statuses = dict(
            conn.execute(text("select status, count(*) from transfers group by status")).all()
        )
        programs = {r[0] for r in conn.execute(text("select distinct program from certificates"))}
        zone = conn.execute(
            text("select used_cents from cap_usage where id = 'TECH_ZONE_SET_ASIDE:2013'")
        ).scalar()
        applied = conn.execute(text("select count(*) from credit_applications")).scalar()
        reviews = conn.execute(
            text("select count(*) from events where type = 'UTH_REVIEW_RECORDED'")
        ).scalar()
        attested = conn.execute(
            text("select count(*) from transfers where use_of_proceeds is not null")
        ).scalar()
    assert statuses == {"approved": 4, "rejected": 1, "pending_approval": 1}
    assert programs == {"BRRAG", "UTH", "DM_CBT", "DM_GIT", "TECH"}
    assert zone == 10_000_000_00
    assert applied == 2
    assert reviews == 3 and "2016 cut by 20%" in result.output
    assert attested == 4  # every BRRAG and TECH sale carries the seller's attestation
    assert ledger.verify(engine).ok
    again = runner.invoke(args=["seed-demo", "--if-empty"])
    assert again.exit_code == 0 and "not seeded" in again.output
    refused = runner.invoke(args=["seed-demo"])
    assert refused.exit_code != 0


def test_demo_logins_lists_every_role(app: Any) -> None:
    result = app.test_cli_runner().invoke(args=["demo-logins"])
    assert result.exit_code == 0
    assert "eda@demo.nj" in result.output and "auditor@demo.nj" in result.output
    assert "participant" in result.output
