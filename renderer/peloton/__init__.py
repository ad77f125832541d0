"""peloton's boards: its painter (``painter.paint``) and what only it draws."""
