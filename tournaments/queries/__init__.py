"""Reading tournaments, events and players: what the pages, the API and the services read.

Nothing here writes (writes are :mod:`tournaments.services`). One module for each subject:
``events`` (lists, entries, matches, rounds), ``knockouts`` (a knockout's state and placings),
``brackets`` (the bracket as drawn), ``standings`` (Swiss and round robin), ``progress``
(where an event or a tournament stands), ``players`` (the club's lists, a player's page).
"""
