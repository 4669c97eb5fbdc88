"""What a chouette agreed before its first game: the cubes, the money options, the variants.

Every setting has the seed's rule as its default where the seed has one (Galore 3); the
variants clubs play (who keeps the box, winners moving up, the extra cubes) are club
practice. The settings travel as JSON (the site stores :meth:`ChouetteSettings.to_dict`).

>>> settings = ChouetteSettings(cubes=CubeMode.MULTIPLE, partner_from=None)
>>> ChouetteSettings.from_dict(settings.to_dict()) == settings
True
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from enum import Enum

from ..errors import RulesError
from ..messages import Message
from ..money import MoneyRules
from ..position import Variation

__all__ = ["BoxKeeping", "ChouetteSettings", "Consultation", "CubeMode"]


class CubeMode(Enum):
    """One cube for the whole team (Galore 3.3) or a cube for each member (Galore 3.5)."""

    SINGLE = "single"
    MULTIPLE = "multiple"


class Consultation(Enum):
    """Whether the members may advise the captain (Galore 3.2): stored and shown, not enforced."""

    FREE = "free"
    FORBIDDEN = "forbidden"
    AFTER_CUBE = "after-cube"


class BoxKeeping(Enum):
    """When the box keeps the box after a game.

    CAPTAIN (the seed, Galore 3.1 and 3.5): unless it lost against the captain;
    NET (club practice): unless its net result of the game is negative.
    """

    CAPTAIN = "captain"
    NET = "net"


@dataclass(frozen=True, slots=True)
class ChouetteSettings:
    """The options of one chouette (or of a two-player money session, a chouette of two).

    ``winners_move_up``: members who beat the box go ahead of those who lost (club practice);
    ``last_must_drop``: with 5 or more players, when all members but one drop the box's
    double the last one must drop too (Galore 3.4, single cube); ``extra_cubes``: a lone
    taker of the box's first double must accept a 2-cube from any member who dropped
    (Galore 3.4); ``partner_from``: the number of players from which the box may have a
    partner (Galore 3.6: 8), None for never.
    """

    cubes: CubeMode = CubeMode.SINGLE
    money: MoneyRules = field(default_factory=MoneyRules)
    consultation: Consultation = Consultation.FREE
    box_keeping: BoxKeeping = BoxKeeping.CAPTAIN
    winners_move_up: bool = False
    last_must_drop: bool = True
    extra_cubes: bool = False
    partner_from: int | None = 8

    def __post_init__(self) -> None:
        if self.partner_from is not None and (
            isinstance(self.partner_from, bool)
            or not isinstance(self.partner_from, int)
            or self.partner_from < 3
        ):
            raise RulesError(
                Message("chouette-partner-from", {"count": str(self.partner_from)}),
                rule="Galore 3.6",
            )

    def to_dict(self) -> dict[str, object]:
        """The settings as plain data (JSON)."""
        money = self.money
        return {
            "cubes": self.cubes.value,
            "money": {
                "jacoby": money.jacoby,
                "beavers": money.beavers,
                "variation": money.variation.value,
                "raccoons": money.raccoons,
                "automatic_doubles": money.automatic_doubles,
                "max_cube": money.max_cube,
            },
            "consultation": self.consultation.value,
            "box_keeping": self.box_keeping.value,
            "winners_move_up": self.winners_move_up,
            "last_must_drop": self.last_must_drop,
            "extra_cubes": self.extra_cubes,
            "partner_from": self.partner_from,
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, object]) -> ChouetteSettings:
        """The settings :meth:`to_dict` gave; a missing key takes its default."""
        default = cls()
        try:
            if not isinstance(data, Mapping):
                raise TypeError(data)
            money_data = data.get("money", {})
            if not isinstance(money_data, Mapping):
                raise TypeError("money")
            base = default.money
            money = MoneyRules(
                jacoby=_flag(money_data, "jacoby", base.jacoby),
                beavers=_flag(money_data, "beavers", base.beavers),
                variation=Variation(money_data.get("variation", base.variation.value)),
                raccoons=_flag(money_data, "raccoons", base.raccoons),
                automatic_doubles=_whole(money_data, "automatic_doubles", base.automatic_doubles),
                max_cube=_optional_whole(money_data, "max_cube", base.max_cube),
            )
            return cls(
                cubes=CubeMode(data.get("cubes", default.cubes.value)),
                money=money,
                consultation=Consultation(data.get("consultation", default.consultation.value)),
                box_keeping=BoxKeeping(data.get("box_keeping", default.box_keeping.value)),
                winners_move_up=_flag(data, "winners_move_up", default.winners_move_up),
                last_must_drop=_flag(data, "last_must_drop", default.last_must_drop),
                extra_cubes=_flag(data, "extra_cubes", default.extra_cubes),
                partner_from=_optional_whole(data, "partner_from", default.partner_from),
            )
        except (TypeError, ValueError) as error:
            if isinstance(error, RulesError):
                raise
            raise RulesError(
                Message("chouette-settings-data", {"data": repr(data)[:200]})
            ) from None


def _flag(data: Mapping[str, object], name: str, default: bool) -> bool:
    value = data.get(name, default)
    if not isinstance(value, bool):
        raise TypeError(name)
    return value


def _whole(data: Mapping[str, object], name: str, default: int) -> int:
    value = data.get(name, default)
    if isinstance(value, bool) or not isinstance(value, int):
        raise TypeError(name)
    return value


def _optional_whole(data: Mapping[str, object], name: str, default: int | None) -> int | None:
    value = data.get(name, default)
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, int):
        raise TypeError(name)
    return value
