"""Write corpus records with the code of the checkout on PYTHONPATH (tests/records/README.md).

Run with an earlier commit's code first on the path, e.g.::

    git worktree add --detach /work/wt-old /commit/
    PYTHONPATH=/work/wt-old python tests/records/generate.py --label 2026-11-30-f440161 --out /tmp/corpus

Each race is played AI against AI by that code's ``simulate`` and written as one JSON file:
``{"played": {...}, "record": <the record>, "final": <that code's replay output, less its events>}``.
Only what every release since the first corpus had is used here (``bot.cli.sim.simulate``,
``rules.record``), so the script runs under old checkouts unchanged.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
from pathlib import Path

RACES: list[tuple[str, str | None, int]] = [
    # (game, stage or None for the game's usual one, players)
    ("leader1", None, 4),
    ("leader1", "random-8", 2),
    ("hell-of-the-north", None, 4),
    ("hell-of-the-north", "random-8", 2),
    ("formula-de-mini", None, 3),
    ("peloton", None, 3),
    ("peloton", "random-itt-25", 3),
    ("peloton", "random-ttt-25", 2),
]


def main() -> int:
    from bot.cli.sim import simulate
    from rules.record import load_record, replay

    parser = argparse.ArgumentParser()
    parser.add_argument("--label", required=True, help="the release's name in the file names")
    parser.add_argument("--out", required=True)
    parser.add_argument("--seeds", default="1-10")
    parser.add_argument("--only", default="", help="a game id: only its races")
    args = parser.parse_args()
    first, _, last = args.seeds.partition("-")
    seeds = range(int(first), int(last or first) + 1)
    code = Path(sys.modules["rules"].__file__ or ".").resolve().parent.parent
    commit, date = subprocess.run(
        ["git", "-C", str(code), "log", "-1", "--format=%H %cI"], capture_output=True, text=True
    ).stdout.split()
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    for game, stage, players in RACES:
        if args.only and game != args.only:
            continue
        for seed in seeds:
            try:
                record, _ = simulate(game, players=players, seed=seed, stage=stage)
            except Exception as exc:  # an old release's failure is reported, not fatal
                print(f"{game} {stage} {seed}: {exc}", file=sys.stderr)
                continue
            data = record.to_json()
            result = replay(load_record(json.dumps(data)))
            view = result.game.rules.public_view(result.state)
            view.pop("events", None)
            name = f"{args.label}-{game}-{stage or 'usual'}-{players}p-seed{seed}.json"
            doc = {"played": {"commit": commit, "date": date}, "record": data, "final": view}
            (out / name).write_text(json.dumps(doc, separators=(",", ":")) + "\n", encoding="utf-8")
            print(name, len(record.actions), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
