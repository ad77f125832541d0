"""Playing in Hungarian and Czech in simcord tests (issue 27): Discord locales per server and per
person, a whole race played as people do, and scans for English left in what players read.

simcord sends every interaction with ``locale`` and ``guild_locale`` "en-US"; ``locales`` makes it
send each person's client locale and the server's preferred one, as Discord does.
"""

from __future__ import annotations

import ast
import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from typing import Any

import pytest

from bot.service.common import choice_key
from rules.i18n import translator
from rules.registry import find_game
from tests.support.discord_play import answer, components, member_of

ROOT = Path(__file__).resolve().parents[2]
AREA = ("bot/service", "bot/leagues", "bot/discord_layer")  # the words this suite answers for
PLACEHOLDER = re.compile(r"\{\w*\}")
# common English words (issue 27's list and the bot's own): whole words, any case
ENGLISH = frozenset(
    [
        "the",
        "and",
        "your",
        "you",
        "is",
        "are",
        "with",
        "of",
        "to",
        "turn",
        "turns",
        "rider",
        "riders",
        "energy",
        "race",
        "races",
        "decision",
        "decisions",
        "choose",
        "choice",
        "choices",
        "join",
        "joins",
        "lobby",
        "host",
        "start",
        "starts",
        "finish",
        "wins",
        "podium",
        "thanks",
        "racing",
        "reminder",
        "due",
        "player",
        "players",
        "seat",
        "seats",
        "away",
        "back",
        "welcome",
        "alliance",
        "league",
        "stage",
        "stages",
        "page",
        "record",
        "nothing",
        "everyone",
        "only",
        "now",
        "not",
        "yet",
        "already",
        "here",
        "this",
        "that",
        "what",
        "when",
        "which",
        "will",
        "has",
        "have",
        "was",
        "were",
        "been",
        "please",
    ]
)


def locales(monkeypatch: pytest.MonkeyPatch, people: dict[int, str]) -> None:
    """Interactions carry each person's client locale (``people``: user id -> Discord locale; others
    en-US) and their server's preferred locale, as Discord sends them."""
    import simcord.interactions as interactions

    original = interactions.base_payload

    def localised(backend: Any, **kwargs: Any) -> tuple[Any, dict[str, Any]]:
        record, payload = original(backend, **kwargs)
        payload["locale"] = people.get(kwargs["user_id"], "en-US")
        if kwargs.get("guild_id") is not None:
            payload["guild_locale"] = backend.get_guild(kwargs["guild_id"]).preferred_locale
        return record, payload

    monkeypatch.setattr(interactions, "base_payload", localised)


# ---------------------------------------------------------------------------------------------- scans


def _strings(path: Path) -> Iterator[str]:
    """Every string a module could show: its literals (an f-string's literal parts too), docstrings and
    the context of ``pgettext`` left out. A string left unwrapped is found as surely as a wrapped one."""
    tree = ast.parse(path.read_text())
    skipped = set()
    for node in ast.walk(tree):
        body = getattr(node, "body", None)
        if isinstance(body, list) and body and isinstance(body[0], ast.Expr):
            skipped.add(id(body[0].value))  # a docstring
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "pgettext" and node.args:
            skipped.add(id(node.args[0]))  # a message's context
    for node in ast.walk(tree):
        if isinstance(node, ast.Constant) and isinstance(node.value, str) and id(node) not in skipped:
            yield node.value


@cache
def english_fragments() -> frozenset[str]:
    """The English pieces (between placeholders) of every string of the bot's service, leagues and
    Discord layer that are long enough to tell (two words or more): none may reach a Hungarian or
    Czech reader."""
    found = set()
    for folder in AREA:
        for path in (ROOT / folder).rglob("*.py"):
            for text in _strings(path):
                for piece in PLACEHOLDER.split(text):
                    piece = piece.strip(" .,:;!?()—-·\n")
                    if len(re.findall(r"[A-Za-z]{2,}", piece)) >= 2 and "://" not in piece:  # a link is no English
                        found.add(piece)
    return frozenset(found)


@cache
def rules_literals() -> tuple[str, ...]:
    """The string literals of rules/ and renderer/: the games' own text. While their catalogs lack it
    (the rules' wrapping is issue 27's other part, another engineer's) the games' words are left to
    the rules' tests; once the catalogs translate the rules' words, nothing is excused."""
    if translator("hu").has("Pass") and translator("cs").has("Pass"):
        return ()
    found = []
    for folder in ("rules", "renderer"):
        for path in (ROOT / folder).rglob("*.py"):
            for node in ast.walk(ast.parse(path.read_text())):
                if isinstance(node, ast.Constant) and isinstance(node.value, str):
                    found.append(node.value)
    return tuple(found)


@cache
def rules_vocabulary() -> frozenset[str]:
    """The words of the games' own text (``rules_literals``), lower case."""
    return frozenset(w.lower() for text in rules_literals() for w in re.findall(r"[A-Za-z]+", text))


@cache
def area_fragments() -> tuple[str, ...]:
    """``english_fragments`` that the games' own text does not say too (while it is untranslated)."""
    games = "\n".join(rules_literals())
    return tuple(f for f in english_fragments() if f not in games)


# mentions, timestamps, links, code, slash commands as typed (their names are localised by Discord:
# "/závod start"), and ids a player types (a track: "first-race")
NOT_WORDS = re.compile(
    r"<[@#]?!?&?\d+>|<t:\d+(:\w)?>|https?://\S+|`[^`]*`|\*\*(?=\*)|/\w+(?: \w+)?|\b[a-z]+(?:[-_][a-z0-9]+)+\b"
)
# English words that are words of Czech or Hungarian too ("to": it, that; "is": also; "lobby": the glossary's)
BORROWED = frozenset({"to", "is", "lobby", "start"})  # "start": Czech too (letmý start)


def english_in(text: str, names: tuple[str, ...] = ()) -> list[str]:
    """The English in ``text`` a Hungarian or Czech reader would meet: a piece of one of the bot's
    English messages, or a common English word (people's names, mentions, links, code and the
    games' own words, while untranslated, excepted)."""
    for name in names:  # a name is no English ("Hell of the North" holds the fragment "of the")
        text = re.sub(re.escape(name), " ", text, flags=re.IGNORECASE)
    said = [f for f in area_fragments() if f in text]
    plain = NOT_WORDS.sub(" ", text)
    excused = rules_vocabulary()
    excused = excused | BORROWED
    said += [w for w in re.findall(r"[A-Za-z]+", plain) if w.lower() in ENGLISH and w.lower() not in excused]
    return said


def texts_of(message: Any) -> list[str]:
    """What a message shows: its text and its components' labels, placeholders and options."""
    out = [message.content or ""]
    for child in components(message):
        out += [getattr(child, "label", None) or "", getattr(child, "placeholder", None) or ""]
        for option in getattr(child, "options", None) or []:
            out += [option.label or "", option.description or ""]
    return [t for t in out if t]


def private_texts(result: Any) -> list[str]:
    """What a person privately read as the answer to their interaction (ephemeral messages only)."""
    shown = [m for m in [result.response, *result.followups] if m is not None and m.ephemeral]
    out: list[str] = []
    for message in shown:
        out.append(message.content or "")
        for row in message.components or []:
            for child in row.get("components", []) if isinstance(row, dict) else getattr(row, "children", []):
                item = child if isinstance(child, dict) else {}
                out += [item.get("label") or "", item.get("placeholder") or ""]
                out += [o.get("label", "") for o in item.get("options", [])]
    return [t for t in out if t]


# ---------------------------------------------------------------------------------------------- a race


@dataclass
class Played:
    """A race played to the finish: what the channel showed, and what each person read privately."""

    public: list[str] = field(default_factory=list)
    private: dict[str, list[str]] = field(default_factory=dict)
    decisions: int = 0


async def play_in(
    env: Any,
    monkeypatch: pytest.MonkeyPatch,
    game_id: str,
    *,
    stage: str | None = None,
    pieces: int = 1,
    ai: bool = False,
    limit: int = 1500,
) -> Played:
    """A race of ``game_id`` to the finish in a server whose Discord language is Hungarian: anna (a
    Hungarian client) hosts and clicks the public prompts, petr (a Czech client) types every decision
    of his with ``/play move`` and asks a few things privately."""
    guild = env.create_guild("Kerékpár", preferred_locale="hu")
    channel = guild.create_text_channel("verseny")
    anna = guild.add_member(env.create_user("anna"))
    petr = guild.add_member(env.create_user("petr"))
    locales(monkeypatch, {anna.id: "hu", petr.id: "cs"})
    played = Played(private={"anna": [], "petr": []})
    members = {"anna": anna, "petr": petr}
    game = find_game(game_id)
    opened = await anna.slash(channel, "race new", game=game_id, pieces=pieces, **({"stage": stage} if stage else {}))
    assert not opened.response.ephemeral
    joined = await petr.slash(channel, "race join")
    played.private["petr"] += private_texts(joined)
    if ai:
        await anna.slash(channel, "race ai")
    await anna.slash(channel, "race start")
    asks = (  # what petr asks privately while the race runs (once it has gone on a little)
        ("race status", {}),
        ("play move", {"choice": "nowhere-at-all"}),
        ("race notify", {}),
        ("race undo", {}),
        ("race log", {}),
    )
    bot = env.bot
    for _ in range(limit):
        race = await bot.storage.active_race(channel.id)
        decision = game.rules.pending(state := await bot.service.core.state_of(race)) if race is not None else None
        if decision is None:
            break
        actor = member_of(members, decision.player)
        offered = game.rules.choices(state, decision.player)
        wanted = game.ai(state, decision.player)
        index = next(i for i, c in enumerate(offered) if c.action == wanted)
        prompt = next((m for m in reversed(channel.history()) if m.components and m.author.bot), None)
        played.decisions += 1
        if played.decisions == 5:
            for command, options in asks:
                played.private["petr"] += private_texts(await petr.slash(channel, command, **options))
        if actor is anna and not offered[index].anytime and prompt is not None and await answer(actor, prompt, index):
            continue
        piece = {"piece": offered[index].piece} if offered[index].piece else {}
        typed = await actor.slash(channel, "play move", choice=choice_key(offered[index]), **piece)
        played.private["anna" if actor is anna else "petr"] += private_texts(typed)
    else:
        raise AssertionError(f"{game_id}: no finish within {limit} decisions")
    played.public = [t for m in channel.history() if m.author.bot and not m.flags.ephemeral for t in texts_of(m)]
    return played


# the people and places of ``play_in``, and the games' titles (names, never translated): not English words
NAMES = ("anna", "petr", "Kerékpár", "verseny", "Leader 1: Hell of the North", "Formula Dé Mini")


def leftovers(texts: list[str]) -> list[tuple[str, list[str]]]:
    """Each text with English in it, and that English."""
    return [(t, found) for t in texts if (found := english_in(t, NAMES))]


def check_hungarian_server_czech_player(played: Played, *, lobby: bool = True) -> None:
    """The channel spoke Hungarian (the lobby, its buttons, the start, the finish), petr's private
    answers Czech (status, refusals, notifications), and neither left any English of the bot's own.
    ``lobby`` False: the lobby message became a draft (Peloton's time trials), its buttons gone."""
    public = "\n".join(played.public)
    if lobby:
        assert "Csatlakozom" in public and "Gépi játékos hozzáadása" in public  # the lobby's buttons
        assert "Csatlakozz a menüvel" in public and "— lobbi (" in public  # and its text
    assert "**Cél**" in public and "Köszönjük a versenyt" in public and "Dobogó: " in public  # the finish
    assert leftovers(played.public) == [], leftovers(played.public)[:5]
    mine = played.private["petr"]
    assert any("mezi tvými volbami není" in t or t.startswith("Teď rozhoduje") for t in mine)  # refused
    assert "Vrátit tah může jen hostitel." in mine and any(t.startswith("Teď: Zmíním tě") for t in mine)
    assert any(t.startswith("**Závod 1 · ") and "kolo" in t for t in mine)  # /race status
    assert leftovers(mine) == [], leftovers(mine)[:5]
