"""Work the clock or the worker starts, not a request: `tick` (everything the calendar makes
due by a business date, once), the deadline reminders, and one delivery pass of the worker."""
