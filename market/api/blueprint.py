"""The API's Blueprint: flask-smorest's own, imported from here by every API module."""

from __future__ import annotations

from flask_smorest import Blueprint

__all__ = ["Blueprint"]
