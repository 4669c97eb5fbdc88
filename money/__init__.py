"""Money sessions and chouettes: tables where players play for points at a stake.

A table's record is its log of the chouette engine's events (:mod:`rules.chouette`); the
lineup, the cubes, the games and every total are derived by replaying it, never stored.
"""
