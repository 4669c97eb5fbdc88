"""Crawford's rules engine: backgammon positions, legal plays, the cube and match scoring.

Standard library only, so it can run anywhere a director has Python, and be
asked every rules question by the site without the site restating a rule.
"""

from .errors import (
    AmbiguousPlayError,
    IllegalActionError,
    IllegalPlayError,
    InvalidDiceError,
    InvalidMatchIdError,
    InvalidMatchLengthError,
    InvalidPlayError,
    InvalidPositionError,
    InvalidPositionIdError,
    InvalidXgidError,
    MatchOverError,
    RulesError,
)
from .movegen import legal_plays
from .play import Play, Step
from .position import Position

__all__ = [
    "AmbiguousPlayError",
    "IllegalActionError",
    "IllegalPlayError",
    "InvalidDiceError",
    "InvalidMatchIdError",
    "InvalidMatchLengthError",
    "InvalidPlayError",
    "InvalidPositionError",
    "InvalidPositionIdError",
    "InvalidXgidError",
    "MatchOverError",
    "Play",
    "Position",
    "RulesError",
    "Step",
    "legal_plays",
]
