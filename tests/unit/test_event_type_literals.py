"""Issue 24 item 4: code outside the events package names an event by its class (a table
keyed by class, `SomeEvent.TYPE` in SQL), never by its stored type string; so a renamed
or new event class is found by the type checker, not by a search for a string."""

from __future__ import annotations

import ast
import re
from pathlib import Path

from market.domain.events import event_types

ROOT = Path(__file__).resolve().parents[2]
EVENTS = ROOT / "market" / "domain" / "events"
QUOTED = re.compile(r"""(["'])([A-Z][A-Z0-9_]*)\1""")


def literals_in_python(source: str) -> list[tuple[int, str]]:
    """(line, type) for every string constant that is an event type."""
    types = event_types()
    return [
        (node.lineno, node.value)
        for node in ast.walk(ast.parse(source))
        if isinstance(node, ast.Constant) and isinstance(node.value, str) and node.value in types
    ]


def literals_in_template(source: str) -> list[tuple[int, str]]:
    """(line, type) for every quoted event type in a Jinja template (its logic quotes
    strings; a page's prose may name a type, unquoted, as words for people)."""
    types = event_types()
    return [
        (source.count("\n", 0, m.start()) + 1, m.group(2))
        for m in QUOTED.finditer(source)
        if m.group(2) in types
    ]


def _found() -> list[str]:
    found = []
    for path in sorted((ROOT / "market").rglob("*.py")):
        if EVENTS not in path.parents:
            hits = literals_in_python(path.read_text(encoding="utf-8"))
            found += [f"{path.relative_to(ROOT)}:{line} {t}" for line, t in hits]
    for path in sorted((ROOT / "templates").rglob("*.html")):
        hits = literals_in_template(path.read_text(encoding="utf-8"))
        found += [f"{path.relative_to(ROOT)}:{line} {t}" for line, t in hits]
    return found


def test_no_event_type_string_outside_the_events_package() -> None:
    found = _found()
    assert len(found) == 0, "\n".join(found)


def test_the_scan_finds_a_type_written_as_a_string() -> None:
    python = 'STATUS = {"TRANSFER_APPROVED": "approved"}\nif t == "OFFER_MADE":\n    pass\n'
    assert literals_in_python(python) == [(1, "TRANSFER_APPROVED"), (2, "OFFER_MADE")]
    jinja = "{% if e.type == 'CERT_ISSUED' %}\nRecords a TRANSFER_PROPOSED event{% endif %}"
    assert literals_in_template(jinja) == [(1, "CERT_ISSUED")]
    assert literals_in_python('"""Its TRANSFER_APPROVED event."""\nX = Cls.TYPE\n') == []


def test_the_events_package_itself_is_where_the_types_are_written() -> None:
    written: set[str] = set()
    for path in EVENTS.glob("*.py"):
        written |= {t for _, t in literals_in_python(path.read_text(encoding="utf-8"))}
    assert written == event_types()
