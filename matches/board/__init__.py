"""The site's board: games played through the rules engine, one action a request.

- :mod:`.service` applies actions and keeps each game's log (the record);
- :mod:`.drawing` turns a position into SVG shapes and places to click;
- :mod:`.log` lists a game's actions with the board after each;
- :mod:`.views` are the pages and the actions' URLs.
"""
