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
from typing import TypedDict

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


@dataclass(frozen=True)
class Created:
    """A row imported and the id its use case made."""

    row: int
    id: str


class ImportReportJson(TypedDict):
    kind: str
    sha256: str
    rows: int
    imported: int
    refused: list[dict[str, object]]
    dry_run: bool
    already_imported: bool
    created: list[dict[str, object]]


@dataclass
class ImportReport:
    kind: str
    sha256: str
    rows: int = 0
    imported: int = 0
    refused: list[Refusal] = field(default_factory=list)
    dry_run: bool = False
    already_imported: bool = False
    created: list[Created] = field(default_factory=list)

    def as_dict(self) -> ImportReportJson:
        return {
            "kind": self.kind,
            "sha256": self.sha256,
            "rows": self.rows,
            "imported": self.imported,
            "refused": [r.as_dict() for r in sorted(self.refused, key=lambda r: r.row)],
            "dry_run": self.dry_run,
            "already_imported": self.already_imported,
            "created": [{"row": c.row, "id": c.id} for c in self.created],
        }


@dataclass(frozen=True)
class ImportFile:
    """What to import: the kind of rows, the file's bytes and name, the rulesets in force."""

    kind: str
    data: bytes
    file_name: str
    schedule: tuple[ScheduleEntry, ...]
    dry_run: bool = False


class _StartAgain(Exception):
    """A refused row left the unit of work unusable (it appended, or the database refused)."""


def _refusal(row: int, exc: DomainError, columns: tuple[str, ...]) -> Refusal:
    if isinstance(exc, RowRefused):
        return Refusal(row, exc.field, exc.code, exc.message)
    field = exc.details.get("field")  # the rule names its field (parties' entity_type)
    named = [field] if isinstance(field, str) and field in columns else []
    named = named or [k for k in exc.details if k in columns]
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
    file: ImportFile,
    *,
    progress: Progress | None = None,
    actor: Actor = IMPORTER,
) -> ImportReport:
    if file.kind not in KINDS:
        raise ValueError(f"KIND must be one of {', '.join(KINDS)}, not {file.kind!r}")
    columns, handler = KINDS[file.kind]
    report = ImportReport(
        kind=file.kind, sha256=hashlib.sha256(file.data).hexdigest(), dry_run=file.dry_run
    )
    try:
        rows = read_rows(file.data, columns)
    except FileRefused as exc:
        report.refused = exc.refusals
        return report
    report.rows = len(rows)
    attempt = _Attempt(
        report=report,
        rows=rows,
        ctx=RowContext(actor=actor, schedule=file.schedule),
        handler=handler,
        known=columns.known,
        file_name=file.file_name,
        progress=progress,
    )
    while True:
        try:
            attempt.run(engine)
            return report
        except _StartAgain:
            report.created = []
            continue


@dataclass
class _Attempt:
    """One pass over the rows in one unit of work; the refusals so far are kept across
    passes, their rows skipped."""

    report: ImportReport
    rows: list[tuple[int, dict[str, str]]]
    ctx: RowContext
    handler: Callable[..., str]
    known: tuple[str, ...]
    file_name: str
    progress: Progress | None
    refused: dict[int, Refusal] = field(default_factory=dict)

    def run(self, engine: Engine) -> None:
        report = self.report
        with UnitOfWork(engine) as uow:
            if uow.parties.store.get("records_imports", report.sha256) is not None:
                report.already_imported = True
                return
            first = self._rows(uow)
            report.refused = list(self.refused.values())
            if self.refused or report.dry_run:
                report.imported = 0
                report.created = []  # nothing was written: no id is real
                return  # the unit of work rolls back: nothing written
            report.imported = len(self.rows)
            _record_run(uow, report, self.file_name, first)
            uow.commit()

    def _rows(self, uow: AbstractUnitOfWork) -> int | None:
        """Each row not refused yet through its use case; the first sequence appended."""
        first = None
        for number, row in self.rows:
            if number in self.refused:
                _tick(self.progress)
                continue
            before = len(uow.appended)
            try:
                made = self.handler(uow, self.ctx, row)
            except DomainError as exc:
                self.refused[number] = _refusal(number, exc, self.known)
                if len(uow.appended) > before:
                    raise _StartAgain from exc
            except DBAPIError as exc:
                message = f"The database refused row {number}: {exc.orig}."
                self.refused[number] = Refusal(number, "row", "database_refused", message)
                raise _StartAgain from exc
            else:
                if first is None and uow.appended:
                    first = uow.appended[0].seq
                self.report.created.append(Created(number, made))
            _tick(self.progress)
        return first


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
