"""The one MetaData every table joins (Alembic targets it) and its naming convention.

Area modules take `SQLModel` from here, so the convention is set before any table is
defined: constraint and index names are fixed when a table is built.
"""

from __future__ import annotations

from sqlalchemy import MetaData
from sqlmodel import SQLModel

SQLModel.metadata.naming_convention = {
    "ix": "ix_%(column_0_label)s",
    "uq": "uq_%(table_name)s_%(column_0_name)s",
    "ck": "ck_%(table_name)s_%(constraint_name)s",
    "fk": "fk_%(table_name)s_%(column_0_name)s_%(referred_table_name)s",
    "pk": "pk_%(table_name)s",
}
metadata: MetaData = SQLModel.metadata

__all__ = ["SQLModel", "metadata"]
