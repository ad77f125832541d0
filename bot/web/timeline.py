"""A race as its public channel shows it, turn by turn: what the web pages are made of.

Everything here comes from the game's narration (the lines the channel posts) and the lobby's
names: never the seed, the dice to come, a player's hidden things or a Discord id. The states
kept for the boards are painted by the same painter as the channel's boards.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass, field
from typing import Any

from bot.service import seats
from bot.service.common import record_of
from bot.storage import RaceRow
from renderer.words import team
from rules.i18n import _
from rules.registry import AnyGame, find_game
from rules.shown import track_title


@dataclass(frozen=True)
class Turn:
    """One turn of the race: its number, its moves in words, and the state at its start (its board)."""

    number: int
    lines: tuple[str, ...]
    state: Any
    key: str = ""  # names the decisions before it: its board is drawn again only if they change (an undo)


@dataclass(frozen=True)
class Timeline:
    race_id: int
    version: int
    game: AnyGame
    title: str
    status: str  # lobby, running, finished, aborted
    turns: tuple[Turn, ...] = ()
    state: Any = None  # the state now (None in the lobby)
    turn_of_action: tuple[int, ...] = ()  # the turn each action was taken in
    players: tuple[str, ...] = ()  # the lobby's seats, by name and colour
    waiting: str = ""  # who is to act, in words
    deadline: float | None = None
    standings: tuple[str, ...] = ()
    finish: tuple[str, ...] = ()
    acting: tuple[str, ...] = field(default_factory=tuple)  # the piece to act (drawn highlighted)
    texts: tuple[str, ...] = ()  # the actions replayed, as stored: a later version goes on from here
    chain: str = ""  # the key after the last of them (``Turn.key``)
    people: tuple[tuple[str, str], ...] = ()  # (player, name as the channel shows it), for the race's table

    def turn_since(self, action: int) -> int | None:
        """The turn of action ``action`` (a player's last decision), or None if there is no such action."""
        return self.turn_of_action[action] if 0 <= action < len(self.turn_of_action) else None


# the shipped stages and circuits, by their ids (a stage added later reads as its id in words)
def title_of(race: RaceRow) -> str:
    label = race.lobby.get("title") or _("Race {number}", number=race.id)
    return f"{label} · {track_title(str(race.lobby['track']))}"


def _names(line: str, piece: str) -> bool:
    """Whether a standings line is about ``piece`` ("No. 1 (grey), Hana: ...", not "No. 10 ...")."""
    return line.startswith(piece) and line[len(piece) : len(piece) + 1] in (" ", ",", ":")


def in_finish_order(lines: tuple[str, ...], pieces: list[str]) -> tuple[str, ...]:
    """The standings' lines in the order of the finish (``pieces``, as named), the others after."""
    order = {piece: n for n, piece in enumerate(pieces)}

    def place(line: str) -> int:
        return next((n for piece, n in order.items() if _names(line, piece)), len(order))

    return tuple(sorted(lines, key=place))


def _plain(line: str) -> str:
    return line.replace("**", "")


def _chained(chain: str, text: str) -> str:
    return hashlib.sha256(f"{chain}\n{text}".encode()).hexdigest()


def _goes_on(race: RaceRow, previous: Timeline | None) -> bool:
    """Whether ``race`` is ``previous`` with more actions (not an undo, not another race)."""
    if previous is None or previous.race_id != race.id or previous.state is None or not previous.turns:
        return False
    done = len(previous.texts)
    return len(race.actions) >= done and tuple(a.text for a in race.actions[:done]) == previous.texts


def timeline(race: RaceRow, previous: Timeline | None = None) -> Timeline:
    """The race at its stored version, replayed from its record, or from ``previous`` (an earlier
    version of it) when it only has more actions (pure; run off the event loop)."""
    game = find_game(race.game)
    names = tuple(f"{s.get('name') or 'AI'} ({team(str(s.get('team')))})" for s in race.lobby.get("seats", []))
    base = Timeline(race.id, race.version, game, title_of(race), race.status, players=names)
    if race.envelope is None:
        return base
    rules, words = game.rules, game.narration
    starts: dict[int, tuple[Any, str]] = {}
    kept: dict[int, tuple[str, ...]] = {}  # the lines of turns over before ``previous``'s last: they stay
    if previous is not None and _goes_on(race, previous):
        state, chain, turn_of = previous.state, previous.chain, list(previous.turn_of_action)
        starts = {t.number: (t.state, t.key) for t in previous.turns}
        kept = {t.number: t.lines for t in previous.turns[:-1]}
        actions = [game.vocabulary.from_text(a.text) for a in race.actions[len(previous.texts) :]]
        stored = race.actions[len(previous.texts) :]
    else:
        record = record_of(race, game)
        state = game.rules.build(record.envelope())
        chain, turn_of = _chained("", str(race.id)), []
        starts = {rules.turn(state): (state, chain)}
        actions, stored = list(record.actions), race.actions
    for action, row in zip(actions, stored, strict=True):
        turn_of.append(rules.turn(state))
        state = rules.apply(state, action)[0]
        chain = _chained(chain, row.text)
        if rules.turn(state) not in starts:
            starts[rules.turn(state)] = (state, chain)
    events = rules.events(state)

    def lines(n: int) -> tuple[str, ...]:
        if n in kept:
            return kept[n]
        return tuple(_plain(x) for x in words.summary(state, [e for e in events if e.turn == n]))

    turns = tuple(Turn(n, lines(n), *starts[n]) for n in sorted(starts))
    decision = rules.pending(state)
    waiting = ""
    if decision is not None:
        waiting = _plain(words.ask(state, decision, seats.name_of(race.lobby, decision.player)))
    finish: tuple[str, ...] = ()
    standings = tuple(_plain(x) for x in words.status(state))
    placed = rules.outcome(state)
    if placed.finished:
        podium = [p for p in placed.placings if p.rank is not None]
        winner, owner = words.piece_name(state, podium[0].piece), seats.name_of(race.lobby, podium[0].player)
        top = [_("{piece} wins for {player}!", piece=winner, player=owner)]
        finish = tuple(top if podium else []) + tuple(_plain(x) for x in words.results(state))
        standings = in_finish_order(standings, [words.piece_name(state, p.piece) for p in placed.placings])
    return Timeline(
        race.id,
        race.version,
        game,
        title_of(race),
        race.status,
        turns,
        state,
        tuple(turn_of),
        names,
        waiting,
        race.deadline if decision is not None and race.status == "running" else None,
        standings,
        finish,
        (decision.piece,) if decision is not None and decision.piece else (),
        tuple(a.text for a in race.actions),
        chain,
        people=tuple((str(s["player"]), seats.shown_name(s)) for s in race.lobby.get("seats", []) if s.get("player")),
    )
