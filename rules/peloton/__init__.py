"""Peloton: cyclists on roads of hexagons, speed in three parts, an acceleration dial and energy."""
