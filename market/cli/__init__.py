"""`flask --app market ...` commands over the same services."""

from __future__ import annotations

from flask import Flask

from market.cli import ledger_commands, users


def register_commands(app: Flask) -> None:
    from market.cli.allocate import allocate

    app.cli.add_command(ledger_commands.db)
    app.cli.add_command(users.users)
    app.cli.add_command(ledger_commands.replay)
    app.cli.add_command(ledger_commands.verify)
    app.cli.add_command(allocate)
    from market.cli.flows import roll_fiscal_year

    app.cli.add_command(roll_fiscal_year)
