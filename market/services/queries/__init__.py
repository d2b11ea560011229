"""The read side for pages and lists: the desks, numbered and keyset pages, searches,
pickers, deals and their timelines, the public status of a filing, the audit trail, the
exports and the report's totals. Reads only, across the contexts below; no use case writes
here."""
