"""Exact odds (Fractions) for every rule set: `odds.mia` for Mia, `odds.binomial` for
Liar's Dice bids. Built on the pure engine; no I/O except `odds.plot`, which draws charts.
"""
