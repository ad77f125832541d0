"""Slash commands: /race ... for the race's life, and /ride, /breakaway, /drop, /pursue, /pass, /eat
for people who type. Each parses its input, calls one service intent and answers through posting."""

from __future__ import annotations

from typing import Any, Literal

import discord
from discord import app_commands

from bot.posting import answer
from rules.leader1.route import stage_names

Team = Literal["yellow", "blue", "green", "white", "black"]
RiderType = Literal["rouleur", "leader", "climber"]


def _service(interaction: discord.Interaction) -> Any:
    return interaction.client.service  # type: ignore[attr-defined]


def _channel(interaction: discord.Interaction) -> int:
    return interaction.channel_id or 0


race = app_commands.Group(name="race", description="Run a race in this channel", guild_only=True)


async def stage_autocomplete(interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
    if getattr(interaction.namespace, "game", None) == "formula-de-mini":
        from rules.formula_de_mini.circuit import circuit_names

        names = circuit_names()
    else:
        names = [*stage_names(), "random-10", "random-15", "random-20"]
    return [app_commands.Choice(name=n, value=n) for n in names if current.lower() in n][:25]


@race.command(name="new", description="Open a race lobby in this channel")
@app_commands.describe(
    stage="a shipped stage or random-N (N hexagons)",
    riders="riders per player",
    timer="minutes each player has to decide (1 minute to 7 days)",
)
@app_commands.autocomplete(stage=stage_autocomplete)
async def race_new(
    interaction: discord.Interaction,
    stage: str = "first-race",
    riders: app_commands.Range[int, 1, 3] = 3,
    timer: app_commands.Range[int, 1, 10080] = 1440,
    game: Literal["leader1", "formula-de-mini"] = "leader1",
) -> None:
    if game == "formula-de-mini" and stage == "first-race":
        stage = "canyon"
    track = stage
    if stage.startswith("random-") and stage.count("-") == 1:
        track = f"{stage}-{interaction.id % 100000}"
    work = _service(interaction).new_race(
        interaction.guild_id or 0,
        _channel(interaction),
        interaction.user.id,
        interaction.user.display_name,
        game=game,
        track=f"{game}/{track}",
        riders=riders,
        timer=timer * 60,
    )
    await answer(interaction, work, defer=False)


@race.command(name="join", description="Join the lobby with a team colour")
async def race_join(interaction: discord.Interaction, team: Team | None = None) -> None:
    await answer(
        interaction,
        _service(interaction).join(_channel(interaction), interaction.user.id, interaction.user.display_name, team),
        defer=False,
    )


@race.command(name="leave", description="Leave the lobby")
async def race_leave(interaction: discord.Interaction) -> None:
    await answer(interaction, _service(interaction).leave(_channel(interaction), interaction.user.id), defer=False)


@race.command(name="ai", description="Fill a seat with an AI player (host)")
async def race_ai(interaction: discord.Interaction, team: Team | None = None) -> None:
    await answer(
        interaction, _service(interaction).add_ai(_channel(interaction), interaction.user.id, team), defer=False
    )


@race.command(name="qualities", description="Choose your sprinter and descender (never the same rider)")
async def race_qualities(
    interaction: discord.Interaction, sprinter: RiderType | None = None, descender: RiderType | None = None
) -> None:
    await answer(
        interaction,
        _service(interaction).qualities(_channel(interaction), interaction.user.id, sprinter, descender),
        defer=False,
    )


@race.command(name="start", description="Start the race (host)")
async def race_start(interaction: discord.Interaction) -> None:
    await answer(interaction, _service(interaction).start(_channel(interaction), interaction.user.id))


@race.command(name="status", description="Who must act, and every rider's position and energy")
async def race_status(interaction: discord.Interaction) -> None:
    await answer(interaction, _service(interaction).status(_channel(interaction)), defer=False)


@race.command(name="board", description="The board as it stands")
async def race_board(interaction: discord.Interaction) -> None:
    await answer(interaction, _service(interaction).board(_channel(interaction)))


@race.command(name="log", description="What happened in the last turns")
async def race_log(interaction: discord.Interaction) -> None:
    await answer(interaction, _service(interaction).log(_channel(interaction)), defer=False)


@race.command(name="export", description="The race record as a file (replay it with domestique replay)")
async def race_export(interaction: discord.Interaction) -> None:
    await answer(interaction, _service(interaction).export(_channel(interaction), interaction.user.id))


@race.command(name="hand", description="Your kept feed tiles (only you see them, unless you share with an ally)")
@app_commands.describe(share="an ally to show your hand to, privately")
async def race_hand(interaction: discord.Interaction, share: discord.Member | None = None) -> None:
    if share is not None:
        alliances = interaction.client.alliances  # type: ignore[attr-defined]
        work = alliances.share_hand(_channel(interaction), interaction.user.id, share.id)
    else:
        work = _service(interaction).hand(_channel(interaction), interaction.user.id)
    await answer(interaction, work, defer=False)


@race.command(name="undo", description="Take back the last decision (host)")
async def race_undo(interaction: discord.Interaction) -> None:
    await answer(interaction, _service(interaction).undo(_channel(interaction), interaction.user.id))


@race.command(name="abort", description="Stop the race (host or Manage Channels)")
async def race_abort(interaction: discord.Interaction) -> None:
    perms = interaction.permissions
    await answer(
        interaction,
        _service(interaction).abort(
            _channel(interaction), interaction.user.id, can_manage=bool(perms and perms.manage_channels)
        ),
        defer=False,
    )


@race.command(name="back", description="Take your seat back from the AI")
async def race_back(interaction: discord.Interaction) -> None:
    await answer(interaction, _service(interaction).back(_channel(interaction), interaction.user.id), defer=False)


async def rider_autocomplete(interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
    riders = await _service(interaction).rider_names(_channel(interaction), interaction.user.id)
    return [app_commands.Choice(name=r, value=r) for r in riders if current.lower() in r][:25]


async def square_autocomplete(interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
    rider = getattr(interaction.namespace, "rider", None)
    do = "breakaway" if interaction.command and interaction.command.name == "breakaway" else "ride"
    options = await _service(interaction).square_names(_channel(interaction), interaction.user.id, do, rider)
    return [
        app_commands.Choice(name=label[:100], value=cell) for cell, label in options if current.lower() in label.lower()
    ][:25]


@app_commands.command(name="ride", description="Ride your rider to a square")
@app_commands.describe(rider="your rider to move now", to="the square, e.g. 14.2")
@app_commands.autocomplete(rider=rider_autocomplete, to=square_autocomplete)
@app_commands.guild_only()
async def ride(interaction: discord.Interaction, rider: str, to: str) -> None:
    await answer(
        interaction, _service(interaction).act(_channel(interaction), interaction.user.id, "ride", rider=rider, to=to)
    )


@app_commands.command(name="breakaway", description="Leave the peloton: at least 4 squares ahead of it")
@app_commands.autocomplete(rider=rider_autocomplete, to=square_autocomplete)
@app_commands.guild_only()
async def breakaway(interaction: discord.Interaction, rider: str, to: str) -> None:
    await answer(
        interaction,
        _service(interaction).act(_channel(interaction), interaction.user.id, "breakaway", rider=rider, to=to),
    )


@app_commands.command(name="drop", description="Drop a rider from the peloton on purpose")
@app_commands.autocomplete(rider=rider_autocomplete)
@app_commands.guild_only()
async def drop(interaction: discord.Interaction, rider: str) -> None:
    await answer(
        interaction, _service(interaction).act(_channel(interaction), interaction.user.id, "drop", rider=rider)
    )


@app_commands.command(name="pursue", description="Peloton token holder: the peloton moves one more square")
@app_commands.guild_only()
async def pursue(interaction: discord.Interaction) -> None:
    await answer(interaction, _service(interaction).act(_channel(interaction), interaction.user.id, "pursue"))


@app_commands.command(name="pass", description="End your part of this phase")
@app_commands.guild_only()
async def pass_(interaction: discord.Interaction) -> None:
    await answer(interaction, _service(interaction).act(_channel(interaction), interaction.user.id, "pass"))


@app_commands.command(name="eat", description="Eat a kept feed tile (see /race hand); any time")
@app_commands.autocomplete(rider=rider_autocomplete)
@app_commands.guild_only()
async def eat(interaction: discord.Interaction, rider: str, tile: app_commands.Range[int, 0, 20] = 0) -> None:
    await answer(
        interaction,
        _service(interaction).act(_channel(interaction), interaction.user.id, "eat", rider=rider, tile=tile),
    )


def register(tree: app_commands.CommandTree[Any]) -> None:
    tree.add_command(race)
    for command in (ride, breakaway, drop, pursue, pass_, eat):
        tree.add_command(command)
