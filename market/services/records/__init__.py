"""Existing records in, statutory reports out (PRODUCT.md 9.1 import, 9.2 reports): a
party's industry and employees, `flask import KIND FILE.csv` through the same use cases
as a live request, and the Authority's and the Director's reports for a fiscal year."""
