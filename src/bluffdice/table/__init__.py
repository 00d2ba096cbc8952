"""The one authority that runs a game: dice, seats, clock, moves from outside."""
