"""The game-approval dossier: what a gaming board is shown before a cardroom may spread a game.

The rules in our words with the rulings the game applies, the dealer's procedure and every
refusal the game gives (gathered by dealing sample hands and trying each input where it does not
belong), and the game's numbers by simulation at a table's settings, with 95% confidence
intervals, every simulated hand checked for conserved chips and replayed from its log.

Pure computation (no PDF, no database): :mod:`dealer_assist.reports.dossier` lays it out.
Each game says what is its own (:meth:`dealer_assist.engine.base.Game.dossier`, in the
declarations of :mod:`dealer_assist.engine.declare`).
"""
