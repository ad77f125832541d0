"""The pages' HTML, written on the server: no template engine, every text escaped, no inline script.

A time is written as ``<time datetime=...>`` in UTC; ``static/web.js`` shows it in the viewer's
time zone. The live part of the race page (``live_html``) is also what a live update swaps in.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterable, Sequence
from html import escape

from bot.web.timeline import Timeline

STATUS_WORDS = {
    "lobby": "in its lobby",
    "running": "racing",
    "finished": "finished",
    "aborted": "stopped by its host",
}


def when(seconds: float) -> str:
    """A moment, in UTC for the reader without JavaScript; the script rewrites it in their own zone."""
    moment = dt.datetime.fromtimestamp(seconds, dt.UTC)
    return f'<time datetime="{moment.isoformat()}">{moment.strftime("%a %d %b %Y, %H:%M UTC")}</time>'


def _list(lines: Iterable[str], tag: str = "ul") -> str:
    items = "".join(f"<li>{escape(line)}</li>" for line in lines)
    return f"<{tag}>{items}</{tag}>" if items else ""


def layout(title: str, body: str, *, data: str = "") -> str:
    return (
        '<!doctype html>\n<html lang="en"><head><meta charset="utf-8">'
        '<meta name="viewport" content="width=device-width, initial-scale=1">'
        f"<title>{escape(title)}</title>"
        '<link rel="stylesheet" href="/static/web.css"><script src="/static/web.js" defer></script>'
        f"</head><body{data}>{body}<footer>Domestique · this page shows only what the race's channel shows"
        "</footer></body></html>\n"
    )


def alt_text(lines: Sequence[str], turn: int | None = None) -> str:
    """A board's text alternative: who is where."""
    head = f"The board at the start of turn {turn}" if turn is not None else "The board now"
    return f"{head}: " + ("; ".join(lines) if lines else "the riders at the start")


def live_html(race: Timeline, base: str) -> str:
    """The part of the race page that changes with every decision: the board, who acts, the standings."""
    parts = [
        f'<p class="status">Turn {race.game.rules.turn(race.state) if race.state is not None else 0}'
        f" · {STATUS_WORDS.get(race.status, race.status)}</p>"
    ]
    if race.state is None:
        parts.append("<h2>In the lobby</h2>" + _list(race.players))
        return "".join(parts)
    parts.append(f'<img class="board" src="{base}/board/{race.version}.png" alt="{escape(alt_text(race.standings))}">')
    if race.waiting:
        due = f" Due {when(race.deadline)}; then the AI decides." if race.deadline is not None else ""
        parts.append(f'<p class="waiting"><strong>Now:</strong> {escape(race.waiting)}{due}</p>')
    if race.finish:
        parts.append("<h2>Finish</h2>" + _list(race.finish))
    parts.append("<h2>Standings</h2>" + _list(race.standings))
    return "".join(parts)


def words_html(race: Timeline, first: int = 1) -> str:
    """The race in words, turn by turn, from turn ``first`` on (the lines the channel posted)."""
    turns = [t for t in race.turns if t.number >= first and t.lines]
    if not turns:
        return "<p>Nothing has happened yet.</p>"
    return (
        '<ol class="turns">'
        + "".join(
            f'<li id="turn-{t.number}" value="{t.number}"><strong>Turn {t.number}</strong>: '
            f"{escape('; '.join(t.lines))}.</li>"
            for t in turns
        )
        + "</ol>"
    )


def turn_alt(race: Timeline, number: int) -> str:
    """Who is where at the start of turn ``number`` (the replay board's text alternative)."""
    turn = next((t for t in race.turns if t.number == number), None)
    lines = [x.replace("**", "") for x in race.game.narration.status(turn.state)] if turn is not None else []
    return alt_text(lines, number)


def _turn_lines(race: Timeline, number: int) -> str:
    turn = next((t for t in race.turns if t.number == number), None)
    return escape("; ".join(turn.lines) + ".") if turn is not None and turn.lines else "Nothing happened yet."


def replay_html(race: Timeline, base: str, at: int) -> str:
    """A slider through every turn's board, the turn's moves beside it (links work without JavaScript)."""
    if not race.turns:
        return ""
    last = race.turns[-1].number
    first = race.turns[0].number
    at = min(max(at, first), last)
    links = " ".join(
        f'<a href="?turn={t.number}#replay" data-alt="{escape(turn_alt(race, t.number))}">{t.number}</a>'
        for t in race.turns
    )
    return (
        f'<section id="replay" data-base="{base}"><h2>Replay</h2>'
        f'<label for="replay-turn">Turn <output id="replay-shown">{at}</output> of '
        f'<span id="replay-last">{last}</span></label> '
        f'<button type="button" id="replay-back" aria-label="previous turn">◀</button>'
        f'<input type="range" id="replay-turn" min="{first}" max="{last}" value="{at}">'
        f'<button type="button" id="replay-next" aria-label="next turn">▶</button>'
        f'<img class="board" id="replay-board" src="{base}/turn/{at}.png" '
        f'alt="{escape(turn_alt(race, at))}">'
        f'<p id="replay-moves">Turn {at}: {_turn_lines(race, at)}</p>'
        f'<nav class="turn-links">Turns: {links}</nav></section>'
    )


def race_page(race: Timeline, base: str, *, channel: str, turn: int | None, since: int | None) -> str:
    body = [
        f"<header><h1>{escape(race.title)}</h1><p>{escape(race.game.title)} · "
        f'<a href="{escape(channel)}">the race\'s Discord channel</a></p></header><main>'
    ]
    body.append(f'<section id="live" aria-live="polite">{live_html(race, base)}</section>')
    if since is not None and race.turns:
        shown = [t for t in race.turns if t.number >= since]
        body.append(f'<section id="catch-up"><h2>Since your last decision (turn {since})</h2>')
        for t in shown:
            body.append(
                f"<article><h3>Turn {t.number}</h3>"
                f'<img class="board" src="{base}/turn/{t.number}.png" loading="lazy" '
                f'alt="{escape(turn_alt(race, t.number))}"><p>{_turn_lines(race, t.number)}</p></article>'
            )
        body.append("</section>")
    body.append(replay_html(race, base, turn if turn is not None else (race.turns[0].number if race.turns else 1)))
    body.append(f'<section id="words"><h2>The race in words</h2>{words_html(race)}</section>')
    if race.status == "finished":
        body.append(
            f'<section id="recap"><h2>Recap</h2><img class="board" src="{base}/recap.gif" loading="lazy" '
            'alt="The race turn by turn, animated"></section>'
        )
    body.append("</main>")
    live = race.status in ("lobby", "running")
    data = f' data-live="{base}/live" data-version="{race.version}" data-status="{race.status}"' if live else ""
    return layout(race.title, "".join(body), data=data)


def plain_page(status: int, text: str) -> str:
    return layout(f"{status}", f"<main><h1>{status}</h1><p>{escape(text)}</p></main>")
