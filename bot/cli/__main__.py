"""``python -m bot.cli``: the ``domestique`` command."""

from bot.cli import main

raise SystemExit(main())
