"""Telling people what the ledger committed: the fan-out that tails the events, what each
event tells whom (notices), the in-app inbox, e-mail and webhooks and what every delivery
channel shares."""
