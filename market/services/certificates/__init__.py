"""Certificates from issue to use: issuing BRRAG, UTH and digital media certificates under
their caps and pools, reading them and their lineage, trading halts, UTH reviews, recaptures,
and using credit on returns (applications, carryforwards, pass-through allocations,
creditable activities used once)."""
