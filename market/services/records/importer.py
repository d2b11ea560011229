"""`flask import KIND FILE.csv [--dry-run]` (PRODUCT.md 9.1): every row through the same
use case as a live request, in one unit of work holding the ledger head; every row is
tried and every refusal listed; nothing is committed when any row is refused or on a dry
run. A committed run ends with RECORDS_IMPORTED carrying the file's SHA-256, whose row
(`records_imports`, keyed by the hash) makes a second run of the same file import nothing.

A refused row normally writes nothing before it is refused (the use cases decide, then
append). If one did append before refusing, or the database refused a statement, the unit
of work is given up and the run starts again without the rows refused so far."""

from __future__ import annotations

import hashlib
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from sqlalchemy.engine import Engine
from sqlalchemy.exc import DBAPIError

from market.domain.errors import DomainError
from market.domain.events.records import RecordsImported
from market.domain.rulesets import ScheduleEntry
from market.services.kernel.actor import AUTHORITY, Actor
from market.services.kernel.numbering import new_id
from market.services.kernel.uow import AbstractUnitOfWork, UnitOfWork
from market.services.records.csv_rows import FileRefused, Refusal, read_rows
from market.services.records.import_rows import KINDS, RowContext, RowRefused

IMPORTER = Actor(user_id="records-import", role=AUTHORITY)
Progress = Callable[[int], None]


@dataclass
class ImportReport:
    kind: str
    sha256: str
    rows: int = 0
    imported: int = 0
    refused: list[Refusal] = field(default_factory=list)
    dry_run: bool = False
    already_imported: bool = False
    created: list[dict[str, Any]] = field(default_factory=list)

    def as_dict(self) -> dict[str, Any]:
        return {
            "kind": self.kind,
            "sha256": self.sha256,
            "rows": self.rows,
            "imported": self.imported,
            "refused": [r.as_dict() for r in sorted(self.refused, key=lambda r: r.row)],
            "dry_run": self.dry_run,
            "already_imported": self.already_imported,
            "created": self.created,
        }


class _StartAgain(Exception):
    """A refused row left the unit of work unusable (it appended, or the database refused)."""


def _refusal(row: int, exc: DomainError, columns: tuple[str, ...]) -> Refusal:
    if isinstance(exc, RowRefused):
        return Refusal(row, exc.field, exc.code, exc.message)
    named = [k for k in exc.details if k in columns]
    if not named:  # a use case's detail named by its API name (face_cents, amount_cents)
        named = [
            k.removesuffix("_cents") for k in exc.details if k.removesuffix("_cents") in columns
        ]
    if not named:  # the message names the column (the use case's words)
        named = [c for c in columns if c in exc.message]
    if not named and "party_id" in exc.details:
        named = [c for c in columns if c.endswith("tax_id")][:1]
    return Refusal(row, named[0] if named else "row", exc.code, exc.message)


def run_import(
    engine: Engine,
    kind: str,
    data: bytes,
    file_name: str,
    schedule: tuple[ScheduleEntry, ...],
    *,
    dry_run: bool = False,
    progress: Progress | None = None,
    actor: Actor = IMPORTER,
) -> ImportReport:
    if kind not in KINDS:
        raise ValueError(f"KIND must be one of {', '.join(KINDS)}, not {kind!r}")
    columns, handler = KINDS[kind]
    report = ImportReport(kind=kind, sha256=hashlib.sha256(data).hexdigest(), dry_run=dry_run)
    try:
        rows = read_rows(data, columns)
    except FileRefused as exc:
        report.refused = exc.refusals
        return report
    report.rows = len(rows)
    ctx = RowContext(actor=actor, schedule=schedule)
    refused: dict[int, Refusal] = {}
    while True:
        try:
            _attempt(
                engine, report, rows, refused, ctx, handler, columns.known, file_name, progress
            )
            return report
        except _StartAgain:
            report.created = []
            continue


def _attempt(
    engine: Engine,
    report: ImportReport,
    rows: list[tuple[int, dict[str, str]]],
    refused: dict[int, Refusal],
    ctx: RowContext,
    handler: Callable[..., str],
    known: tuple[str, ...],
    file_name: str,
    progress: Progress | None,
) -> None:
    with UnitOfWork(engine) as uow:
        if uow.parties.store.get("records_imports", report.sha256) is not None:
            report.already_imported = True
            return
        first = None
        for number, row in rows:
            if number in refused:
                _tick(progress)
                continue
            before = len(uow.appended)
            try:
                made = handler(uow, ctx, row)
            except DomainError as exc:
                refused[number] = _refusal(number, exc, known)
                if len(uow.appended) > before:
                    raise _StartAgain from exc
            except DBAPIError as exc:
                message = f"The database refused row {number}: {exc.orig}."
                refused[number] = Refusal(number, "row", "database_refused", message)
                raise _StartAgain from exc
            else:
                if first is None and uow.appended:
                    first = uow.appended[0].seq
                report.created.append({"row": number, "id": made})
            _tick(progress)
        report.refused = list(refused.values())
        if refused or report.dry_run:
            report.imported = 0
            report.created = []  # nothing was written: no id is real
            return  # the unit of work rolls back: nothing written
        report.imported = len(rows)
        _record_run(uow, report, file_name, first)
        uow.commit()


def _record_run(
    uow: AbstractUnitOfWork, report: ImportReport, file_name: str, first: int | None
) -> None:
    last = uow.appended[-1].seq if uow.appended else None
    uow.append(
        f"records-import-{report.sha256}",
        RecordsImported(
            import_id=new_id("imp"),
            kind=report.kind,
            sha256=report.sha256,
            file_name=file_name[-300:],
            rows=report.rows,
            imported=report.imported,
            first_seq=first,
            last_seq=last,
        ),
        IMPORTER.label,
        new_stream=True,
    )


def _tick(progress: Progress | None) -> None:
    if progress is not None:
        progress(1)
