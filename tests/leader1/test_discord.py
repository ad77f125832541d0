"""Leader 1 in Discord: the feed tiles a rider keeps are told only to their owner (privately, in
/race hand and by direct message), and typed moves with autocomplete, a breakaway among them. Both
backends: an SQLite file, then a PostgreSQL database."""

from __future__ import annotations

import pytest

from bot.discord_layer.app import DomestiqueBot
from tests.support.discord_play import start_two_player_race, towards_a_feed_tile, world


@pytest.fixture
def db_path(database_url: str) -> str:
    return database_url


async def test_hand_shows_kept_tiles_only_to_their_owner(simcord_env) -> None:
    _, channel, members = world(simcord_env, "alice", "bob")
    await start_two_player_race(channel, members["alice"], members["bob"])
    bot: DomestiqueBot = simcord_env.bot
    from rules.registry import find_game

    rules = find_game("leader1").rules
    keeper = None
    for _ in range(200):  # break away from turn 2 on until a rider keeps a feed tile
        race = await bot.storage.active_race(channel.id)
        state = await bot.service.core.state_of(race)
        keeper = next((r for r in state.riders if r.kept), None)
        if keeper is not None:
            break
        decision = rules.pending(state)
        choices = [c for c in rules.choices(state, decision.player) if not c.anytime]
        user = int(decision.player[1:])
        await bot.service.core.decide(race.id, race.version, user, towards_a_feed_tile(state, choices))
    assert keeper is not None, "no rider kept a feed tile"
    owner = next(m for m in members.values() if keeper.player == f"u{m.id}")
    other = next(m for m in members.values() if m is not owner)
    mine = await owner.slash(channel, "race hand")
    theirs = await other.slash(channel, "race hand")
    assert mine.ephemeral and theirs.ephemeral
    tiles = ", ".join(f"#{i}: {v}" for i, v in enumerate(keeper.kept))
    assert f"{keeper.id.replace('-', ' ')}: energy {keeper.energy}; kept tiles {tiles}" in mine.response.content
    assert keeper.id not in theirs.response.content  # the other player sees only their own riders
    other_team = "blue" if keeper.id.startswith("yellow") else "yellow"
    assert other_team in theirs.response.content and other_team not in mine.response.content


async def test_typed_moves_with_autocomplete_and_private_feed_tiles(simcord_env) -> None:
    _, channel, members = world(simcord_env, "alice", "bob")
    await start_two_player_race(channel, members["alice"], members["bob"])
    bot: DomestiqueBot = simcord_env.bot
    dms = []
    broke_away = False
    for _ in range(200):
        race = await bot.storage.active_race(channel.id)
        if race is None:
            break
        state = await bot.service.core.state_of(race)
        from rules.leader1 import pending

        decision = pending(state)
        actor = members["alice"] if decision.player.endswith(str(members["alice"].id)) else members["bob"]
        if decision.kind == "breakaway" and state.turn >= 2 and not broke_away:
            rider = next(r.id for r in state.riders if r.player == decision.player and r.status == "peloton")
            pieces = await actor.autocomplete(channel, "play move", "piece", "")
            assert rider in [c["value"] for c in pieces]
            options = await actor.autocomplete(channel, "play move", "choice", "", piece=rider)
            breakaways = [c for c in options if c["value"].startswith("breakaway")]
            assert breakaways and all(f"rider={rider}" in c["value"] for c in breakaways)
            done = await actor.slash(channel, "play move", piece=rider, choice=breakaways[0]["value"])
            assert (done.response or done.followups[0]).content.startswith("✔ ")  # the result in one line
            broke_away = True
        elif decision.kind == "ride":
            options = await actor.autocomplete(channel, "play move", "choice", "", piece=decision.rider)
            square = options[-1]["value"].split("to=")[1].split()[0]
            await actor.slash(channel, "play move", piece=decision.rider, choice=square)  # a bare square works too
        else:
            await actor.slash(channel, "play move", choice="pass")
        for member in members.values():
            dms += [m.content for m in member.user.dm_channel.history()] if member.user.dm_channel else []
        if any("feed tile worth" in d for d in dms):
            break
    assert broke_away
    assert any("feed tile worth" in d for d in dms)
    assert not any("worth" in m.content for m in channel.history())
