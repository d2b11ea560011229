"""The read side's SQL: lists, pages and aggregates the services' read use cases show,
each one statement (or a fixed few) walking an index. Rows come back as plain dicts; the
services shape them. The rule contexts (parties, certificates, tech, trading) hold no SQL
of their own: it is here, beside the repositories."""
