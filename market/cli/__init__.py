"""`flask --app market ...` commands over the same services."""

from __future__ import annotations

from importlib import import_module

from flask import Flask

from market.cli import ledger_commands, users


def register_commands(app: Flask) -> None:
    from market.cli.allocate import allocate

    app.cli.add_command(ledger_commands.db)
    app.cli.add_command(users.users)
    app.cli.add_command(ledger_commands.replay)
    app.cli.add_command(ledger_commands.verify)
    app.cli.add_command(allocate)
    app.cli.add_command(import_module("market.cli.export").export)
    app.cli.add_command(import_module("market.cli.export").expire)
    from market.cli.flows import roll_fiscal_year

    app.cli.add_command(roll_fiscal_year)
