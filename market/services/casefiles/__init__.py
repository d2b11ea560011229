"""The case file around a sale (RULES.md section 7, PRODUCT.md 9.1): exhibits, checklists,
the TECH application's administrative steps, fees and tax clearance certificates."""
