"""hell_of_the_north's boards: its painter (``painter.paint``) and what only it draws."""
