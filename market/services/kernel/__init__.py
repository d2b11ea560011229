"""What every use case shares and nothing of any one context: the unit of work, the
runner (one command, one unit of work, the Idempotency-Key), the business date, the errors,
the acting user, the repositories read through, names and numbers looked up by id,
certificate numbering and pages."""
