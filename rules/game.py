"""The game contract: what every rule system provides to the bot, the tools and the tests.

A game is one ``Game`` value (see ``rules/registry.py`` for how it is found). Its rules
are pure functions of an immutable state; everything a player reads about a decision
(the question, each choice's label and consequences, what happened) comes from the game
too, so the bot and the command line never name a game or one of its words.

The order a contributor fills this in is ``docs/adding-a-game.md``.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import Field, dataclass, field, replace
from typing import ClassVar, Generic, Literal, NotRequired, Protocol, TypedDict, TypeVar

from rules.action import Action, Vocabulary
from rules.decision import Decision as Decision  # the contract names it; below rules.pacts too
from rules.decision import Layout as Layout
from rules.events import Event
from rules.i18n import _, current
from rules.memo import by_state_identity
from rules.pacts import Pacts
from rules.race_table import NumbersOf
from rules.rng import Dice
from rules.since import shared_line
from rules.versions import VersionTable, single

S = TypeVar("S")  # each game's own frozen state type; the contract never looks inside it
S_contra = TypeVar("S_contra", contravariant=True)

PlayerRecord = dict[str, object]
"""One player of a record (docs/record-format.md): ``id``, ``name``, the game's own fields."""


class Envelope(TypedDict):
    """What a game builds a race from: a record less its actions (docs/record-format.md), as read,
    each part still to be checked by the game."""

    game: str
    options: Mapping[str, object]
    track: object
    players: object
    seed: int
    dice: Mapping[str, object]
    start: Mapping[str, object] | None
    rules: NotRequired[str | None]  # the rules version (rules/versions.py); absent or None: before versions


@dataclass(frozen=True)
class Choice:
    """One legal choice and what a player needs to read about it.

    ``label`` fits a button or a menu option (80 characters), ``detail`` spells out the
    consequences (cost, risks) in words (100 characters). ``target`` is the square a move
    ends on, ``short`` the name the board writes on it. ``step`` groups choices for a
    two-step layout (its label in ``step_label``). ``anytime`` choices (eating a kept tile)
    may be made out of turn and are not offered on the prompt. ``shows`` is what the game's
    painter needs to draw the choice; it takes no part in comparing choices.
    """

    action: Action
    label: str
    detail: str = ""
    piece: str | None = None
    target: str | None = None
    short: str = ""
    step: str | None = None
    step_label: str = ""
    risky: bool = False
    anytime: bool = False
    # what the board draws for this choice, as the rules computed it (a ride's path, its cost): the
    # game's own value, handed to its painter so that drawing never runs the rules again
    shows: object = field(default=None, compare=False, repr=False)


@dataclass(frozen=True)
class Placing:
    """One piece in the outcome: ``rank`` from 1 (None: did not finish), and its result in words."""

    piece: str
    player: str
    rank: int | None
    result: str = ""
    eliminated: bool = False


@dataclass(frozen=True)
class Outcome:
    """Finished or not; the finishing order (then the pieces out of the race)."""

    finished: bool
    placings: tuple[Placing, ...] = ()

    @property
    def winner(self) -> Placing | None:
        return next((p for p in self.placings if p.rank == 1), None)


@dataclass(frozen=True)
class PieceCount:
    """How many pieces (riders, cars) each player may bring."""

    minimum: int
    maximum: int
    default: int


@dataclass(frozen=True)
class Seat:
    """A lobby seat as the game sees it: who, their colour, the kinds of pieces they bring."""

    player: str
    name: str
    colour: str
    kinds: tuple[str, ...]
    options: Mapping[str, str] = field(default_factory=dict)  # per-seat choices (Leader 1's qualities)
    carry: Mapping[str, int] = field(default_factory=dict)  # resources carried from a league's last stage
    ai: bool = False


@dataclass(frozen=True)
class SeatOption:
    """A choice each player may make in the lobby (Leader 1: which rider is the sprinter)."""

    name: str
    about: str
    values: Callable[[Seat], Sequence[str]]
    label: Callable[[], str] | None = None  # its name as players read it, in the language of the moment
    value_label: Callable[[str], str] | None = None  # a value (a rider type's id) as players read it

    def shown_name(self) -> str:
        return self.label() if self.label is not None else self.name

    def shown_value(self, value: str) -> str:
        return self.value_label(value) if self.value_label is not None else value


@dataclass(frozen=True)
class RaceOption:
    """A rule option of the whole race the host chooses in the lobby (Hell of the North: how many
    weather markers; Peloton: the starting order); ``value`` turns what was typed into the record's
    option, or raises ValueError with the reason shown to the host. ``default``, when given, is what a
    new race writes into its record when the host chooses nothing (Peloton's ``drawn``, while a record
    without the option keeps its old meaning); None writes nothing."""

    name: str
    about: str
    values: tuple[str, ...]
    value: Callable[[str], object]
    usual: str | None = field(default=None, kw_only=True)  # what a record without it means, shown till chosen
    default: str | None = None
    label: str = ""  # its name as players read it (N_ marked); the id ``name`` is what is typed and stored
    labels: tuple[tuple[str, str], ...] = ()  # (value, its words as players read them, N_ marked)

    def shown_name(self) -> str:
        """The option's name in the language of the moment."""
        return _(self.label) if self.label else self.name

    def shown_value(self, value: str) -> str:
        """A value as players read it in the language of the moment (a number as it is)."""
        words = dict(self.labels).get(value)
        return _(words) if words else value


@dataclass(frozen=True)
class TrackCatalog:
    """The shipped stages or circuits, and the names a race may be opened with."""

    names: Callable[[], list[str]]
    default: str
    suggestions: Callable[[], list[str]]  # what autocomplete offers (shipped names, ``random-10`` ...)
    resolve: Callable[[str, int], str]  # (what a player typed, a fresh seed) -> the record's track name; ValueError
    hexagons: Callable[[str], int] = lambda name: 10  # a measure of length, for league timers


@dataclass(frozen=True)
class Standing:
    """One piece in a league's general classification. Higher ``score`` is better."""

    piece: str
    player: str
    score: int
    resources: Mapping[str, int] = field(default_factory=dict)
    eliminated: bool = False


@dataclass(frozen=True)
class LeagueSetting:
    """A number an organiser may set for a whole league (Leader 1: the GC ring's squares)."""

    name: str
    about: str
    default: int
    minimum: int
    maximum: int


class LeagueScoring(Protocol[S_contra]):
    """How a game's stages add up over a league."""

    @property
    def settings(self) -> tuple[LeagueSetting, ...]: ...

    def stage_options(self, values: Mapping[str, int]) -> dict[str, object]:
        """The record options of a league stage, from the league's settings."""
        ...

    def classify(
        self, previous: tuple[Standing, ...], final: S_contra, options: Mapping[str, int]
    ) -> tuple[tuple[Standing, ...], list[str]]:
        """The general classification after a finished stage, leader first, and the stage's result in lines."""
        ...

    def next_seat(self, seat: Seat, standings: Mapping[str, Standing]) -> Seat | None:
        """The seat for the next stage (pieces still in, resources carried), or None when all are out."""
        ...

    def standing_text(self, rank: int, standing: Standing, leader: Standing) -> str:
        """One line of the general classification (after ``rank.`` and the piece's name)."""
        ...


class BoardPainter(Protocol[S_contra]):
    """Draws a state as PNG bytes: the game's renderer, registered beside it (``renderer/registry.py``).

    ``highlight`` are the choices to mark on the board (with their ``short`` names),
    ``acting`` the pieces to act now, ``legend`` extra lines (alliances).
    """

    def __call__(
        self,
        state: S_contra,
        *,
        highlight: Sequence[Choice],
        acting: Sequence[str],
        title: str,
        legend: Sequence[str],
    ) -> bytes: ...


@dataclass(frozen=True)
class Rules(Generic[S]):
    """The pure rules: from a record's envelope to a state, then decisions, choices and outcomes."""

    build: Callable[[Envelope], S]  # record envelope -> state at its first decision
    pending: Callable[[S], Decision | None]
    choices: Callable[[S, str], list[Choice]]  # every legal choice of a player now (anytime ones too)
    apply: Callable[[S, Action], tuple[S, list[Event]]]
    outcome: Callable[[S], Outcome]
    public_view: Callable[[S], dict[str, object]]  # the replay output: nothing hidden
    turn: Callable[[S], int]
    events: Callable[[S], tuple[Event, ...]]
    rolled: Callable[[S], dict[str, list[int | str]]]  # every roll so far, by die (a running race's export)
    # snapshots store a state without its fixed facts (the track): ``detach`` drops them,
    # ``attach(saved, start)`` puts back those of ``start``, the race rebuilt from its record
    detach: Callable[[S], S] = lambda state: state
    attach: Callable[[S, S], S] = lambda saved, start: saved


class SetupState(Protocol):
    """A state with a turn, its events, its dice and a fixed ``setup`` (a frozen dataclass)."""

    __dataclass_fields__: ClassVar[dict[str, Field[object]]]

    @property
    def turn(self) -> int: ...

    @property
    def events(self) -> tuple[Event, ...]: ...

    @property
    def dice(self) -> Dice: ...

    @property
    def setup(self) -> object: ...


SS = TypeVar("SS", bound=SetupState)


def rules_for_setup_states(
    build: Callable[[Envelope], SS],
    pending: Callable[[SS], Decision | None],
    choices: Callable[[SS, str], list[Choice]],
    apply: Callable[[SS, Action], tuple[SS, list[Event]]],
    outcome: Callable[[SS], Outcome],
    public_view: Callable[[SS], dict[str, object]],
) -> Rules[SS]:
    """``Rules`` for a state with ``turn``, ``events``, ``dice`` and a fixed ``setup`` (kept out of snapshots)."""

    # asked several times per decision (the prompt, the board's highlight, the chosen label); a
    # choice's label is in the language of the moment, so it is remembered per language
    def in_language(state: SS, player: str, language: str) -> list[Choice]:
        return choices(state, player)

    remembered = by_state_identity(in_language)
    return Rules(
        build=build,
        pending=pending,
        choices=lambda state, player: remembered(state, player, current()),
        apply=apply,
        outcome=outcome,
        public_view=public_view,
        turn=lambda state: int(state.turn),
        events=lambda state: tuple(state.events),
        rolled=lambda state: state.dice.rolled(),
        detach=lambda state: replace(state, setup=None),
        attach=lambda saved, start: replace(saved, setup=start.setup),
    )


@dataclass(frozen=True)
class Narration(Generic[S]):
    """Everything a player reads, in words: pieces and players by name, never ids or action syntax."""

    ask: Callable[[S, Decision, str], str]  # (state, decision, who) -> the prompt's question
    summary: Callable[[S, list[Event]], list[str]]  # one turn's events, in short phrases
    announce: Callable[[S, list[Event]], list[str]]  # what is told at once, even mid-turn
    status: Callable[[S], list[str]]  # every piece: where, how it stands
    results: Callable[[S], list[str]]  # the finish, first to last
    # a piece as players know it; with ``state`` None (a league table), from its id alone
    piece_name: Callable[[S | None, str], str]
    help: str  # a few short paragraphs: how to play, and the board's legend
    # what happened since a player last decided, in one line (the prompt's first words): (events
    # since, a piece's name) -> text; by default from the event words the shipped games share
    since: Callable[[Sequence[Event], Callable[[str], str]], str] = shared_line


@dataclass(frozen=True)
class Secrets(Generic[S]):
    """The one hook for hidden information (face-down tiles): what each player may see."""

    hand: Callable[[S, str], list[str]]  # a player's own view of their hidden things (private)
    news: Callable[[S, S, list[Event]], list[tuple[str, str]]]  # (player, private text) after a change
    hides_from: Callable[[S, str | None], bool]  # would a full record show ``viewer`` others' secrets?


def nothing_hidden() -> Secrets[S]:
    return Secrets(hand=lambda state, player: [], news=lambda before, after, events: [], hides_from=lambda s, v: False)


def same_choice(before: Choice, now: Choice) -> bool:
    """Does a choice made ahead still mean the same thing now? The default: the same action and the
    same spelled-out consequences (``detail``: cost, risks)."""
    return before.action == now.action and before.detail == now.detail


@dataclass(frozen=True)
class OrderKind(Generic[S]):
    """A standing order a player may give a piece for routine decisions ("stay in the peloton").

    ``decides(state, decision, choices, orders)`` is the choice the order makes for the pending
    ``decision`` (the player's orders of this kind: (piece, number) pairs), or None when it does
    not settle it (the player is asked as usual). ``number`` names what a number means, if any.
    A decision the player makes themselves, of a kind in ``settles``, for the piece, cancels it;
    a ``plan`` (an order that may leave a decision to its player: "braking at most N LP") is
    cancelled only by a decision it would have made otherwise, not by the player's answer to one it
    left them (nor by one given as it would have, when the plan came while that decision was asked).
    """

    name: str
    label: str
    decides: Callable[[S, Decision, Sequence[Choice], Sequence[tuple[str, int | None]]], Choice | None]
    number: str = ""
    settles: tuple[str, ...] = ()  # the decision kinds it speaks to: a manual one of these cancels it (empty: any)
    plan: bool = False  # answering a decision it left to the player keeps it


@dataclass(frozen=True)
class Moment(Generic[S]):
    """A moment a player may name to end a standing order ("the last N hexagons").

    ``reached(state, piece, number)`` is true once ``piece`` is there.
    """

    name: str
    label: str
    reached: Callable[[S, str, int | None], bool]
    number: str = ""


@dataclass(frozen=True)
class PaceHooks(Generic[S]):
    """How a game helps a weekly stage keep its pace (docs/pace.md).

    ``ahead(state, player)`` is the player's next decision and its choices as they stand now,
    when it is not theirs yet (None: nothing to decide ahead); ``same`` says whether a choice
    made ahead still means the same thing; ``orders`` and ``moments`` are the standing orders
    and the moments that end them.
    """

    ahead: Callable[[S, str], tuple[Decision, list[Choice]] | None] = lambda state, player: None
    same: Callable[[Choice, Choice], bool] = same_choice
    orders: tuple[OrderKind[S], ...] = ()
    moments: tuple[Moment[S], ...] = ()
    pieces: Callable[[S, str], list[str]] = lambda state, player: []  # a player's pieces still racing


@dataclass(frozen=True)
class LobbyDraft(Generic[S]):
    """Decisions made on the lobby message once the host closes the seating, before the first board
    (Peloton's time-trial cards, taken in the starting order). They stay ordinary decisions of the
    record (actions in it); only the bot shows them differently: the lobby message becomes the draft,
    with the pick's menu on it, edited in place after each pick.

    ``drafting(state)`` is true while the pending decision is one of them; ``lines(state, name)``
    is the draft in words (the order, what each took, what is left), ``name(player)`` naming a
    player as the channel knows them.
    """

    drafting: Callable[[S], bool]
    lines: Callable[[S, Callable[[str], str]], list[str]]


@dataclass(frozen=True)
class Sample:
    """A seeded race the tools play among AI players, with no person: a benchmark's workload, a docs
    picture. ``stage`` None is the game's default course; ``seats`` and ``start`` set a position by
    hand (a record's players and its ``start``, docs/record-format.md) instead of playing to it."""

    label: str
    stage: str | None = None
    players: int = 4
    seed: int = 3
    seats: tuple[Mapping[str, object], ...] = ()
    start: Mapping[str, object] | None = None


@dataclass(frozen=True)
class Picture:
    """A board the README and docs show, drawn by ``domestique render --readme-images`` from a sample:
    at its ``start``, its ``finish``, as a ``recap`` (an animated GIF), or in the ``middle`` (the first
    moment from ``at`` to ``at + span`` of the race with the most squares on offer)."""

    file: str
    sample: Sample
    moment: Literal["start", "middle", "finish", "recap"] = "middle"
    at: float = 0.4
    span: float = 0.15


Habit = tuple[str, int | None, str | None, int | None]
"""A standing order a careful player gives: (order, its number, until a moment, the moment's number)."""


@dataclass(frozen=True)
class Showcase:
    """What the tools show of a game when no person plays it, so that the command line names no game:
    the game played when none is named (``featured``), the race the benchmarks time, the docs'
    pictures and sample classification, and the habits of a simulated person in ``bench pace``."""

    featured: bool = False
    bench_boards: Sample | None = None  # ``bench render`` draws its boards at four moments
    bench_races: Sample | None = None  # ``bench engine`` plays it with several seeds
    pictures: tuple[Picture, ...] = ()
    translated: str = ""  # the picture the README also shows in other languages (its file; "": the first)
    standings: tuple[Standing, ...] = ()  # a sample classification, drawn with ``standings_options``
    standings_options: Mapping[str, int] = field(default_factory=dict)
    standings_file: str = "standings.png"
    habits: tuple[Habit, ...] = ()
    pace_pieces: int | None = None  # pieces per person in ``bench pace`` (None: the game's default)


@dataclass(frozen=True)
class TeamResult:
    """An alliance's result in one stage, for a league's team classification: ``score`` (a sum over the
    team's best pieces, lower is better unless ``higher_better``) and the result in words."""

    score: int
    text: str
    higher_better: bool = False


@dataclass(frozen=True)
class Game(Generic[S]):
    """One rule system: the single source of truth the bot, the command line and leagues read."""

    id: str
    title: str
    piece: str  # the noun: rider, car, cyclist
    pieces_noun: str  # its plural
    colours: tuple[str, ...]
    pieces: PieceCount
    players: tuple[int, int]  # minimum and maximum seats
    vocabulary: Vocabulary
    rules: Rules[S]
    narration: Narration[S]
    tracks: TrackCatalog
    ai: Callable[[S, str], Action]
    seat: Callable[[Sequence[Seat], int, str | None], tuple[str, tuple[str, ...]]]  # (seats, pieces, colour) -> seat
    record_players: Callable[[Sequence[Seat]], list[PlayerRecord]]
    check_lobby: Callable[[Sequence[Seat], int], str | None]  # (seats, pieces each) -> why it cannot start
    secrets: Secrets[S] = field(default_factory=nothing_hidden)
    seat_options: tuple[SeatOption, ...] = ()
    race_options: tuple[RaceOption, ...] = ()  # chosen by the host in the lobby, written in the record's options
    scoring: LeagueScoring[S] | None = None
    cautious_ai: Callable[[S, str], Action] | None = None  # for timeouts: no needless risks
    sample_players: Callable[[int], list[PlayerRecord]] = lambda count: []  # a record's players for sims
    pace: PaceHooks[S] = field(default_factory=PaceHooks)  # decide ahead, standing orders
    draft: LobbyDraft[S] | None = None  # decisions made on the lobby message before the first board
    showcase: Showcase = field(default_factory=Showcase)  # what the tools play and draw of it
    counted: Callable[[int], str] | None = None  # the piece's noun after a number, in each language's plural
    pacts: Pacts[S] = field(default_factory=Pacts)  # the kinds of pact allies may make (docs/alliances.md)
    # a team's result in a finished stage: (final state, the team's players) -> its result (docs/alliances.md)
    team_result: Callable[[S, Sequence[str]], TeamResult] | None = None
    numbers: NumbersOf | None = None  # each piece's numbers for the web page's sortable table (rules/race_table.py)
    versions: VersionTable | None = None  # its rules versions (rules/versions.py); None: one version, never changed
    # what its turns are called: Formula Dé Mini's "rounds" (a lap is a kör / kolo there), Peloton's "moves"
    turns_called: Literal["turn", "round", "move"] = "turn"

    @property
    def rules_versions(self) -> VersionTable:
        """The game's rules versions, oldest first (a game that never changed its rules has one)."""
        return self.versions if self.versions is not None else single(self.id)

    def turn_heading(self, turn: int, what: str) -> str:
        """A turn's heading and what happened in it, in the language of the moment, as the game calls a turn."""
        if self.turns_called == "round":
            return _("**Round {turn}**: {what}", turn=turn, what=what)
        if self.turns_called == "move":
            return _("**Move {turn}**: {what}", turn=turn, what=what)
        return _("**Turn {turn}**: {what}", turn=turn, what=what)

    def piece_word(self, count: int) -> str:
        """The game's piece in words for ``count`` of them ("3 riders"), in the language of the moment and
        its plural for that number (``counted``; else the nouns, marked with ``N_`` where the game names them)."""
        if self.counted is not None:
            return self.counted(count)
        return _(self.piece) if count == 1 else _(self.pieces_noun)

    def pieces_word(self) -> str:
        """The game's pieces in words ("riders"), in the language of the moment."""
        return _(self.pieces_noun)
