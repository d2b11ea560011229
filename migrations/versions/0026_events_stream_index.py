"""The index diet, third pass (issue 25): two B-trees fewer for each commit to write.

- ix_events_stream (stream) is dropped. The unique constraint stream_version (stream,
  version) leads with the same column, so it serves every read by stream, and a stream's
  last version is its last entry there. Each event appended updates 3 indexes (was 4).
- request_traces becomes a WITHOUT ROWID table on SQLite: its rows are all key (seq,
  request_id), which a rowid table keeps twice (the table and its primary key's index).
  PostgreSQL keeps its heap and primary key: it has no such table.

Revision ID: 0026
Revises: 0025
Create Date: 2026-12-07 22:40:00.000000
"""

from alembic import op


revision = '0026'
down_revision = '0025'
branch_labels = None
depends_on = None

TRACES = (
    "CREATE TABLE {name} (seq BIGINT NOT NULL, request_id VARCHAR(64) NOT NULL, "
    "CONSTRAINT pk_request_traces PRIMARY KEY (seq, request_id)){options}"
)


def _rebuild_traces(options: str) -> None:
    op.execute(TRACES.format(name="request_traces_rebuilt", options=options))
    op.execute("INSERT INTO request_traces_rebuilt SELECT seq, request_id FROM request_traces")
    op.execute("DROP TABLE request_traces")
    op.execute("ALTER TABLE request_traces_rebuilt RENAME TO request_traces")


def upgrade() -> None:
    op.drop_index("ix_events_stream", table_name="events")
    if op.get_bind().dialect.name == "sqlite":
        _rebuild_traces(" WITHOUT ROWID")


def downgrade() -> None:
    if op.get_bind().dialect.name == "sqlite":
        _rebuild_traces("")
    op.create_index("ix_events_stream", "events", ["stream"], unique=False)
