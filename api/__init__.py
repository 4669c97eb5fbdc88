"""The read-only JSON API (``/api/v1/``): tournaments, events, rounds, standings, matches with
their score sheets, players and their ratings. It sits above every app and writes nothing."""
