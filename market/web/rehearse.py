"""A review that runs the commit's own rules: the command runs in a unit of work that is
never committed (leaving it rolls everything back), so the review shows exactly what the
confirmation will write, or the refusal it would meet, and nothing is written."""

from __future__ import annotations

from collections.abc import Callable
from typing import TypeVar

from market.services.kernel.uow import UnitOfWork
from market.web.base import engine

T = TypeVar("T")


def rehearse(command: Callable[[UnitOfWork], T]) -> T:
    """`command`'s result as the commit would give it (or its refusal, raised)."""
    with UnitOfWork(engine()) as uow:
        return command(uow)
