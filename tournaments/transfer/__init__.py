"""A whole tournament as one JSON document, and back: to move it between machines, or keep it.

The document (``"format": "crawford-tournament"``, ``"version": 2``) holds the
tournament, its events with their rounds, entries and byes, every match of its
events with its place, games, penalty points, board games (the engine's log),
disputes and arrivals, and the tournament's audit trail as history. Time (issue 28):
the tournament's lateness and clock settings, each round's start time and clocks, a
forfeit's reason and the penalties are optional keys with the defaults of before, as
each setting added since version 2 (a file written before them still reads the same);
a board's running clock is not carried (what a fallen flag cost is: a forfeit or a game).
Players are embedded once each, with their contact details, and named everywhere else
by a local key (``p1``, ``p2`` ...); events, matches and disputes too (``e1``, ``m1``,
``d1``). No id of the exporting database appears in it, so it imports anywhere.

The tournament carries its identity (``"uuid"``, since version 2): an import keeps it, so
the copy is the same tournament wherever it goes, and a site refuses a file of a tournament
it already holds (issue 25.3): its results, and its players' ratings, would count twice.
Exported from site A, imported into B and exported from B, it is still A's tournament, and
A refuses it; a tournament deleted is no longer held, and may be imported again. A version 1
document has no identity: it still imports (with a new one). Since a copy imported from
one has an identity of its own, a preview also names the tournaments of the same name and
date already here, for the director to judge. A site that reads only version 1 refuses a
version 2 document (update it first): it would import the tournament without its identity.

What is derived is not carried: ratings (re-derived after an import), scores,
brackets and standings. Nor are the accounts: directors, and who acted in the
trail, on the board and in disputes, are named by user name, and a file can name
anyone, so an import links none of them to an account of this site (issue 23.4):

- the trail is kept as the file's claims: each entry is marked imported, keeps the
  name and user name the file gives, and reads "According to the file: ...";
  the import's own entry is the only one by the importing account;
- the directors the file names are shown, and only those the importer ticks (among
  the accounts they may name, :func:`club.policy.directors_nameable`) direct the
  copy, with the importer;
- board actions and disputes of the copy name no account.

An export writes an imported entry as the file gave it (its user name and name),
so export, import and export again give the same trail; every importing site treats
a file's trail as claims anyway. Board actions and disputes of an imported tournament
are written with no account (``null``), as on a site that had none of the accounts.

The package, one subject a module:

- :mod:`.document`: the document's shape, once, as pydantic models; the export builds them,
  the import reads a file with them; :func:`.document.document_schema` is its JSON Schema
  (published at ``/api/v1/transfer.schema.json``, a copy in ``docs/transfer.schema.json``);
- :mod:`.reading`: a file's bytes into the models, or a refusal in plain words naming where;
- :mod:`.export`: :func:`tournament_export` reads the database into the document (a selector);
- :mod:`.checks`: what a document must satisfy beyond its shape (its keys, the rules: every
  match's games checked by the rules engine, every board game's log replayed as the board
  does);
- :mod:`.plan`: :func:`tournament_import_plan` reads and checks a document and says what it
  will create (the preview);
- :mod:`.writer`: :func:`tournament_import` writes it (a service: one transaction, an audit
  entry).

A document that is not one, is from a newer version, or breaks the rules is refused in plain
words before anything is written.
"""

from .document import (
    FORMAT,
    MAX_BYTES,
    VERSION,
    document_schema,
    document_schema_tag,
    document_schema_text,
)
from .export import tournament_export, tournament_export_text
from .plan import ImportPlan, tournament_here_refusal, tournament_import_plan
from .reading import document_read
from .writer import import_directors_offered, tournament_import

__all__ = [
    "FORMAT",
    "MAX_BYTES",
    "VERSION",
    "ImportPlan",
    "document_read",
    "document_schema",
    "document_schema_tag",
    "document_schema_text",
    "import_directors_offered",
    "tournament_export",
    "tournament_export_text",
    "tournament_here_refusal",
    "tournament_import",
    "tournament_import_plan",
]
