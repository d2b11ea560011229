"""C2SP checkpoint notes and signed notes: what is written reads back, and every malformed
note is refused with a reason."""

from __future__ import annotations

import base64
import hashlib

import pytest

from market.domain.checkpoint_note import (
    DASH,
    Note,
    NoteError,
    Signature,
    key_hash,
    parse_note,
    parse_signed,
    signed_text,
)

ROOT = hashlib.sha256(b"root").digest()
NOTE = Note("example.org/log", 42, ROOT)


def test_a_note_is_origin_size_and_base64_root_each_on_a_line() -> None:
    assert NOTE.text == f"example.org/log\n42\n{base64.b64encode(ROOT).decode()}\n"
    assert parse_note(NOTE.text) == NOTE
    # Extension lines after the root are allowed (C2SP tlog-checkpoint).
    assert parse_note(NOTE.text + "extra line\n") == NOTE


def test_the_key_hash_is_c2sp_s() -> None:
    key = bytes(range(32))
    expected = hashlib.sha256(b"example.org/log\n\x01" + key).digest()[:4]
    assert key_hash("example.org/log", key) == expected


def test_a_signed_note_reads_back() -> None:
    sig = Signature("example.org/log", b"\x01\x02\x03\x04", b"s" * 64)
    text = signed_text(NOTE.text, [sig])
    assert text.endswith("\n") and f"\n\n{DASH} example.org/log " in text
    assert parse_signed(text) == (NOTE.text, [sig])


@pytest.mark.parametrize(
    ("text", "reason"),
    [
        ("example.org/log\n42\n" + base64.b64encode(ROOT).decode(), "newline"),
        ("example.org/log\n42\n", "at least 3 lines"),
        (" padded\n42\n" + base64.b64encode(ROOT).decode() + "\n", "origin"),
        ("\n42\n" + base64.b64encode(ROOT).decode() + "\n", "origin"),
        ("o\n-1\n" + base64.b64encode(ROOT).decode() + "\n", "decimal"),
        ("o\n042\n" + base64.b64encode(ROOT).decode() + "\n", "decimal"),
        ("o\n42\n!!!!\n", "not base64"),
        ("o\n42\n" + base64.b64encode(b"short").decode() + "\n", "not 32"),
    ],
)
def test_malformed_notes_are_refused_with_a_reason(text: str, reason: str) -> None:
    with pytest.raises(NoteError, match=reason):
        parse_note(text)


@pytest.mark.parametrize(
    ("text", "reason"),
    [
        (NOTE.text, "no empty line"),
        (NOTE.text + "\n" + f"{DASH} o AAAAAAAA", "does not end in a newline"),
        (NOTE.text + "\n" + "- o AAAAAAAA\n", "not a signature line"),
        (NOTE.text + "\n" + f"{DASH} o !!!\n", "not base64"),
        (NOTE.text + "\n" + f"{DASH} o AAAA\n", "too short"),
        ("o\n4x\nAA==\n\n" + f"{DASH} o AAAAAAAAAA==\n", "decimal"),
    ],
)
def test_malformed_signed_notes_are_refused_with_a_reason(text: str, reason: str) -> None:
    with pytest.raises(NoteError, match=reason):
        parse_signed(text)


def test_a_signed_note_of_another_kind_reads_back_when_asked() -> None:
    sig = Signature("example.org/log", b"\x01\x02\x03\x04", b"s" * 64)
    body = "example.org/log\nkey rotation\n"
    assert parse_signed(signed_text(body, [sig]), checkpoint=False) == (body, [sig])
    with pytest.raises(NoteError):
        parse_signed(signed_text(body, [sig]))
