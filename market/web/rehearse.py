"""A review that runs the commit's own rules: the command runs in a unit of work that is
never committed (leaving it rolls everything back), so the review shows exactly what the
confirmation will write, or the refusal it would meet, and nothing is written."""

from __future__ import annotations

from collections.abc import Callable
from typing import TypeVar

from flask import flash
from flask.typing import ResponseReturnValue

from market.domain.errors import DomainError
from market.services.kernel import runner
from market.services.kernel.uow import UnitOfWork
from market.web import confirm, forms
from market.web.base import engine

T = TypeVar("T")


def rehearse(command: Callable[[UnitOfWork], T]) -> T:
    """`command`'s result as the commit would give it (or its refusal, raised)."""
    with UnitOfWork(engine()) as uow:
        return command(uow)


def review_then_commit(
    command: Callable[[UnitOfWork], T],
    review: Callable[[T], ResponseReturnValue],
    render: Callable[[int], ResponseReturnValue],
    done: Callable[[T], ResponseReturnValue],
) -> ResponseReturnValue:
    """The first post rehearses `command` and shows `review` of its result (or the form
    again, `render`, with the refusal in words); the confirming post runs it for real."""
    if not confirm.confirmed():
        try:
            result = rehearse(command)
        except DomainError as e:
            flash(e.message, "error")
            return render(e.status)
        return review(result)
    ok, result, status = forms.attempt(lambda: runner.run(engine(), command))
    if not ok:
        return render(status)
    return done(result)
