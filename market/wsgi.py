"""The WSGI entry point of a server process: `gunicorn market.wsgi:app` (scripts/run).

What start-up builds (the imported modules, the app, its schemas and routes: about
110,000 objects) lives as long as the process. `gc.freeze()` moves it out of the garbage
collector's passes; otherwise every full pass walks all of it again (76 ms), inside
whichever request happens to trigger one, which is what a page's p95 and the write path's
p99 showed. Tests build many apps and do not use this module."""

from __future__ import annotations

import gc

from market import create_app

app = create_app()
gc.freeze()
