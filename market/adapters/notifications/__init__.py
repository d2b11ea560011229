"""The service's doors to the outside world: e-mail over SMTP (`smtp.py`) and webhooks
over HTTP to an address checked first (`target_guard.py`, `pinned_http.py`). The notify
context reaches them only through `MailTransport` and `WebhookPost`, and the tests put
in-memory twins in their place (tests/notification_fakes.py)."""
