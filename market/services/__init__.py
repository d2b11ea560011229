"""Use cases: load, decide with the domain rules, append events, commit; one transaction each."""
