"""Who may sign in: users, passwords and their policy, bearer tokens, page sessions,
throttling of failed sign-ins, the second factor, password reset and the Authority's user
administration."""
