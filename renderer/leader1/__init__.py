"""leader1's boards: its painter (``painter.paint``) and what only it draws."""
