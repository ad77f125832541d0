"""What the service hands the Discord layer: posts, prompts and choices as plain values.

Nothing here imports discord: the service stays testable without it, and the Discord
layer turns these into messages, buttons and select menus by the prompt's ``layout``.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from rules.game import Choice, Layout


@dataclass(frozen=True)
class ChoiceView:
    """One legal choice as offered: ``index`` in the game's choices at the prompt's version."""

    index: int
    label: str
    detail: str = ""
    piece: str | None = None
    target: str | None = None
    step: str | None = None
    step_label: str = ""
    risky: bool = False

    @staticmethod
    def of(index: int, choice: Choice) -> ChoiceView:
        return ChoiceView(
            index,
            choice.label,
            choice.detail,
            choice.piece,
            choice.target,
            choice.step,
            choice.step_label,
            choice.risky,
        )


@dataclass(frozen=True)
class Prompt:
    """A decision offered to one player: buttons, a menu of targets, or two steps (``layout``).

    ``step`` is set when the prompt shows the second step of a two-step choice.
    """

    race_id: int
    version: int
    player: str
    user_id: int | None
    layout: Layout
    piece: str | None
    choices: tuple[ChoiceView, ...]
    step: int | None = None
    ahead: bool = False  # choices of a decision not yet due, to decide ahead (``/race ahead``)

    def steps(self) -> list[tuple[str, str]]:
        """The first step of a two-step prompt: (group key, its button label), in order."""
        seen: dict[str, str] = {}
        for c in self.choices:
            if c.step is not None and c.step not in seen:
                seen[c.step] = c.step_label or c.step
        return list(seen.items())

    def direct(self) -> tuple[ChoiceView, ...]:
        """Choices taken with one click (not behind a first step)."""
        return tuple(c for c in self.choices if c.step is None)


@dataclass
class Post:
    """A message for the race channel."""

    text: str
    image: bytes | None = None
    image_name: str = "board.png"
    prompt: Prompt | None = None
    mentions: list[int] = field(default_factory=list)
    file: tuple[str, bytes] | None = None
    alliance_proposal: int | None = None  # show Accept / Decline for this proposal


@dataclass
class LobbyEdit:
    """The lobby message shown as it is now (a game's lobby draft: Peloton's time-trial cards):
    its text and, while a pick is owed, the pick's prompt as a menu on it. ``message_id`` None:
    no lobby message is known (a league stage opens without one), so it is posted and remembered."""

    race_id: int
    message_id: int | None
    text: str
    prompt: Prompt | None = None
    placeholder: str = "Choose"


@dataclass
class Outcome:
    """The answer to one intent: a reply to the person, posts for the channel, private messages."""

    reply: str
    ephemeral: bool = True
    posts: list[Post] = field(default_factory=list)
    dms: list[tuple[int, str]] = field(default_factory=list)
    file: tuple[str, bytes] | None = None
    image: bytes | None = None
    prompt: Prompt | None = None  # choices shown privately with the reply (a page of targets)
    prompt_page: int = 0
    lobby_race: int | None = None  # the reply is a lobby: show its buttons
    lobby_colours: tuple[str, ...] = ()  # and a menu of the colours one can still join in
    lobby_message: int | None = None  # the lobby's message (known once posted): edited, never posted again
    lobby_line: str = ""  # what a typed lobby command says once that message is edited ("bob joins in blue.")
    threads: list[tuple[str, list[int]]] = field(default_factory=list)  # private threads to open: name, members
    alliance_thread: int | None = None  # the alliance whose thread ``threads`` opens
    retire: str | None = None  # the decision's result in one line: replaces the answered prompt, or is posted
    replaced: str | None = None  # why the prompt on screen gives way to the one posted now (/race back)
    closed: str | None = None  # the race is over (finished, aborted): the prompt on screen loses its buttons, saying so
    lobby_edit: LobbyEdit | None = None  # the lobby message to edit first (the draft after a pick)
    elsewhere: list[tuple[int, Outcome]] = field(default_factory=list)  # (channel, what it is told): other races
