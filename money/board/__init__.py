"""A money table's games played on the site's board.

- :mod:`.state` rebuilds a game's board from its moves and the chouette's cubes;
- :mod:`.service` checks and saves each action (moves, and chouette events through
  :func:`money.services.table_act`);
- :mod:`.views` (and :mod:`.forms`) are the page and its action URL, drawn with
  :mod:`matches.board.drawing`.
"""
