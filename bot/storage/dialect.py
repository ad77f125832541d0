"""What differs between the SQL of the two databases the storage runs on: how a statement marks its
parameters, how a write transaction begins, and the words of the schema's types.

Statements are written once, with their parameters as ``{}`` in order; ``Dialect.sql`` fills those
in as the database marks them (``?`` for SQLite, ``$1``, ``$2`` ... for PostgreSQL). Nothing is
rewritten after the fact: a statement that needs the new row's id says ``RETURNING id``, and one
whose count of changed rows matters says ``RETURNING`` too, which both databases answer alike.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from functools import lru_cache


@dataclass(frozen=True)
class Dialect:
    name: str
    begin: str  # a write transaction's first statement (SQLite takes the write lock at once)
    words: Mapping[str, str]  # the schema's words: {id}, {int}, {real}, {blob}, {serial_rowid}
    numbered: bool  # parameters $1, $2 ... (PostgreSQL) rather than ? (SQLite)

    def sql(self, template: str) -> str:
        """``template`` with its parameters (``{}``, in order) marked as this database marks them."""
        return _marked(template, self.numbered)

    def ddl(self, template: str) -> str:
        """A schema statement with this database's words for its types."""
        return template.format_map(self.words)


@lru_cache(maxsize=2048)
def _marked(template: str, numbered: bool) -> str:
    count = template.count("{}")
    return template.format(*(f"${n}" for n in range(1, count + 1))) if numbered else template.format(*["?"] * count)


SQLITE = Dialect(
    "sqlite",
    "BEGIN IMMEDIATE",
    {"id": "INTEGER PRIMARY KEY AUTOINCREMENT", "int": "INTEGER", "real": "REAL", "blob": "BLOB", "serial_rowid": ""},
    numbered=False,
)
# BIGINT for Discord's 64-bit ids; league members keep their joining order in a column of their own
# (SQLite has its rowid); PostgreSQL locks the rows an UPDATE touches, so BEGIN is enough for the
# optimistic version check (a second transaction updating the same race waits, then changes nothing)
POSTGRESQL = Dialect(
    "postgresql",
    "BEGIN",
    {
        "id": "BIGSERIAL PRIMARY KEY",
        "int": "BIGINT",
        "real": "DOUBLE PRECISION",
        "blob": "BYTEA",
        "serial_rowid": "rowid BIGSERIAL,",
    },
    numbered=True,
)
