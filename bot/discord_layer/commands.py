"""Slash commands: /race ... for a race's life, and /play for people who type their decisions.

Each parses its input, calls one service intent and answers through the host. Choices of
game, stage, colour, seat option, piece and move come from the games' registry and the
race's legal choices (autocomplete), so no game is named here.
"""

from __future__ import annotations

from typing import Any, Literal

import discord
from discord import app_commands

from bot.discord_layer.host import channel_of, host
from bot.discord_layer.posting import in_own_language, own_language, say
from bot.service.bounds import CLOCK_HOURS, PIECES, RACE_NUMBER, RECAP_TURNS
from bot.service.common import TIMER_DEFAULT, Refusal
from bot.service.durations import PRESETS, in_words, parse_duration
from renderer.words import team
from rules.i18n import _, speaking
from rules.registry import games

ANYWHERE = frozenset({"mine", "away"})  # /race commands about the person, not a channel: also in a private message


class RaceGroup(app_commands.Group):
    """``/race``: a channel's race, so in a server; ``/race mine`` and ``/race away`` also in a private message."""

    async def interaction_check(self, interaction: discord.Interaction) -> bool:
        command = interaction.command
        return interaction.guild_id is not None or (command is not None and command.name in ANYWHERE)


race = RaceGroup(name="race", description="Run a race in this channel")
play = app_commands.Group(name="play", description="Type your decision in this channel's race", guild_only=True)

Choices = list[app_commands.Choice[str]]


def _matching(pairs: list[tuple[str, str]], current: str) -> Choices:
    """Autocomplete options (value, name) whose name or value contains what is typed, 25 at most."""
    typed = current.lower()
    return [
        app_commands.Choice(name=name[:100], value=value[:100])
        for value, name in pairs
        if typed in name.lower() or typed in value.lower()
    ][:25]


@in_own_language
async def game_autocomplete(interaction: discord.Interaction, current: str) -> Choices:
    return _matching([(g.id, g.title) for g in games()], current)


@in_own_language
async def stage_autocomplete(interaction: discord.Interaction, current: str) -> Choices:
    """The chosen game's stages (every game's, until one is chosen)."""
    chosen = getattr(interaction.namespace, "game", None)
    pool = [g for g in games() if g.id == chosen] or games()
    return _matching([(n, n) for g in pool for n in g.tracks.suggestions()], current)


@in_own_language
async def colour_autocomplete(interaction: discord.Interaction, current: str) -> Choices:
    opened = await host(interaction).service.core.store.opened_in(channel_of(interaction))
    colours = opened.game.colours if opened is not None else ()
    return _matching([(c, team(c)) for c in colours], current)  # the colour in words, its id typed


@in_own_language
async def timer_autocomplete(interaction: discord.Interaction, current: str) -> Choices:
    """The presets (named in the person's words, their value the preset's name), and what is typed when
    it reads as a duration (``90m``, ``36h``, ``2d``)."""
    options = [(name, _(name)) for name, _seconds in PRESETS]
    try:
        typed = parse_duration(current) if current.strip() else None
    except Refusal:
        typed = None
    if typed is not None and current.strip().lower() not in {n for n, _seconds in PRESETS}:
        return [app_commands.Choice(name=f"{in_words(typed)} ({current.strip()})", value=current.strip()[:100])]
    return _matching(options, current) or [app_commands.Choice(name=shown, value=n) for n, shown in options]


@race.command(name="new", description="Open a race lobby in this channel")
@app_commands.describe(
    game="the game (pick from the list)",
    stage="a stage or circuit of that game (its usual one if empty)",
    pieces="riders or cars per player (the game's usual number if empty)",
    timer="how long each player has for a decision: pick one, or write e.g. 90m, 36h, 2d (24 hours if empty)",
    clock="hours each player has for the whole race (a time bank; empty: none)",
)
@app_commands.autocomplete(game=game_autocomplete, stage=stage_autocomplete, timer=timer_autocomplete)
async def race_new(
    interaction: discord.Interaction,
    game: str,
    stage: str | None = None,
    pieces: app_commands.Range[int, PIECES.low, PIECES.high] | None = None,
    timer: str | None = None,
    clock: app_commands.Range[int, CLOCK_HOURS.low, CLOCK_HOURS.high] | None = None,
) -> None:
    bot = host(interaction)
    try:
        with speaking(own_language(interaction)):
            seconds = parse_duration(timer) if timer else TIMER_DEFAULT
    except Refusal as exc:
        await say(interaction, str(exc), ephemeral=True)
        return
    work = bot.service.lobby.new_race(
        interaction.guild_id or 0,
        channel_of(interaction),
        interaction.user.id,
        interaction.user.display_name,
        game=game,
        track=stage,
        pieces=pieces,
        timer=seconds,
        bank=clock * 3600 if clock is not None else None,
    )
    await bot.answer(interaction, work, defer=False)


@race.command(name="join", description="Join the lobby in a colour")
@app_commands.autocomplete(colour=colour_autocomplete)
async def race_join(interaction: discord.Interaction, colour: str | None = None) -> None:
    bot = host(interaction)
    user = interaction.user
    await bot.answer(
        interaction, bot.service.lobby.join(channel_of(interaction), user.id, user.display_name, colour), defer=False
    )


@race.command(name="leave", description="Leave the lobby")
async def race_leave(interaction: discord.Interaction) -> None:
    bot = host(interaction)
    await bot.answer(interaction, bot.service.lobby.leave(channel_of(interaction), interaction.user.id), defer=False)


@race.command(name="ai", description="Fill a seat with an AI player (host)")
@app_commands.autocomplete(colour=colour_autocomplete)
@app_commands.describe(
    level="how strong it plays (strong if not given)",
    ally="the AI player joins your alliance (it keeps its pacts)",
)
async def race_ai(
    interaction: discord.Interaction,
    colour: str | None = None,
    level: Literal["easy", "normal", "strong"] | None = None,
    ally: bool = False,
) -> None:
    bot = host(interaction)
    adding = bot.service.lobby.add_ai(channel_of(interaction), interaction.user.id, colour, level=level)
    if ally:
        adding = bot.alliances.add_ai_ally(channel_of(interaction), interaction.user.id, adding)
    await bot.answer(interaction, adding, defer=False)


@in_own_language
async def option_autocomplete(interaction: discord.Interaction, current: str) -> Choices:
    opened = await host(interaction).service.core.store.opened_in(channel_of(interaction))
    if opened is None:
        return []
    game = opened.game
    options = [(o.name, f"{o.name}: {_(o.about)}") for o in game.seat_options]
    options += [(o.name, f"{o.shown_name()}: {_(o.about)}") for o in game.race_options]  # the id is sent
    return _matching(options, current)


@in_own_language
async def value_autocomplete(interaction: discord.Interaction, current: str) -> Choices:
    opened = await host(interaction).service.core.store.opened_in(channel_of(interaction))
    if opened is None:
        return []
    active, game = opened.race, opened.game
    name = getattr(interaction.namespace, "option", None)
    race_option = next((o for o in game.race_options if o.name == name), None)
    if race_option is not None:
        return _matching([(v, race_option.shown_value(v)) for v in race_option.values], current)
    seat = next((s for s in active.lobby["seats"] if s.get("user") == interaction.user.id), None)
    kinds = [str(k) for k in (seat.get("kinds", []) if seat is not None else [])]
    known = {o.name for o in game.seat_options}
    return _matching([(k, k) for k in kinds], current) if name in known else []


@race.command(name="option", description="A choice before the start (the role of a rider, the weather markers ...)")
@app_commands.describe(option="what to choose", value="your choice (empty: none)")
@app_commands.autocomplete(option=option_autocomplete, value=value_autocomplete)
async def race_option(interaction: discord.Interaction, option: str, value: str | None = None) -> None:
    bot = host(interaction)
    work = bot.service.lobby.seat_option(channel_of(interaction), interaction.user.id, option, value)
    await bot.answer(interaction, work, defer=False)


@race.command(name="start", description="Start the race (host)")
async def race_start(interaction: discord.Interaction) -> None:
    bot = host(interaction)
    await bot.answer(interaction, bot.service.lobby.start(channel_of(interaction), interaction.user.id))


@race.command(name="status", description="Who must act, and where every piece stands")
async def race_status(interaction: discord.Interaction) -> None:
    bot = host(interaction)
    await bot.answer(interaction, bot.service.reading.status(channel_of(interaction)), defer=False)


@race.command(name="web", description="The race's web page: watch, catch up, replay (the host can turn it off)")
@app_commands.describe(action="link: show it; off: turn the page off (host); new: a new link, the old stops (host)")
@app_commands.choices(action=[app_commands.Choice(name=a, value=a) for a in ("link", "off", "new")])
async def race_web(interaction: discord.Interaction, action: str = "link") -> None:
    bot = host(interaction)
    work = bot.service.web.web(channel_of(interaction), interaction.user.id, action)
    await bot.answer(interaction, work, defer=False)


@race.command(name="notify", description="How you are told that a decision is yours, in this server")
@app_commands.describe(how="mention: a ping in the channel; dm: a private message; none: only the reminder")
@app_commands.choices(
    how=[
        app_commands.Choice(name="mention me in the channel", value="mention"),
        app_commands.Choice(name="send me a private message", value="dm"),
        app_commands.Choice(name="nothing but the reminder", value="none"),
    ]
)
async def race_notify(interaction: discord.Interaction, how: str | None = None) -> None:
    bot = host(interaction)
    work = bot.service.people.notify(interaction.guild_id or 0, interaction.user.id, how)
    await bot.answer(interaction, work, defer=False)


@race.command(name="language", description="The language of this server's races (Manage Server)")
@app_commands.describe(language="auto: the server's preferred language in Discord; or English, Hungarian, Czech")
@app_commands.choices(
    language=[
        app_commands.Choice(name="auto (the server's Discord language)", value="auto"),
        app_commands.Choice(name="English", value="en"),
        app_commands.Choice(name="Magyar", value="hu"),
        app_commands.Choice(name="Čeština", value="cs"),
    ]
)
async def race_language(interaction: discord.Interaction, language: str) -> None:
    """Public race text (the channel, the lobby, boards, league posts) in one language for the server;
    private answers and messages stay in each person's own (``bot/service/languages.py``). Discord keeps
    default permissions for top-level commands only (discord.py ignores them on a subcommand), so the
    service checks Manage Server itself."""
    bot = host(interaction)
    perms = interaction.permissions
    work = bot.service.languages.command(interaction.guild_id, bool(perms and perms.manage_guild), language)
    await bot.answer(interaction, work, defer=False)


@race.command(name="board", description="The board as it stands")
async def race_board(interaction: discord.Interaction) -> None:
    bot = host(interaction)
    await bot.answer(interaction, bot.service.reading.board(channel_of(interaction)))


@race.command(name="log", description="What happened in the last turns")
async def race_log(interaction: discord.Interaction) -> None:
    bot = host(interaction)
    await bot.answer(interaction, bot.service.reading.log(channel_of(interaction)), defer=False)


@race.command(name="recap", description="The race so far as an animation, turn by turn (posted here)")
@app_commands.describe(turns="only the last turns (the whole race if empty)", since="me: from your last decision on")
@app_commands.choices(since=[app_commands.Choice(name="my last decision", value="me")])
async def race_recap(
    interaction: discord.Interaction,
    turns: app_commands.Range[int, RECAP_TURNS.low, RECAP_TURNS.high] | None = None,
    since: str | None = None,
) -> None:
    bot = host(interaction)
    by = interaction.user.id if since == "me" else None
    recap = bot.service.recap.recap(channel_of(interaction), turns, by)
    await bot.answer(interaction, bot.pacts.with_ledger(channel_of(interaction), interaction.user.id, recap))


@race.command(name="help", description="How to play this channel's game (or another), and how to read the board")
@app_commands.autocomplete(game=game_autocomplete)
async def race_help(interaction: discord.Interaction, game: str | None = None) -> None:
    bot = host(interaction)
    await bot.answer(interaction, bot.service.reading.help(channel_of(interaction), game), defer=False)


@race.command(name="export", description="The race record as a file (replay it with domestique replay)")
async def race_export(interaction: discord.Interaction) -> None:
    bot = host(interaction)
    await bot.answer(interaction, bot.service.reading.export(channel_of(interaction), interaction.user.id))


@race.command(name="hand", description="What you keep hidden (only you see it, unless you share it with an ally)")
@app_commands.describe(share="an ally to show your hand to, privately")
async def race_hand(interaction: discord.Interaction, share: discord.Member | None = None) -> None:
    bot = host(interaction)
    channel = channel_of(interaction)
    if share is not None:
        work = bot.alliances.share_hand(channel, interaction.user.id, share.id)
    else:
        work = bot.service.reading.hand(channel, interaction.user.id)
    await bot.answer(interaction, work, defer=False)


@race.command(name="undo", description="Take back the last decision (host)")
async def race_undo(interaction: discord.Interaction) -> None:
    bot = host(interaction)
    await bot.answer(interaction, bot.service.reading.undo(channel_of(interaction), interaction.user.id))


@race.command(name="abort", description="Stop the race (host or Manage Channels)")
async def race_abort(interaction: discord.Interaction) -> None:
    perms = interaction.permissions
    bot = host(interaction)
    work = bot.service.reading.abort(
        channel_of(interaction), interaction.user.id, can_manage=bool(perms and perms.manage_channels)
    )
    await bot.answer(interaction, work, defer=False)


@race.command(name="resume", description="Carry on here a race whose channel was deleted (host)")
@app_commands.describe(race="The race's number, as the bot's private message about it says")
async def race_resume(
    interaction: discord.Interaction, race: app_commands.Range[int, RACE_NUMBER.low, RACE_NUMBER.high]
) -> None:
    bot = host(interaction)
    work = bot.service.waiting.resume_here(
        channel_of(interaction), interaction.guild_id or 0, interaction.user.id, race
    )
    await bot.answer(interaction, work, defer=False)


@race.command(name="back", description="Take your seat back from the AI")
async def race_back(interaction: discord.Interaction) -> None:
    bot = host(interaction)
    await bot.answer(interaction, bot.service.reading.back(channel_of(interaction), interaction.user.id), defer=False)


@in_own_language
async def piece_autocomplete(interaction: discord.Interaction, current: str) -> Choices:
    pieces = await host(interaction).service.core.piece_names(channel_of(interaction), interaction.user.id)
    return _matching(pieces, current)


@in_own_language
async def choice_autocomplete(interaction: discord.Interaction, current: str) -> Choices:
    piece = getattr(interaction.namespace, "piece", None)
    options = await host(interaction).service.core.choice_names(channel_of(interaction), interaction.user.id, piece)
    return _matching(options, current)


@play.command(name="move", description="Make your decision: pick it from the list as you type")
@app_commands.describe(choice="your choice (the list shows every legal one)", piece="narrow the list to one piece")
@app_commands.autocomplete(choice=choice_autocomplete, piece=piece_autocomplete)
async def play_move(interaction: discord.Interaction, choice: str, piece: str | None = None) -> None:
    bot = host(interaction)
    await bot.answer(interaction, bot.service.core.play(channel_of(interaction), interaction.user.id, choice, piece))


def register(tree: app_commands.CommandTree[Any]) -> None:
    tree.add_command(race)
    tree.add_command(play)
