"""Bounds on a game's size shared by the readable rules and the Cython core, defined once:
most seats, most bout starts remembered, most table cards, most legal moves; and most games
in a match, which only the readable side needs.

The build (setup.py) hands each name of `C_CONSTANTS` to the C compiler as
`TAN_<NAME>`, where the core sizes its arrays by them; the readable engine and
the rules read them from here.
"""

from __future__ import annotations

__all__ = ["C_CONSTANTS", "HISTORY_CAP", "MAX_MATCH_GAMES", "MAX_MOVES", "MAX_SEATS", "MAX_TABLE"]

# Most seats at one table (docs/rules.md §1.6).
MAX_SEATS = 6
# Most bout starts recorded for the repetition rule between two defences or
# draws; the next bout start is a draw (docs/rules.md, "Repetition").
HISTORY_CAP = 512
# Most cards on the table in one bout: the whole deck (no cap, big hands).
MAX_TABLE = 52
# Most legal moves in one state: 1 take + defences (at most 13 beaters for
# each of 26 undefended cards is far more than a hand allows) + transfers;
# a bound with room to spare for the core's move buffers.
MAX_MOVES = 256

# Most games in one match (docs/rules.md §1.9): a match, a position's match block and the
# service's `POST /v1/games` all stop here.
MAX_MATCH_GAMES = 100

C_CONSTANTS = ("MAX_SEATS", "HISTORY_CAP", "MAX_TABLE", "MAX_MOVES")
