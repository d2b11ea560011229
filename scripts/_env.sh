# Sourced by scripts/*: make sure .venv exists and matches pyproject.toml.
# Safe to run on a fresh machine: it creates the venv and installs everything it needs.
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT"
PY="${PYTHON:-python3}"
if [ ! -x .venv/bin/python ]; then
  echo "creating .venv" >&2
  "$PY" -m venv .venv
fi
stamp=".venv/.installed-$(sha256sum pyproject.toml | cut -c1-16)"
if [ ! -f "$stamp" ]; then
  echo "installing dependencies into .venv" >&2
  .venv/bin/python -m pip install -q --upgrade pip >&2
  .venv/bin/python -m pip install -q -e '.[dev]' >&2
  rm -f .venv/.installed-*
  touch "$stamp"
fi
export PATH="$ROOT/.venv/bin:$PATH"
