"""Terminal play: a game-agnostic session plus one presenter per game."""
