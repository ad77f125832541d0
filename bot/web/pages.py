"""The pages' HTML, written on the server: no template engine, every text escaped, no inline script.

A time is written as ``<time datetime=...>`` in UTC; ``static/web.js`` shows it in the viewer's
time zone. The live part of the race page (``live_html``) is also what a live update swaps in.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterable, Sequence
from html import escape

from babel.dates import format_skeleton

from bot.web.language import NAMES
from bot.web.race_table import numbers_html
from bot.web.timeline import Timeline
from rules.i18n import LANGUAGES, N_, _, current, ngettext, pgettext

STATUS_WORDS = {
    "lobby": N_("in its lobby"),
    "running": N_("racing"),
    "finished": N_("finished"),
    "aborted": N_("stopped by its host"),
}


def when(seconds: float) -> str:
    """A moment, written on the server in the page's language, in UTC (the zone is unknown here);
    the script rewrites it in the viewer's own zone, in the same language."""
    moment = dt.datetime.fromtimestamp(seconds, dt.UTC)
    written = format_skeleton("yMMMd", moment, tzinfo=dt.UTC, locale=current()) + " " + moment.strftime("%H:%M")
    return f'<time datetime="{moment.isoformat()}">{escape(written)} UTC</time>'


def picture(base: str, path: str) -> str:
    """An image's address: the page's language is in it, so the image is the same for everyone who
    asks for that address (never the language of another page the browser read)."""
    return f"{base}/{path}?lang={current()}"


def _list(lines: Iterable[str], tag: str = "ul") -> str:
    items = "".join(f"<li>{escape(line)}</li>" for line in lines)
    return f"<{tag}>{items}</{tag}>" if items else ""


def _languages() -> str:
    """Links to the page in each language (the page's own address with ``?lang=``)."""
    links = [
        f"<strong>{NAMES[lang]}</strong>"
        if lang == current()
        else f'<a href="?lang={lang}" hreflang="{lang}">{NAMES[lang]}</a>'
        for lang in LANGUAGES
    ]
    return " · ".join(links)


NOT_LISTED = "noindex, nofollow"  # a page not made public: for the people given its link


def layout(title: str, body: str, *, data: str = "", image: str | None = None, public: bool = False) -> str:
    """A whole page. ``image``: the picture a link preview shows (an absolute address). Pages are
    not for search engines (a link is given to the race's people, not published) unless the host
    or organiser made the page ``public`` (``/race web public``)."""
    robots = "" if public else f'<meta name="robots" content="{NOT_LISTED}">'
    shows = escape(_("Domestique · this page shows only what the race's channel shows"))
    your_time = escape(_("your time"))
    preview = f'<meta property="og:title" content="{escape(title)}"><meta property="og:type" content="website">'
    if image is not None:
        preview += f'<meta property="og:image" content="{escape(image)}">'
    return (
        f'<!doctype html>\n<html lang="{current()}"><head><meta charset="utf-8">'
        '<meta name="viewport" content="width=device-width, initial-scale=1">'
        f"{robots}"
        f"<title>{escape(title)}</title>{preview}"
        '<link rel="icon" href="/favicon.ico" type="image/svg+xml">'
        '<link rel="stylesheet" href="/static/web.css"><script src="/static/web.js" defer></script>'
        f'</head><body{data} data-your-time="{your_time}">{body}'
        f"<footer>{shows}<br>{_languages()}</footer></body></html>\n"
    )


def alt_text(lines: Sequence[str], turn: int | None = None) -> str:
    """A board's text alternative: who is where."""
    where = "; ".join(lines) if lines else _("the pieces at the start")
    if turn is not None:
        return _("The board as turn {turn} begins: {where}", turn=turn, where=where)
    return _("The board now: {where}", where=where)


PHONE = "(max-width: 700px)"  # a screen that gets the board cut for it (renderer.phone)


def board_html(race: Timeline, base: str) -> str:
    """The board now, a tap to it at full size: a phone is given the map around the pieces, cut so
    its smallest label reads at 11 px or more (the page says the rest in words); a wider screen the
    whole board."""
    board = picture(base, f"board/{race.version}.png")
    phone = picture(base, f"phone/{race.version}.png")
    full = escape(_("the board at full size"))
    return (
        f'<a class="full" href="{board}" title="{full}"><picture>'
        f'<source media="{PHONE}" srcset="{phone}">'
        f'<img class="board" src="{board}" alt="{escape(alt_text(race.standings))}"></picture></a>'
    )


def live_html(race: Timeline, base: str) -> str:
    """The part of the race page that changes with every decision: the board, who acts, the standings."""
    turn = race.game.rules.turn(race.state) if race.state is not None else 0
    status = _(STATUS_WORDS[race.status]) if race.status in STATUS_WORDS else race.status
    said = escape(_("Turn {turn} · {status}", turn=turn, status=status))
    parts = [f'<p class="status">{said}</p>']
    if race.state is None:
        in_lobby = escape(_("In the lobby"))
        parts.append(f"<h2>{in_lobby}</h2>" + _list(race.players))
        return "".join(parts)
    parts.append(board_html(race, base))
    if race.waiting:
        due = ""
        if race.deadline is not None:
            due = " " + escape(_("Due {when}; then the AI decides.", when="\0")).replace("\0", when(race.deadline))
        now = escape(pgettext("web", "Now:"))
        parts.append(f'<p class="waiting"><strong>{now}</strong> {escape(race.waiting)}{due}</p>')
    told = [t for t in race.turns if t.lines]
    if told:  # what just happened, at the top
        heading = escape(_("Turn {n}", n=told[-1].number))
        parts.append(f'<p class="last-turn"><strong>{heading}:</strong> {escape("; ".join(told[-1].lines))}.</p>')
    standings = escape(pgettext("web", "Standings"))
    if race.finish:
        finish = escape(pgettext("web", "Finish"))
        parts.append(f"<h2>{finish}</h2>" + _list(race.finish, "ul"))
        parts.append(numbers_html(race, _("The race's numbers")))  # the finish table
        # the same pieces in the same order: folded under the finish
        parts.append(
            f'<details class="standings"><summary><h2>{standings}</h2></summary>{_list(race.standings)}</details>'
        )
    else:
        parts.append(f"<h2>{standings}</h2>" + numbers_html(race, "") + _list(race.standings))
    return "".join(parts)


SHOWN_TURNS = 2  # the race in words shows its newest turns; the others are a tap away


def words_html(race: Timeline, first: int = 1) -> str:
    """The race in words, newest turn first, from turn ``first`` on (the lines the channel posted):
    the last few turns shown, the earlier ones folded."""
    turns = [t for t in race.turns if t.number >= first and t.lines]
    if not turns:
        nothing = escape(_("Nothing has happened yet."))
        return f"<p>{nothing}</p>"
    items = []
    for t in reversed(turns):
        heading = escape(_("Turn {n}", n=t.number))
        items.append(
            f'<li id="turn-{t.number}" value="{t.number}"><strong>{heading}</strong>: '
            f"{escape('; '.join(t.lines))}.</li>"
        )
    shown = '<ol class="turns" reversed>' + "".join(items[:SHOWN_TURNS]) + "</ol>"
    if len(items) <= SHOWN_TURNS:
        return shown
    earlier = escape(ngettext("{n} earlier turn", "{n} earlier turns", len(items) - SHOWN_TURNS))
    rest = "".join(items[SHOWN_TURNS:])
    return (
        f'{shown}<details class="earlier"><summary>{earlier}</summary><ol class="turns" reversed>{rest}</ol></details>'
    )


def turn_alt(race: Timeline, number: int) -> str:
    """Who is where at the start of turn ``number`` (the replay board's text alternative)."""
    turn = next((t for t in race.turns if t.number == number), None)
    lines = [x.replace("**", "") for x in race.game.narration.status(turn.state)] if turn is not None else []
    return alt_text(lines, number)


def _turn_lines(race: Timeline, number: int) -> str:
    turn = next((t for t in race.turns if t.number == number), None)
    if turn is None or not turn.lines:
        return escape(_("Nothing happened yet."))
    return escape("; ".join(turn.lines) + ".")


def replay_html(race: Timeline, base: str, at: int) -> str:
    """A slider through every turn's board, the turn's moves beside it (links work without JavaScript)."""
    if not race.turns:
        return ""
    last = race.turns[-1].number
    first = race.turns[0].number
    at = min(max(at, first), last)
    links = " ".join(
        f'<a href="?lang={current()}&amp;turn={t.number}#replay" data-turn="{t.number}"'
        + (' aria-current="true"' if t.number == at else "")
        + f">{t.number}</a>"
        for t in race.turns
    )
    shown = escape(_("Turn {shown} of {last}", shown="\0", last="\1"))
    shown = shown.replace("\0", f'<output id="replay-shown">{at}</output>')
    shown = shown.replace("\1", f'<span id="replay-last">{last}</span>')
    words = {
        "nothing": escape(_("Turn {n}: nothing happened yet.", n="#")),
        "alt": escape(_("The board as turn {turn} begins", turn="#")),
        "replay": escape(_("Replay")),
        "back": escape(_("previous turn")),
        "next": escape(_("next turn")),
        "turn": escape(_("Turn {n}", n=at)),
        "turns": escape(_("Turns:")),
    }
    return (
        f'<section id="replay" data-base="{base}" data-nothing="{words["nothing"]}" data-alt-word="{words["alt"]}">'
        f"<h2>{words['replay']}</h2>"
        f'<label for="replay-turn">{shown}</label> '
        f'<button type="button" id="replay-back" aria-label="{words["back"]}">◀</button>'
        f'<input type="range" id="replay-turn" min="{first}" max="{last}" value="{at}">'
        f'<button type="button" id="replay-next" aria-label="{words["next"]}">▶</button>'
        f'<picture><source id="replay-phone" media="{PHONE}" srcset="{picture(base, f"phone/turn/{at}.png")}">'
        f'<img class="board" id="replay-board" src="{picture(base, f"turn/{at}.png")}" '
        f'alt="{escape(turn_alt(race, at))}"></picture>'
        f'<p id="replay-moves">{words["turn"]}: {_turn_lines(race, at)}</p>'
        f'<nav class="turn-links">{words["turns"]} {links}</nav></section>'
    )


def recap_html(race: Timeline, base: str) -> str:
    """The recap of a finished race, folded: its animation (a megabyte) is fetched only when opened
    (the script puts the picture in; without it, the summary's link opens the animation)."""
    if race.status != "finished":
        return ""
    recap, animated = escape(_("Recap")), escape(_("The race turn by turn, animated"))
    source = picture(base, "recap.gif")
    return (
        f'<details id="recap" data-src="{source}" data-alt="{animated}"><summary>{recap}</summary>'
        f'<p><a href="{source}">{animated}</a></p></details>'
    )


def race_page(
    race: Timeline,
    base: str,
    *,
    channel: str,
    turn: int | None,
    since: int | None,
    league: str | None = None,
    origin: str = "",
    public: bool = False,
) -> str:
    to_channel = escape(_("the race's Discord channel"))
    game_title = escape(_(race.game.title))
    to_league = ""
    if league is not None:
        its_league = escape(_("its league"))
        to_league = f' · <a href="{escape(league)}?lang={current()}">{its_league}</a>'
    body = [
        f"<header><h1>{escape(race.title)}</h1><p>{game_title} · "
        f'<a href="{escape(channel)}">{to_channel}</a>{to_league}</p></header><main>'
    ]
    body.append(f'<section id="live" aria-live="polite">{live_html(race, base)}</section>')
    if since is not None and race.turns:
        shown = [t for t in race.turns if t.number >= since]
        heading = escape(_("Since your last decision (turn {turn})", turn=since))
        body.append(f'<section id="catch-up"><h2>{heading}</h2>')
        for t in shown:
            number = escape(_("Turn {n}", n=t.number))
            body.append(
                f"<article><h3>{number}</h3>"
                f'<img class="board" src="{picture(base, f"turn/{t.number}.png")}" loading="lazy" '
                f'alt="{escape(turn_alt(race, t.number))}"><p>{_turn_lines(race, t.number)}</p></article>'
            )
        body.append("</section>")
    body.append(replay_html(race, base, turn if turn is not None else (race.turns[-1].number if race.turns else 1)))
    in_words = escape(_("The race in words"))
    body.append(f'<section id="words"><h2>{in_words}</h2>{words_html(race)}</section>')
    body.append(recap_html(race, base))
    body.append("</main>")
    live = race.status in ("lobby", "running")
    data = f' data-live="{base}/live" data-version="{race.version}" data-status="{race.status}"' if live else ""
    image = f"{origin}{picture(base, f'board/{race.version}.png')}" if origin and race.state is not None else None
    return layout(race.title, "".join(body), data=data, image=image, public=public)


def plain_page(status: int, text: str) -> str:
    return layout(f"{status}", f"<main><h1>{status}</h1><p>{escape(text)}</p></main>")
