"""What every part of the service shares: the refusal, the limits, a race's record, typed choices."""

from __future__ import annotations

from bot.service import seats
from bot.storage import RaceRow
from bot.storage.lobby import SeatData
from rules.game import Choice
from rules.i18n import _
from rules.record import FORMAT, Record, dated, parse_record
from rules.registry import AnyGame, find_game
from rules.shown import track_title
from rules.versions import RulesVersion

TIMER_MIN, TIMER_MAX, TIMER_DEFAULT = 60, 7 * 24 * 3600, 24 * 3600
AWAY_AFTER = 3  # automatic decisions in a row before a seat is played by the AI
MESSAGE_LIMIT = 2000
AUTOPLAY_LIMIT = 5000


class Refusal(Exception):
    """A request that cannot be done now; the message is shown to the person, privately."""


def playing_seat(race: RaceRow, user_id: int) -> SeatData:
    """The seat of Discord user ``user_id`` in ``race`` (not an AI seat), or a refusal that says
    they are not playing (every command a player gives for their own seat starts here)."""
    seat = seats.human_seat(race.lobby, user_id)
    if seat is None:
        raise Refusal(_("You are not playing in this race."))
    return seat


def chunks(text: str, limit: int = MESSAGE_LIMIT) -> list[str]:
    """Split ``text`` on line ends into messages that fit Discord's 2,000 characters."""
    out: list[str] = []
    current = ""
    for line in text.splitlines():
        while len(line) > limit:
            out.append(line[:limit])
            line = line[limit:]
        if len(current) + len(line) + 1 > limit:
            out.append(current)
            current = ""
        current = f"{current}\n{line}" if current else line
    if current:
        out.append(current)
    return out or [""]


def record_of(race: RaceRow, game: AnyGame | None = None) -> Record:
    """The race's public record: its envelope and every stored action (``game``: the race's, when the
    caller holds it already). A race stored before rules versions names none in its envelope: it is
    played under the version that was the newest when it was created (docs/record-format.md, Rules)."""
    assert race.envelope is not None
    words = (game or find_game(race.game)).vocabulary
    data = {
        "format": FORMAT,
        **race.envelope,
        "actions": [words.from_text(a.text).to_json() for a in race.actions],
    }
    return dated(parse_record({k: v for k, v in data.items() if v is not None}), race.created)


def rules_version(race: RaceRow, game: AnyGame) -> RulesVersion:
    """The rules version a started race is played under: the one its envelope names, else (stored
    before versions) the newest on the day it was created, as ``record_of`` says."""
    assert race.envelope is not None
    versions = game.rules_versions
    named = race.envelope.get("rules")
    return versions.named(named) if isinstance(named, str) else versions.on(race.created)


def title(race: RaceRow) -> str:
    """How a race is named in every message: its title (or number) and its track."""
    stored = race.lobby.get("title")
    if race.stage is not None and stored == f"Stage {race.stage}":  # a league stage's, stored in English
        label = _("Stage {number}", number=race.stage)
    else:
        label = stored or _("Race {number}", number=race.id)
    return f"{label} · {track_title(str(race.lobby['track']))}"


def who(race: RaceRow, player: str, *, mention: bool = True) -> str:
    """How public text names a player: a mention, or their name (an AI seat: its name)."""
    user = seats.user_of(race.lobby, player)
    if user is not None and mention:
        return f"<@{user}>"
    return seats.name_of(race.lobby, player)


def choice_key(choice: Choice) -> str:
    """A choice's typed form: its action without the player (``breakaway rider=yellow-rouleur to=12.2``)."""
    return choice.action.text().split(" ", 1)[1]


def typed_choice(options: list[Choice], typed: str, piece: str | None) -> Choice | None:
    """The choice a typed value names: its key, else the only one with that target (for ``piece``)."""
    typed = typed.strip()
    exact = [c for c in options if choice_key(c) == typed]
    if exact:
        return exact[0]
    lowered = typed.lower()
    named = [
        c
        for c in options
        if (piece is None or c.piece in (None, piece))
        and lowered in {(c.target or "").lower(), c.short.lower(), c.label.lower()}
    ]
    return named[0] if named else None
