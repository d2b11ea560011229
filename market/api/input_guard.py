"""Input no field of ours needs, refused before any view sees it (API and pages alike).

- JSON bodies are parsed strictly: nested deeper than 32, an integer of more than 18
  digits (every amount fits in 64 bits; Python refuses 4,300+ digits with an error),
  a non-finite or huge number, NaN/Infinity, or a lone UTF-16 surrogate ("\\ud800", which
  no database can store as UTF-8) is 400 in the error shape.
- NUL (PostgreSQL text cannot hold it) anywhere in the path, the query, a form or a
  JSON string: 400 (a page path with one: 404, as no record can have such an id).
- Bidirectional control characters (U+061C, U+200E/F, U+202A-U+202E, U+2066-U+2069: "Trojan
  Source" spoofing of names in a ledger people read) in the query, a form or a JSON
  string: 400 `bidi_control_characters`.
"""

from __future__ import annotations

import json
import math
import re
from collections.abc import Iterable
from typing import Any

from flask import jsonify, request
from flask.typing import ResponseReturnValue

MAX_DEPTH = 32
MAX_INT_DIGITS = 100
BIDI = re.compile("[\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]")
SURROGATE = re.compile("[\ud800-\udfff]")


class UnsafeInputError(ValueError):
    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message


def _parse_int(text: str) -> int:
    if len(text.lstrip("-")) > MAX_INT_DIGITS:
        raise UnsafeInputError("number_too_large", "A number in the body has too many digits.")
    return int(text)


def _parse_float(text: str) -> float:
    value = float(text) if len(text) <= 40 else math.inf
    if not math.isfinite(value) or abs(value) >= 1e18:
        raise UnsafeInputError("number_too_large", "A number in the body is out of range.")
    return value


def _parse_constant(text: str) -> Any:
    raise UnsafeInputError("malformed_json", f"{text} is not a JSON value.")


def text_problem(value: str) -> UnsafeInputError | None:
    if "\x00" in value:
        return UnsafeInputError(
            "malformed_request", "Text may not contain the NUL character (\\u0000)."
        )
    if SURROGATE.search(value):
        return UnsafeInputError("malformed_json", "Text may not contain a lone UTF-16 surrogate.")
    if BIDI.search(value):
        return UnsafeInputError(
            "bidi_control_characters",
            "Text may not contain bidirectional control characters (U+202A-U+202E and kin).",
        )
    return None


def _check_tree(value: Any) -> None:
    stack: list[tuple[Any, int]] = [(value, 1)]
    while stack:
        item, depth = stack.pop()
        if isinstance(item, str):
            problem = text_problem(item)
            if problem:
                raise problem
        elif isinstance(item, dict | list):
            if depth > MAX_DEPTH:
                raise UnsafeInputError(
                    "too_deeply_nested", f"The body is nested deeper than {MAX_DEPTH} levels."
                )
            children: Iterable[Any] = (
                [*item.keys(), *item.values()] if isinstance(item, dict) else item
            )
            stack.extend((c, depth + 1) for c in children)


def strict_loads(data: str | bytes) -> Any:
    try:
        value = json.loads(
            data, parse_int=_parse_int, parse_float=_parse_float, parse_constant=_parse_constant
        )
    except RecursionError:
        raise UnsafeInputError(
            "too_deeply_nested", f"The body is nested deeper than {MAX_DEPTH} levels."
        ) from None
    _check_tree(value)
    return value


def _first_problem(values: Iterable[str]) -> UnsafeInputError | None:
    for value in values:
        problem = text_problem(value)
        if problem:
            return problem
    return None


def guard_request() -> ResponseReturnValue | None:
    from market.api.errors import error_body, render_page_error

    api = request.path.startswith("/api/")
    if "\x00" in request.path and not api:
        return render_page_error(404)
    problem = _first_problem([request.path, *request.args.keys(), *request.args.values()])
    if problem is None and not api and request.form:
        problem = _first_problem([*request.form.keys(), *request.form.values()])
    if problem is None and request.is_json and request.content_length != 0:
        try:
            strict_loads(request.get_data(cache=True))
        except UnsafeInputError as e:
            problem = e
        except ValueError:
            pass  # not JSON at all: the view's parser answers malformed_json
    if problem is None:
        return None
    if not api:
        return render_page_error(400, message=problem.message)
    return jsonify(error_body(problem.code, problem.message)), 400
