"""One member's cube against the box, and the extra cubes of Galore 3.4, as plain values.

Each member plays the box for their own cube, even under a single cube (Galore 3.3), where
the box doubles every member at once and the team doubles through its acting captain, and
beavers (Galore 2.8) or raccoons (Galore 5.4) can still set one member's cube apart.

An offer waits on ``offered_by``'s side; the other side answers. ``value`` is always the
cube already accepted, so a drop pays ``value`` to the side that offered. A beaver takes
the double and at once offers the redouble, keeping the cube (``beavered``); the original
doubler takes or drops it, or turns it again with a raccoon (``raccooned``), which the
beaverer then takes or drops. During these immediate redoubles the cube keeps its owner.

>>> cube = MemberCube().offered(BOX).beaver()
>>> cube.value, cube.owner, cube.offered_by, cube.answerer
(2, 'member', 'member', 'box')
>>> cube.taken().value, cube.taken().owner
(4, 'member')
"""

from __future__ import annotations

from dataclasses import dataclass, replace

__all__ = ["BOX", "MEMBER", "TAKER", "ExtraCube", "MemberCube", "other_side"]

BOX, MEMBER, TAKER = "box", "member", "taker"


def other_side(side: str) -> str:
    """The box's opponent is the member, and the member's the box."""
    return MEMBER if side == BOX else BOX


@dataclass(frozen=True, slots=True)
class MemberCube:
    """A member's cube: ``owner`` is "box", "member" or None (in the centre)."""

    value: int = 1
    owner: str | None = None
    turned: bool = False
    offered_by: str | None = None
    beavered: bool = False
    raccooned: bool = False

    @property
    def pending(self) -> bool:
        """Whether an offer waits for an answer."""
        return self.offered_by is not None

    @property
    def answerer(self) -> str | None:
        """The side that must answer now, if any."""
        return None if self.offered_by is None else other_side(self.offered_by)

    def may_double(self, side: str) -> bool:
        """Whether ``side`` may offer this cube now: it owns it or it is in the centre."""
        return not self.pending and self.owner in (None, side)

    def offered(self, side: str) -> MemberCube:
        """``side`` offers the cube at twice its value."""
        return replace(self, offered_by=side)

    def taken(self) -> MemberCube:
        """The offer accepted: the taker owns the cube, except after immediate redoubles."""
        answerer = self.answerer
        immediate = self.beavered or self.raccooned
        owner = self.owner if immediate else answerer
        return MemberCube(value=self.value * 2, owner=owner, turned=True)

    def beaver(self) -> MemberCube:
        """The double taken and at once redoubled by the taker, who keeps the cube."""
        answerer = self.answerer
        return MemberCube(
            value=self.value * 2, owner=answerer, turned=True, offered_by=answerer, beavered=True
        )

    def raccoon(self) -> MemberCube:
        """The beaver taken and at once turned again by the original doubler (Galore 5.4)."""
        return replace(
            self, value=self.value * 2, offered_by=self.answerer, beavered=False, raccooned=True
        )

    def automatic(self) -> MemberCube:
        """An automatic double: twice the value, owned by nobody, not turned (Galore 2.8)."""
        return replace(self, value=self.value * 2, owner=None)


@dataclass(frozen=True, slots=True)
class ExtraCube:
    """An extra cube between a member who dropped and the lone taker (Galore 3.4).

    ``owner`` is "member" or "taker"; ``offered_by`` the side whose redouble waits.
    """

    member: str
    taker: str
    value: int
    owner: str
    offered_by: str | None = None

    @property
    def answerer(self) -> str | None:
        """Who must answer the redouble: the member's id or the taker's."""
        if self.offered_by is None:
            return None
        return self.member if self.offered_by == TAKER else self.taker
