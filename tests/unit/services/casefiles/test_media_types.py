"""An exhibit's type from its bytes (PRODUCT.md 9.1)."""

from __future__ import annotations

import io
import zipfile

import pytest

from market.domain.casefile_errors import DocumentRefusedError
from market.services.casefiles import documents, media_types
from market.validation.error_codes import status_of

PDF = b"%PDF-1.7\n1 0 obj\n<<>>\nendobj\ntrailer\n%%EOF\n"
PNG = b"\x89PNG\r\n\x1a\n" + b"\x00" * 32
JPEG = b"\xff\xd8\xff\xe0\x00\x10JFIF\x00" + b"\x00" * 32


def xlsx(parts: tuple[str, ...] = ("[Content_Types].xml", "xl/workbook.xml")) -> bytes:
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w") as z:
        for p in parts:
            # A fixed timestamp: the bytes (and so the test ids) must not depend on the
            # second they were made, or two xdist workers collect different tests.
            z.writestr(zipfile.ZipInfo(p, date_time=(2024, 1, 1, 0, 0, 0)), "<x/>")
    return buf.getvalue()


@pytest.mark.parametrize(
    ("data", "expected"),
    [
        (PDF, media_types.PDF),
        (PNG, media_types.PNG),
        (JPEG, media_types.JPEG),
        (b"year,amount\n2024,1000\n", media_types.CSV),
        (xlsx(), media_types.XLSX),
    ],
)
def test_allowed_types(data: bytes, expected: str) -> None:
    assert media_types.media_type_of(data) == expected


@pytest.mark.parametrize(
    "data",
    [
        b"<!DOCTYPE html><html><body>not a pdf</body></html>",  # HTML saved as .pdf
        b"MZ\x90\x00\x03\x00\x00\x00" + b"\x00" * 64,  # a renamed executable
        b"\x7fELF\x02\x01\x01" + b"\x00" * 64,
        xlsx(("word/document.xml", "[Content_Types].xml")),  # a zip, not a workbook
        b"a,b\n\x00\x01",  # NULs: not text
        b"\xff\xfe\x00bad",  # not UTF-8
    ],
)
def test_refused_types(data: bytes) -> None:
    with pytest.raises(DocumentRefusedError) as e:
        media_types.media_type_of(data)
    assert (e.value.code, status_of(e.value)) == ("unsupported_media_type", 415)


def test_empty_and_too_large() -> None:
    with pytest.raises(DocumentRefusedError) as e:
        documents.check_bytes(b"", 100)
    assert (e.value.code, status_of(e.value)) == ("document_empty", 422)
    with pytest.raises(DocumentRefusedError) as e:
        documents.check_bytes(PDF, 10)
    assert (e.value.code, status_of(e.value)) == ("document_too_large", 413)
