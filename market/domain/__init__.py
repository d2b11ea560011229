"""Pure domain layer: values, programs, rulesets and the statutory rules (standard library only)."""
