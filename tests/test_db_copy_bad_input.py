"""``domestique db copy`` given what an operator can get wrong: one line, exit 2, the destination untouched."""

from __future__ import annotations

import asyncio
import random
import sqlite3
from collections.abc import Callable
from contextlib import closing
from pathlib import Path

import asyncpg
import pytest

from bot.cli import main
from bot.storage.schema import MIGRATIONS
from bot.storage.url import storage_for
from tests.test_db_copy import installation

PASSWORD = "hunter2-not-printed"
Damage = Callable[[Path], None]


def _copy(source: str, target: str, capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    code = main(["db", "copy", "--from", source, "--to", target])
    said = capsys.readouterr()
    return code, said.out, said.err


def _refused(code: int, out: str, err: str) -> str:
    """The one line of a refusal (exit 2, nothing on stdout, no traceback)."""
    assert code == 2, (code, out, err)
    assert out == "" and "Traceback" not in err
    line = err.strip()
    assert "\n" not in line and line.startswith("domestique db copy: "), err
    assert PASSWORD not in err
    return line


@pytest.fixture(scope="module")
def good_file(tmp_path_factory: pytest.TempPathFactory) -> bytes:
    """The bytes of a used installation: races running and finished, a lobby, a league, an alliance."""
    path = tmp_path_factory.mktemp("installation") / "domestique.db"
    asyncio.run(installation(f"sqlite:///{path}"))
    return path.read_bytes()


def _truncated(path: Path) -> None:
    path.write_bytes(path.read_bytes()[: path.stat().st_size // 3])


def _random(path: Path) -> None:
    path.write_bytes(random.Random(7).randbytes(path.stat().st_size))


def _bad_header(path: Path) -> None:
    data = bytearray(path.read_bytes())
    data[:16] = b"SQLite format 2\x00"
    path.write_bytes(bytes(data))


def _page_flipped(path: Path) -> None:
    data = bytearray(path.read_bytes())
    data[4096 + 0] ^= 0xFF  # the second page's b-tree page type: no longer a page SQLite knows
    path.write_bytes(bytes(data))


def _newer(path: Path) -> None:
    with closing(sqlite3.connect(path)) as conn, conn:
        conn.execute("INSERT INTO schema_version VALUES (?)", (len(MIGRATIONS) + 1,))


def _not_ours(path: Path) -> None:
    path.unlink()
    with closing(sqlite3.connect(path)) as conn, conn:
        conn.execute("CREATE TABLE photos (id INTEGER PRIMARY KEY, name TEXT)")


def _empty(path: Path) -> None:
    path.write_bytes(b"")


def _folder(path: Path) -> None:
    path.unlink()
    path.mkdir()


def _missing(path: Path) -> None:
    path.unlink()


SOURCES: dict[str, tuple[Damage, str]] = {
    "truncated": (_truncated, "damaged"),
    "random bytes": (_random, "not an SQLite database"),
    "bad header": (_bad_header, "not an SQLite database"),
    "a flipped page type": (_page_flipped, "damaged"),
    "a newer schema": (_newer, "newer Domestique"),
    "another program's database": (_not_ours, "not a Domestique database"),
    "an empty file": (_empty, "not a Domestique database"),
    "a folder": (_folder, "is a folder"),
    "a missing file": (_missing, "does not exist"),
}


@pytest.mark.parametrize("case", list(SOURCES))
def test_a_bad_sqlite_source_is_refused_in_one_line_and_nothing_is_written(
    case: str, good_file: bytes, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    damage, said = SOURCES[case]
    source = tmp_path / "old.db"
    source.write_bytes(good_file)
    damage(source)
    before = sorted(p.name for p in tmp_path.iterdir())
    target = tmp_path / "new.db"
    line = _refused(*_copy(f"sqlite:///{source}", f"sqlite:///{target}", capsys))
    assert said in line and str(source) in line
    assert sorted(p.name for p in tmp_path.iterdir()) == before  # no target made, no source created


def test_flipped_bits_anywhere_copy_faithfully_or_are_refused_in_one_line(
    good_file: bytes, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    flips = random.Random(2026)
    outcomes = set()
    for n in range(40):
        data = bytearray(good_file)
        data[flips.randrange(len(data))] ^= 1 << flips.randrange(8)
        source, target = tmp_path / f"old{n}.db", tmp_path / f"new{n}.db"
        source.write_bytes(bytes(data))
        code, out, err = _copy(f"sqlite:///{source}", f"sqlite:///{target}", capsys)
        if code == 0:
            assert "copied" in out and target.exists()
        else:
            _refused(code, out, err)
            assert not target.exists()
        outcomes.add(code)
    assert outcomes <= {0, 2}


def test_a_source_url_naming_no_file_is_refused(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    line = _refused(*_copy("sqlite:///", f"sqlite:///{tmp_path / 'new.db'}", capsys))
    assert "names no file" in line
    assert list(tmp_path.iterdir()) == []


async def test_a_postgresql_source_must_exist_and_be_a_domestique_database(
    pg_url: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    target = tmp_path / "new.db"
    missing = pg_url.rsplit("/", 1)[0] + "/no_such_database?" + pg_url.split("?", 1)[1]
    line = _refused(*await asyncio.to_thread(_copy, missing, f"sqlite:///{target}", capsys))
    assert "no_such_database" in line
    line = _refused(*await asyncio.to_thread(_copy, pg_url, f"sqlite:///{target}", capsys))  # empty database
    assert "not a Domestique database" in line
    assert not target.exists()
    conn = await asyncpg.connect(pg_url)
    try:  # the empty database was only looked at: no table was made in it
        assert await conn.fetchval("SELECT COUNT(*) FROM information_schema.tables WHERE table_schema = 'public'") == 0
    finally:
        await conn.close()


async def test_a_newer_postgresql_source_is_refused_in_one_line(
    pg_url: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    storage = storage_for(pg_url)
    await storage.open()
    await storage.close()
    conn = await asyncpg.connect(pg_url)
    try:
        await conn.execute("INSERT INTO schema_version VALUES ($1)", len(MIGRATIONS) + 1)
    finally:
        await conn.close()
    target = tmp_path / "new.db"
    line = _refused(*await asyncio.to_thread(_copy, pg_url, f"sqlite:///{target}", capsys))
    assert "newer Domestique" in line and not target.exists()


def _with(url: str, *, user: str | None = None, database: str | None = None) -> str:
    """``url`` (``postgresql://domestique@/name?host=...``) as another role (with a password) or database."""
    head, query = url.split("?", 1)
    rest = head[len("postgresql://") :]
    role, _, name = rest.partition("@/")
    role = f"{user}:{PASSWORD}" if user else role
    return f"postgresql://{role}@/{database or name}?{query}"


async def test_a_postgresql_target_that_cannot_be_reached_is_refused_in_one_line(
    pg_url: str, good_file: bytes, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    source = tmp_path / "old.db"
    source.write_bytes(good_file)
    for target, said in (
        (_with(pg_url, database="no_such_database"), "no_such_database"),
        (_with(pg_url, user="ghost"), "ghost"),
    ):
        line = _refused(*await asyncio.to_thread(_copy, f"sqlite:///{source}", target, capsys))
        assert said in line and "cannot open the destination" in line
    assert source.read_bytes() == good_file  # the source is only read


@pytest.mark.parametrize(
    ("target", "said"),
    [
        ("sqlite:///{tmp}/no/such/folder/new.db", "no such folder"),
        ("sqlite:///", "names no file"),
        ("{tmp}/no/such/folder/new.db", "no such folder"),
        (f"postgresql://u:{PASSWORD}@[::1/x", "not a valid PostgreSQL URL"),
        (f"postgresql://u:{PASSWORD}@host:99999/x", "not a valid PostgreSQL URL"),
        ("mysql://u@host/x", "not a database Domestique knows"),
    ],
)
def test_a_bad_target_is_refused_in_one_line_and_nothing_is_made(
    target: str, said: str, good_file: bytes, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    source = tmp_path / "old.db"
    source.write_bytes(good_file)
    line = _refused(*_copy(f"sqlite:///{source}", target.format(tmp=tmp_path), capsys))
    assert said in line
    assert [p.name for p in tmp_path.iterdir()] == ["old.db"]


def test_a_target_file_that_is_not_a_database_is_left_as_it_was(
    good_file: bytes, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    source, target = tmp_path / "old.db", tmp_path / "notes.txt"
    source.write_bytes(good_file)
    target.write_text("my notes, not a database\n")
    line = _refused(*_copy(f"sqlite:///{source}", f"sqlite:///{target}", capsys))
    assert "not an SQLite database" in line
    assert target.read_text() == "my notes, not a database\n"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["notes.txt", "old.db"]
