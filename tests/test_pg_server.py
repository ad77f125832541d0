"""The tests' own PostgreSQL server: where it cannot be had, one line says why (never a skip)."""

from __future__ import annotations

import pytest

from tests.support import pg_server


def test_missing_binaries_and_no_way_to_install_them_is_one_clear_line(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(pg_server, "_binaries", lambda: None)
    monkeypatch.setattr(pg_server.os, "geteuid", lambda: 1000)  # not root: apt-get is not an option
    with pytest.raises(pg_server.NoServer) as caught:
        pg_server.PgServer()
    message = str(caught.value)
    assert "\n" not in message and "apt-get install postgresql" in message


def test_the_servers_data_directory_belongs_to_an_unprivileged_user(pg_server: pg_server.PgServer) -> None:
    import os

    owner = os.stat(pg_server.data).st_uid
    assert owner != 0  # initdb refuses root: the server runs as postgres (or nobody) when the tests run as root
