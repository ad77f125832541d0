"""Domestique's Discord bot, its service layer and its command-line tools."""
