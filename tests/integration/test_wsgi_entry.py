"""The server entry point (market/wsgi.py, what scripts/run serves) builds the app and
moves what start-up built out of the garbage collector's passes. In a process of its own:
freezing the test process would keep every app the tests build."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
CHECK = """
import gc
import market.wsgi
assert market.wsgi.app.name == "market", market.wsgi.app.name
print(gc.get_freeze_count())
"""


def test_the_server_entry_point_serves_the_app_with_start_up_frozen(tmp_path: Path) -> None:
    env = dict(os.environ, DATABASE_URL=f"sqlite:///{tmp_path}/entry.db", PYTHONPATH=str(ROOT))
    done = subprocess.run(
        [sys.executable, "-c", CHECK], env=env, capture_output=True, text=True, timeout=120
    )
    assert done.returncode == 0, done.stderr[-3000:]
    assert int(done.stdout.strip()) > 50_000  # the modules and the app, not a handful
