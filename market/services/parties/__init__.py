"""Parties: registering them and their ownership, the affiliation question between two
parties, the ownership web, and the Director's exception for an individual's direct
purchase (PT-7)."""
