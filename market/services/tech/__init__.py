"""TECH (N.J.A.C. 19:31K): surrender applications and their receipts, the seller's recorded
controllers (TB-4(2)), the fiscal year's allocation and its simulator, and the headquarters
covenant monitor."""
