"""Interfaces for learning agents: fixed action indices and observation vectors
(`spaces`), a PettingZoo AEC environment (`pettingzoo_env`, the `rl` extra) and OpenSpiel
Python games (`openspiel_game`, the `bench` extra). See docs/research.md."""
