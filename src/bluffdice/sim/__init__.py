"""The batch simulator: many games at once between table policies, with numpy.

`mia_tables` and `liars_dice` hold the table policies (and the table forms of the built-in
bots that have one); `mia.MiaSim` and `liars_dice.LiarsDiceSim` play them. Each is
cross-checked against the rules engine in `tests/test_sim_*.py`.
"""
