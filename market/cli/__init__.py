"""`flask --app market ...` commands over the same services."""

from __future__ import annotations

from flask import Flask

from market.cli import demo, export, flows, ledger_commands, trust_commands, users, witness
from market.cli.allocate import allocate
from market.cli.records_import import import_records
from market.cli.worker import deliver, tick, worker


def register_commands(app: Flask) -> None:
    for command in (
        ledger_commands.db,
        users.users,
        ledger_commands.replay,
        ledger_commands.verify,
        allocate,
        export.export,
        export.expire,
        flows.roll_fiscal_year,
        demo.seed_demo,
        demo.demo_logins,
        worker,
        deliver,
        tick,
        witness.witness,
        import_records,
    ):
        app.cli.add_command(command)
    trust_commands.register(app)
