"""One module per statutory rule family; each docstring names the RULES.md IDs it implements."""
