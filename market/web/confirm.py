"""Review, then confirm: an irreversible form first shows exactly what will be written, in
words and dollars, with the values carried in hidden fields; only the second post, with
`confirm=yes`, runs the service. Works without JavaScript."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from flask import render_template, request
from flask.typing import ResponseReturnValue


def confirmed() -> bool:
    return request.form.get("confirm") == "yes"


def review(
    *,
    title: str,
    action: str,
    lines: Sequence[tuple[str, str]],
    carry: Mapping[str, str],
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
