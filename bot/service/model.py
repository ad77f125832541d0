"""What the service hands the Discord layer: outcomes made of effects, posts, prompts and choices as plain values.

Nothing here imports discord: the service stays testable without it, and the Discord
layer turns these into messages, buttons and select menus by the prompt's ``layout``.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from typing import TypeVar

from rules.frozen import built
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
    passive: bool = False  # a pass ("Pass", "No slipstream"): a quiet button, whatever the language
    breaks: str = ""  # the pacts it would break, in words ("breaks no chase with bob"): bot/service/pact_marks.py
    confirm: bool = False  # the second step of a choice that breaks a pact: take it anyway

    @staticmethod
    def of(index: int, choice: Choice) -> ChoiceView:
        target = choice.target
        return built(  # ChoiceView(...) in one step: a prompt offers ~35 choices, a breakaway phase ~50
            ChoiceView,
            {
                "index": index,
                "label": choice.label,
                "detail": choice.detail,
                "piece": choice.piece,
                "target": target,
                "step": choice.step,
                "step_label": choice.step_label,
                "risky": choice.risky,
                "passive": target is None and choice.action.do == "pass",
                "breaks": "",
                "confirm": False,
            },
        )

    @staticmethod
    def marked(view: ChoiceView, breaks: str) -> ChoiceView:
        """``view`` saying which pacts it would break."""
        return replace(view, breaks=breaks)


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
    pact_proposal: int | None = None  # show Accept / Decline for this pact (in the alliance's thread)
    image_alt: str = ""  # the image described for a screen reader (Discord's attachment description)


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


@dataclass(frozen=True)
class Reply:
    """The answer to the person who asked (privately unless ``ephemeral`` is False): a text, a file
    or a board, and choices shown with it (a page of targets, a menu to decide ahead)."""

    text: str
    ephemeral: bool = True
    file: tuple[str, bytes] | None = None
    image: bytes | None = None
    prompt: Prompt | None = None
    prompt_page: int = 0
    image_alt: str = ""  # the board described for a screen reader


@dataclass(frozen=True)
class ShowLobby:
    """The answer is a race's lobby: its text with its buttons and a menu of the colours one can still
    join in. It lives on one message (``message_id``, once known), edited rather than posted again;
    ``line`` tells the change in a few words ("bob joins in blue.") where that message was edited."""

    race_id: int
    text: str
    colours: tuple[str, ...] = ()
    message_id: int | None = None
    line: str = ""
    ephemeral: bool = False


@dataclass(frozen=True)
class Retire:
    """A decision's result in one line: it replaces the answered prompt (or is posted)."""

    line: str


@dataclass(frozen=True)
class Replace:
    """Why the prompt on screen gives way to the one posted next (``/race back``, an absence)."""

    why: str


@dataclass(frozen=True)
class EditLobby:
    """The lobby message shown as it is now (a game's draft), before the posts that tell it."""

    edit: LobbyEdit


@dataclass(frozen=True)
class Publish:
    """A message for the race channel."""

    post: Post


@dataclass(frozen=True)
class Close:
    """The race is over (finished, aborted): the prompt on screen loses its buttons, saying so."""

    why: str


@dataclass(frozen=True)
class OpenThread:
    """A private thread with exactly ``users`` (a team's, or an alliance's: ``alliance_id``)."""

    name: str
    users: tuple[int, ...]
    alliance_id: int | None = None


@dataclass(frozen=True)
class JoinThread:
    """``users`` added to a private thread the bot opened before (a new member of an alliance)."""

    thread_id: int
    users: tuple[int, ...]


@dataclass(frozen=True)
class DirectMessage:
    """A private message to one person."""

    user_id: int
    text: str


@dataclass(frozen=True)
class Answered:
    """An invitation or a pact proposal answered with its button: the clicked message says so (``line``
    added under it) and, once nothing is left to answer there (``closed``), loses its buttons. With
    ``user_id``, only a message that mentions them is edited (one alliance's invitations to several
    people share their buttons: each is its invitee's); a pact proposal is one message, edited anyway."""

    line: str
    user_id: int | None = None
    closed: bool = True


@dataclass(frozen=True)
class Elsewhere:
    """What another race's channel is told (``/race away``, a return)."""

    channel_id: int
    outcome: Outcome


Effect = (
    Reply
    | ShowLobby
    | Retire
    | Replace
    | EditLobby
    | Publish
    | Close
    | OpenThread
    | JoinThread
    | DirectMessage
    | Answered
    | Elsewhere
)
CHANNEL_POSTS = (Replace, Publish, Close)  # what the race channel is told, in order (under its lock)
E = TypeVar(
    "E",
    Reply,
    ShowLobby,
    Retire,
    Replace,
    EditLobby,
    Publish,
    Close,
    OpenThread,
    JoinThread,
    DirectMessage,
    Answered,
    Elsewhere,
)


class Outcome:
    """The answer to one intent: an ordered list of effects (``Effect``) that the Discord layer walks
    in one loop (``bot/discord_layer/posting.py``). Built once and never changed: the methods below
    return a new outcome."""

    __slots__ = ("effects",)

    def __init__(
        self,
        reply: str = "",
        *,
        ephemeral: bool = True,
        file: tuple[str, bytes] | None = None,
        image: bytes | None = None,
        prompt: Prompt | None = None,
        prompt_page: int = 0,
        image_alt: str = "",
        posts: Sequence[Post] = (),
        dms: Sequence[tuple[int, str]] = (),
        closed: str | None = None,
        elsewhere: Sequence[tuple[int, Outcome]] = (),
        effects: Sequence[Effect] = (),
    ) -> None:
        made: list[Effect] = []
        if reply or file is not None or image is not None or prompt is not None:
            made.append(Reply(reply, ephemeral, file, image, prompt, prompt_page, image_alt))
        made += [Publish(p) for p in posts]
        if closed is not None:
            made.append(Close(closed))
        made += [DirectMessage(u, t) for u, t in dms]
        made += [Elsewhere(c, o) for c, o in elsewhere]
        self.effects: tuple[Effect, ...] = (*made, *effects)

    @staticmethod
    def of(*effects: Effect) -> Outcome:
        return Outcome(effects=effects)

    def __repr__(self) -> str:
        return f"Outcome{self.effects!r}"

    # ------------------------------------------------------------------ building (a new outcome each)

    def then(self, *effects: Effect) -> Outcome:
        """This outcome, then ``effects``."""
        return Outcome.of(*self.effects, *effects)

    def first(self, *effects: Effect) -> Outcome:
        """``effects``, then this outcome."""
        return Outcome.of(*effects, *self.effects)

    def first_in_channel(self, *effects: Effect) -> Outcome:
        """``effects`` before the first thing the channel is shown (after the answer to the person)."""
        at = next((i for i, e in enumerate(self.effects) if isinstance(e, CHANNEL_POSTS)), len(self.effects))
        return Outcome.of(*self.effects[:at], *effects, *self.effects[at:])

    def answered(self, text: str) -> Outcome:
        """The answer to the person is ``text`` (added first when there was none)."""
        if not any(isinstance(e, Reply) for e in self.effects):
            return self.first(Reply(text))
        return Outcome.of(*(replace(e, text=text) if isinstance(e, Reply) else e for e in self.effects))

    # ------------------------------------------------------------------ reading

    def _all(self, kind: type[E]) -> list[E]:
        return [e for e in self.effects if isinstance(e, kind)]

    @property
    def reply(self) -> str:
        answers = self._all(Reply)
        if answers:
            return answers[0].text
        lobby = self.lobby
        return lobby.text if lobby is not None else ""

    @property
    def ephemeral(self) -> bool:
        answers = self._all(Reply)
        lobby = self.lobby
        return answers[0].ephemeral if answers else (lobby.ephemeral if lobby is not None else True)

    @property
    def file(self) -> tuple[str, bytes] | None:
        return next((e.file for e in self._all(Reply) if e.file is not None), None)

    @property
    def image(self) -> bytes | None:
        return next((e.image for e in self._all(Reply) if e.image is not None), None)

    @property
    def prompt(self) -> Prompt | None:
        return next((e.prompt for e in self._all(Reply) if e.prompt is not None), None)

    @property
    def lobby(self) -> ShowLobby | None:
        return next(iter(self._all(ShowLobby)), None)

    @property
    def lobby_race(self) -> int | None:
        return self.lobby.race_id if self.lobby is not None else None

    @property
    def lobby_edit(self) -> LobbyEdit | None:
        return next((e.edit for e in self._all(EditLobby)), None)

    @property
    def posts(self) -> list[Post]:
        return [e.post for e in self._all(Publish)]

    @property
    def dms(self) -> list[tuple[int, str]]:
        return [(e.user_id, e.text) for e in self._all(DirectMessage)]

    @property
    def threads(self) -> list[tuple[str, list[int]]]:
        return [(e.name, list(e.users)) for e in self._all(OpenThread)]

    @property
    def retire(self) -> str | None:
        return next((e.line for e in self._all(Retire)), None)

    @property
    def replaced(self) -> str | None:
        return next((e.why for e in self._all(Replace)), None)

    @property
    def closed(self) -> str | None:
        return next((e.why for e in self._all(Close)), None)

    @property
    def elsewhere(self) -> list[tuple[int, Outcome]]:
        return [(e.channel_id, e.outcome) for e in self._all(Elsewhere)]
