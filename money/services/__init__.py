"""Writing tables: money sessions and chouettes.

- :mod:`.tables`: a table started, players seated, its events recorded and corrected,
  stakes set, the table closed.

Every service runs in one transaction, with the table's row locked, the policy asked again,
and an audit entry. This package names them for the views, the demo and the tests.
"""

from ._log import TableChanged
from .tables import (
    table_act,
    table_close,
    table_correct,
    table_join,
    table_set_stake,
    table_start,
)

__all__ = [
    "TableChanged",
    "table_act",
    "table_close",
    "table_correct",
    "table_join",
    "table_set_stake",
    "table_start",
]
