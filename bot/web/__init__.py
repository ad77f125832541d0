"""The web pages of races and leagues (``docs/web.md``): served by the bot's own process on its aiohttp.

``timeline`` reads a race as the public channel shows it, ``pages`` writes HTML, ``app`` routes
requests (``guard``: headers, sizes, rate limit), ``server`` starts and stops it, ``links`` makes
the URLs the bot posts.
"""
