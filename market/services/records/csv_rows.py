"""Reading an import file (PRODUCT.md 9.1): UTF-8 with or without a byte-order mark,
a header row, Excel's quoting (Python's csv module, the `excel` dialect), blank lines
Excel leaves at the end skipped. The header must hold every required column of the kind
and nothing it does not know. Rows are numbered as a spreadsheet shows them: the header
is row 1, the first record row 2."""

from __future__ import annotations

import csv
import io
from collections.abc import Mapping
from dataclasses import dataclass


@dataclass(frozen=True)
class Columns:
    required: tuple[str, ...]
    optional: tuple[str, ...] = ()

    @property
    def known(self) -> tuple[str, ...]:
        return self.required + self.optional


@dataclass(frozen=True)
class Refusal:
    row: int
    field: str
    code: str
    message: str

    def as_dict(self) -> dict[str, object]:
        return {"row": self.row, "field": self.field, "code": self.code, "message": self.message}


class FileRefused(Exception):
    """The file cannot be read as rows of its kind at all (encoding, header)."""

    def __init__(self, refusals: list[Refusal]) -> None:
        super().__init__("; ".join(r.message for r in refusals))
        self.refusals = refusals


HEADER_ROW = 1


def decode(data: bytes) -> str:
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise FileRefused(
            [
                Refusal(
                    _line_of(data, exc.start),
                    "file",
                    "bad_encoding",
                    f"The file is not UTF-8: byte 0x{data[exc.start]:02x} at offset "
                    f"{exc.start} cannot be read. Save it as 'CSV UTF-8' and import again.",
                )
            ]
        ) from None


def _line_of(data: bytes, offset: int) -> int:
    return data.count(b"\n", 0, offset) + 1


def read_rows(data: bytes, columns: Columns) -> list[tuple[int, dict[str, str]]]:
    """The file's records as (row number, {column: text}); the header checked first."""
    text = decode(data)
    try:
        lines = list(csv.reader(io.StringIO(text, newline=""), dialect="excel", strict=True))
    except csv.Error as exc:
        raise FileRefused(
            [Refusal(HEADER_ROW, "file", "bad_csv", f"The file is not valid CSV: {exc}.")]
        ) from None
    if not lines:
        raise FileRefused([Refusal(HEADER_ROW, "header", "wrong_header", "The file is empty.")])
    header = [h.strip() for h in lines[0]]
    check_header(header, columns)
    rows: list[tuple[int, dict[str, str]]] = []
    for index, cells in enumerate(lines[1:], start=HEADER_ROW + 1):
        if not any(c.strip() for c in cells):
            continue  # a blank line (Excel ends files with them)
        if len(cells) > len(header):
            extra = [c for c in cells[len(header) :] if c.strip()]
            if extra:
                raise FileRefused(
                    [
                        Refusal(
                            index,
                            "row",
                            "too_many_cells",
                            f"Row {index} has {len(cells)} cells; the header names {len(header)}.",
                        )
                    ]
                )
        padded = list(cells) + [""] * (len(header) - len(cells))
        rows.append((index, {h: padded[i].strip() for i, h in enumerate(header)}))
    return rows


def check_header(header: list[str], columns: Columns) -> None:
    refusals: list[Refusal] = []
    seen: set[str] = set()
    for name in header:
        if name in seen:
            refusals.append(
                Refusal(HEADER_ROW, name, "wrong_header", f"Column {name!r} appears twice.")
            )
        seen.add(name)
        if name not in columns.known:
            refusals.append(
                Refusal(
                    HEADER_ROW,
                    name or "(blank)",
                    "wrong_header",
                    f"Unknown column {name!r}; the columns are {', '.join(columns.known)}.",
                )
            )
    for name in columns.required:
        if name not in seen:
            refusals.append(
                Refusal(HEADER_ROW, name, "wrong_header", f"The header lacks the column {name!r}.")
            )
    if refusals:
        raise FileRefused(refusals)


def cell(row: Mapping[str, str], name: str) -> str | None:
    """A cell's text, or None when the column is absent or the cell blank."""
    value = row.get(name, "")
    return value if value != "" else None
