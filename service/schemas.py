"""Request and response models of the HTTP API (docs/api.md §2, §3), with examples for `/docs`.

Request models are strict and refuse unknown fields: their shape is checked
here (a wrong type is a 422 `invalid_request` naming the field), their meaning
by the solver (`Position.from_json`, `Move.parse`, `Rules.from_json`,
`Limits`), which answers with docs/api.md §3's stable codes. Response models document
the answers; handlers return the solver's own `to_json()` shapes.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, WithJsonSchema, create_model

from solver.game.bounds import MAX_MATCH_GAMES, MAX_SEATS
from solver.game.errors import Refusal
from solver.game.moves import Action
from solver.game.phases import Chance, LeadReason
from solver.game.position import POSITION_FIELDS
from solver.game.rules import PRESETS, RULE_OPTIONS
from solver.players import ENGINES
from solver.search import ALGORITHMS
from solver.search.beliefs import KINDS
from solver.search.config import OPTIONS as SEARCH_OPTIONS
from solver.search.lines import PV
from solver.search.review import LABELS, Label

# A game's or a job's id is URL-safe base64 (`secrets.token_urlsafe`): anything else names none, and
# is refused (422) before the store sees it (a NUL made PostgreSQL's driver raise: a 500).
ID_PATTERN = r"^[A-Za-z0-9_-]+$"

__all__ = [
    "RECORD_ANSWERS",
    "AnalysisResponse",
    "AnalyzeRequest",
    "ConvertRequest",
    "ConvertResponse",
    "EvaluateRequest",
    "EvaluateResponse",
    "FollowedResponse",
    "GameCreateRequest",
    "GameCreatedResponse",
    "GameMoveRequest",
    "GameResponse",
    "HealthResponse",
    "HintRequest",
    "HintResponse",
    "JobResponse",
    "LimitsIn",
    "MoveInput",
    "MovesRequest",
    "MovesResponse",
    "NextRequest",
    "NextResponse",
    "PositionIn",
    "ReadyResponse",
    "RecordFormat",
    "RecordIn",
    "RulesResponse",
]

MAX_SEED = 2**63 - 1
DEFAULT_ALGORITHM = next(iter(ALGORITHMS))  # the search a request names none of

if TYPE_CHECKING:
    AlgorithmName = str
    ActionName = str
    LabelName = str
    RefusalName = str
    ChanceName = str
    LeadReasonName = str
    KindName = str
else:  # Literals of the solver's own lists, so that a new entry is in the schema at once
    AlgorithmName = Literal[tuple(ALGORITHMS)]
    ActionName = Literal[tuple(action.value for action in Action)]
    LabelName = Literal[tuple(label.value for label in Label)]
    RefusalName = Literal[tuple(reason.value for reason in Refusal)]
    ChanceName = Literal[tuple(chance.value for chance in Chance)]
    LeadReasonName = Literal[tuple(reason.value for reason in LeadReason)]
    KindName = Literal[tuple(kind.name for kind in KINDS)]


def _quoted(names: Any) -> str:
    return ", ".join(f"`{name}`" for name in names)


# What an answer's scores are the chance of (docs/rules.md §1.5), for hints, evaluations and reviews.
_CHANCE = "what the scores are the chance of, so a client words them alike everywhere: " + "; ".join(
    f"`{chance.value}` {chance.meaning}" for chance in Chance)


def _engine_schema(schema: dict[str, Any]) -> None:
    """An engine name's schema, read from `solver.players.ENGINES` when the OpenAPI is built."""
    schema["enum"] = list(ENGINES)
    schema["description"] = f"an engine: {_quoted(ENGINES)}"


def _seat_spec_schema(schema: dict[str, Any]) -> None:
    names = ", ".join(f'`"{name}"`' for name in ENGINES)
    schema["description"] = (
        '`"human"` (moves come over HTTP with the seat\'s token), an engine name '
        f'({names}) or `{{"engine": name, "limits": {{...}}}}`'
    )


_OPTION_TYPES: dict[str, dict[str, Any]] = {
    "integer": {"type": "integer"},
    "integer or null": {"type": ["integer", "null"]},
    "boolean": {"type": "boolean"},
    "boolean or null": {"type": ["boolean", "null"]},
}


def _rules_schema(schema: dict[str, Any]) -> None:
    """A request's `rules`: a preset name, or a preset with options — each option with its type,
    default and meaning, read from `solver.game.rules.RULE_OPTIONS` when the OpenAPI is built."""
    options: dict[str, Any] = {"preset": {"type": "string", "enum": list(PRESETS), "default": "tan"}}
    for declared in RULE_OPTIONS.values():
        kind = _OPTION_TYPES.get(declared.type, {"type": "string", "enum": list(declared.choices or ())})
        options[declared.name] = {**kind, "default": declared.default, "description": declared.meaning}
    schema["anyOf"] = [
        {"type": "string", "enum": list(PRESETS), "description": "a preset"},
        {"type": "object", "title": "RulesOptions", "properties": options, "additionalProperties": False},
    ]


def _label_description() -> str:
    """The review labels and their thresholds, from `solver.search.review.LABELS`."""
    bounds = [f"{label.value}: loss < {below:.2f}" for label, below in LABELS]
    return (
        "; ".join(bounds) + f"; {Label.BLUNDER.value}: {LABELS[-1][1]:.2f} or more; "
        f"{Label.FORCED.value}: the only legal move (not searched); "
        f"{Label.UNSCORED.value}: the search never tried the move played; "
        f"{Label.UNCERTAIN.value}: a loss past {LABELS[0][1]:.2f} whose move's 95% interval reaches the "
        "best's (tried too few times to tell; not costed)"
    )

CardText = Annotated[
    str,
    Field(
        description="a card: rank (2-9, T or 10, J, Q, K, A) then suit (s h d c or ♠♥♦♣); "
        "answers always use the canonical form such as `6s`, `Th`",
        examples=["7c"],
    ),
]
Seat = Annotated[int, Field(description="a seat number, 0…players-1", examples=[0])]

_MOVE_OBJECT_SCHEMA: dict[str, Any] = {
    "type": "object",
    "title": "Move",
    "description": "docs/api.md §2.1 move object",
    "properties": {
        "action": {"type": "string", "enum": [action.value for action in Action]},
        "card": {"type": "string", "description": "the card played (attack, defend, transfer)"},
        "target": {"type": "string", "description": "defend only: the attack card it beats"},
        "set": {"type": "integer", "enum": [0, 1], "description": "pick only: which offered hand"},
    },
    "required": ["action"],
    "additionalProperties": False,
}

MoveInput = Annotated[
    str | dict[str, Any],
    WithJsonSchema(
        {
            "title": "MoveInput",
            "description": "a move as docs/api.md §2.1 JSON (`{\"action\": \"defend\", \"card\": \"9c\", "
            "\"target\": \"7c\"}`) or text notation (`attack 7c`, `defend 7c with 9c`, `take`, `pass`, "
            "`transfer 7h`)",
            "anyOf": [
                {"type": "string", "examples": ["defend 8h with Th"]},
                _MOVE_OBJECT_SCHEMA,
            ],
            "examples": [{"action": "defend", "card": "Th", "target": "8h"}, "take"],
        }
    ),
]


class _Strict(BaseModel):
    model_config = ConfigDict(strict=True, extra="forbid")


# -- positions and limits ----------------------------------------------------------------------


class TablePairIn(_Strict):
    attack: CardText
    defense: CardText | None = Field(None, description="the card that beat it; null while undefended")


class TablePairOut(BaseModel):
    attack: str
    defense: str | None


# -- a position's fields, from their declaration on `solver.game.position.Position` --------------

EXAMPLE_POSITION: dict[str, Any] = {
    declared.name: declared.example for declared in POSITION_FIELDS if declared.example is not None
}

_IN_TYPES: dict[str, Any] = {
    "rules": str | dict[str, Any],
    "count": int,
    "seat": Seat,
    "seat or null": int | None,
    "card": CardText,
    "cards": list[CardText],
    "counts": list[int],
    "seats": list[int],
    "table": list[TablePairIn],
    "known": dict[str, list[CardText]],
    "flag": bool,
    "phase": Literal["setup", "play"],
    "block": dict[str, Any],
}
_OUT_TYPES: dict[str, Any] = {
    **_IN_TYPES,
    "seat": int,
    "card": str,
    "cards": list[str],
    "table": list[TablePairOut],
    "known": dict[str, list[str]],
}


def _position_fields(types: dict[str, Any], answer: bool) -> dict[str, Any]:
    """Pydantic fields of a position: a request's (required as `from_json` needs them, the others
    at their JSON defaults) or an answer's (every field but the quiet ones, which may be absent)."""
    fields: dict[str, Any] = {}
    for declared in POSITION_FIELDS:
        kind = types[declared.shape]
        extra: dict[str, Any] = {"description": declared.meaning}
        if declared.shape == "rules":
            extra.update(examples=[declared.example], json_schema_extra=_rules_schema)
        elif declared.name == "players":
            extra["examples"] = [declared.example]
        if answer:
            if declared.quiet:
                fields[declared.name] = (kind | None, Field(None, **extra))
            else:
                fields[declared.name] = (kind, Field(**extra))
        elif declared.required:
            fields[declared.name] = (kind, Field(**extra))
        elif isinstance(declared.json_default, list | dict):
            fields[declared.name] = (kind, Field(default_factory=type(declared.json_default), **extra))
        elif declared.json_default is None:
            fields[declared.name] = (kind | None, Field(None, **extra))
        else:
            fields[declared.name] = (kind, Field(declared.json_default, **extra))
    return fields


class _PositionInBase(_Strict):
    """What one seat sees (docs/api.md §2.2). Every card of the deck must be in exactly one place."""

    model_config = ConfigDict(strict=True, extra="forbid", json_schema_extra={"examples": [EXAMPLE_POSITION]})

    def to_json(self) -> dict[str, Any]:
        """The docs/api.md §2.2 JSON as sent, for `Position.from_json` to judge."""
        data = self.model_dump(exclude_unset=True)
        if data.get("defended_once", False) is None:
            del data["defended_once"]
        return data


class LimitsIn(_Strict):
    """Stop after `iterations` or `time_ms`, whichever comes first; the server caps both."""

    model_config = ConfigDict(json_schema_extra={"examples": [{"iterations": 10000, "time_ms": 500}]})

    iterations: int | None = Field(None, description="search iterations (positive)", examples=[10000])
    time_ms: float | None = Field(None, description="search time in milliseconds (positive)", examples=[500])

    def to_json(self) -> dict[str, Any] | None:
        data = self.model_dump(exclude_unset=True)
        return data or None


Limits = Annotated[
    LimitsIn | None,
    Field(description="omitted: the server's default iterations and time; either may be omitted"),
]
SeedField = Annotated[
    int,
    Field(
        ge=0,
        le=MAX_SEED,
        description="seed of the search: same position, seed and iteration limit give the same answer",
    ),
]

RecordIn = dict[str, Any] | str
"""A game record (docs/api.md §2.3): its JSON object, or its text (docs/notation.md) as a string."""
RECORD_MEANING = (
    "everything the seat saw from the deal on (docs/api.md §2.3): the record's JSON object, or its text "
    "as a string (docs/notation.md)"
)
RecordFormat = Literal["json", "text"]

EXAMPLE_RECORD_TEXT = """[Rules "tan"]
[Players "2"]
[Seat "0"]
[Hand "6s 7s Jd Qh Ac 9c 2d Kd"]
[Trump "Th"]
[FirstAttacker "1"]

1. 1: attack 7d; 0: defend 7d with Jd; 1: pass; draw 8h
"""



class MovesRequest(_Strict):
    """A position whose seat is to move."""

    model_config = ConfigDict(json_schema_extra={"examples": [{"position": EXAMPLE_POSITION}]})

    position: PositionIn


OthersField = Annotated[
    KindName | None,
    Field(
        description="the kind of player every other seat is known to be, for a bot that knows its "
        f"opponent ({_quoted(kind.name for kind in KINDS)}): the worlds are weighed as that kind and "
        "the search models it so from the first move; null (the default): read from their moves",
    ),
]


class HintRequest(_Strict):
    """A position whose seat is to move, and how hard to search."""

    model_config = ConfigDict(
        json_schema_extra={
            "examples": [
                {
                    "position": EXAMPLE_POSITION,
                    "limits": {"iterations": 10000, "time_ms": 1000},
                    "seed": 1,
                    "multipv": 3,
                    "algorithm": "ismcts",
                }
            ]
        }
    )

    position: PositionIn | None = Field(None, description="what the seat sees now (or give `record`)")
    record: RecordIn | None = Field(None, description=f"instead of `position`: {RECORD_MEANING}")
    limits: Limits = None
    seed: SeedField = 0
    multipv: int | None = Field(None, ge=1, le=1000, description="answer only the best N moves")
    algorithm: AlgorithmName = Field(
        DEFAULT_ALGORITHM,
        description="; ".join(f"`{name}`: {meaning}" for name, meaning in ALGORITHMS.items()),
    )
    pv: int = Field(PV.default, ge=0, le=PV.maximum, description=PV.meaning)
    others: OthersField = None


class EvaluateRequest(_Strict):
    """A position (any seat's view, any turn) and how hard to search."""

    model_config = ConfigDict(
        json_schema_extra={"examples": [{"position": EXAMPLE_POSITION, "limits": {"iterations": 10000}}]}
    )

    position: PositionIn | None = Field(None, description="what the seat sees now (or give `record`)")
    record: RecordIn | None = Field(None, description=f"instead of `position`: {RECORD_MEANING}")
    limits: Limits = None
    seed: SeedField = 0
    others: OthersField = None


EXAMPLE_RECORD: dict[str, Any] = {
    "rules": "tan",
    "players": 2,
    "seat": 0,
    "hand": ["6s", "7s", "Jd", "Qh", "Ac", "9c", "2d", "Kd"],
    "trump": "Th",
    "first_attacker": 1,
    "events": [
        {"seat": 1, "move": "attack 7d"},
        {"seat": 0, "move": "defend 7d with Jd"},
        {"seat": 1, "move": "pass"},
        {"draw": ["8h"]},
    ],
}

RECORD_ANSWERS: dict[int | str, dict[str, Any]] = {
    200: {
        "description": "the seat's record: JSON (docs/api.md §2.3), or with `format=text` its text "
                       "(docs/notation.md)",
        "content": {
            "application/json": {"schema": {"type": "object"}, "example": EXAMPLE_RECORD},
            "text/plain": {"schema": {"type": "string"}, "example": EXAMPLE_RECORD_TEXT},
        },
    }
}
"""`GET /v1/games/{id}/record`'s answers, in either format, for the OpenAPI schema."""


class NextRequest(_Strict):
    """A game so far as one seat saw it: a record, or a position followed by events."""

    model_config = ConfigDict(
        json_schema_extra={
            "examples": [
                {"record": EXAMPLE_RECORD},
                {"position": EXAMPLE_POSITION, "events": [{"seat": 0, "move": "defend 8h with Th"}]},
            ]
        }
    )

    record: dict[str, Any] | None = Field(
        None, description="everything the seat saw from the deal on (docs/api.md §2.3); or give `position`"
    )
    position: PositionIn | None = Field(
        None, description="instead of `record`: what the seat saw at one moment"
    )
    events: list[Any] | None = Field(
        None, description="with `position` only: what followed it, as a record's events (docs/api.md §2.3)"
    )


class AnalyzeRequest(_Strict):
    """A game record to review, and how hard to search each of its seat's decisions: `limits` are
    per decision, capped by the server; a review job searches each decision its `iterations` (or
    the server's default) whatever the clock, so its answer is reproducible."""

    model_config = ConfigDict(
        json_schema_extra={
            "examples": [{"record": EXAMPLE_RECORD, "limits": {"iterations": 5000}, "seed": 1}]
        }
    )

    record: RecordIn = Field(description=RECORD_MEANING)
    limits: Limits = None
    seed: SeedField = 0


class ConvertRequest(_Strict):
    """A game record, in either form, to have in both."""

    model_config = ConfigDict(json_schema_extra={"examples": [{"record": EXAMPLE_RECORD}]})

    record: RecordIn = Field(description=RECORD_MEANING)


class ConvertResponse(BaseModel):
    """A game record in both its forms, each the library's canonical writing."""

    record: dict[str, Any] = Field(description="its JSON (docs/api.md §2.3)")
    text: str = Field(description="its text (docs/notation.md)")


# -- games -------------------------------------------------------------------------------------


class EngineSeatIn(_Strict):
    """An engine seat with its own search limits (capped by the server) and options."""

    engine: str = Field(json_schema_extra=_engine_schema, examples=["ismcts"])
    limits: LimitsIn | None = Field(None, description="per-move limits of an engine that searches")
    options: dict[str, Any] | None = Field(
        None,
        description="the engine's options (`GET /v1/rules`, `engine_details[].options`; a search engine's "
        "are the search config's: " + ", ".join(f"`{name}`" for name in SEARCH_OPTIONS) + ", `setup` and "
        "`sees_hands`; docs/api.md, \"Search options\"), all but `threads`, the server's; an unknown option "
        "or a bad value is refused when the game is made (422)",
        examples=[{"exploration": 0.7}],
    )


SeatSpec = Annotated[
    str | EngineSeatIn,
    Field(
        json_schema_extra=_seat_spec_schema,
        examples=["human", {"engine": "ismcts", "limits": {"iterations": 2000}}],
    ),
]


class MatchIn(_Strict):
    """A match: games in a row between the same seats (docs/rules.md §1.9)."""

    games: int = Field(ge=1, le=MAX_MATCH_GAMES, description="how many games", examples=[5])


class GameCreateRequest(_Strict):
    """A new game: rules, seats and the deal."""

    model_config = ConfigDict(
        json_schema_extra={
            "examples": [
                {"rules": "durak", "players": 2, "seats": ["human", "ismcts"], "seed": 42},
                {
                    "rules": {"preset": "tan", "trump_ace_last_loses": True},
                    "players": 3,
                    "seats": ["human", "greedy", {"engine": "ismcts", "limits": {"time_ms": 200}}],
                    "first_attacker": 0,
                },
            ]
        }
    )

    rules: str | dict[str, Any] = Field(
        "tan",
        description="a preset name or {\"preset\": name, option: value, …}",
        examples=["durak"],
        json_schema_extra=_rules_schema,
    )
    players: int | None = Field(None, description="number of seats (default: the length of `seats`)")
    seats: list[SeatSpec] = Field(min_length=1, max_length=MAX_SEATS, description="who plays each seat")
    seed: int | None = Field(
        None,
        ge=0,
        le=MAX_SEED,
        description="shuffles the deck (unless `deck` is given); the server draws a 63-bit one when it is "
        "left out. Whoever chooses `seed` or `deck` knows every hand; the engines' seed is drawn apart",
    )
    deck: list[CardText] | None = Field(
        None,
        description="the whole deck in order, top first, dealt as docs/rules.md §1.2 (instead of a shuffle)",
    )
    first_attacker: int | None = Field(
        None, description="the seat that leads the first bout (default: as the rules say)"
    )
    match: MatchIn | None = Field(
        None, description="play a match of several games in a row (docs/rules.md §1.9) instead of one game"
    )


class GameMoveRequest(_Strict):
    """A human seat's move (needs that seat's token)."""

    model_config = ConfigDict(
        json_schema_extra={"examples": [{"seat": 0, "move": "defend 8h with Th", "expected_ply": 4}]}
    )

    seat: Seat
    move: MoveInput
    expected_ply: int | None = Field(
        None,
        ge=0,
        le=1_000_000,
        description="the length of `history` in the view the move was chosen from: if the game has "
        "moved on since (say a first try of this move was stored but its answer lost), the move is "
        "refused with 409 `game_moved_on` instead of being tried on the new state",
    )


# -- responses ---------------------------------------------------------------------------------


class MoveOut(BaseModel):
    """A move (docs/api.md §2.1); `card` and `target` appear only where the action has them."""

    action: ActionName
    card: str | None = None
    target: str | None = None
    set: int | None = Field(None, description="pick only: which of the two offered hands")


class _PositionOutBase(BaseModel):
    """What one seat sees (docs/api.md §2.2), canonical."""

    model_config = ConfigDict(json_schema_extra={"examples": [EXAMPLE_POSITION]})


if TYPE_CHECKING:
    PositionIn = _PositionInBase
    PositionOut = _PositionOutBase
else:
    PositionIn = create_model(
        "PositionIn", __base__=_PositionInBase, __doc__=_PositionInBase.__doc__,
        **_position_fields(_IN_TYPES, answer=False),
    )
    PositionOut = create_model(
        "PositionOut", __base__=_PositionOutBase, __doc__=_PositionOutBase.__doc__,
        **_position_fields(_OUT_TYPES, answer=True),
    )


class MovesResponse(BaseModel):
    to_move: int = Field(description="the seat to move (the position's seat)")
    moves: list[MoveOut] = Field(description="every legal move, sorted")


class CardsToName(BaseModel):
    """Cards the next entry must name: the seat's draw, a hand shown, the hands offered to it."""

    count: int = Field(description="how many cards to name")
    with_: list[str] = Field(
        alias="with", description="cards surely among them (the trump card drawn last, a hand's known cards)"
    )
    from_: list[str] = Field(alias="from", description="every card that may be named (`with` among them)")


class MoverOut(BaseModel):
    """A seat that may make the next move, and its moves as far as the seat can tell."""

    seat: int
    moves: list[MoveOut] = Field(description="its possible moves, sorted")
    shown: CardsToName | None = Field(
        description="a redeal among `moves`: the hand it shows (the seat's own: its hand); else null"
    )
    sets: CardsToName | None = Field(
        description="the seat's own redeal: the two hands offered to it, `count` cards each; else null"
    )


class TributeOut(BaseModel):
    """The match's tribute, given next as the seat sees it (docs/rules.md §1.7, step 2)."""

    card: str | None = Field(description="its card, where the seat sees it (giver, receiver); else null")
    inspected: CardsToName | None = Field(
        description="the receiver inspects the giver's hand after giving: its cards; else null"
    )


class AllTrumpsOut(BaseModel):
    """A seat that may show a hand of trumps and win (docs/rules.md §1.7, step 3)."""

    seat: int
    shown: CardsToName = Field(description="the hand it shows")


class NextResponse(BaseModel):
    """The seat's view after what it has seen, and what may be entered next."""

    position: PositionOut = Field(
        description="what the seat sees now; while `draw` is owed, its hand before the draw (those cards "
        "still counted in the stock)"
    )
    to_move: int | None = Field(
        description="the seat to move when it alone may move next; null once the game is over, while "
        "several entries may come (`movers`, `tributes`, `all_trumps`), or while `draw` is owed"
    )
    moves: list[MoveOut] = Field(
        description="the moves `to_move` may make as far as the seat can tell: its own legal moves, or for "
        "another seat every legal move of a card it might hold; sorted"
    )
    movers: list[MoverOut] = Field(
        description="every seat that may make the next move, with its moves: `to_move` alone, or, while the "
        "setup may still bring another seat's secret decision to light, several (docs/api.md §3)"
    )
    tributes: list[TributeOut] = Field(
        description="the match's tribute, if it may be given next: one entry per card the seat may see given"
    )
    all_trumps: list[AllTrumpsOut] = Field(description="seats that may show a hand of trumps and win next")
    draw: CardsToName | None = Field(
        description="the seat drew with the last move: the next event names the cards"
    )
    scores: list[float] | None = Field(
        description="once the game is over, every seat's score (docs/rules.md §1.5); else null"
    )


class FollowedResponse(BaseModel):
    """A game followed at a table, as stored: a record, or a position and its events."""

    id: str
    record: dict[str, Any] | None = Field(None, description="the record (docs/api.md §2.3), canonical")
    position: PositionOut | None = Field(None, description="or the position (docs/api.md §2.2) played on")
    events: list[Any] | None = Field(None, description="with `position`: the events after it, as sent")


class StatsOut(BaseModel):
    algorithm: str = Field(description="ismcts, pimc, or exact where the position was solved")
    iterations: int
    worlds: int = Field(description="deals of the hidden cards searched")
    time_ms: float = Field(description="the answer's wall time: an exact attempt, weighing and search")
    iterations_per_s: float = Field(description="the search's own iterations per second")
    stop_reason: str = Field(description="iterations, time, single_move, exact or stopped (client gone)")
    seed: int
    threads: int
    beliefs: str = Field(
        description="how the hidden hands were weighed: uniform (no history), weighted (by how likely "
        "the other seats' moves are), tempered (weighted, leaning back to uniform to keep enough "
        "worlds), collapsed (no world explains the history: uniform) or unweighed (the answer's time ran out "
        "before a world was weighed: uniform)"
    )
    ess: float | None = Field(description="effective sample size of the weighted worlds, when weighed")
    calibrated: str | None = Field(
        default=None,
        description="in a stored game whose other seats are all one engine with a fitted score map (the "
        "greedy player): that engine and the rules the map was fitted on, and the scores are its "
        "calibrated win chances; null: the search's own scores",
    )
    model: str = Field(
        default="playouts",
        description="what valued the search tree's leaves: the name of the learned value net shipped for "
        "the rules and seats (engine option `value`, on by default), or `playouts` (greedy playouts) where "
        "none was trained",
    )
    opponent_policy: float = Field(
        default=0.0,
        description="the share of the search's iterations in which the other seats played the greedy "
        "heuristic in the tree instead of being searched: with a learned value, 0.75 times the chance that "
        "every other seat is a greedy player as their moves so far read; 0.75 with playouts",
    )
    value_mix: float = Field(
        default=0.0,
        description="the learned value's weight against a greedy playout's result at the tree's leaves: "
        "1 minus that same chance (1: the net alone, for a bare position); 0 where the leaves were played "
        "out",
    )


class ValueOut(BaseModel):
    score: float = Field(
        description="expected score (docs/rules.md §1.5) of the seat: 1 win, 0.5 draw, 0 loss"
    )
    ci95: list[float] = Field(description="95% confidence interval [lo, hi]")
    exact: bool = Field(description="proven game-theoretic value")


class LineMoveOut(BaseModel):
    """One ply of a line: who moves, the move, how often the search went through it, and the seat's
    expected score there."""

    seat: int
    move: MoveOut
    notation: str
    visits: int = Field(description="how often the search tree went through this ply (0 in a proven line)")
    score: float | None = Field(
        description="the hint's seat's expected score after this ply; null where the tree cannot tell it"
    )


class LineOut(BaseModel):
    """The line the search expects after a move (docs/api.md §3, "Lines"), the move itself first."""

    moves: list[LineMoveOut]
    score: float | None = Field(description="the seat's expected score where the line ends")
    exact: bool = Field(description="the exact solver's proven line")


class MoveValueOut(BaseModel):
    move: MoveOut
    notation: str
    score: float
    ci95: list[float]
    visits: int
    exact: bool
    loss: float | None = Field(
        description="what the move costs against the best one: the best's score minus its own, in the "
        "scores shown (calibrated ones when stats.calibrated), at least 0; null when the search never "
        "tried it"
    )
    label: LabelName | None = Field(
        description="the label a review gives that loss (good, inaccuracy, mistake, blunder; uncertain when "
        "its interval reaches the best's; forced for a single legal move; unscored when never tried)"
    )
    line: LineOut | None = Field(
        None,
        description=f"only when the hint was asked with `{PV.name}`: the line the search expects after the "
        "move (null when the engine draws none: pimc, a move never tried)",
    )


class HintResponse(BaseModel):
    """Ranked moves for the seat to move, best first."""

    seat: int
    best: MoveOut
    moves: list[MoveValueOut]
    evaluation: ValueOut
    chance: ChanceName = Field(description=_CHANCE)
    stats: StatsOut


class EvaluateResponse(BaseModel):
    """How good the position is for `seat`, and every seat's expected score and chance to lose."""

    seat: int
    score: float
    ci95: list[float]
    exact: bool
    scores: list[float]
    p_lose: list[float]
    chance: ChanceName = Field(description=_CHANCE)
    cards: dict[str, list[float]] = Field(
        description="card tracker: for every card the seat cannot see, the chance it lies in each "
        "seat's hand, then in the stock"
    )
    stats: StatsOut


class TrackerResponse(BaseModel):
    """A seat's card tracker: what is gone, what is known in other hands, and where each card the
    seat cannot see probably lies (weighed by what it saw the others do)."""

    model_config = ConfigDict(
        json_schema_extra={
            "examples": [
                {
                    "seat": 0,
                    "gone": ["7c", "9c"],
                    "known": {"1": ["Qh"]},
                    "cards": {"6s": [0.0, 0.182, 0.818], "Ah": [0.0, 0.64, 0.36]},
                    "beliefs": "weighted",
                    "ess": 3465.2,
                }
            ]
        }
    )

    seat: int = Field(description="the seat whose tracker this is")
    gone: list[str] = Field(description="the cards in the discard pile")
    known: dict[str, list[str]] = Field(
        description="every other seat's cards known to this seat (picked up from the table, shown), by seat"
    )
    cards: dict[str, list[float]] = Field(
        description="for every card the seat cannot see, the chance it lies in each seat's hand, then in "
        "the stock (the seat's own entry is 0; a row adds up to 1, a seat's column to its hidden cards)"
    )
    beliefs: str = Field(
        description="how the hidden hands were weighed: uniform, weighted, tempered or collapsed (as a "
        "search's stats.beliefs)"
    )
    ess: float | None = Field(description="effective sample size of the weighted worlds, when weighed")


class ReviewedMoveOut(BaseModel):
    """One decision of the seat: the move played against the engine's choice."""

    index: int = Field(description="the move's index in the record's events")
    ply: int = Field(description="moves played in the game before it, since the deal")
    move: MoveOut
    notation: str
    best: MoveOut = Field(description="the engine's choice: the most searched move (the best proven one)")
    best_notation: str
    played_score: float | None = Field(
        description="the seat's expected score after the move played (a stored game's review: its win "
        "chance against the other seats, calibrated as its hints are, stats.calibrated); null when forced "
        "or unscored"
    )
    best_score: float | None = Field(description="the same after the engine's choice; null when forced")
    loss: float = Field(
        description="the best move's score minus the played one's, as both are shown (calibrated ones when "
        "stats.calibrated), at least 0 (0 when forced or unscored)"
    )
    label: LabelName = Field(description=_label_description())
    exact: bool = Field(description="both scores proven (nothing hidden, two seats left)")
    played_ci95: list[float] | None = Field(
        None, description="the 95% interval of played_score (a point when proven); null when not searched"
    )
    best_ci95: list[float] | None = Field(None, description="the same of best_score")
    played_visits: int | None = Field(None, description="how often the search tried the move played")
    best_visits: int | None = Field(None, description="how often it tried the engine's choice")
    played_exact: bool = Field(False, description="played_score proven")
    best_exact: bool = Field(False, description="best_score proven")
    chance: ChanceName = Field(description=_CHANCE)
    position: PositionOut = Field(description="what the seat saw when it chose (docs/api.md §2.2)")


class ReviewSummaryOut(BaseModel):
    decisions: int = Field(description="the seat's decisions reviewed")
    labels: dict[str, int] = Field(description="how many decisions got each label (every label listed)")
    total_loss: float = Field(description="the losses of the costed decisions (good to blunder) added up")
    mean_loss: float | None = Field(description="the mean loss of the costed decisions; null without any")


class ReviewStatsOut(BaseModel):
    algorithm: str
    searches: int = Field(description="decisions searched (every decision but the forced and skipped ones)")
    skipped: int = Field(
        default=0,
        description="decisions left unscored, not searched: the review's budget (TAN_ANALYSIS_BUDGET_MS) was "
        "spent, or it was stopped",
    )
    exact: int = Field(description="searches that were solved exactly")
    iterations: int = Field(description="iterations of every search added up (nodes where solved)")
    time_ms: float = Field(description="the review's wall time: the record's replay and every search")
    limits: dict[str, Any] = Field(description="each decision's limits, as capped by the server")
    seed: int
    calibrated: str | None = Field(
        None,
        description="the opponent whose score map the scores went through, as a hint's stats.calibrated "
        "(a stored game's review); null or absent: the search's own scores",
    )


class AnalysisResponse(BaseModel):
    """Every decision of the record's seat, reviewed, with a summary."""

    seat: int
    moves: list[ReviewedMoveOut]
    summary: ReviewSummaryOut
    stats: ReviewStatsOut


# -- puzzles -----------------------------------------------------------------------------------


class PuzzlesRequest(_Strict):
    """A game record (docs/api.md §2.3) to take puzzles from: some of its seat's decisions, each
    searched within `limits` (capped by the server, as a hint's) and kept where one move is clearly
    best."""

    model_config = ConfigDict(
        json_schema_extra={
            "examples": [{"record": EXAMPLE_RECORD, "limits": {"iterations": 4000}, "seed": 1}]
        }
    )

    record: RecordIn = Field(description=RECORD_MEANING)
    limits: Limits = None
    seed: SeedField = 0


class PuzzleAnswerOut(BaseModel):
    """The one clearly best move, and why it is clear."""

    move: MoveOut
    notation: str
    proven: bool = Field(
        description="proven by the exact solver (nothing hidden); else clear by the search's margin"
    )
    outcome: Literal["win", "draw", "loss"] | None = Field(
        description="what the move proves for the seat (proven only; null when searched)"
    )
    score: float = Field(description="its expected score (docs/rules.md §1.5)")
    ci95: list[float] = Field(description="its 95% interval: above every other move's (searched)")
    margin: float = Field(description="its score minus the runner-up's")
    runner_up: str = Field(description="the second-best move's notation")


class PuzzleMoveOut(BaseModel):
    """One legal move of the puzzle as the search ranked it, best first."""

    move: MoveOut
    notation: str
    score: float
    ci95: list[float]
    exact: bool


class PuzzleSourceOut(BaseModel):
    """Where the puzzle comes from: its game's event, and the search that found it (`POST /v1/hint`
    of the position with this seed and these limits repeats it)."""

    index: int = Field(description="the decision's event index in its record")
    seed: int
    limits: dict[str, Any]


class PuzzleOut(BaseModel):
    """A position from one seat's view where one move is clearly best (docs/api.md §3, "Puzzles")."""

    id: str = Field(description="names the puzzle by its position and answer")
    position: PositionOut = Field(description="what the seat to move sees (the position /v1/hint takes)")
    seat: int = Field(description="the seat to move, whose view the position is")
    chance: ChanceName = Field(description=_CHANCE)
    answer: PuzzleAnswerOut
    line: LineOut | None = Field(description="the line expected after the answer (the hint's `pv`)")
    moves: list[PuzzleMoveOut] = Field(description="every legal move, ranked: why a wrong one is wrong")
    played: MoveOut | None = Field(description="the move played in the game (null when not known)")
    missed: bool = Field(description="the game's move was not the answer: a mistake to learn from")
    source: PuzzleSourceOut


class PuzzlesResponse(BaseModel):
    """Puzzles, and how the set was made."""

    puzzles: list[PuzzleOut]
    made_by: dict[str, Any] | None = Field(
        None, description="the shipped set's command, seed and commit; null for puzzles of a posted record"
    )
    checked: int | None = Field(
        None,
        description="a posted record: its decisions searched for puzzles (TAN_MAX_PUZZLE_CHECKS at most)",
    )


class JobProgressOut(BaseModel):
    done: int = Field(description="decisions reviewed so far")
    total: int = Field(description="decisions the review has (the record seat's play-phase moves)")


class JobResponse(BaseModel):
    """A review job (docs/api.md §3, "Jobs"): queued, running, done (with its review) or failed."""

    id: str = Field(description="the job's id: whoever has it may read the job")
    kind: str = Field(
        description="`analyze` (a record sent to POST /v1/analyze) or `review` (a stored game's)"
    )
    status: str = Field(description="`queued`, `running`, `done`, `failed` or `cancelled`")
    progress: JobProgressOut
    result: AnalysisResponse | None = Field(description="the review, once done; null before")
    error: str | None = Field(description="why the job failed; null unless failed")


class PublicStateOut(BaseModel):
    """What everyone saw once a move was played (docs/api.md §3, a history entry's `after`)."""

    table: list[TablePairOut]
    hand_counts: list[int]
    stock: int
    discard: int = Field(description="how many cards are in the discard pile")
    attacker: int
    defender: int
    to_move: int | None
    taking: bool


class HistoryEntry(BaseModel):
    game: int | None = Field(None, description="in a match: which game (from 1)")
    seat: int
    move: MoveOut
    notation: str
    after: PublicStateOut = Field(description="the table, hand sizes, stock and turn after the move")


class SeatOut(BaseModel):
    """A seat as everyone sees it: human, or an engine with its limits and options."""

    kind: Literal["human", "engine"]
    engine: str | None = None
    limits: dict[str, Any] | None = None
    options: dict[str, Any] | None = None


class UnplayableOut(BaseModel):
    """Why a card of the seat's hand cannot be played now (docs/api.md §3, a view's `unplayable`)."""

    reason: RefusalName = Field(description="the rules' reason, stable: " + "; ".join(
        f"`{reason.value}` {reason.meaning}" for reason in Refusal))
    detail: str = Field(description="the reason in a sentence, in English, naming the cards")


class LeadOut(BaseModel):
    """Who leads the first bout of the game being played, and why (docs/api.md §3, a view's `lead`)."""

    seat: int = Field(description="the seat that leads (in the setup: that would lead, as settled so far)")
    reason: LeadReasonName = Field(description="why, stable: " + "; ".join(
        f"`{reason.value}` {reason.meaning}" for reason in LeadReason))


class GameResponse(BaseModel):
    """One seat's view of a stored game."""

    id: str
    status: Literal["playing", "over"]
    seat: int = Field(description="the seat whose view this is")
    position: PositionOut
    legal_moves: list[MoveOut] = Field(description="the seat's legal moves; empty unless it is to move")
    unplayable: dict[str, UnplayableOut] = Field(
        default_factory=dict,
        description="the cards of the seat's hand that no legal move plays, by card, each with why; "
        "empty unless it is to move",
    )
    scores: list[float] | None = Field(description="per seat once the game is over (docs/rules.md §1.5)")
    loser: int | None
    history: list[HistoryEntry] = Field(
        description="every move played, in order (all are public but a setup keep, seen by its seat only)"
    )
    seats: list[SeatOut]
    lead: LeadOut = Field(description="who leads the first bout of the game being played, and why")
    match: dict[str, Any] | None = Field(
        None,
        description="in a match: {game, games, standings: [{won, lost, drawn, score}], winners: the seats "
        "with the highest total score once the match is over (null before), dealer, trump_suits, "
        "previous: the last game's result, tribute: this game's, sitting_out}",
    )
    seed: int | None = Field(
        None,
        description="the deal's seed, only once the game (a match: its last game) is over, to replay "
        "the deal; before, it would show every hand",
    )


class GameCreatedResponse(BaseModel):
    id: str
    tokens: list[str | None] = Field(
        description="one secret bearer token per human seat (null for engines); shown only now"
    )
    game: GameResponse


class OptionOut(BaseModel):
    name: str
    description: str
    type: str = Field(description="integer, integer or null, boolean, boolean or null, or choice")
    choices: list[str] | None = None
    default: Any = Field(None, description="the value in the `tan` preset")
    toggle: Any = Field(
        None, description="a side rule switched on with one tick: the value the tick gives it; a house rule "
        "picked from a list (a choice): the choices offered (else null)"
    )
    requires: dict[str, Any] = Field(
        default_factory=dict, description="options the side rule needs to mean anything (`deck`: 52)"
    )


class EngineOut(BaseModel):
    name: str
    description: str
    label: str = Field(description="the key of its name in the web page's words")
    searches: bool = Field(description="takes `limits` per move (and search options in a seat spec)")
    limits: dict[str, Any] | None = Field(description="its limits per move when a seat gives none")
    options: dict[str, Any] = Field(description="the options a seat spec may give it, with their defaults")


class ServerLimitsOut(BaseModel):
    """What this server accepts, for forms to offer no more."""

    seats: int = Field(description="most seats at one table")
    match_games: int = Field(description="most games in one match")
    time_ms: float = Field(description="most milliseconds one search may run (TAN_MAX_TIME_MS)")
    iterations: int = Field(description="most iterations one search may run (TAN_MAX_ITERATIONS)")
    pv: int = Field(description=f"most plies of a hint's lines (`{PV.name}`)")


class ReviewBoundOut(BaseModel):
    """A review label and the loss (in expected score) a decision stays below to earn it."""

    label: LabelName
    below: float


class RulesResponse(BaseModel):
    presets: dict[str, dict[str, Any]] = Field(description="every preset's full option set")
    options: list[OptionOut]
    decks: dict[str, list[str]] = Field(
        description="the cards of each deck size, by size, in index order (docs/rules.md §1.1): what a "
        "card picker offers"
    )
    engines: list[str] = Field(description="engines a game seat may use")
    engine_details: list[EngineOut] = Field(description="each engine of `engines`, in the same order")
    review_labels: list[ReviewBoundOut] = Field(
        description="the review labels of searched decisions, mildest first, with the loss each stays "
        "below; past the last bound a decision is a blunder (docs/api.md \"Reviews\")"
    )
    limits: ServerLimitsOut


class HealthResponse(BaseModel):
    status: Literal["ok"]
    version: str


class ReadyResponse(BaseModel):
    """`GET /readyz`: the game store answered a read and a write."""

    status: Literal["ready"]
    version: str
