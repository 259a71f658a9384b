"""One module per game, each defining ``GAME`` (a :class:`dealer_assist.engine.Game`)."""
