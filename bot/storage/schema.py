"""The schema: one list of migrations for both databases, each written once with the words of
``Dialect.words`` for what the two spell differently ({id}, {int}, {real}, {blob}), and statements
of one database only where the two truly differ (``Migration.only``).

A migration is never changed once released: a database records the number it has reached
(``schema_version``) and runs the migrations after it, in order, on open.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

from bot.storage.dialect import Dialect


class NewerSchema(Exception):
    """The database was written by a newer Domestique than this one."""


@dataclass(frozen=True)
class Migration:
    about: str
    sql: str  # for both databases; ``;`` between statements
    only: Mapping[str, str] = field(default_factory=dict)  # more statements for one database, by its name

    def statements(self, dialect: Dialect) -> list[str]:
        text = dialect.ddl(self.sql) + ";" + self.only.get(dialect.name, "")
        return [s.strip() for s in text.split(";") if s.strip()]


MIGRATIONS: list[Migration] = [
    Migration(
        "races, their actions and snapshots",
        """
        CREATE TABLE races (
            id {id},
            guild_id {int} NOT NULL,
            channel_id {int} NOT NULL,
            host_id {int} NOT NULL,
            game TEXT NOT NULL,
            status TEXT NOT NULL,
            version INTEGER NOT NULL DEFAULT 0,
            lobby TEXT NOT NULL,
            envelope TEXT,
            deadline {real},
            reminded INTEGER NOT NULL DEFAULT 0,
            created {real} NOT NULL
        );
        CREATE UNIQUE INDEX one_active_race_per_channel ON races(channel_id) WHERE status IN ('lobby', 'running');
        CREATE TABLE actions (
            race_id {int} NOT NULL REFERENCES races(id),
            idx INTEGER NOT NULL,
            action TEXT NOT NULL,
            user_id {int},
            automatic INTEGER NOT NULL DEFAULT 0,
            PRIMARY KEY (race_id, idx)
        );
        CREATE TABLE snapshots (
            race_id {int} PRIMARY KEY REFERENCES races(id),
            version INTEGER NOT NULL,
            state {blob} NOT NULL
        )
        """,
        only={"postgresql": "CREATE INDEX running_races ON races(status) WHERE status = 'running'"},
    ),
    Migration(
        "leagues (a stage a week, a general classification) and alliances between players of a race",
        """
        ALTER TABLE races ADD COLUMN league_id {int};
        ALTER TABLE races ADD COLUMN stage INTEGER;
        CREATE TABLE leagues (
            id {id},
            guild_id {int} NOT NULL,
            organiser_id {int} NOT NULL,
            name TEXT NOT NULL,
            game TEXT NOT NULL,
            channel_id {int} NOT NULL,
            settings TEXT NOT NULL,
            status TEXT NOT NULL,
            created {real} NOT NULL
        );
        CREATE UNIQUE INDEX league_names ON leagues(guild_id, name);
        CREATE TABLE league_members (
            {serial_rowid}
            league_id {int} NOT NULL REFERENCES leagues(id),
            player TEXT NOT NULL,
            user_id {int},
            name TEXT NOT NULL,
            team TEXT NOT NULL,
            kinds TEXT NOT NULL,
            removed INTEGER NOT NULL DEFAULT 0,
            PRIMARY KEY (league_id, player)
        );
        CREATE TABLE league_stages (
            league_id {int} NOT NULL REFERENCES leagues(id),
            number INTEGER NOT NULL,
            track TEXT NOT NULL,
            due {real},
            status TEXT NOT NULL,
            race_id {int},
            channel_id {int},
            result TEXT,
            PRIMARY KEY (league_id, number)
        );
        CREATE TABLE alliances (
            id {id},
            race_id {int} NOT NULL REFERENCES races(id),
            proposer TEXT NOT NULL,
            partner TEXT NOT NULL,
            status TEXT NOT NULL,
            thread_id {int},
            created {real} NOT NULL
        )
        """,
    ),
    Migration(
        "how each person wants to be told of a decision owed (per server), and notes kept for people "
        "whose private messages could not be delivered",
        """
        CREATE TABLE people (
            guild_id {int} NOT NULL,
            user_id {int} NOT NULL,
            notify TEXT NOT NULL,
            PRIMARY KEY (guild_id, user_id)
        );
        CREATE TABLE notes (
            id {id},
            guild_id {int} NOT NULL,
            user_id {int} NOT NULL,
            text TEXT NOT NULL,
            created {real} NOT NULL
        );
        CREATE INDEX notes_by_person ON notes(guild_id, user_id)
        """,
    ),
    Migration(
        "premoves, standing orders, time banks and decision times (docs/pace.md)",
        """
        CREATE TABLE premoves (
            race_id {int} NOT NULL REFERENCES races(id),
            player TEXT NOT NULL,
            kind TEXT NOT NULL,
            piece TEXT,
            action TEXT NOT NULL,
            label TEXT NOT NULL,
            detail TEXT NOT NULL,
            user_id {int},
            PRIMARY KEY (race_id, player)
        );
        CREATE TABLE standing_orders (
            race_id {int} NOT NULL REFERENCES races(id),
            player TEXT NOT NULL,
            piece TEXT NOT NULL,
            kind TEXT NOT NULL,
            number INTEGER,
            until TEXT,
            until_number INTEGER,
            PRIMARY KEY (race_id, player, piece, kind)
        );
        CREATE TABLE clocks (
            race_id {int} NOT NULL REFERENCES races(id),
            player TEXT NOT NULL,
            budget {real} NOT NULL,
            used {real} NOT NULL DEFAULT 0,
            asked {real},
            PRIMARY KEY (race_id, player)
        );
        CREATE TABLE pace_times (
            id {id},
            race_id {int} NOT NULL REFERENCES races(id),
            player TEXT NOT NULL,
            seconds {real} NOT NULL,
            automatic INTEGER NOT NULL
        );
        CREATE INDEX pace_times_by_race ON pace_times(race_id)
        """,
    ),
    Migration(
        "each decision time names the action that decided it (an undo gives the time back)",
        "ALTER TABLE pace_times ADD COLUMN idx INTEGER",
    ),
    Migration(
        "the web pages' links: one random token per race and per league (docs/web.md)",
        """
        CREATE TABLE web_links (
            kind TEXT NOT NULL,
            ref_id {int} NOT NULL,
            token TEXT,
            PRIMARY KEY (kind, ref_id)
        );
        CREATE UNIQUE INDEX web_link_tokens ON web_links(token)
        """,
    ),
    Migration(
        "people away (/race away): their seats in every race played by the AI until a time",
        """
        CREATE TABLE away (
            user_id {int} PRIMARY KEY,
            until {real} NOT NULL,
            since {real} NOT NULL
        )
        """,
    ),
    Migration(
        "languages (issue 27): the Discord locale last seen of each server and person, a server's chosen language",
        """
        CREATE TABLE languages (
            kind TEXT NOT NULL,
            ref_id {int} NOT NULL,
            seen TEXT,
            chosen TEXT,
            PRIMARY KEY (kind, ref_id)
        )
        """,
    ),
    Migration(
        "each channel's live prompt, so a restarted bot still retires it (bot/storage/prompt_tables.py)",
        """
        CREATE TABLE live_prompts (
            channel_id {int} PRIMARY KEY,
            message_id {int} NOT NULL,
            content TEXT NOT NULL
        )
        """,
    ),
    Migration(
        "posts owed to channels Discord refused, races that wait, each process's health (issue 43)",
        """
        CREATE TABLE outbox (
            id {id},
            channel_id {int} NOT NULL,
            guild_id {int} NOT NULL,
            kind TEXT NOT NULL,
            race_id {int},
            version INTEGER,
            content TEXT NOT NULL,
            mentions TEXT NOT NULL,
            image {blob},
            image_name TEXT,
            image_alt TEXT,
            file_name TEXT,
            file {blob},
            nonce TEXT NOT NULL,
            attempts INTEGER NOT NULL DEFAULT 0,
            due {real} NOT NULL,
            failure TEXT,
            created {real} NOT NULL
        );
        CREATE INDEX outbox_by_channel ON outbox(channel_id, id);
        CREATE TABLE pauses (
            race_id {int} PRIMARY KEY,
            reason TEXT NOT NULL,
            since {real} NOT NULL,
            told INTEGER NOT NULL DEFAULT 0
        );
        CREATE TABLE health (
            process TEXT PRIMARY KEY,
            at {real} NOT NULL,
            report TEXT NOT NULL
        )
        """,
    ),
    Migration(
        "alliances of any size (issue 37): a name, members invited one by one (each answers or the "
        "invitation lapses), and the pacts the allies agree; the two-player alliances carried over",
        """
        ALTER TABLE alliances ADD COLUMN name TEXT;
        CREATE TABLE alliance_members (
            alliance_id {int} NOT NULL REFERENCES alliances(id),
            player TEXT NOT NULL,
            status TEXT NOT NULL,
            invited_by TEXT,
            since {real} NOT NULL,
            PRIMARY KEY (alliance_id, player)
        );
        INSERT INTO alliance_members (alliance_id, player, status, invited_by, since)
            SELECT id, proposer, CASE WHEN status IN ('proposed', 'active') THEN 'member' ELSE 'left' END,
                NULL, created FROM alliances;
        INSERT INTO alliance_members (alliance_id, player, status, invited_by, since)
            SELECT id, partner, CASE status WHEN 'proposed' THEN 'invited' WHEN 'active' THEN 'member'
                WHEN 'declined' THEN 'declined' ELSE 'left' END, proposer, created FROM alliances;
        CREATE TABLE pacts (
            id {id},
            alliance_id {int} NOT NULL REFERENCES alliances(id),
            kind TEXT NOT NULL,
            proposer TEXT NOT NULL,
            ally TEXT,
            until_unit TEXT NOT NULL,
            until_value INTEGER,
            public INTEGER NOT NULL DEFAULT 0,
            status TEXT NOT NULL,
            members TEXT NOT NULL,
            accepted TEXT NOT NULL,
            made_at INTEGER,
            ended_at INTEGER,
            created {real} NOT NULL
        );
        CREATE INDEX pacts_by_alliance ON pacts(alliance_id)
        """,
    ),
]
