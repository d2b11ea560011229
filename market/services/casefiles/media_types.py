"""An exhibit's media type, read from its bytes and never from its name (PRODUCT.md 9.1):
PDF, PNG and JPEG by their signatures (`filetype`); XLSX as a zip holding the OOXML parts;
CSV as UTF-8 text without NULs. Anything else (an executable renamed `.pdf`, HTML saved as
`.pdf`) is refused."""

from __future__ import annotations

import io
import zipfile

import filetype

from market.domain.casefile_errors import DocumentRefusedError, UnsupportedMediaTypeError

PDF = "application/pdf"
PNG = "image/png"
JPEG = "image/jpeg"
CSV = "text/csv"
XLSX = "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"
ALLOWED = (PDF, PNG, JPEG, CSV, XLSX)
_SIGNED = {PDF, PNG, JPEG}
_XLSX_PARTS = ("[Content_Types].xml", "xl/workbook.xml")
_TEXT_LOOKALIKES = (b"<!doctype html", b"<html", b"<?xml", b"<svg", b"<script", b"#!")


def _refuse(found: str | None) -> DocumentRefusedError:
    return UnsupportedMediaTypeError(
        "Only PDF, PNG, JPEG, CSV and XLSX exhibits are accepted; the type is read from "
        f"the content{f' (this is {found})' if found else ''}, not the file name.",
        {"media_type": found, "allowed": list(ALLOWED)},
    )


def _is_xlsx(data: bytes) -> bool:
    try:
        with zipfile.ZipFile(io.BytesIO(data)) as z:
            names = set(z.namelist())
    except (zipfile.BadZipFile, ValueError):
        return False
    return all(part in names for part in _XLSX_PARTS)


def _is_csv(data: bytes) -> bool:
    if b"\x00" in data:
        return False
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        return False
    head = text.lstrip("\ufeff \t\r\n")[:200].lower().encode()
    return not head.startswith(_TEXT_LOOKALIKES)


def media_type_of(data: bytes) -> str:
    kind = filetype.guess(data)
    found = kind.mime if kind is not None else None
    if found in _SIGNED:
        return str(found)
    if found in ("application/zip", XLSX) or data[:4] == b"PK\x03\x04":
        if _is_xlsx(data):
            return XLSX
        raise _refuse(found or "application/zip")
    if found is None and _is_csv(data):
        return CSV
    raise _refuse(found or ("text/html" if b"<html" in data[:512].lower() else None))
