"""``/health``: is the bot alive? Read from the reports each bot process writes (``bot/discord_layer/health.py``).

200 with ``"ok": true`` when the database answers and every process that reported lately has its
gateway connected and its timer loop running; 503 otherwise, with what is wrong. A process whose
report is older than three of its intervals counts as not alive. The outbox's depth is read here,
from the database, so it is right whatever process wrote the rows.
"""

from __future__ import annotations

import time
from typing import Any

from aiohttp import web

from bot.storage import Storage
from bot.storage.health_tables import REPORT_EVERY

STALE = 3 * REPORT_EVERY


async def health_report(storage: Storage, now: float | None = None) -> tuple[bool, dict[str, Any]]:
    """(healthy, the report) as ``/health`` shows it."""
    now = time.time() if now is None else now
    problems: list[str] = []
    try:
        reports = await storage.health_reports()
        depth = await storage.outbox_depth()
    except Exception as exc:
        return False, {"ok": False, "database_reachable": False, "problems": [f"database: {type(exc).__name__}"]}
    processes = []
    for name, at, report in reports:
        age = round(now - at, 1)
        alive = age <= STALE
        if alive and not report.get("gateway_connected"):
            problems.append(f"{name}: gateway not connected")
        if alive and not report.get("timer_loop_running"):
            problems.append(f"{name}: timer loop stopped")
        if not alive:
            problems.append(f"{name}: no report for {age:.0f} s")
        processes.append({"process": name, "report_age_s": age, "alive": alive, **report})
    if not processes:
        problems.append("no bot process has reported")
    body = {
        "ok": not problems,
        "database_reachable": True,
        "outbox_depth": depth,
        "problems": problems,
        "processes": processes,
    }
    return not problems, body


def health_route(storage: Storage) -> web.RouteDef:
    async def health(_request: web.Request) -> web.Response:
        healthy, body = await health_report(storage)
        response = web.json_response(body, status=200 if healthy else 503)
        response.headers["Cache-Control"] = "no-store"
        return response

    return web.get("/health", health)
