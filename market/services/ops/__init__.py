"""What an operator watches: readiness (a list of named checks: the database, the
migrations, the signing key, the worker's lag, the witnesses' quorum) and the figures
/metrics reads from the database at scrape time."""
