"""The storage the service sees (the ``Storage`` protocol), composed of table parts over one ``Database``.

``SqlStorage`` holds a ``Database`` (``bot/storage/database.py``: the connection, the dialect, the
migrations) and one part per group of tables (``bot/storage/*_tables.py``), each built over that
database. Its methods are the parts' own, forwarded (``bot/storage/forward.py``): one line each, the
signature written once, in the part. ``SqliteStorage`` and ``PostgresStorage`` give it their database.
"""

from __future__ import annotations

from collections.abc import Mapping

from bot.storage.alliance_tables import AllianceTables
from bot.storage.away_tables import AwayTables
from bot.storage.database import Database
from bot.storage.forward import Forward
from bot.storage.health_tables import HealthTables
from bot.storage.language_tables import LanguageTables
from bot.storage.league_tables import LeagueTables
from bot.storage.outbox_tables import OutboxTables
from bot.storage.pace_tables import PaceTables
from bot.storage.people_tables import PeopleTables
from bot.storage.prompt_tables import PromptTables
from bot.storage.race_tables import RaceTables
from bot.storage.web_tables import WebTables


class SqlStorage:
    """Everything the bot keeps, in SQL both databases run (``bot/storage/dialect.py``)."""

    def __init__(self, db: Database) -> None:
        self.db = db
        self.race_tables = RaceTables(db)
        self.league_tables = LeagueTables(db)
        self.alliance_tables = AllianceTables(db)
        self.people_tables = PeopleTables(db)
        self.pace_tables = PaceTables(db)
        self.web_tables = WebTables(db)
        self.away_tables = AwayTables(db)
        self.language_tables = LanguageTables(db)
        self.prompt_tables = PromptTables(db)
        self.outbox_tables = OutboxTables(db)
        self.health_tables = HealthTables(db)
        parts: tuple[object, ...] = (
            self.race_tables,
            self.league_tables,
            self.alliance_tables,
            self.people_tables,
            self.pace_tables,
            self.web_tables,
            self.away_tables,
            self.language_tables,
            self.prompt_tables,
            self.outbox_tables,
            self.health_tables,
        )
        self._parts: dict[str, object] = {type(part).__name__: part for part in parts}

    @property
    def parts(self) -> Mapping[str, object]:
        """The table parts, by their class's name (``Forward`` finds a method's part here)."""
        return self._parts

    @property
    def path(self) -> str:
        """The database as it may be shown (no password)."""
        return self.db.path

    async def open(self) -> None:
        """Connect and migrate; a second call (the bot's start after ``domestique run`` opened it) does nothing."""
        await self.db.open()

    async def close(self) -> None:
        await self.db.close()

    async def schema_version(self) -> int:
        return await self.db.schema_version()

    # ---- races (``bot/storage/race_tables.py``)

    create_race = Forward(RaceTables.create_race)
    active_race = Forward(RaceTables.active_race)
    race = Forward(RaceTables.race)
    running_races = Forward(RaceTables.running_races)
    latest_race = Forward(RaceTables.latest_race)
    league_race = Forward(RaceTables.league_race)
    update_lobby = Forward(RaceTables.update_lobby)
    keep_lobby = Forward(RaceTables.keep_lobby)
    start = Forward(RaceTables.start)
    append_actions = Forward(RaceTables.append_actions)
    truncate = Forward(RaceTables.truncate)
    set_status = Forward(RaceTables.set_status)
    set_reminded = Forward(RaceTables.set_reminded)
    save_snapshot = Forward(RaceTables.save_snapshot)
    snapshot = Forward(RaceTables.snapshot)
    drop_snapshot = Forward(RaceTables.drop_snapshot)

    # ---- leagues, their stages and alliances (``bot/storage/league_tables.py``)

    create_league = Forward(LeagueTables.create_league)
    leagues = Forward(LeagueTables.leagues)
    league = Forward(LeagueTables.league)
    set_league_status = Forward(LeagueTables.set_league_status)
    members = Forward(LeagueTables.members)
    add_member = Forward(LeagueTables.add_member)
    remove_member = Forward(LeagueTables.remove_member)
    stages = Forward(LeagueTables.stages)
    schedule = Forward(LeagueTables.schedule)
    claim_stage = Forward(LeagueTables.claim_stage)
    stage_channel = Forward(LeagueTables.stage_channel)
    stage_opened = Forward(LeagueTables.stage_opened)
    stage_finished = Forward(LeagueTables.stage_finished)
    alliances = Forward(LeagueTables.alliances)
    alliance = Forward(LeagueTables.alliance)
    propose_alliance = Forward(LeagueTables.propose_alliance)
    create_alliance = Forward(LeagueTables.create_alliance)
    set_alliance = Forward(LeagueTables.set_alliance)

    # ---- an alliance's members and pacts (``bot/storage/alliance_tables.py``)

    race_of_thread = Forward(AllianceTables.race_of_thread)
    alliance_members = Forward(AllianceTables.alliance_members)
    invite_member = Forward(AllianceTables.invite_member)
    set_member = Forward(AllianceTables.set_member)
    invitations_before = Forward(AllianceTables.invitations_before)
    add_pact = Forward(AllianceTables.add_pact)
    pacts = Forward(AllianceTables.pacts)
    pact = Forward(AllianceTables.pact)
    set_pact = Forward(AllianceTables.set_pact)

    # ---- people (``bot/storage/people_tables.py``)

    notify_mode = Forward(PeopleTables.notify_mode)
    set_notify_mode = Forward(PeopleTables.set_notify_mode)
    add_note = Forward(PeopleTables.add_note)
    take_notes = Forward(PeopleTables.take_notes)

    # ---- pace (``bot/storage/pace_tables.py``)

    set_premove = Forward(PaceTables.set_premove)
    premoves = Forward(PaceTables.premoves)
    plans = Forward(PaceTables.plans)
    drop_premove = Forward(PaceTables.drop_premove)
    set_order = Forward(PaceTables.set_order)
    orders = Forward(PaceTables.orders)
    drop_orders = Forward(PaceTables.drop_orders)
    clocks = Forward(PaceTables.clocks)
    save_clock = Forward(PaceTables.save_clock)
    add_pace_time = Forward(PaceTables.add_pace_time)
    pace_times = Forward(PaceTables.pace_times)

    # ---- the web pages' links (``bot/storage/web_tables.py``)

    web_token = Forward(WebTables.web_token)
    renew_web_token = Forward(WebTables.renew_web_token)
    web_off = Forward(WebTables.web_off)
    race_version = Forward(WebTables.race_version)
    web_page = Forward(WebTables.web_page)

    # ---- who is away (``bot/storage/away_tables.py``)

    set_away = Forward(AwayTables.set_away)
    away_until = Forward(AwayTables.away_until)
    end_away = Forward(AwayTables.end_away)
    aways_due = Forward(AwayTables.aways_due)
    next_return = Forward(AwayTables.next_return)

    # ---- languages (``bot/storage/language_tables.py``)

    locale_of = Forward(LanguageTables.locale_of)
    see_locale = Forward(LanguageTables.see_locale)
    choose_language = Forward(LanguageTables.choose_language)

    # ---- live prompts (``bot/storage/prompt_tables.py``)

    live_prompt = Forward(PromptTables.live_prompt)
    keep_live_prompt = Forward(PromptTables.keep_live_prompt)
    drop_live_prompt = Forward(PromptTables.drop_live_prompt)

    # ---- the outbox and races that wait (``bot/storage/outbox_tables.py``)

    owe = Forward(OutboxTables.owe)
    owed = Forward(OutboxTables.owed)
    owed_channels = Forward(OutboxTables.owed_channels)
    outbox_depth = Forward(OutboxTables.outbox_depth)
    delivered = Forward(OutboxTables.delivered)
    retry_later = Forward(OutboxTables.retry_later)
    forget_owed = Forward(OutboxTables.forget_owed)
    pause = Forward(OutboxTables.pause)
    told_of_pause = Forward(OutboxTables.told_of_pause)
    unpause = Forward(OutboxTables.unpause)
    pause_of = Forward(OutboxTables.pause_of)
    paused_races = Forward(OutboxTables.paused_races)
    push_deadline = Forward(OutboxTables.push_deadline)
    move_race = Forward(OutboxTables.move_race)

    # ---- health reports (``bot/storage/health_tables.py``)

    report_health = Forward(HealthTables.report_health)
    health_reports = Forward(HealthTables.health_reports)
    forget_health = Forward(HealthTables.forget_health)
