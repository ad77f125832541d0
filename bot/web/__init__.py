"""The web pages of races and leagues (``docs/web.md``): served beside the bot, by a process of their own.

``timeline`` reads a race as the public channel shows it, ``pages`` writes HTML, ``app`` routes
requests (``guard``: headers, sizes, rate limit), ``server`` starts and stops it, ``process`` runs
it in a child process of the bot's (started again if it ends, ended with the bot), ``links`` makes
the URLs the bot posts.
"""
