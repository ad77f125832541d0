"""What the service hands the Discord layer: posts, prompts and choices as plain values.

Nothing here imports discord: the service stays testable without it, and the bot turns
these into messages, buttons and select menus.
"""

from __future__ import annotations

from dataclasses import dataclass, field


@dataclass(frozen=True)
class ChoiceView:
    """One legal choice: ``index`` in ``legal_actions`` at the prompt's version."""

    index: int
    kind: str  # ride, breakaway, drop, pass, pursue
    label: str
    description: str = ""
    rider: str | None = None
    risky: bool = False
    to: str | None = None  # the square a move ends on (menus, autocomplete)


@dataclass(frozen=True)
class Prompt:
    race_id: int
    version: int
    player: str
    user_id: int | None
    kind: str  # ride, breakaway, pursuit
    rider: str | None
    choices: tuple[ChoiceView, ...]


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
class Outcome:
    """The answer to one intent: a reply to the person, posts for the channel, private messages."""

    reply: str
    ephemeral: bool = True
    posts: list[Post] = field(default_factory=list)
    dms: list[tuple[int, str]] = field(default_factory=list)
    file: tuple[str, bytes] | None = None
    image: bytes | None = None
    prompt: Prompt | None = None  # choices shown privately with the reply (a page of squares)
    prompt_page: int = 0
    lobby_race: int | None = None  # the reply is a lobby: show its buttons
    lobby_colours: tuple[str, ...] = ()  # and a menu of the colours one can still join in
    threads: list[tuple[str, list[int]]] = field(default_factory=list)  # private threads to open: name, members
    alliance_thread: int | None = None  # the alliance whose thread ``threads`` opens
