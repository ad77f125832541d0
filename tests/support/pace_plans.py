"""Plans in Discord (simcord): give them, read them in ``/race status``, play on as people would
(each prompt answered with what the AI would choose, typed with ``/play move``), and check every
decision a plan made against the plan's own rule, from the record."""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from typing import Any

from bot.discord_layer.app import DomestiqueBot
from bot.service.common import choice_key, record_of
from rules.game import Choice, Game, OrderKind
from rules.record import start_state
from rules.registry import find_game
from tests.support.discord_play import member_of, state_now, world


def reply(result: Any) -> Any:
    return result.response or result.followups[-1]


async def open_two(
    env: Any, game: str, stage: str | None, pieces: int, colour: str, **more: Any
) -> tuple[Any, dict[str, Any]]:
    """Alice and Bob in a started race of ``game`` (Bob in ``colour``): the channel and the members."""
    _, channel, members = world(env, "alice", "bob")
    options = ({"stage": stage} if stage else {}) | more
    await members["alice"].slash(channel, "race new", game=game, pieces=pieces, **options)
    await members["bob"].slash(channel, "race join", colour=colour)
    await members["alice"].slash(channel, "race start")
    return channel, members


async def status(member: Any, channel: Any) -> str:
    return str(reply(await member.slash(channel, "race status")).content)


async def give(member: Any, channel: Any, piece: str, order: str, number: int | None = None) -> str:
    options = {"number": number} if number is not None else {}
    given = await member.slash(channel, "race order", piece=piece, order=order, **options)
    text = str(reply(given).content)
    assert given.ephemeral and text.startswith("Standing order for"), text
    return text


def the_ai_choice(game: Game, state: Any, player: str) -> Choice:
    """What a person answers here: the AI's choice (a prompt's step, never a feed tile eaten)."""
    offered = game.rules.choices(state, player)
    wanted = game.ai(state, player)
    chosen = next(c for c in offered if c.action == wanted)
    if chosen.anytime:
        steps = [c for c in offered if not c.anytime]
        chosen = next((c for c in steps if c.action.do == "pass"), steps[0])
    return chosen


async def answer(env: Any, channel: Any, members: dict[str, Any], choose: Any = None) -> tuple[str, Any] | None:
    """The player asked answers (``choose(state, player)``, else the AI's choice) with ``/play move``:
    the decision's kind and the player, or None once the race is over."""
    bot: DomestiqueBot = env.bot
    race = await bot.storage.active_race(channel.id)
    if race is None:
        return None
    state = await bot.service.core.state_of(race)
    game = find_game(race.game)
    decision = game.rules.pending(state)
    if decision is None:
        return None
    chosen = (choose or (lambda s, p: the_ai_choice(game, s, p)))(state, decision.player)
    done = await member_of(members, decision.player).slash(channel, "play move", choice=choice_key(chosen))
    assert "✔" in reply(done).content, reply(done).content
    return decision.kind, decision.player


@dataclass
class Made:
    """What a race's record says about one player's decisions: those a plan made and those asked."""

    by_plan: list[tuple[int, str]] = field(default_factory=list)  # (action index, decision kind)
    asked: list[tuple[int, str]] = field(default_factory=list)  # (action index, decision kind)
    automatic: int = 0
    planned_automatic: list[int] = field(default_factory=list)  # automatic decisions a plan would have made


async def check_plans(env: Any, channel: Any, player: str, plans: list[tuple[str, str, int | None]]) -> Made:
    """Replay the race: every decision of ``player`` they were not asked and the AI did not make was
    made by a plan (``plans``: (piece, order, number)), and is exactly the choice the first of them
    that speaks to it makes there (in the game's order of orders), never a risky one."""
    bot: DomestiqueBot = env.bot
    race = await bot.storage.active_race(channel.id) or await bot.storage.latest_race(channel.id)
    assert race is not None
    asked = {t.index for t in await bot.storage.pace_times([race.id]) if t.index is not None}
    record = record_of(race)
    game, state = start_state(record.with_actions(()))
    made = Made()
    for index, stored in enumerate(race.actions):
        action = game.vocabulary.from_text(stored.text)
        decision = game.rules.pending(state)
        assert decision is not None
        if action.by == player:
            choices = [c for c in game.rules.choices(state, player) if not c.anytime]
            ruled = [
                kind.decides(
                    state, decision, choices, [(piece, number) for piece, name, number in plans if name == kind.name]
                )
                for kind in game.pace.orders
                if any(name == kind.name for _, name, _ in plans)
            ]
            taken = next((c for c in ruled if c is not None), None)
            if stored.automatic:
                made.automatic += 1
                if taken is not None:
                    made.planned_automatic.append(index)
            elif index in asked:
                made.asked.append((index, decision.kind))
            else:
                assert taken is not None and taken.action == action, (index, stored.text, taken)
                assert not taken.risky and "collision" not in taken.detail, taken
                made.by_plan.append((index, decision.kind))
        state = game.rules.apply(state, action)[0]
    return made


async def restart(env: Any, db_path: str) -> None:
    seeds = random.Random(11)
    await env.restart_bot(DomestiqueBot(db_path, seeds=lambda: seeds.getrandbits(63)))


async def actions_so_far(env: Any, channel: Any) -> int:
    race = await env.bot.storage.active_race(channel.id)
    return len(race.actions)


async def play_with_a_restart(env: Any, channel: Any, members: dict[str, Any], db_path: str, at: int, most: int) -> int:
    """Answer every decision as a person would (``answer``), restarting the bot before answer ``at``,
    until the race ends or ``most`` answers; how many actions the race had at the restart."""
    restarted_at = 0
    for step in range(most):
        if step == at:
            await restart(env, db_path)
            restarted_at = await actions_so_far(env, channel)
        if await answer(env, channel, members) is None:
            break
    return restarted_at


async def pending_now(env: Any, channel: Any) -> Any:
    bot: DomestiqueBot = env.bot
    race = await bot.storage.active_race(channel.id)
    if race is None:
        return None
    return find_game(race.game).rules.pending(await state_now(bot, channel))


def kind_of(game_id: str, name: str) -> OrderKind:
    return next(k for k in find_game(game_id).pace.orders if k.name == name)
