"""Issue 24, item 5: what a button, a menu option or a menu's placeholder says names pieces and
people as players know them, never by internal id ("Break away: yellow-rouleur", "collision check
with green-1, green-2").

The no-internals scan of ``tests/test_conversation.py`` reads the channel's text; this one plays
a race of every game in Discord (simcord) and reads every component the bot shows: the lobby's,
each prompt's, the draft's and the private menus behind a prompt's first step (each opened), and
the list ``/play move`` offers as the player types."""

from __future__ import annotations

from typing import Any

import discord
import pytest

from bot.discord_layer.app import DomestiqueBot
from bot.service.common import choice_key
from rules.registry import find_game, game_ids
from tests.support.discord_play import answer, components, last_prompt, member_of, state_now, world
from tests.test_conversation import ID_LIKE

STAGES = {"peloton": "itt-25"}  # a time trial: its start is a draft of cards on the lobby message
DECISIONS = 400


def component_texts(item: Any) -> list[str]:
    """What a player reads on one component: a button's label; a menu's placeholder, its options'
    labels and descriptions (a component of a live message, or one of an interaction's reply)."""
    if isinstance(item, dict):  # a reply's components, as the API sent them
        if item.get("type") == 1:
            return [t for child in item.get("components", []) for t in component_texts(child)]
        options = item.get("options") or []
        found = [item.get("label"), item.get("placeholder")]
        found += [o.get(k) for o in options for k in ("label", "description")]
        return [t for t in found if t]
    if isinstance(item, discord.SelectMenu):
        found = [item.placeholder, *(o.label for o in item.options), *(o.description for o in item.options)]
        return [t for t in found if t]
    label = getattr(item, "label", None)
    return [label] if label else []


def shown(channel: Any) -> list[str]:
    """Every component text of every message the bot has in the channel, private ones included."""
    return [t for m in channel.history() if m.author.bot for item in components(m) for t in component_texts(item)]


def leaks(texts: set[str]) -> list[str]:
    return sorted({found for text in texts for found in ID_LIKE.findall(text)})


async def open_step_menus(actor: Any, prompt: Any) -> list[Any]:
    """Click each first step of a two-step prompt: the private menus of targets it opens."""
    opened = []
    for child in components(prompt):
        if (getattr(child, "custom_id", "") or "").startswith("dq:r:"):
            clicked = await actor.click(prompt, custom_id=child.custom_id)
            opened.append(clicked.followups[-1] if clicked.followups else clicked.response)
    return opened


async def pick_in(actor: Any, menus: list[Any], index: int) -> bool:
    """Pick choice ``index`` in one of the private menus opened by a first step."""
    for private in menus:
        for row in private.components:
            for item in row.get("components", []):
                if str(index) in [o.get("value") for o in item.get("options") or []]:
                    await actor.select(private, [str(index)], custom_id=item["custom_id"])
                    return True
    return False


async def play_as_the_ai_would(simcord_env: Any, game_id: str) -> tuple[int, set[str]]:
    """Alice and Bob race ``game_id`` in Discord, each decision the AI's, every first step opened
    on the way; how many decisions they made, and the component texts seen (to the finish, or
    ``DECISIONS`` decisions)."""
    game = find_game(game_id)
    _, channel, members = world(simcord_env, "alice", "bob")
    stage = STAGES.get(game_id, game.tracks.default)
    await members["alice"].slash(channel, "race new", game=game_id, stage=stage, pieces=2)
    await members["bob"].slash(channel, "race join", colour=game.colours[1])
    await members["alice"].slash(channel, "race ai")
    texts = set(shown(channel))  # the lobby
    await members["alice"].slash(channel, "race start")
    bot: DomestiqueBot = simcord_env.bot
    made = 0
    while made < DECISIONS:
        race = await bot.storage.active_race(channel.id)
        if race is None:
            break
        made += 1
        state = await state_now(bot, channel)
        decision = game.rules.pending(state)
        offered = game.rules.choices(state, decision.player)
        actor = member_of(members, decision.player)
        wanted = game.ai(state, decision.player)
        index = next(i for i, c in enumerate(offered) if c.action == wanted)
        texts.update(shown(channel))
        typed = await actor.autocomplete(channel, "play move", "choice", "")  # what /play move lists
        texts.update(c["name"] for c in typed)
        if offered[index].anytime:  # eating a kept tile is typed
            await actor.slash(channel, "play move", choice=choice_key(offered[index]))
            continue
        prompt = _prompt_of(channel, race.id, race.version)
        assert prompt is not None, f"no prompt for version {race.version}"
        opened = await open_step_menus(actor, prompt)
        texts.update(t for private in opened for row in private.components for t in component_texts(row))
        if not (await answer(actor, prompt, index) or await pick_in(actor, opened, index)):
            await actor.slash(channel, "play move", choice=choice_key(offered[index]))
    return made, texts | set(shown(channel))


def _prompt_of(channel: Any, race_id: int, version: int) -> Any:
    """The message whose components answer the race at ``version`` (a prompt, or the draft)."""
    marks = tuple(f"dq:{kind}:{race_id}:{version}:" for kind in ("c", "s", "r"))
    for message in reversed(channel.history()):
        ids = [getattr(c, "custom_id", "") or "" for c in components(message)]
        if message.author.bot and any(i.startswith(marks) for i in ids):
            return message
    return last_prompt(channel)


@pytest.mark.parametrize("game_id", sorted(game_ids()))
async def test_components_name_pieces_as_players_know_them(simcord_env, game_id: str) -> None:
    made, texts = await play_as_the_ai_would(simcord_env, game_id)
    assert made > 20 and len(texts) > 50, (made, texts)  # the scan read a race's components, not nothing
    found = leaks(texts)
    assert not found, f"{game_id}: internal ids or action syntax on buttons and menus: {found[:10]}"
