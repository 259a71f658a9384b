"""What the three-row games (Open-Face Chinese Poker, Chinese Poker) share: the rows, their
ranking and fouls, royalties, player-to-player scoring and settlement, and the ``set`` event."""
