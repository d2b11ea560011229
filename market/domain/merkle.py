"""The Merkle tree over the ledger (RFC 9162 section 2.1; PRODUCT.md 8.1).

Leaf *i* is the event with `seq = i + 1`; leaf hash = SHA-256(0x00 || event hash), node =
SHA-256(0x01 || left || right). The tree is read through `Nodes`, which answers the hash
of any *complete* subtree: level `L`, index `k` covers leaves `[k * 2**L, (k + 1) * 2**L)`
(the layout of golang.org/x/mod/sumdb/tlog's stored hashes). Every other hash (the root
of any size, the ranges a proof needs) is computed from at most `2 * log2(n)` of those,
so a store of complete subtrees answers every proof without a rebuild. `Frontier` keeps
the right edge of the tree (one complete subtree per bit of its size) and says which
complete subtrees each appended leaf finishes: what a store must add for the new leaf.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Iterable

Nodes = Callable[[int, int], bytes]  # (level, index) -> hash of that complete subtree


def leaf_hash(event_hash: bytes) -> bytes:
    return hashlib.sha256(b"\x00" + event_hash).digest()


def node_hash(left: bytes, right: bytes) -> bytes:
    return hashlib.sha256(b"\x01" + left + right).digest()


EMPTY_ROOT = hashlib.sha256(b"").digest()


def _split(n: int) -> int:
    """The largest power of two smaller than n (n > 1): RFC 9162's k."""
    return 1 << ((n - 1).bit_length() - 1)


def range_hash(nodes: Nodes, lo: int, hi: int) -> bytes:
    """MTH of leaves [lo, hi). `lo` is a multiple of the largest power of two not above
    hi - lo, which every range an RFC 9162 proof asks for is."""
    size = hi - lo
    if size <= 0:
        raise ValueError(f"empty range [{lo}, {hi})")
    if size & (size - 1) == 0 and lo % size == 0:
        return nodes(size.bit_length() - 1, lo // size)
    k = _split(size)
    return node_hash(range_hash(nodes, lo, lo + k), range_hash(nodes, lo + k, hi))


def root(nodes: Nodes, size: int) -> bytes:
    return EMPTY_ROOT if size == 0 else range_hash(nodes, 0, size)


def inclusion_proof(nodes: Nodes, index: int, size: int) -> list[bytes]:
    """PATH(index, D[size]) of RFC 9162 section 2.1.3.1, leaf first."""
    if not 0 <= index < size:
        raise ValueError(f"leaf {index} is not in a tree of size {size}")
    path: list[bytes] = []
    lo, hi = 0, size
    while hi - lo > 1:
        k = _split(hi - lo)
        if index < lo + k:
            path.append(range_hash(nodes, lo + k, hi))
            hi = lo + k
        else:
            path.append(range_hash(nodes, lo, lo + k))
            lo += k
    path.reverse()
    return path


def consistency_proof(nodes: Nodes, old: int, new: int) -> list[bytes]:
    """PROOF(old, D[new]) of RFC 9162 section 2.1.4.1 (SUBPROOF with b = true)."""
    if not 0 < old <= new:
        raise ValueError(f"no consistency proof from {old} to {new}")
    proof: list[bytes] = []
    lo, hi, m, whole = 0, new, old, True
    while m != hi - lo:
        k = _split(hi - lo)
        if m <= k:
            proof.append(range_hash(nodes, lo + k, hi))
            hi = lo + k
        else:
            proof.append(range_hash(nodes, lo, lo + k))
            lo, m, whole = lo + k, m - k, False
    if not whole:
        proof.append(range_hash(nodes, lo, hi))
    proof.reverse()
    return proof


def verify_inclusion(
    leaf: bytes, index: int, size: int, proof: Iterable[bytes], expected_root: bytes
) -> bool:
    """RFC 9162 section 2.1.3.2."""
    if not 0 <= index < size:
        return False
    fn, sn, r = index, size - 1, leaf
    for p in proof:
        if sn == 0:
            return False
        if fn & 1 or fn == sn:
            r = node_hash(p, r)
            if not fn & 1:
                while fn and not fn & 1:
                    fn, sn = fn >> 1, sn >> 1
        else:
            r = node_hash(r, p)
        fn, sn = fn >> 1, sn >> 1
    return sn == 0 and r == expected_root


def verify_consistency(
    old: int, new: int, proof: list[bytes], old_root: bytes, new_root: bytes
) -> bool:
    """RFC 9162 section 2.1.4.2."""
    if not 0 < old <= new:
        return False
    if old == new:
        return not proof and old_root == new_root
    if not proof:
        return False
    path = list(proof)
    if old & (old - 1) == 0:
        path.insert(0, old_root)
    fn, sn = old - 1, new - 1
    while fn & 1:
        fn, sn = fn >> 1, sn >> 1
    fr = sr = path[0]
    for c in path[1:]:
        if sn == 0:
            return False
        if fn & 1 or fn == sn:
            fr, sr = node_hash(c, fr), node_hash(c, sr)
            if not fn & 1:
                while fn and not fn & 1:
                    fn, sn = fn >> 1, sn >> 1
        else:
            sr = node_hash(sr, c)
        fn, sn = fn >> 1, sn >> 1
    return sn == 0 and fr == old_root and sr == new_root


def frontier_slots(size: int) -> list[tuple[int, int]]:
    """The complete subtrees a tree of `size` leaves is made of, largest (leftmost) first."""
    return [
        (lvl, (size >> lvl) - 1) for lvl in range(size.bit_length() - 1, -1, -1) if size >> lvl & 1
    ]


class Frontier:
    """The right edge of a tree: the hashes at `frontier_slots(size)`."""

    def __init__(self, size: int = 0, hashes: Iterable[bytes] = ()) -> None:
        self.size = size
        # level -> hash of the complete subtree at that level on the edge
        self.edge = dict(zip((lvl for lvl, _ in frontier_slots(size)), hashes, strict=True))

    @classmethod
    def load(cls, size: int, nodes: Nodes) -> Frontier:
        return cls(size, [nodes(lvl, idx) for lvl, idx in frontier_slots(size)])

    def append(self, leaf: bytes) -> list[tuple[int, int, bytes]]:
        """Add one leaf; returns every complete subtree (level, index, hash) it finishes."""
        level, index, h = 0, self.size, leaf
        done = [(level, index, h)]
        while index & 1:
            h = node_hash(self.edge.pop(level), h)
            level, index = level + 1, index >> 1
            done.append((level, index, h))
        self.edge[level] = h
        self.size += 1
        return done

    def root(self) -> bytes:
        if not self.size:
            return EMPTY_ROOT
        acc: bytes | None = None
        for level in sorted(self.edge):
            acc = self.edge[level] if acc is None else node_hash(self.edge[level], acc)
        assert acc is not None
        return acc
