"""Registration (issue 29 item 1): a business asks to join from a public page, its e-mail
is verified by a single-use link, and the Authority approves it (the party and its first
user, who chooses a password through an e-mailed link) or rejects it with a reason the
business sees. Modules: `registrations` (the rules, over a unit of work), `applications`
(the flows with their links and e-mails), `registration_views` (reads, the review's
similar parties)."""
