"""Commands: what a user asks the market to do, as frozen values a use case takes
(imperative names; the events that record what was done are past tense)."""
