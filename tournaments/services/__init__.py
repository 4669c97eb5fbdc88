"""Writing tournaments, events and entries, and making the draw: one module for what each
service writes.

- :mod:`.tournaments`: a tournament, its details and the settings a director sets for it;
- :mod:`.events`: an event and its settings (:func:`parse_lengths` reads a list of lengths);
- :mod:`.entries`: entries, check-in, withdrawal, reinstatement, a substitute;
- :mod:`.late`: a player who arrives after the draw;
- :mod:`.draws`: the draw, made again or taken back, and a round robin's schedule;
- :mod:`.swiss`: a Swiss's next round, and its cut to a knockout;
- :mod:`.requests`: players asking to enter, and a director's answer;
- :mod:`.rounds`: a round's start (its call) and clocks;
- :mod:`.arrivals`: a player arriving at a called match, and the lateness penalty.

Every service runs in one transaction, with a row lock and an audit entry. Import a service
from its module inside this app; this package names them all for the apps and tests above.
"""

from ._common import KEEP
from .arrivals import arrival_confirm, arrival_record, arrival_waive
from .draws import draw_order, event_draw, event_draw_undo, event_redraw
from .entries import (
    entry_check_in,
    entry_check_in_undo,
    entry_register,
    entry_reinstate,
    entry_substitute,
    entry_withdraw,
    event_check_in_all,
)
from .events import event_create, event_update, parse_lengths
from .late import entry_late_add
from .requests import entry_request_create, entry_request_decide, entry_request_sign_up
from .rounds import event_round, round_times_set
from .swiss import event_cut, event_pair_next_round
from .tournaments import (
    tournament_create,
    tournament_dice_allow,
    tournament_late_rounds_set,
    tournament_open_entry_set,
    tournament_reports_set,
    tournament_time_set,
    tournament_update,
)

__all__ = [
    "KEEP",
    "arrival_confirm",
    "arrival_record",
    "arrival_waive",
    "draw_order",
    "entry_check_in",
    "entry_check_in_undo",
    "entry_late_add",
    "entry_register",
    "entry_reinstate",
    "entry_request_create",
    "entry_request_decide",
    "entry_request_sign_up",
    "entry_substitute",
    "entry_withdraw",
    "event_check_in_all",
    "event_create",
    "event_cut",
    "event_draw",
    "event_draw_undo",
    "event_pair_next_round",
    "event_redraw",
    "event_round",
    "event_update",
    "parse_lengths",
    "round_times_set",
    "tournament_create",
    "tournament_dice_allow",
    "tournament_late_rounds_set",
    "tournament_open_entry_set",
    "tournament_reports_set",
    "tournament_time_set",
    "tournament_update",
]
