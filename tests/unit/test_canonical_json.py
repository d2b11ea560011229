r"""The event hash's canonical form against RFC 8785 (JCS), PRODUCT.md 9.3.

`canonical_json` is Python's JSON encoder with sorted keys, no spaces and UTF-8 text. For
the values events hold it is JCS byte for byte, checked here against the RFC's rules and
examples and against `rfc8785` (an independent implementation):
- strings: only `"`, `\`, and U+0000-U+001F are escaped, the five with a short form as
  \b \t \n \f \r, the others as \u00xx in lowercase hex; everything else (DEL, U+2028,
  non-ASCII, astral characters) is written as itself in UTF-8;
- integers in decimal (JCS writes numbers as ECMAScript does: for integers of magnitude
  below 2**53 that is the same digits; every amount is at most MAX_CENTS = 10**14);
- keys sorted by UTF-16 code units. Python sorts by code point, which is the same order
  unless one key has a character above U+FFFF where another has one in U+E000-U+FFFF.
  Event keys are field names and validated keys (years), all ASCII, so the orders agree.
Where the two differ (floats, integers of 2**53 and more, that key mix) the encoder is not
JCS; the last test pins that, because changing it would re-hash stored events.
"""

from __future__ import annotations

import dataclasses
import hashlib
import json
from pathlib import Path
from typing import Any

import rfc8785
from hypothesis import given, settings
from hypothesis import strategies as st

from market.adapters.eventstore import canonical_json, compute_hash, hash_encoded
from market.domain.events import event_types
from market.domain.events.base import event_class
from market.validation import MAX_CENTS

FIXTURE = Path(__file__).resolve().parent.parent / "fixtures" / "ledger_v1.jsonl"
SAFE = 2**53 - 1  # JCS's exact integers (ECMAScript Number.MAX_SAFE_INTEGER)


def jcs(value: Any) -> str:
    return rfc8785.dumps(value).decode("utf-8")


def test_rfc_8785_section_3_2_2_strings_and_literals() -> None:
    # The RFC's example input without its floats (events hold none).
    source = r"""{
      "string": "\u20ac$\u000F\u000aA'\u0042\u0022\u005c\\\"\/",
      "literals": [null, true, false]
    }"""
    expected = r"""{"literals":[null,true,false],"string":"€$\u000f\nA'B\"\\\\\"/"}"""
    assert canonical_json(json.loads(source)) == expected == jcs(json.loads(source))


def test_every_control_character_escapes_as_jcs_says_and_nothing_else_does() -> None:
    short = {"\b": r"\b", "\t": r"\t", "\n": r"\n", "\f": r"\f", "\r": r"\r"}
    for code in range(0x20):
        ch = chr(code)
        assert canonical_json(ch) == '"' + short.get(ch, f"\\u{code:04x}") + '"'
    for ch in ['"', "\\"]:
        assert canonical_json(ch) == '"\\' + ch + '"'
    tricky = "/\x7f\u0080\u00e9\u2028\u2029\ufeff\uffff\U0001f600\U0010ffff"
    assert canonical_json(tricky) == f'"{tricky}"' == jcs(tricky)


def test_integers_as_ecmascript_writes_them() -> None:
    for n in (0, -1, 7, 10**14, -(10**14), MAX_CENTS, SAFE, -SAFE, 2**31, -(2**63) // 2**11):
        assert canonical_json(n) == str(n) == jcs(n)
    assert canonical_json([True, False, None]) == "[true,false,null]" == jcs([True, False, None])


def test_keys_sort_by_utf_16_code_units_within_the_bmp() -> None:
    # RFC 8785 section 3.2.3's keys, less the astral one (below).
    keys = ["\u20ac", "\r", "\ufb33", "1", "\u0080", "\u00f6", "a", "B", "_", "aa", ""]
    value = {k: k for k in keys}
    assert canonical_json(value) == jcs(value)
    assert list(json.loads(canonical_json(value))) == sorted(
        keys, key=lambda k: k.encode("utf-16-be")
    )


TEXT = st.text(st.characters(exclude_categories=("Cs",)), max_size=12)  # no lone surrogate
# Keys as events have them: field names and years (validated as (19|20)dd).
KEY = st.text("abcdefghijklmnopqrstuvwxyz_0123456789", min_size=1, max_size=10) | st.integers(
    1900, 2099
).map(str)
SCALAR = st.one_of(st.none(), st.booleans(), st.integers(-SAFE, SAFE), TEXT)
VALUE = st.recursive(
    SCALAR,
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(KEY, inner, max_size=5),
    max_leaves=20,
)


@settings(max_examples=100, deadline=None)
@given(
    payload=st.dictionaries(KEY, VALUE, max_size=6),
    stream=TEXT,
    actor=TEXT,
    seq=st.integers(1, SAFE),
)
def test_the_event_hash_is_sha256_of_the_jcs_form(
    payload: dict[str, Any], stream: str, actor: str, seq: int
) -> None:
    assert canonical_json(payload) == jcs(payload)
    items = [seq, stream, 1, "T", payload, actor, "2014-09-01T00:00:00.000000Z", "0" * 64]
    expected = hashlib.sha256(rfc8785.dumps(items)).hexdigest()
    assert compute_hash(*items) == expected  # type: ignore[arg-type]
    encoded = [*items[:4], canonical_json(payload), *items[5:]]
    assert hash_encoded(*encoded) == expected  # type: ignore[arg-type]


def test_a_stored_ledger_hashes_as_jcs_and_event_keys_are_ascii() -> None:
    for line in FIXTURE.read_text(encoding="utf-8").splitlines():
        e = json.loads(line)
        fields = [e[k] for k in ("seq", "stream", "version", "type", "payload")]
        fields += [e["actor"], e["recorded_at"], e["prev_hash"]]
        assert hashlib.sha256(rfc8785.dumps(fields)).hexdigest() == e["hash"]
    for type_ in event_types():
        names = [f.name for f in dataclasses.fields(event_class(type_))]
        assert all(n.isascii() for n in names), (type_, names)


def test_where_python_and_jcs_differ_the_stored_rule_stays() -> None:
    """Not JCS outside the values events hold: an astral key against one in U+E000-U+FFFF
    (RFC 8785 section 3.2.3's emoji and U+FB33), floats, integers from 2**53. The hash rule
    of stored events is this encoder's; these pin it so that a change is seen."""
    keys = {"\ufb33": 1, "\U0001f600": 2}
    assert canonical_json(keys) == '{"\ufb33":1,"\U0001f600":2}'
    assert jcs(keys) == '{"\U0001f600":2,"\ufb33":1}'
    assert canonical_json(1.0) == "1.0" and jcs(1.0) == "1"
    assert canonical_json(2**53) == "9007199254740992"
