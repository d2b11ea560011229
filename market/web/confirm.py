"""Review, then confirm: an irreversible form first shows exactly what will be written, in
words and dollars, with the values carried in hidden fields; only the second post, with
`confirm=yes`, runs the service. Works without JavaScript."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

from flask import render_template, request
from flask.typing import ResponseReturnValue
from sqlalchemy import Engine

from market.services.kernel import runner
from market.services.kernel.uow import UnitOfWork
from market.web import forms


def confirmed() -> bool:
    return request.form.get("confirm") == "yes"


def review(
    *,
    title: str,
    action: str,
    lines: Sequence[tuple[str, str]],
    carry: Mapping[str, str | Sequence[str]],
    button: str,
    back: str,
    warning: str = "This cannot be undone.",
    danger: bool = True,
) -> ResponseReturnValue:
    """The review page: `lines` are (label, value) pairs naming what will be written;
    `carry` the exact form values the confirming post sends back."""
    return render_template(
        "confirm.html",
        title=title,
        action=action,
        lines=lines,
        carry=carry,
        button=button,
        back=back,
        warning=warning,
        danger=danger,
    )


def rehearsed(
    engine: Engine,
    command: Callable[[UnitOfWork], Any],
    *,
    refused: Callable[[int], ResponseReturnValue],
    review_of: Callable[[Any], ResponseReturnValue],
    done: Callable[[Any], ResponseReturnValue],
) -> ResponseReturnValue:
    """Review, then confirm, for an irreversible command: the first post rehearses it (its
    unit of work rolls back) and shows `review_of` its result, or the refusal in words;
    the confirming post runs it. The review runs exactly the rules the commit runs, so
    nothing is refused after a review said it would pass (issue 28)."""
    if not confirmed():
        ok, result, status = forms.attempt(lambda: runner.rehearse(engine, command))
        return review_of(result) if ok else refused(status)
    ok, result, status = forms.attempt(lambda: runner.run(engine, command))
    return done(result) if ok else refused(status)
