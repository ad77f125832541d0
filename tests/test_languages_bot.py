"""Who reads which language (issue 27): a manager sets the server's public language, private
messages go out in the recipient's language, and the words that are built (ordinals, durations)
follow each language's own rules."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import discord

from bot.service.away import ordinal
from bot.service.common import choice_key
from bot.service.durations import duration, in_words
from bot.service.languages import Languages
from bot.storage.sqlite import SqliteStorage
from rules.i18n import _, speaking
from rules.registry import find_game
from tests.support.discord_play import answer, member_of
from tests.support.languages import english_in, locales

NAMES = ("anna", "petr", "mara", "bob", "Kerékpár", "verseny")


def reply(result: Any) -> Any:
    return result.response or result.followups[0]


async def test_a_manager_sets_the_servers_public_language_and_others_are_refused(simcord_env, monkeypatch) -> None:
    guild = simcord_env.create_guild("Kerékpár", preferred_locale="hu")
    channel = guild.create_text_channel("verseny")
    managers = guild.create_role("managers", permissions=discord.Permissions(manage_guild=True))
    mara = guild.add_member(simcord_env.create_user("mara"), roles=[managers])
    bob = guild.add_member(simcord_env.create_user("bob"))
    locales(monkeypatch, {mara.id: "en-US", bob.id: "cs"})
    refused = await bob.slash(channel, "race language", language="en")
    assert refused.ephemeral and reply(refused).content == (
        "Jazyk závodů tohoto serveru volí jen ten, kdo může server spravovat."  # in bob's own language
    )
    opened = await bob.slash(channel, "race new", game="leader1")
    assert "Csatlakozz a menüvel" in reply(opened).content  # still the server's Hungarian
    await bob.slash(channel, "race abort")
    chosen = await mara.slash(channel, "race language", language="cs")
    assert not chosen.ephemeral and reply(chosen).content.startswith(
        "Závody na tomto serveru teď mluví jazykem: Čeština."
    )
    opened = await bob.slash(channel, "race new", game="leader1")
    lobby = reply(opened)
    assert "Připoj se nabídkou" in lobby.content and not english_in(lobby.content, NAMES)
    buttons = [c["label"] for row in lobby.components for c in row["components"] if c.get("label")]
    assert "Připojit se" in buttons and "Přidat počítačového hráče" in buttons
    back = await mara.slash(channel, "race language", language="auto")  # Discord's preferred locale again
    assert reply(back).content.startswith("A szerver versenyei mostantól a szerver Discordban beállított nyelvén")
    left = await bob.slash(channel, "race leave")
    assert "kilép a versenyből" in reply(left).content


async def test_a_private_message_is_in_the_recipients_language(simcord_env, monkeypatch) -> None:
    """A Hungarian server: petr (Czech client) is told of his turns by private message, in Czech;
    anna (Hungarian client) in Hungarian; the reminder by private message too."""
    guild = simcord_env.create_guild("Kerékpár", preferred_locale="hu")
    channel = guild.create_text_channel("verseny")
    anna = guild.add_member(simcord_env.create_user("anna"))
    petr = guild.add_member(simcord_env.create_user("petr"))
    locales(monkeypatch, {anna.id: "hu", petr.id: "cs"})
    for member in (anna, petr):
        await member.slash(channel, "race notify", how="dm")
    await anna.slash(channel, "race new", game="leader1", pieces=1, timer="1 hour")
    await petr.slash(channel, "race join")
    await anna.slash(channel, "race start")
    game = find_game("leader1")
    members = {"anna": anna, "petr": petr}
    for _turn in range(12):  # a few decisions each, by the buttons of the public prompts (or typed)
        race = await simcord_env.bot.storage.active_race(channel.id)
        state = await simcord_env.bot.service.core.state_of(race)
        decision = game.rules.pending(state)
        offered = game.rules.choices(state, decision.player)
        index = next(i for i, c in enumerate(offered) if c.action == game.ai(state, decision.player))
        prompt = next(m for m in reversed(channel.history()) if m.components and m.author.bot)
        actor = member_of(members, decision.player)
        if offered[index].anytime or not await answer(actor, prompt, index):  # a two-step choice: typed
            await actor.slash(channel, "play move", choice=choice_key(offered[index]), piece=offered[index].piece)
    czech = [m.content for m in petr.user.dm_channel.history() if m.author.bot]
    hungarian = [m.content for m in anna.user.dm_channel.history() if m.author.bot]
    assert czech and all(t.startswith("Z: Kerékpár · #verseny (https://discord.com/channels/") for t in czech)
    assert all("**Závod 1 · První závod**: " in t for t in czech)
    assert any("Jsi na tahu v tomto kole" in t for t in czech) and any(
        "Od tvého posledního rozhodnutí: " in t for t in czech
    )
    assert hungarian and all(t.startswith("Innen: Kerékpár · #verseny") for t in hungarian)
    assert all("**1. verseny · Első verseny**: " in t for t in hungarian)
    assert any("Te jössz ebben a körben" in t for t in hungarian)
    assert [t for t in czech + hungarian if english_in(t, NAMES)] == []
    # the reminder, half way to the deadline, by private message in the recipient's language
    race = await simcord_env.bot.storage.active_race(channel.id)
    waiting = member_of(members, game.rules.pending(await simcord_env.bot.service.core.state_of(race)).player)
    await simcord_env.advance_time(40 * 60)
    told = [m.content for m in waiting.user.dm_channel.history() if m.author.bot][-1]
    words = "připomínka, tvé rozhodnutí" if waiting is petr else "emlékeztető, a döntésed határideje"
    assert words in told, told
    shown = [m.content for m in channel.history() if m.author.bot][-1]
    assert "emlékeztető: a döntésed határideje" in shown  # the channel's line: the server's Hungarian


def test_ordinals_and_durations_are_said_as_each_language_says_them() -> None:
    with speaking("en"):
        assert [ordinal(n) for n in (1, 2, 3, 4, 11, 12, 13, 21, 22, 101, 111)] == [
            "1st", "2nd", "3rd", "4th", "11th", "12th", "13th", "21st", "22nd", "101st", "111th",
        ]  # fmt: skip
        assert (in_words(86400), in_words(5400), in_words(604800), in_words(60)) == (
            "24 hours", "90 minutes", "7 days", "1 minute",
        )  # fmt: skip
        assert duration(7500) == "2 h 05 min"
    with speaking("hu"):
        assert [ordinal(n) for n in (1, 2, 3, 11)] == ["1.", "2.", "3.", "11."]
        assert (in_words(604800), in_words(5400)) == ("7 nap", "90 perc")
        assert duration(7500) == "2 óra 05 perc" and duration(2 * 86400 + 23 * 3600) == "2 nap 23 óra"  # issue 38
    with speaking("cs"):
        assert [ordinal(n) for n in (1, 2, 3, 11)] == ["1.", "2.", "3.", "11."]
        # Czech has three plural forms: 1, 2-4, 5 and more
        assert [in_words(n * 86400) for n in (2, 4, 5)] == ["2 dny", "4 dny", "5 dní"]
        assert [in_words(n * 60) for n in (1, 3, 90)] == ["1 minuta", "3 minuty", "90 minut"]


async def test_languages_are_remembered_in_storage(tmp_path: Path) -> None:
    """A server's locale and a person's, as last seen, and the manager's choice survive a restart."""
    storage = SqliteStorage(str(tmp_path / "bot.db"))
    await storage.open()
    languages = Languages(storage)
    assert await languages.public(5) == "en" and await languages.private(7) == "en"  # nothing seen yet
    await languages.seen(5, "hu", 7, "cs")
    assert await languages.public(5) == "hu" and await languages.private(7) == "cs"
    assert await languages.choose(5, "cs") == "cs"
    await storage.close()
    again = SqliteStorage(str(tmp_path / "bot.db"))
    await again.open()
    fresh = Languages(again)
    assert await fresh.public(5) == "cs" and await fresh.private(7) == "cs" and await fresh.chosen(5) == "cs"
    assert await fresh.choose(5, "auto") == "hu"  # Discord's preferred locale of the server again
    await fresh.seen(5, "en-GB", 7, "pt-BR")  # a language Domestique lacks: English
    assert await fresh.public(5) == "en" and await fresh.private(7) == "en"
    await again.close()


def test_the_english_scan_finds_the_bots_own_english_and_passes_its_translation() -> None:
    """The scan the races above rely on: an unwrapped line of the bot's is English, its translation is not."""
    assert english_in("Thanks for racing, <@1>.") == ["Thanks for racing", "Thanks", "racing"]
    assert english_in("Join with the menu (a colour) or the button, or /race join; the host starts with /race start.")
    for language in ("hu", "cs"):
        with speaking(language):
            said = [_("Thanks for racing, {people}.", people="<@1>"), _("Podium: {placings}", placings="1. anna")]
        assert [t for t in said if english_in(t, NAMES)] == [], said
