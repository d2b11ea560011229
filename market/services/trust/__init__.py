"""The ledger's integrity (PRODUCT.md 8.1, 9.3): reading, verifying and rebuilding the
ledger, signed checkpoints of its Merkle tree that never contradict what was published, the
pinned keys and their rotation, the witnesses and their cosignatures, the signer's
connection, proofs and certificate proof bundles, the full and the incremental verify."""
