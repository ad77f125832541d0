"""Issue 28, ``/race away`` (simcord, a real SQLite file): away hands every seat of the person, in
every race and server, to the AI with no ping, no timeout counted against them and their clock
stopped, shown in ``/race status``; ``until:back`` or the date passing returns the seats and tells
them privately which races wait for them; a league stage opening while they are away starts with
their seat the AI's, and its organiser sees who is away in ``/league standings``."""

from __future__ import annotations

import datetime
from typing import Any

from bot.discord_layer.app import DomestiqueBot
from bot.storage.sqlite import SqliteStorage
from rules.registry import find_game
from tests.test_several_races_mine import reply, start, whose_turn

DAY = 86400


async def two_races(env: Any) -> tuple[dict[str, Any], dict[str, Any]]:
    """Alice in a Leader 1 race with a clock (with Bob) and a Formula Dé Mini race in another server (with Carol)."""
    one, two = env.create_guild(), env.create_guild()
    alice_user = env.create_user("alice")
    m = {
        "alice": one.add_member(alice_user),
        "bob": one.add_member(env.create_user("bob")),
        "alice2": two.add_member(alice_user),
        "carol": two.add_member(env.create_user("carol")),
    }
    channels = {"leader1": one.create_text_channel("classic"), "formula-de-mini": two.create_text_channel("cars")}
    await start(m["alice"], channels["leader1"], "leader1", [m["bob"]], pieces=1, clock=48)
    await start(m["carol"], channels["formula-de-mini"], "formula-de-mini", [m["alice2"]], pieces=1)
    return m, channels


def dms(member: Any) -> list[str]:
    return [m.content for m in member.user.dm_channel.history()]


async def race_of(bot: DomestiqueBot, channel: Any) -> Any:
    return await bot.storage.active_race(channel.id) or await bot.storage.latest_race(channel.id)


async def others_decide(
    env: Any, bot: DomestiqueBot, channels: dict[str, Any], members: dict[str, Any], until: str | None = None
) -> None:
    """Whoever is asked (never Alice while away) answers with the AI's choice, a few times over
    (until ``until`` is asked)."""
    from bot.service.common import choice_key

    everyone = [members["bob"], members["carol"], members["alice"], members["alice2"]]
    for _ in range(6):
        for channel in channels.values():
            player = await whose_turn(bot, channel)
            if player is None or player == until:
                continue
            actor = next(m for m in everyone if f"u{m.id}" == player and m.guild.id == channel.guild.id)
            race = await race_of(bot, channel)
            game = find_game(race.game)
            state = await bot.service.core.state_of(race)
            wanted = game.ai(state, player)
            offered = next(c for c in game.rules.choices(state, player) if c.action == wanted)
            await actor.slash(channel, "play move", choice=choice_key(offered))


async def test_away_hands_every_seat_to_the_ai_without_pings_or_timeouts_and_back_returns_them(simcord_env) -> None:
    members, channels = await two_races(simcord_env)
    bot: DomestiqueBot = simcord_env.bot
    alice = members["alice"]
    seen = {name: len(c.history()) for name, c in channels.items()}
    dms_before = len(dms(alice))

    gone = await alice.user.slash("race away", until="3d")  # in a private message to the bot
    assert gone.ephemeral
    said = reply(gone)
    assert "Away until <t:" in said and ":R>" in said and said.count("·") >= 2  # both races named
    player = f"u{alice.id}"
    for channel in channels.values():
        race = await race_of(bot, channel)
        assert player in race.lobby["away"] and player in race.lobby["holiday"]
        assert await whose_turn(bot, channel) != player
        status = reply(
            await members["bob" if channel is channels["leader1"] else "carol"].slash(channel, "race status")
        )
        assert "Away until <t:" in status and "alice (the AI plays their seat)" in status
        assert "until they act again" not in status
    clock = next(
        c for c in await bot.storage.clocks((await race_of(bot, channels["leader1"])).id) if c.player == player
    )
    assert clock.asked is None

    # others decide, and time runs out for them: Alice is never asked, pinged or timed out
    await others_decide(simcord_env, bot, channels, members)
    await simcord_env.advance_time(25 * 3600)
    await others_decide(simcord_env, bot, channels, members)
    for name, channel in channels.items():
        race = await race_of(bot, channel)
        assert await whose_turn(bot, channel) != player
        hers = [a for a in race.actions if a.text.startswith(f"{player} ")]
        assert hers, "the AI played her seat"
        assert not [a for a in hers if a.user_id == alice.id and a.automatic]  # no timeout counted against her
        for message in channel.history()[seen[name] :]:
            assert f"<@{alice.id}>" not in message.content and alice.id not in [u.id for u in message.mentions]
    asked = [t for t in dms(alice)[dms_before:] if "Your turn" in t or "reminder" in t or "your decision" in t]
    assert asked == []  # private news of her own pieces (a feed tile kept) still reaches her; no prompt does
    after = next(
        c for c in await bot.storage.clocks((await race_of(bot, channels["leader1"])).id) if c.player == player
    )
    assert (after.used, after.asked) == (clock.used, None)  # her clock did not run

    # the absence is stored: another process (a restart) reads it
    other = SqliteStorage(bot.storage.path)
    await other.open()
    assert alice.id in await other.away_until([alice.id])
    await other.close()

    back = await alice.slash(channels["leader1"], "race away", until="back")
    text = reply(back)
    assert back.ephemeral and "Welcome back" in text
    for channel in channels.values():
        assert f"https://discord.com/channels/{channel.guild.id}/{channel.id}" in text
        race = await race_of(bot, channel)
        assert player not in race.lobby["away"] and "holiday" not in race.lobby
        assert "is back: their seat is theirs again" in channel.history()[-1].content
    # her next decision is asked of her again, with a ping
    await others_decide(simcord_env, bot, {"leader1": channels["leader1"]}, members, until=player)
    assert await whose_turn(bot, channels["leader1"]) == player
    assert f"<@{alice.id}>" in channels["leader1"].history()[-1].content
    assert await bot.storage.away_until([alice.id]) == {}


async def test_the_date_passing_returns_the_seats_and_tells_the_person_privately(simcord_env) -> None:
    members, channels = await two_races(simcord_env)
    bot: DomestiqueBot = simcord_env.bot
    alice = members["alice"]
    await alice.slash(channels["leader1"], "race away", until="1d")
    await simcord_env.advance_time(DAY + 120)
    told = [t for t in dms(alice) if "Welcome back" in t]
    assert len(told) == 1
    for channel in channels.values():
        assert f"/channels/{channel.guild.id}/{channel.id}" in told[0]
        assert f"u{alice.id}" not in (await race_of(bot, channel)).lobby["away"]
    assert await bot.storage.away_until([alice.id]) == {}


async def test_bad_return_dates_are_refused_and_change_nothing(simcord_env) -> None:
    members, channels = await two_races(simcord_env)
    bot: DomestiqueBot = simcord_env.bot
    alice, channel = members["alice"], channels["leader1"]
    for until, why in (
        ("90d", "60 days at most"),
        ("tomorrow-ish", "not a return date"),
        ("2020-01-01", "has passed"),
        ("2026-02-30", "not a date on the calendar"),
        ("back", "You are not away"),
    ):
        answer = await alice.slash(channel, "race away", until=until)
        assert answer.ephemeral and why in reply(answer), (until, reply(answer))
    assert await bot.storage.away_until([alice.id]) == {}
    assert f"u{alice.id}" not in (await race_of(bot, channel)).lobby["away"]
    now = datetime.datetime.fromtimestamp(bot.service.core.now(), datetime.UTC)
    day = (now + datetime.timedelta(days=10)).strftime("%Y-%m-%d")
    dated = await alice.slash(channel, "race away", until=day)
    midnight = datetime.datetime.strptime(day, "%Y-%m-%d").replace(tzinfo=datetime.UTC).timestamp()
    assert f"<t:{int(midnight)}:f>" in reply(dated)


async def test_a_stage_opening_while_away_seats_the_ai_and_the_organiser_sees_it(simcord_env) -> None:
    guild = simcord_env.create_guild()
    league_channel = guild.create_text_channel("league")
    m = {who: guild.add_member(simcord_env.create_user(who)) for who in ("alice", "bob")}
    created = await m["alice"].slash(
        league_channel,
        "league create",
        name="Winter Cup",
        channel=league_channel,
        game="leader1",
        stages="first-race",
        weekday="thu",
        hour=1,
        timezone="UTC",
        timer="60m",
        pieces=1,
    )
    assert "created" in reply(created), reply(created)
    await m["alice"].slash(league_channel, "league join", colour="yellow")
    await m["bob"].slash(league_channel, "league join", colour="blue")
    await m["alice"].slash(league_channel, "league close")
    bot: DomestiqueBot = simcord_env.bot
    gone = await m["bob"].slash(league_channel, "race away", until="40d")
    assert "Away until" in reply(gone)

    organiser = reply(await m["alice"].slash(league_channel, "league standings"))
    assert "Away (the AI plays their seats): bob until <t:" in organiser
    assert "Away" not in reply(await m["bob"].slash(league_channel, "league standings"))

    league = (await bot.leagues.store.leagues())[0]
    for _ in range(40):
        stage = (await bot.leagues.store.stages(league.id))[0]
        if stage.race_id is not None:
            break
        await simcord_env.advance_time(DAY / 2)
    assert stage.race_id is not None, "the stage did not open"
    race = await bot.storage.race(stage.race_id)
    assert f"u{m['bob'].id}" in race.lobby["holiday"] and f"u{m['bob'].id}" in race.lobby["away"]
    state = await bot.service.core.state_of(race)
    decision = find_game("leader1").rules.pending(state)
    assert decision is None or decision.player != f"u{m['bob'].id}"


async def test_an_absent_seat_follows_its_standing_orders_before_the_ai(simcord_env) -> None:
    guild = simcord_env.create_guild()
    channel = guild.create_text_channel("classic")
    m = {who: guild.add_member(simcord_env.create_user(who)) for who in ("alice", "bob")}
    await start(m["alice"], channel, "leader1", [m["bob"]], pieces=1)
    bot: DomestiqueBot = simcord_env.bot
    race = await race_of(bot, channel)
    player = f"u{m['alice'].id}"
    rider = next(iter(find_game("leader1").pace.pieces(await bot.service.core.state_of(race), player)))
    ordered = await m["alice"].slash(channel, "race order", piece=rider, order="stay")
    assert "Standing order" in reply(ordered)
    await m["alice"].slash(channel, "race away", until="1w")
    gone = len((await race_of(bot, channel)).actions)
    await others_decide(simcord_env, bot, {"leader1": channel}, {**m, "carol": m["bob"], "alice2": m["alice"]})
    race = await race_of(bot, channel)
    hers = [a for a in race.actions[gone:] if a.text.startswith(f"{player} ")]
    assert len(hers) >= 3
    # the decisions her order covers are its own (counted as hers); the AI takes only the others
    ordered = [a for a in hers if a.user_id == m["alice"].id and not a.automatic]
    assert len(ordered) >= 2 and all(a.text.endswith(" pass") for a in ordered), hers
    assert all(a.user_id is None and a.automatic for a in hers if a not in ordered)
    assert any("alice's standing orders (away): " in msg.content for msg in channel.history())


async def test_the_board_says_who_is_away(simcord_env, monkeypatch) -> None:
    """Every board posted while a person is away says so under the board, with the day they return."""
    import bot.service.drawing as drawing

    legends: list[list[str]] = []
    real = drawing.paint

    def paint(game_id: str, state: Any, **kwargs: Any) -> bytes | None:
        legends.append(list(kwargs.get("legend", ())))
        return real(game_id, state, **kwargs)

    monkeypatch.setattr(drawing, "paint", paint)
    members, channels = await two_races(simcord_env)
    bot: DomestiqueBot = simcord_env.bot
    await members["alice"].user.slash("race away", until="3d")
    legends.clear()
    await others_decide(simcord_env, bot, channels, members)
    away = [line for legend in legends for line in legend if line.startswith("alice away until ")]
    assert legends and away and all(line.endswith("(the AI plays)") for line in away)
    await members["alice"].user.slash("race away", until="back")
    legends.clear()
    await others_decide(simcord_env, bot, channels, members)
    assert legends and not any("away until" in line for legend in legends for line in legend)
