"""Where races, leagues and alliances live: the rows, and the one ``Storage`` protocol.

A race is stored as its record: the setup (lobby, then the record envelope), the seed,
and its append-only actions, plus a cached snapshot of the state. Every change bumps the
race's version inside one transaction that checks the version it started from, so two
clicks at the same moment can never both apply, and a crash loses no committed decision.
``bot/storage/sqlite.py`` is the embedded implementation; ``bot/storage/postgres.py`` runs the
same SQL on a PostgreSQL server (``DATABASE_URL``), for several processes (``docs/deploy.md``).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Protocol

from bot.storage.lobby import LobbyData
from bot.storage.schema import NewerSchema as NewerSchema  # raised on open (``Database.migrate``)

if TYPE_CHECKING:
    from bot.shards import Shards
    from bot.storage.outbox_tables import OwedPost, Pause

ACTIVE = ("lobby", "running")


class ChannelBusy(Exception):
    """A race is already open in that channel."""


@dataclass
class StoredAction:
    index: int
    text: str
    user_id: int | None  # the Discord user who decided; None for the AI
    automatic: bool  # decided by the AI for a seat (timer, away seat, AI seat)


@dataclass
class RaceRow:
    id: int
    guild_id: int
    channel_id: int
    host_id: int
    game: str
    status: str
    version: int
    lobby: LobbyData
    envelope: dict[str, Any] | None
    deadline: float | None
    reminded: bool
    created: float
    actions: list[StoredAction] = field(default_factory=list)
    league_id: int | None = None
    stage: int | None = None


class RaceStorage(Protocol):
    """Races: what the service needs from a database."""

    async def open(self) -> None: ...
    async def close(self) -> None: ...
    async def create_race(
        self,
        guild_id: int,
        channel_id: int,
        host_id: int,
        game: str,
        lobby: LobbyData,
        league: tuple[int, int] | None = None,
    ) -> RaceRow:
        """A new race in its lobby; ``league`` (its id, the stage) links a league stage's race in the same write."""
        ...

    async def active_race(self, channel_id: int) -> RaceRow | None: ...
    async def race(self, race_id: int) -> RaceRow | None: ...
    async def running_races(self, shards: Shards | None = None) -> list[RaceRow]: ...
    async def latest_race(self, channel_id: int) -> RaceRow | None: ...
    async def league_race(self, league_id: int, stage: int) -> RaceRow | None:
        """The race of a league's stage, if one was made (the latest, should there be several)."""
        ...

    async def update_lobby(self, race_id: int, version: int, lobby: LobbyData) -> bool: ...
    async def keep_lobby(self, race_id: int, version: int, lobby: LobbyData) -> bool: ...
    async def start(self, race_id: int, version: int, envelope: dict[str, Any], deadline: float | None) -> bool: ...
    async def append_actions(
        self,
        race_id: int,
        version: int,
        actions: list[StoredAction],
        deadline: float | None,
        finished: bool,
        lobby: LobbyData | None = None,
        charges: Charges | None = None,
        envelope: dict[str, Any] | None = None,
    ) -> bool: ...
    async def truncate(
        self, race_id: int, version: int, keep: int, deadline: float | None, clocks: Sequence[Clock] = ()
    ) -> bool: ...
    async def set_status(self, race_id: int, version: int, status: str) -> bool: ...
    async def set_reminded(self, race_id: int, version: int) -> bool: ...
    async def save_snapshot(self, race_id: int, version: int, blob: bytes) -> None: ...
    async def snapshot(self, race_id: int) -> tuple[int, bytes] | None: ...
    async def drop_snapshot(self, race_id: int) -> None: ...


class NameTaken(Exception):
    """A league of that name exists in this server."""


@dataclass
class League:
    id: int
    guild_id: int
    organiser_id: int
    name: str
    game: str
    channel_id: int
    settings: dict[str, Any]
    status: str  # entries, scheduled, finished


@dataclass
class Member:
    player: str
    user_id: int | None
    name: str
    team: str
    kinds: list[str]
    removed: bool


@dataclass
class Stage:
    number: int
    track: str
    due: float | None
    status: str  # scheduled, opening, running, finished
    race_id: int | None
    channel_id: int | None
    result: dict[str, Any] | None


@dataclass
class Alliance:
    id: int
    race_id: int
    proposer: str
    partner: str
    status: str  # proposed, active, declined, ended, lapsed
    thread_id: int | None
    name: str | None = None


@dataclass
class AllianceMember:
    """One person's place in an alliance: ``invited`` (since ``since``), ``member``, or no longer:
    ``declined``, ``lapsed`` (not answered in time), ``left``."""

    alliance_id: int
    player: str
    status: str
    invited_by: str | None
    since: float


@dataclass
class PactRow:
    """A pact as kept: proposed to the alliance's ``members`` (those of the race then), ``accepted`` by
    some of them; ``active`` from the record's action ``made_at`` to ``ended_at``; or ``declined``,
    ``lapsed``, ``ended``. ``public``: told to everyone, not only the allies."""

    id: int
    alliance_id: int
    kind: str
    proposer: str
    ally: str | None
    until_unit: str
    until_value: int | None
    public: bool
    status: str
    members: list[str]
    accepted: list[str]
    made_at: int | None
    ended_at: int | None
    created: float


class ConstraintFailed(Exception):
    """The database refused a write that breaks a unique or foreign key (either database's error)."""


class LeagueStorage(Protocol):
    """Leagues (their members and stages) and alliances."""

    async def create_league(
        self, guild_id: int, organiser_id: int, name: str, game: str, channel_id: int, settings: dict[str, Any]
    ) -> int: ...
    async def leagues(self, guild_id: int | None = None) -> list[League]: ...
    async def league(self, league_id: int) -> League | None: ...
    async def set_league_status(self, league_id: int, status: str) -> None: ...
    async def members(self, league_id: int) -> list[Member]: ...
    async def add_member(self, league_id: int, member: Member) -> None: ...
    async def remove_member(self, league_id: int, player: str) -> None: ...
    async def stages(self, league_id: int) -> list[Stage]: ...
    async def schedule(self, league_id: int, stages: list[tuple[int, str, float]]) -> None: ...
    async def claim_stage(self, league_id: int, number: int) -> bool: ...
    async def stage_channel(self, league_id: int, number: int, channel_id: int) -> None: ...
    async def stage_opened(self, league_id: int, number: int, race_id: int, channel_id: int) -> None: ...
    async def stage_finished(self, league_id: int, number: int, result: dict[str, Any]) -> bool: ...
    async def alliances(self, race_id: int) -> list[Alliance]: ...
    async def alliance(self, alliance_id: int) -> Alliance | None: ...
    async def propose_alliance(self, race_id: int, proposer: str, partner: str) -> int: ...
    async def set_alliance(
        self, alliance_id: int, status: str, *, expect: str | None = None, thread_id: int | None = None
    ) -> bool: ...
    async def create_alliance(self, race_id: int, name: str, founder: str, invited: str, now: float) -> int: ...
    async def alliance_members(self, alliance_id: int) -> list[AllianceMember]: ...
    async def race_of_thread(self, thread_id: int) -> int | None: ...
    async def invite_member(self, alliance_id: int, player: str, by: str, now: float) -> bool: ...
    async def set_member(self, alliance_id: int, player: str, status: str, *, expect: str, now: float) -> bool: ...
    async def invitations_before(self, since: float) -> list[AllianceMember]: ...
    async def add_pact(
        self,
        alliance_id: int,
        kind: str,
        proposer: str,
        ally: str | None,
        until: tuple[str, int | None],
        public: bool,
        members: list[str],
        now: float,
    ) -> int: ...
    async def pacts(self, alliance_id: int) -> list[PactRow]: ...
    async def pact(self, pact_id: int) -> PactRow | None: ...
    async def set_pact(
        self,
        pact_id: int,
        *,
        expect: str,
        status: str | None = None,
        accepted: list[str] | None = None,
        made_at: int | None = None,
        ended_at: int | None = None,
    ) -> bool: ...


@dataclass
class Premove:
    """A decision made ahead: private until applied (``label`` and ``detail`` as offered, to compare)."""

    player: str
    kind: str
    piece: str | None
    action: str
    label: str
    detail: str
    user_id: int | None


@dataclass
class StandingOrder:
    """What a piece does in routine decisions until a manual decision or the moment ``until``."""

    player: str
    piece: str
    kind: str
    number: int | None = None
    until: str | None = None
    until_number: int | None = None


@dataclass
class Clock:
    """A player's time bank in one race: ``budget`` seconds, ``used`` so far, ``asked`` when their
    pending decision was asked (None: none pending)."""

    player: str
    budget: float
    used: float = 0.0
    asked: float | None = None

    @property
    def left(self) -> float:
        return max(0.0, self.budget - self.used)


@dataclass
class PaceTime:
    """One decision's time: from asked to decided (or decided for them), charged to the player's
    clock; ``index`` is the action that decided it (None: kept before schema 5)."""

    race_id: int
    player: str
    seconds: float
    automatic: bool
    index: int | None = None


@dataclass
class Charges:
    """What a commit does to the race's pace records, written in the transaction that appends its
    actions: each clock it changed, as it leaves it, the decision times it charged, and the players
    whose decisions made ahead it spent (forgotten only if the commit is kept)."""

    clocks: list[Clock] = field(default_factory=list)
    times: list[PaceTime] = field(default_factory=list)
    premoves_used: list[str] = field(default_factory=list)


class PaceStorage(Protocol):
    """Premoves, standing orders, time banks and decision times (``bot/storage/pace_tables.py``)."""

    async def set_premove(self, race_id: int, premove: Premove) -> None: ...
    async def premoves(self, race_id: int) -> list[Premove]: ...
    async def plans(self, race_id: int) -> tuple[list[Premove], list[StandingOrder]]: ...
    async def drop_premove(self, race_id: int, player: str) -> bool: ...
    async def set_order(self, race_id: int, order: StandingOrder) -> None: ...
    async def orders(self, race_id: int) -> list[StandingOrder]: ...
    async def drop_orders(
        self, race_id: int, player: str, piece: str | None = None, kind: str | None = None
    ) -> int: ...
    async def clocks(self, race_id: int) -> list[Clock]: ...
    async def save_clock(self, race_id: int, clock: Clock) -> None: ...
    async def add_pace_time(self, time: PaceTime) -> None: ...
    async def pace_times(self, race_ids: list[int]) -> list[PaceTime]: ...


NOTIFY_MODES = ("mention", "dm", "none")


class PeopleStorage(Protocol):
    """People in a server: how they are told of a decision owed, and notes kept for them."""

    async def notify_mode(self, guild_id: int, user_id: int) -> str | None: ...
    async def set_notify_mode(self, guild_id: int, user_id: int, mode: str) -> None: ...
    async def add_note(self, guild_id: int, user_id: int, text: str) -> None: ...
    async def take_notes(self, guild_id: int, user_id: int) -> list[str]: ...


class AwayStorage(Protocol):
    """People away (``/race away``): until when the AI plays every seat of theirs (``bot/storage/away_tables.py``)."""

    async def set_away(self, user_id: int, until: float, since: float) -> None: ...
    async def away_until(self, user_ids: Sequence[int]) -> dict[int, float]: ...
    async def end_away(self, user_id: int, until: float | None = None) -> bool: ...
    async def aways_due(self, now: float) -> list[tuple[int, float]]: ...
    async def next_return(self) -> float | None: ...


class WebStorage(Protocol):
    """The web pages' links (``bot/storage/web_tables.py``) and the cheap reads the pages make."""

    async def web_token(self, kind: str, ref_id: int) -> str | None: ...
    async def renew_web_token(self, kind: str, ref_id: int) -> str: ...
    async def web_off(self, kind: str, ref_id: int) -> None: ...
    async def web_page(self, token: str) -> tuple[str, int] | None: ...
    async def race_version(self, race_id: int) -> int | None: ...


class LanguageStorage(Protocol):
    """Which language a server and a person read (``bot/storage/language_tables.py``)."""

    async def locale_of(self, kind: str, ref_id: int) -> tuple[str | None, str | None]: ...
    async def see_locale(self, kind: str, ref_id: int, locale: str) -> None: ...
    async def choose_language(self, guild_id: int, language: str | None) -> None: ...


class PromptStorage(Protocol):
    """Each channel's live prompt (``bot/storage/prompt_tables.py``)."""

    async def live_prompt(self, channel_id: int) -> tuple[int, str] | None: ...
    async def keep_live_prompt(self, channel_id: int, message_id: int, content: str) -> None: ...
    async def drop_live_prompt(self, channel_id: int, message_id: int | None = None) -> None: ...


class OutboxStorage(Protocol):
    """What channels are owed and which races wait (``bot/storage/outbox_tables.py``)."""

    async def owe(self, posts: list[OwedPost], now: float) -> None: ...
    async def owed(self, shards: Shards | None = None) -> list[OwedPost]: ...
    async def owed_channels(self) -> set[int]: ...
    async def outbox_depth(self) -> int: ...
    async def delivered(self, post_id: int) -> None: ...
    async def retry_later(self, post_id: int, due: float, failure: str) -> None: ...
    async def forget_owed(self, channel_id: int) -> int: ...
    async def pause(self, race_id: int, reason: str, now: float) -> bool: ...
    async def told_of_pause(self, race_id: int) -> bool: ...
    async def unpause(self, race_id: int) -> Pause | None: ...
    async def pause_of(self, race_id: int) -> Pause | None: ...
    async def paused_races(self) -> dict[int, Pause]: ...
    async def push_deadline(self, race_id: int, by: float) -> None: ...
    async def move_race(self, race_id: int, channel_id: int) -> None: ...


class HealthStorage(Protocol):
    """Each bot process's last health report (``bot/storage/health_tables.py``)."""

    async def report_health(self, process: str, at: float, report: dict[str, Any]) -> None: ...
    async def health_reports(self) -> list[tuple[str, float, dict[str, Any]]]: ...
    async def forget_health(self, process: str) -> None: ...


class Storage(
    RaceStorage,
    LeagueStorage,
    PeopleStorage,
    PaceStorage,
    WebStorage,
    AwayStorage,
    LanguageStorage,
    PromptStorage,
    OutboxStorage,
    HealthStorage,
    Protocol,
):
    """Everything the bot keeps: the service, leagues and alliances all go through this."""

    async def schema_version(self) -> int: ...
