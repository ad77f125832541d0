"""Every text a game hands to players, produced in one language from a whole AI race, and a scan of
it for English words (issue 27): the narration of every turn, each pending decision's question and
choices, the decisions asked ahead, status, hands, private news, results, help, the lobby's and the
standing orders' words, the league's lines, and the refusals of illegal moves."""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

from bot.cli.sim import simulate
from rules.action import Action
from rules.errors import DomestiqueError
from rules.events import Event
from rules.game import Game, Seat
from rules.i18n import Language, _, speaking
from rules.record import start_state

# whole English words a Hungarian or Czech player must not read (none of them is a word of either
# language: not "a", "is", "to", "on", "by", "no", "hold", "part", "sprint", "start", "peloton")
ENGLISH = (
    "the and your you with of turn turns rider riders energy square squares free paid cost risk risks pass drop "
    "break away pursue pursuit pursuits feed tile tiles kept row front back behind left needs needed rolled rolls "
    "falls cracks punctures caught line weather wind heat rain race over eliminated out leader climber rouleur "
    "yellow blue green white black orange red none more each into at in for or moves rides takes eats gets "
    "crosses winner stage already another token speed up move who best quality first dark ignored markers "
    "beside route empty number lapped ring hexagon hexagons ahead zone cobbled cobbles sector mountain never when "
    "rival than while one yours must cannot got now legal unknown players teams colours free taken"
)
GAMES = r"Leader 1: Hell of the North|Hell of the North|Leader 1"  # the games' names are names
# in a refusal, the action syntax a player types stays as it is (``pass``, ``part=front``)
SYNTAX = {"pass", "drop", "pursue", "break", "away", "front", "back", "or", "tile"}


def english_words(line: str, allowed: set[str] = frozenset()) -> list[str]:  # type: ignore[assignment]
    """The English words of ``line`` (ids such as ``yellow-rouleur``, quoted input, commands to type in
    backquotes and the games' names left out)."""
    text = re.sub(r"'[^']*'|`[^`]*`|\b[a-z0-9]+(?:-[a-z0-9]+)+\b|\bai\d+\b|" + GAMES, " ", line)
    words = set(ENGLISH.split()) - allowed
    return [w for w in re.findall(r"[^\W\d_]+", text) if w.lower() in words]


@dataclass
class Step:
    before: Any
    after: Any
    events: list[Event]


@dataclass
class Race:
    game: Game
    steps: list[Step] = field(default_factory=list)

    @property
    def final(self) -> Any:
        return self.steps[-1].after


def play(game_id: str, players: int, seed: int, **options: Any) -> Race:
    """A whole race among the game's AI players, every state and its events kept."""
    record, _final = simulate(game_id, players=players, seed=seed, options=options or None)
    game, state = start_state(record)
    race = Race(game)
    for action in record.actions:
        after, events = game.rules.apply(state, action)
        race.steps.append(Step(state, after, events))
        state = after
    return race


def texts(race: Race, language: Language) -> Iterator[tuple[str, str]]:
    """(where, text) for every text of ``race`` a player reads, made in ``language``."""
    game = race.game
    n = game.narration
    with speaking(language):
        players = [p.id for p in race.final.setup.players]
        for i, step in enumerate(race.steps):
            state = step.before
            decision = game.rules.pending(state)
            if decision is not None:
                yield "ask", n.ask(state, decision, "AI 1")
                for c in game.rules.choices(state, decision.player):
                    yield from (("label", c.label), ("detail", c.detail), ("step", c.step_label))
            for player in players:
                ahead = game.pace.ahead(state, player)
                for c in ahead[1] if ahead else []:
                    yield from (("ahead", c.label), ("ahead", c.detail), ("ahead", c.step_label))
            yield from (("summary", line) for line in n.summary(step.after, step.events))
            yield from (("announce", line) for line in n.announce(step.after, step.events))
            yield from (("news", text) for _player, text in game.secrets.news(state, step.after, step.events))
            if i % 7 == 0:
                yield from (("status", line) for line in n.status(state))
                for player in players:
                    yield from (("hand", line) for line in game.secrets.hand(state, player))
        final = race.final
        yield from (("status", line) for line in n.status(final))
        yield from (("results", line) for line in n.results(final))
        yield from (("placing", p.result) for p in game.rules.outcome(final).placings)
        for rider in final.riders:
            yield "piece", n.piece_name(final, rider.id)
            yield "piece", n.piece_name(None, rider.id)
        yield "help", _(n.help)
        yield "title", _(game.title)
        yield from (("lobby", _(o.about)) for o in (*game.seat_options, *game.race_options))
        for order in game.pace.orders:
            yield from (("order", _(order.label)), ("order", _(order.number) if order.number else ""))
        for moment in game.pace.moments:
            yield from (("moment", _(moment.label)), ("moment", _(moment.number) if moment.number else ""))
        yield from league_texts(race)
        yield from lobby_refusals(game)
        yield from (("refusal", text) for text in refusals(race))


def league_texts(race: Race) -> Iterator[tuple[str, str]]:
    scoring = race.game.scoring
    if scoring is None:
        return
    yield from (("league", _(s.about)) for s in scoring.settings)
    values = {s.name: s.default for s in scoring.settings}
    standings, lines = scoring.classify((), race.final, scoring.stage_options(values))
    yield from (("league", line) for line in lines)
    for rank, standing in enumerate(standings, start=1):
        yield "league", race.game.narration.piece_name(None, standing.piece)
        yield "league", scoring.standing_text(rank, standing, standings[0])


def lobby_refusals(game: Game) -> Iterator[tuple[str, str]]:
    """Why a lobby cannot start, why a seat or an option is refused."""
    seats = [Seat(f"p{i}", f"AI {i}", colour, ("rouleur",)) for i, colour in enumerate(game.colours)]
    for count in (1, len(seats)):
        for riders in (1, 2, 3):
            if (why := game.check_lobby(seats[:count], riders)) is not None:
                yield "lobby", why
    for taken, colour in ((seats, None), (seats[:1], "pink"), (seats[:1], seats[0].colour)):
        try:
            game.seat(taken, 3, colour)
        except ValueError as exc:
            yield "lobby", str(exc)
    for option in game.race_options:
        try:
            option.value("many")
        except ValueError as exc:
            yield "lobby", str(exc)
    for stage in ("nowhere", "random-99"):
        try:
            game.tracks.resolve(stage, 1)
        except ValueError as exc:
            yield "lobby", str(exc).replace("$.track: ", "")  # the record's path of the problem


def refusals(race: Race) -> Iterator[str]:
    """The refusal of every kind of illegal move, at the first decision of each kind."""
    game = race.game
    seen: set[str] = set()
    for step in race.steps:
        state = step.before
        decision = game.rules.pending(state)
        if decision is None or decision.kind in seen:
            continue
        seen.add(decision.kind)
        other = next(p.id for p in state.setup.players if p.id != decision.player)
        mine = next(r.id for r in state.riders if r.player == decision.player)
        theirs = next(r.id for r in state.riders if r.player == other)
        tries = [
            Action(other, "pass"),
            Action(decision.player, "pursue" if decision.kind != "pursuit" else "ride", rider=mine, to="1.1"),
            Action(decision.player, "ride", rider=decision.piece or mine, to="1.1"),
            Action(decision.player, "ride", rider=decision.piece or mine, to="999.9"),
            Action(decision.player, "ride", rider=decision.piece or mine),
            Action(decision.player, "ride", rider=theirs, to="1.1"),
            Action(decision.player, "breakaway", rider=mine, to="1.1"),
            Action(decision.player, "breakaway", rider="nobody", to="1.1"),
            Action(decision.player, "drop", rider=mine),
            Action(decision.player, "place", rider=mine, part="front"),
            Action(decision.player, "place", rider=mine, part="middle"),
            Action(decision.player, "eat", rider=mine, tile=9),
            Action("stranger", "pass"),
        ]
        for action in tries:
            try:
                game.rules.apply(state, action)
            except DomestiqueError as exc:
                yield str(exc)
    try:
        game.rules.apply(race.final, Action(race.final.setup.players[0].id, "pass"))
    except DomestiqueError as exc:
        yield str(exc)


def english_lines(race: Race, language: Language) -> list[str]:
    """Each line of ``race`` in ``language`` that still has English words in it, with the words."""
    found = []
    for where, text in texts(race, language):
        for line in text.splitlines():
            if where == "lobby":  # a colour as it is typed, after its name: "sárga (yellow)"
                line = re.sub(r"\([a-z]+\)", "", line)
            words = english_words(line, SYNTAX if where == "refusal" else set())
            if words:
                found.append(f"{where}: {line!r} {sorted(set(words))}")
    return sorted(set(found))


def labels_in_each_language_asked(race: Race) -> tuple[list[str], list[str], list[str]]:
    """A state's choice labels asked in English, then Hungarian, then English again (the rules remember
    a state's choices, ``rules/memo.py``: each answer must be in the language it was asked in)."""
    rules = race.game.rules
    state = next(s.before for s in race.steps if rules.pending(s.before) is not None)
    player = rules.pending(state).player  # type: ignore[union-attr]
    english = [c.label for c in rules.choices(state, player)]
    with speaking("hu"):
        hungarian = [c.label for c in rules.choices(state, player)]
    return english, hungarian, [c.label for c in rules.choices(state, player)]
