"""/league and /alliance commands."""

from __future__ import annotations

from collections.abc import Awaitable
from typing import Any, Literal

import discord
from discord import app_commands

from bot.discord_layer.commands import Choices, game_autocomplete, stage_autocomplete, timer_autocomplete
from bot.discord_layer.host import host
from bot.discord_layer.posting import in_own_language, own_language, say
from bot.leagues.alliance import AllianceService
from bot.leagues.league import LeagueService
from bot.leagues.pacts import PactService
from bot.service.bounds import LEAGUE_HOUR, LEAGUE_STAGE, PIECES
from bot.service.common import TIMER_DEFAULT, Refusal
from bot.service.durations import parse_duration
from bot.service.model import Outcome
from rules.i18n import _, speaking
from rules.registry import find_game, game_ids, games

Weekday = Literal["mon", "tue", "wed", "thu", "fri", "sat", "sun"]
PactVotes = Literal["all", "majority"]  # bot/leagues/pact_votes.py


def _leagues(interaction: discord.Interaction) -> LeagueService:
    return host(interaction).leagues


def _alliances(interaction: discord.Interaction) -> AllianceService:
    return host(interaction).alliances


def _pacts(interaction: discord.Interaction) -> PactService:
    return host(interaction).pacts


async def answer(interaction: discord.Interaction, work: Awaitable[Outcome], *, defer: bool = True) -> None:
    await host(interaction).answer(interaction, work, defer=defer)


@in_own_language
async def league_colour_autocomplete(interaction: discord.Interaction, current: str) -> Choices:
    leagues = await host(interaction).service.storage.leagues(interaction.guild_id or 0)
    played = {lg.game for lg in leagues}
    colours = {c for game in games() if game.id in played for c in game.colours}
    return [app_commands.Choice(name=c, value=c) for c in sorted(colours) if current.lower() in c][:25]


@in_own_language
async def settings_autocomplete(interaction: discord.Interaction, current: str) -> Choices:
    chosen = getattr(interaction.namespace, "game", None)
    scoring = find_game(chosen).scoring if chosen in game_ids() else None
    examples = [f"{s.name}={s.default}" for s in (scoring.settings if scoring else ())]
    return [app_commands.Choice(name=e, value=e) for e in examples if current.lower() in e][:25]


def _manager(interaction: discord.Interaction) -> bool:
    perms = interaction.permissions
    return bool(perms and perms.manage_guild)


league = app_commands.Group(name="league", description="Weekly stages with a general classification", guild_only=True)


@league.command(name="create", description="Create a league you organise")
@app_commands.autocomplete(
    game=game_autocomplete, stages=stage_autocomplete, settings=settings_autocomplete, timer=timer_autocomplete
)
@app_commands.describe(
    game="the game its stages are raced in",
    stages="comma-separated stages or circuits of that game (random-15 makes a random one)",
    pieces="riders or cars per player (the game's usual number if empty)",
    settings="the game's league settings, e.g. ring=12 (see the list)",
    channel="where stages run (a thread each), or a category (a channel each)",
    weekday="the day stages open",
    hour="the hour they open (0-23)",
    timezone="e.g. Europe/Paris",
    timer="time per decision at most: pick one, or write e.g. 90m, 36h, 2d (24 hours if empty)",
    clock="each player gets a time bank so a stage ends within its week (default on)",
    teams="score the alliances: a team classification beside the general one",
    pacts="how alliances agree a pact: all of their members (the default) or a majority",
)
async def league_create(
    interaction: discord.Interaction,
    name: str,
    channel: discord.TextChannel | discord.CategoryChannel,
    game: str,
    stages: str,
    weekday: Weekday = "sat",
    hour: app_commands.Range[int, LEAGUE_HOUR.low, LEAGUE_HOUR.high] = 18,
    timezone: str = "UTC",
    timer: str | None = None,
    pieces: app_commands.Range[int, PIECES.low, PIECES.high] | None = None,
    settings: str = "",
    clock: bool = True,
    teams: bool = False,
    pacts: PactVotes = "all",
) -> None:
    try:
        with speaking(own_language(interaction)):
            seconds = parse_duration(timer) if timer else TIMER_DEFAULT
    except Refusal as exc:
        await say(interaction, str(exc), ephemeral=True)
        return
    work = _leagues(interaction).create(
        interaction.guild_id or 0,
        interaction.user.id,
        name[:60],
        channel.id,
        game=game,
        stages=stages,
        weekday=weekday,
        hour=hour,
        zone=timezone,
        timer=seconds,
        pieces=pieces,
        settings=settings,
        clock=clock,
        teams=teams,
        pact_votes=pacts,
    )
    await answer(interaction, work, defer=False)


@league.command(name="join", description="Join a league in a colour")
@app_commands.autocomplete(colour=league_colour_autocomplete)
async def league_join(interaction: discord.Interaction, colour: str | None = None, league: str | None = None) -> None:
    await answer(
        interaction,
        _leagues(interaction).join(
            interaction.guild_id or 0, league, interaction.user.id, interaction.user.display_name, colour
        ),
        defer=False,
    )


@league.command(name="ai", description="Add an AI team (organiser)")
@app_commands.autocomplete(colour=league_colour_autocomplete)
async def league_ai(interaction: discord.Interaction, colour: str | None = None, league: str | None = None) -> None:
    await answer(
        interaction,
        _leagues(interaction).add_ai(
            interaction.guild_id or 0, league, interaction.user.id, _manager(interaction), colour
        ),
        defer=False,
    )


@league.command(name="remove", description="Remove a player from the league (organiser)")
async def league_remove(interaction: discord.Interaction, member: discord.Member, league: str | None = None) -> None:
    await answer(
        interaction,
        _leagues(interaction).remove(
            interaction.guild_id or 0, league, interaction.user.id, _manager(interaction), member.id
        ),
        defer=False,
    )


@league.command(name="close", description="Close entries and schedule the stages (organiser)")
async def league_close(interaction: discord.Interaction, league: str | None = None) -> None:
    await answer(
        interaction,
        _leagues(interaction).close(interaction.guild_id or 0, league, interaction.user.id, _manager(interaction)),
        defer=False,
    )


@league.command(name="standings", description="The general classification")
async def league_standings(interaction: discord.Interaction, league: str | None = None) -> None:
    work = _leagues(interaction).standings(interaction.guild_id or 0, league, interaction.user.id)
    await answer(interaction, work)


@league.command(name="web", description="The league's web page (the organiser can turn it off or renew it)")
@app_commands.describe(action="link: show it; off: turn the page off; new: a new link, the old one stops (organiser)")
@app_commands.choices(action=[app_commands.Choice(name=a, value=a) for a in ("link", "off", "new")])
async def league_web(interaction: discord.Interaction, action: str = "link", league: str | None = None) -> None:
    work = _leagues(interaction).web(
        interaction.guild_id or 0, league, interaction.user.id, action, _manager(interaction)
    )
    await answer(interaction, work, defer=False)


@league.command(name="schedule", description="What runs when")
async def league_schedule(interaction: discord.Interaction, league: str | None = None) -> None:
    await answer(interaction, _leagues(interaction).schedule(interaction.guild_id or 0, league), defer=False)


@league.command(name="results", description="A stage's result")
async def league_results(
    interaction: discord.Interaction,
    stage: app_commands.Range[int, LEAGUE_STAGE.low, LEAGUE_STAGE.high],
    league: str | None = None,
) -> None:
    await answer(interaction, _leagues(interaction).results(interaction.guild_id or 0, league, stage), defer=False)


@league.command(name="export", description="Every stage record and the classification, as one file")
async def league_export(interaction: discord.Interaction, league: str | None = None) -> None:
    await answer(interaction, _leagues(interaction).export(interaction.guild_id or 0, league))


alliance = app_commands.Group(name="alliance", description="Alliances between players of this race", guild_only=True)


@in_own_language
async def ai_seat_autocomplete(interaction: discord.Interaction, current: str) -> Choices:
    seats = await host(interaction).alliances.ai_names(interaction.channel_id or 0)
    return [
        app_commands.Choice(name=name[:100], value=player) for player, name in seats if current.lower() in name.lower()
    ][:25]


@alliance.command(name="invite", description="Invite another player of this race into your alliance")
@app_commands.autocomplete(ai=ai_seat_autocomplete)
@app_commands.describe(
    player="the player you invite",
    ai="or an AI player of the race (it joins at once and keeps its pacts)",
    name="the alliance's name, when you found one (its members' names if empty)",
)
async def alliance_invite(
    interaction: discord.Interaction,
    player: discord.Member | None = None,
    ai: str | None = None,
    name: str | None = None,
) -> None:
    service = _alliances(interaction)
    channel = interaction.channel_id or 0
    if ai is not None:
        await answer(interaction, service.invite_ai(channel, interaction.user.id, ai), defer=False)
        return
    if player is None:
        with speaking(own_language(interaction)):
            await say(interaction, _("Name a player to invite, or an AI player (ai:)."), ephemeral=True)
        return
    await answer(interaction, service.propose(channel, interaction.user.id, player.id, name), defer=False)


@alliance.command(name="propose", description="Propose an alliance to another player of this race")
async def alliance_propose(interaction: discord.Interaction, player: discord.Member) -> None:
    await answer(
        interaction,
        _alliances(interaction).propose(interaction.channel_id or 0, interaction.user.id, player.id),
        defer=False,
    )


@alliance.command(name="leave", description="End your alliances in this race (announced)")
async def alliance_leave(interaction: discord.Interaction) -> None:
    await answer(
        interaction, _alliances(interaction).leave(interaction.channel_id or 0, interaction.user.id), defer=False
    )


@alliance.command(name="share", description="Show what you keep hidden to an ally, privately")
async def alliance_share(interaction: discord.Interaction, ally: discord.Member) -> None:
    await answer(
        interaction,
        _alliances(interaction).share_hand(interaction.channel_id or 0, interaction.user.id, ally.id),
        defer=False,
    )


@in_own_language
async def pact_kind_autocomplete(interaction: discord.Interaction, current: str) -> Choices:
    kinds = await host(interaction).pacts.choices(interaction.channel_id or 0, interaction.user.id)
    return [
        app_commands.Choice(name=name[:100], value=kind)
        for kind, name in kinds
        if current.lower() in kind or current.lower() in name.lower()
    ][:25]


@in_own_language
async def pact_until_autocomplete(interaction: discord.Interaction, current: str) -> Choices:
    examples = ["end", "turn 5", "turn 10", "row 30", "stage 2"]
    typed = [current] if current.strip() and current not in examples else []
    return [app_commands.Choice(name=e, value=e) for e in typed + examples if current.lower() in e][:25]


@in_own_language
async def pact_end_autocomplete(interaction: discord.Interaction, current: str) -> Choices:
    pacts = await host(interaction).pacts.ending(interaction.channel_id or 0, interaction.user.id)
    return [
        app_commands.Choice(name=name[:100], value=str(pact_id))
        for pact_id, name in pacts
        if current.lower() in name.lower()
    ][:25]


@alliance.command(name="pact", description="Propose a pact to your alliance: every member accepts it")
@app_commands.autocomplete(kind=pact_kind_autocomplete, until=pact_until_autocomplete)
@app_commands.describe(
    kind="one of the game's pacts",
    ally="the ally it is with (every member with every other if empty)",
    until="end (the default), or turn 12, row 30, stage 2",
    public="told to everyone, not only your allies",
)
@app_commands.rename(ally="with")
async def alliance_pact(
    interaction: discord.Interaction,
    kind: str,
    ally: discord.Member | None = None,
    until: str | None = None,
    public: bool = False,
) -> None:
    work = _pacts(interaction).propose(
        interaction.channel_id or 0, interaction.user.id, kind, ally.id if ally else None, until, public
    )
    await answer(interaction, work, defer=False)


@alliance.command(name="votes", description="How this race's alliances agree their pacts (the race's host)")
@app_commands.describe(decide="all: every member accepts a pact; majority: more than half of its members do")
async def alliance_votes(interaction: discord.Interaction, decide: PactVotes) -> None:
    work = _pacts(interaction).set_votes(interaction.channel_id or 0, interaction.user.id, decide)
    await answer(interaction, work, defer=False)


@alliance.command(name="pact-end", description="End a pact of your alliance (your allies are told)")
@app_commands.autocomplete(pact=pact_end_autocomplete)
async def alliance_pact_end(interaction: discord.Interaction, pact: str) -> None:
    if not pact.isdigit():
        with speaking(own_language(interaction)):
            await say(interaction, _("Pick one of your alliance's pacts from the list."), ephemeral=True)
        return
    work = _pacts(interaction).end(interaction.channel_id or 0, interaction.user.id, int(pact))
    await answer(interaction, work, defer=False)


@alliance.command(name="status", description="Your alliance, its pacts and their ledger so far (only you see it)")
async def alliance_status(interaction: discord.Interaction) -> None:
    await answer(interaction, _pacts(interaction).status(interaction.channel_id or 0, interaction.user.id))


def register(tree: app_commands.CommandTree[Any]) -> None:
    tree.add_command(league)
    tree.add_command(alliance)
