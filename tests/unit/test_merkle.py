"""The Merkle tree (RFC 9162 section 2.1) against a plain recursive reference: roots,
inclusion and consistency proofs for every size 1..300 and random larger sizes; proofs
verify and any tampering makes them fail."""

from __future__ import annotations

import hashlib

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from market.domain import merkle


def _leaves(n: int) -> list[bytes]:
    return [merkle.leaf_hash(hashlib.sha256(str(i).encode()).digest()) for i in range(n)]


class Ref:
    """RFC 9162 section 2.1 word for word: MTH, PATH and SUBPROOF by recursion over
    D[lo:hi] (MTH memoised by range, so 300 sizes stay quick)."""

    def __init__(self, d: list[bytes]) -> None:
        self.d = d
        self.cache: dict[tuple[int, int], bytes] = {}

    @staticmethod
    def k(n: int) -> int:
        k = 1
        while k * 2 < n:
            k *= 2
        return k

    def mth(self, lo: int, hi: int) -> bytes:
        if (lo, hi) not in self.cache:
            n = hi - lo
            if n == 0:
                h = hashlib.sha256(b"").digest()
            elif n == 1:
                h = self.d[lo]
            else:
                k = self.k(n)
                h = merkle.node_hash(self.mth(lo, lo + k), self.mth(lo + k, hi))
            self.cache[lo, hi] = h
        return self.cache[lo, hi]

    def path(self, m: int, lo: int, hi: int) -> list[bytes]:
        n = hi - lo
        if n == 1:
            return []
        k = self.k(n)
        if m < k:
            return [*self.path(m, lo, lo + k), self.mth(lo + k, hi)]
        return [*self.path(m - k, lo + k, hi), self.mth(lo, lo + k)]

    def subproof(self, m: int, lo: int, hi: int, b: bool) -> list[bytes]:
        n = hi - lo
        if m == n:
            return [] if b else [self.mth(lo, hi)]
        k = self.k(n)
        if m <= k:
            return [*self.subproof(m, lo, lo + k, b), self.mth(lo + k, hi)]
        return [*self.subproof(m - k, lo + k, hi, False), self.mth(lo, lo + k)]


class Stored:
    """Complete subtrees only, as a database keeps them, built with Frontier."""

    def __init__(self, leaves: list[bytes]) -> None:
        self.table: dict[tuple[int, int], bytes] = {}
        self.frontier = merkle.Frontier()
        self.roots = []
        for leaf in leaves:
            for level, index, h in self.frontier.append(leaf):
                self.table[level, index] = h
            self.roots.append(self.frontier.root())

    def __call__(self, level: int, index: int) -> bytes:
        return self.table[level, index]


LEAVES = _leaves(300)
TREE = Stored(LEAVES)
REF = Ref(LEAVES)


@pytest.mark.parametrize("n", range(1, 301))
def test_roots_and_proofs_match_the_reference_at_every_size(n: int) -> None:
    d = LEAVES[:n]
    expected = REF.mth(0, n)
    assert merkle.root(TREE, n) == expected
    assert TREE.roots[n - 1] == expected
    assert merkle.Frontier.load(n, TREE).root() == expected
    for m in range(n):
        path = merkle.inclusion_proof(TREE, m, n)
        assert path == REF.path(m, 0, n)
        assert merkle.verify_inclusion(d[m], m, n, path, expected)
    for m in range(1, n + 1):
        proof = merkle.consistency_proof(TREE, m, n)
        assert proof == REF.subproof(m, 0, n, True)
        assert merkle.verify_consistency(m, n, proof, REF.mth(0, m), expected)


def _flip(b: bytes, bit: int) -> bytes:
    i = bit % (len(b) * 8)
    return b[: i // 8] + bytes([b[i // 8] ^ (1 << (i % 8))]) + b[i // 8 + 1 :]


@settings(max_examples=60, deadline=None)
@given(st.integers(301, 5000), st.data())
def test_random_larger_trees_prove_and_refuse_tampering(n: int, data: st.DataObject) -> None:
    d = _leaves(n)
    tree, ref = Stored(d), Ref(d)
    top = ref.mth(0, n)
    assert merkle.root(tree, n) == top
    m = data.draw(st.integers(0, n - 1))
    path = merkle.inclusion_proof(tree, m, n)
    assert path == ref.path(m, 0, n)
    assert len(path) <= n.bit_length()
    assert merkle.verify_inclusion(d[m], m, n, path, top)
    # A tampered proof, leaf, index, size or root fails.
    at = data.draw(st.integers(0, len(path) - 1))
    bad = [*path[:at], _flip(path[at], data.draw(st.integers(0, 255))), *path[at + 1 :]]
    assert not merkle.verify_inclusion(d[m], m, n, bad, top)
    assert not merkle.verify_inclusion(_flip(d[m], 3), m, n, path, top)
    assert not merkle.verify_inclusion(d[m], (m + 1) % n, n, path, top)
    assert not merkle.verify_inclusion(d[m], m, n, path, ref.mth(0, n - 1))
    assert not merkle.verify_inclusion(d[m], m, n, path[:-1], top)
    assert not merkle.verify_inclusion(d[m], m, n, path, _flip(top, 7))
    old = data.draw(st.integers(1, n - 1))
    proof = merkle.consistency_proof(tree, old, n)
    assert proof == ref.subproof(old, 0, n, True)
    old_root = ref.mth(0, old)
    assert merkle.verify_consistency(old, n, proof, old_root, top)
    at = data.draw(st.integers(0, len(proof) - 1))
    bad = [*proof[:at], _flip(proof[at], 9), *proof[at + 1 :]]
    assert not merkle.verify_consistency(old, n, bad, old_root, top)
    assert not merkle.verify_consistency(old, n, proof, _flip(old_root, 1), top)
    assert not merkle.verify_consistency(old, n, proof, old_root, _flip(top, 1))
    assert not merkle.verify_consistency(old, n, proof[:-1], old_root, top)


def test_bad_requests_raise_and_empty_proofs_fail() -> None:
    with pytest.raises(ValueError):
        merkle.inclusion_proof(TREE, 5, 5)
    with pytest.raises(ValueError):
        merkle.consistency_proof(TREE, 6, 5)
    with pytest.raises(ValueError):
        merkle.consistency_proof(TREE, 0, 5)
    assert not merkle.verify_consistency(3, 5, [], REF.mth(0, 3), REF.mth(0, 5))
    assert merkle.root(TREE, 0) == hashlib.sha256(b"").digest()
    assert merkle.frontier_slots(6) == [(2, 0), (1, 2)]


def test_verifiers_refuse_impossible_sizes_and_overlong_proofs() -> None:
    top = REF.mth(0, 8)
    path = merkle.inclusion_proof(TREE, 3, 8)
    assert not merkle.verify_inclusion(LEAVES[3], 8, 8, path, top)  # index past the tree
    assert not merkle.verify_inclusion(LEAVES[3], -1, 8, path, top)
    assert not merkle.verify_inclusion(LEAVES[3], 3, 8, [*path, path[0]], top)  # too long
    proof = merkle.consistency_proof(TREE, 3, 8)
    assert not merkle.verify_consistency(0, 8, proof, REF.mth(0, 3), top)
    assert not merkle.verify_consistency(9, 8, proof, REF.mth(0, 3), top)
    assert not merkle.verify_consistency(3, 8, [*proof, proof[0]], REF.mth(0, 3), top)
    assert merkle.verify_consistency(8, 8, [], top, top)
    assert not merkle.verify_consistency(8, 8, [top], top, top)
    with pytest.raises(ValueError):
        merkle.range_hash(TREE, 4, 4)
    assert merkle.Frontier().root() == merkle.EMPTY_ROOT
