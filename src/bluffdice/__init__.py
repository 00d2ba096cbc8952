"""bluffdice: Mia and Liar's Dice on one exact rules engine."""

__version__ = "0.1.0"
