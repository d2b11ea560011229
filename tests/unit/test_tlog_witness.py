"""The witness protocol (C2SP tlog-witness add-checkpoint): the spec's example request
parses, every malformed body is a 400, and a witness's decision follows the spec: 409
with its size when `old` is not its latest, 422 for a rollback or a split view (the
same size with another root, or a fork that no consistency proof links)."""

from __future__ import annotations

import base64
import hashlib

import pytest

from market.domain import merkle
from market.domain.checkpoint_note import Note, Signature, signed_text
from market.domain.tlog_witness import (
    MAX_PROOF_LINES,
    AddCheckpoint,
    InconsistentCheckpoint,
    MalformedRequest,
    NotSignedByLog,
    SizeConflict,
    UnknownOrigin,
    check_extension,
    parse_add_checkpoint,
    parse_size,
    request_body,
)

# c2sp.org/tlog-witness, add-checkpoint: "Example request body".
SPEC_REQUEST = (
    "old 20852014\n"
    "PlRNCrwHpqhGrupue0L7gxbjbMiKA9temvuZZDDpkaw=\n"
    "jrJZDmY8Y7SyJE0MWLpLozkIVMSMZcD5kvuKxPC3swk=\n"
    "5+pKlUdi2LeF/BcMHBn+Ku6yhPGNCswZZD1X/6QgPd8=\n"
    "/6WVhPs2CwSsb5rYBH5cjHV/wSmA79abXAwhXw3Kj/0=\n"
    "\n"
    "example.com/behind-the-sofa\n"
    "20852163\n"
    "CsUYapGGPo4dkMgIAUqom/Xajj7h2fB2MPA3j2jxq2I=\n"
    "\n"
    "— example.com/behind-the-sofa Az3grlgtzPICa5OS8npVmf1Myq/5IZniMp+ZJurmRDeOoRDe4URYN7u5"
    "/Zhcyv2q1gGzGku9nTo+zyWE+xeMcTOAYQ8=\n"
    "— example.com/behind-the-sofa opLqBQsREYCgu6xQkYQwJr9fo45a62DN9EdmHXnZdXNqlcVGlCum2Wks"
    "+49/V6267UEjw6QUXTS5Rovnzv++qbSzm9Q=\n"
).encode()


def _tree(n: int, salt: bytes = b"") -> merkle.Nodes:
    leaves = [merkle.leaf_hash(hashlib.sha256(salt + bytes([i])).digest()) for i in range(n)]

    def nodes(level: int, index: int) -> bytes:
        lo = index << level
        return _mth(leaves[lo : lo + (1 << level)])

    return nodes


def _mth(leaves: list[bytes]) -> bytes:
    if len(leaves) == 1:
        return leaves[0]
    k = 1 << ((len(leaves) - 1).bit_length() - 1)
    return merkle.node_hash(_mth(leaves[:k]), _mth(leaves[k:]))


def _note(nodes: merkle.Nodes, size: int) -> Note:
    return Note("log.example/l", size, merkle.root(nodes, size))


def _request(old: int, proof: list[bytes], note: Note) -> AddCheckpoint:
    sig = Signature(note.origin, b"\x00\x00\x00\x01", b"\x00" * 64)
    return parse_add_checkpoint(request_body(old, proof, signed_text(note.text, [sig])))


def test_the_spec_example_request_parses() -> None:
    r = parse_add_checkpoint(SPEC_REQUEST)
    assert r.old == 20852014 and len(r.proof) == 4
    assert r.proof[0] == base64.b64decode("PlRNCrwHpqhGrupue0L7gxbjbMiKA9temvuZZDDpkaw=")
    assert (r.note.origin, r.note.tree_size) == ("example.com/behind-the-sofa", 20852163)
    assert r.note_text == SPEC_REQUEST.decode().split("\n\n")[1] + "\n"
    assert [s.name for s in r.signatures] == ["example.com/behind-the-sofa"] * 2
    # What a log sends is the same text.
    signed = SPEC_REQUEST.decode().split("\n\n", 1)[1]
    assert request_body(r.old, r.proof, signed) == SPEC_REQUEST


@pytest.mark.parametrize(
    ("body", "reason"),
    [
        (b"\xff\xfe", "not UTF-8"),
        (b"old 1\n", "no empty line"),
        (b"new 1\n\n" + SPEC_REQUEST.split(b"\n\n", 1)[1], "not `old <size>`"),
        (b"old 01\n\nx", "leading zeroes"),
        (b"old -1\n\nx", "leading zeroes"),
        (b"old 1\n" + b"AAAA\n" * (MAX_PROOF_LINES + 1) + b"\nx", "at most 63"),
        (b"old 1\nnot base64!\n\nx", "not base64"),
        (b"old 1\nAAAA\n\nx", "not 32"),
        (b"old 0\n\nlog\n1\n", "not a signed note"),
    ],
)
def test_a_malformed_body_is_a_400(body: bytes, reason: str) -> None:
    with pytest.raises(MalformedRequest, match=reason) as refused:
        parse_add_checkpoint(body)
    assert refused.value.status == 400


def test_the_refusals_carry_the_spec_statuses() -> None:
    assert (UnknownOrigin.status, NotSignedByLog.status) == (404, 403)
    assert (SizeConflict(7).status, SizeConflict(7).latest_size) == (409, 7)
    assert InconsistentCheckpoint.status == 422


def test_a_first_checkpoint_needs_old_zero_and_no_proof() -> None:
    nodes = _tree(5)
    check_extension(None, _request(0, [], _note(nodes, 5)))
    with pytest.raises(SizeConflict) as conflict:
        check_extension(None, _request(3, [], _note(nodes, 5)))
    assert conflict.value.latest_size == 0
    with pytest.raises(InconsistentCheckpoint, match="must be empty"):
        check_extension(None, _request(0, [b"\x00" * 32], _note(nodes, 5)))


def test_a_consistent_larger_tree_is_accepted_and_the_same_one_again() -> None:
    nodes = _tree(9)
    latest = _note(nodes, 5)
    proof = merkle.consistency_proof(nodes, 5, 9)
    check_extension(latest, _request(5, proof, _note(nodes, 9)))
    check_extension(latest, _request(5, [], latest))


def test_old_must_be_the_witness_latest_size() -> None:
    nodes = _tree(9)
    with pytest.raises(SizeConflict) as conflict:
        check_extension(
            _note(nodes, 5), _request(4, merkle.consistency_proof(nodes, 4, 9), _note(nodes, 9))
        )
    assert conflict.value.latest_size == 5


def test_a_rollback_is_refused() -> None:
    nodes = _tree(9)
    latest = _note(nodes, 9)
    with pytest.raises(MalformedRequest, match="above the checkpoint"):
        check_extension(latest, _request(9, [], _note(nodes, 5)))  # old 9, size 5
    with pytest.raises(SizeConflict):
        check_extension(latest, _request(5, [], _note(nodes, 5)))  # claims 5 was the latest


def test_a_split_view_at_the_same_size_is_refused() -> None:
    latest = _note(_tree(6), 6)
    other = _note(_tree(6, b"fork"), 6)
    with pytest.raises(InconsistentCheckpoint, match="split view"):
        check_extension(latest, _request(6, [], other))


def test_a_fork_no_proof_links_is_refused() -> None:
    latest = _note(_tree(6), 6)
    fork = _tree(10, b"fork")
    with pytest.raises(InconsistentCheckpoint, match="does not verify"):
        check_extension(latest, _request(6, merkle.consistency_proof(fork, 6, 10), _note(fork, 10)))


def test_an_empty_tree_must_have_the_empty_root() -> None:
    check_extension(None, _request(0, [], Note("log.example/l", 0, merkle.EMPTY_ROOT)))
    with pytest.raises(InconsistentCheckpoint, match="size 0"):
        check_extension(None, _request(0, [], Note("log.example/l", 0, b"\x01" * 32)))
    zero = Note("log.example/l", 0, merkle.EMPTY_ROOT)
    check_extension(zero, _request(0, [], _note(_tree(3), 3)))


def test_a_409_body_is_the_size_and_a_newline() -> None:
    assert parse_size("20852014\n") == 20852014
    with pytest.raises(MalformedRequest, match="newline"):
        parse_size("12")
    with pytest.raises(MalformedRequest):
        parse_size("x\n")
