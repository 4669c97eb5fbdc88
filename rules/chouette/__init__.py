"""The chouette (Galore 3), and money play between two players as a chouette of two.

Standard library only, immutable values, pure functions: a session is rebuilt from its
events (:func:`replay`), each refusal cites its rule, and the ledger of every game sums
to zero. See docs/chouette.md for the rules as the engine applies them.
"""

from .cubes import ExtraCube, MemberCube
from .describe import describe, describe_settings
from .events import (
    Answer,
    AutomaticDouble,
    Back,
    BoxAnswers,
    BoxDoubles,
    Deal,
    End,
    Event,
    ExtraAnswer,
    ExtraDouble,
    ExtraRedouble,
    Join,
    Leave,
    MemberDoubles,
    Opening,
    Partner,
    Raccoon,
    Rest,
    StartGame,
    UndoGame,
    from_dict,
)
from .lineup import Lineup
from .session import Chouette, ChouetteReplayError, replay
from .settings import BoxKeeping, ChouetteSettings, Consultation, CubeMode
from .state import GameRecord, GameState

__all__ = [
    "Answer",
    "AutomaticDouble",
    "Back",
    "BoxAnswers",
    "BoxDoubles",
    "BoxKeeping",
    "Chouette",
    "ChouetteReplayError",
    "ChouetteSettings",
    "Consultation",
    "CubeMode",
    "Deal",
    "End",
    "Event",
    "ExtraAnswer",
    "ExtraCube",
    "ExtraDouble",
    "ExtraRedouble",
    "GameRecord",
    "GameState",
    "Join",
    "Leave",
    "Lineup",
    "MemberCube",
    "MemberDoubles",
    "Opening",
    "Partner",
    "Raccoon",
    "Rest",
    "StartGame",
    "UndoGame",
    "describe",
    "describe_settings",
    "from_dict",
    "replay",
]
