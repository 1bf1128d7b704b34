"""The one search config: every option of a search, declared once, checked once, and the engine presets.

`SearchConfig` is frozen; each public field is an option a seat spec (docs/api.md §3), the
HTTP seat options, the CLI and docs/api.md's option table show, with its default, its type,
its bounds, what it does and the figure that keeps it (`OPTIONS`, read from the fields'
declarations). Fields whose names start with `_` are test hooks, no seat's option.
`PRESETS` names the search engines (`ismcts`, `ismcts_playouts`, `pimc`); the registry of
engines (`solver.players.specs.ENGINES`) is built from it.

A config is checked when it is made (`__post_init__`): an unknown option or a value of the
wrong type or out of its bounds is refused there, with the option's name, never later in a
search.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from solver.game.errors import ErrorCode, TanError
from solver.search.beliefs import KINDS, Kind, OpponentModel
from solver.search.learned import model_names, named_model

__all__ = ["ALGORITHMS", "OPTIONS", "PLAYOUT_OPPONENT_POLICY", "PRESETS", "SINGLE_MOVE_ITERATIONS", "Preset",
           "SearchConfig", "SearchOption", "known_kinds", "preset_named"]

ALGORITHMS: dict[str, str] = {
    "ismcts": "information-set Monte Carlo tree search (the strongest)",
    "pimc": "perfect-information Monte Carlo: a tree search on each of several deals of the hidden cards",
}
"""The search algorithms and what each is, the default first."""

PLAYOUT_OPPONENT_POLICY = 0.75
"""The share of iterations the other seats play the greedy heuristic in the tree when the leaves are
played out (no learned value for the rules): measured best against both greedy and searching
players with playouts (BENCHMARKS.md, "Strength at 100 ms a move")."""


SINGLE_MOVE_ITERATIONS = 1_000
"""The iterations of the short search that scores a forced move (one legal move): a budget in
iterations, never a clock of its own, so that the score repeats whatever the machine's load (a
50 ms cap gave one game 0 iterations under load and its twin 300, issue 64). The answer's own
limits still bound it (1,000 iterations of a 3-seat endgame: about 20 ms on a busy 2-core machine)."""


def known_kinds(others: str | None) -> tuple[Kind, ...] | None:
    """The kinds of player (`solver.search.beliefs.KINDS`) the other seats are weighed as when
    they are known to be `others` (None: not known, read from their moves); a name that is no kind
    is refused."""
    if others is None:
        return None
    chosen = tuple(kind for kind in KINDS if isinstance(others, str) and kind.name == others)
    if not chosen:
        names = ", ".join(kind.name for kind in KINDS)
        raise TanError(f"others must be one of {names} (or null), not {others!r}", ErrorCode.BAD_ALGORITHM)
    return chosen


@dataclass(frozen=True)
class SearchOption:
    """One option as the faces show it: its name, JSON type (`number`, `integer`, `boolean`,
    `string`), default, whether null is allowed, its bounds, what it does, and the measured
    figure that keeps it (docs/api.md's option table)."""

    name: str
    type: str
    default: Any
    meaning: str
    figure: str
    nullable: bool = False
    minimum: float | None = None
    maximum: float | None = None
    choices: tuple[str, ...] | None = None

    def check(self, value: Any) -> Any:
        """`value` as the config keeps it (an integer given for a number becomes a float), or a
        `TanError` naming the option and what it takes."""
        if value is None and self.nullable:
            return None
        wanted = {"number": "a number", "integer": "a whole number", "boolean": "true or false",
                  "string": "a string"}[self.type]
        ok = {
            "number": isinstance(value, int | float) and not isinstance(value, bool),
            "integer": isinstance(value, int) and not isinstance(value, bool),
            "boolean": isinstance(value, bool),
            "string": isinstance(value, str),
        }[self.type]
        if ok and self.minimum is not None and value < self.minimum:
            ok = False
        if ok and self.maximum is not None and value > self.maximum:
            ok = False
        if self.choices is not None and value not in self.choices:
            nullable = " (or null)" if self.nullable else ""
            raise TanError(f"{self.name} must be one of {', '.join(self.choices)}{nullable}, not {value!r}",
                           ErrorCode.BAD_ALGORITHM)
        if not ok:
            bounds = []
            if self.minimum is not None:
                bounds.append(f"≥ {self.minimum:g}")
            if self.maximum is not None:
                bounds.append(f"and ≤ {self.maximum:g}" if bounds else f"≤ {self.maximum:g}")
            text = wanted + "".join(f" {bound}" for bound in bounds) + (" (or null)" if self.nullable else "")
            raise TanError(f"{self.name} must be {text}, not {value!r}", ErrorCode.BAD_ALGORITHM)
        return float(value) if self.type == "number" else value


def _option(default: Any, kind: str, meaning: str, figure: str, *, nullable: bool = False,
            minimum: float | None = None, maximum: float | None = None,
            choices: tuple[str, ...] | None = None) -> Any:
    """A config field declared as an option: its default and what the faces say of it."""
    return field(default=default,
                 metadata={"option": (kind, meaning, figure, nullable, minimum, maximum, choices)})


@dataclass(frozen=True)
class SearchConfig:
    """How a search searches: the algorithm and every option, with their defaults (the `ismcts`
    engine's). Made with `SearchConfig(**options)` or `with_options`; checked when made."""

    algorithm: str = "ismcts"
    exploration: float = _option(
        1.0, "number", "UCB1's exploration constant, where the tree selects by UCB1 (no policy prior)",
        "1.0 scored 0.738 against greedy, 0.7 0.706, 0.4 0.644, 1.5 0.713 (benchmarks/HISTORY.md, "
        "\"Time limits: before and after one deadline\")", minimum=0)
    puct: float = _option(
        1.0, "number", "with the policy as the prior, PUCT's constant (0: UCB1 over the policy's order)",
        "PUCT against the value engine without it at 100 ms: durak 0.625–0.630, tan 0.580, perevodnoy "
        "0.617 (BENCHMARKS.md, \"The learned policy by default: PUCT\")", minimum=0)
    opponent_policy: float | None = _option(
        None, "number", "the share of iterations the other seats play the greedy heuristic in the tree; "
        "null: 0.75 × how greedy they read with the learned value, else 0.75",
        "0.75 with playouts: nearly all the gain against greedy, no loss to plain SO-ISMCTS "
        "(BENCHMARKS.md, \"Strength at 100 ms a move\")", nullable=True, minimum=0, maximum=1)
    pimc_worlds: int = _option(
        16, "integer", "the `pimc` engine's fixed worlds, each searched by a tree of its own",
        "the PIMC the default beats at equal time, 0.608 (0.574–0.641) (BENCHMARKS.md, \"Strength at "
        "100 ms a move\")", minimum=1)
    exact_cards: int = _option(
        10, "integer", "the worlds' endgames with at most this many cards in hand are solved in the tree",
        "14 did not steepen durak's curve, 0.495 at 30,000 against 3,000 (BENCHMARKS.md, \"Thinking time "
        "and learned models\"); 16 scored 0.687 against 0.789 (benchmarks/HISTORY.md)", minimum=0)
    exact_budget: int = _option(
        20_000, "integer", "the node budget of one such solve",
        "100,000 (with exact_average 1,024) measured no gain at 3,000 iterations (benchmarks/HISTORY.md)",
        minimum=0)
    exact_average: int = _option(
        256, "integer", "the in-tree solves' nodes an iteration may take on average (0: no bound)",
        "an endgame iteration within a small factor of an opening's (BENCHMARKS.md, \"Iterations in hard "
        "endgames\")", minimum=0)
    exact_modelled: bool = _option(
        False, "boolean", "solve those endgames also in the iterations that model the others as greedy",
        "off: 0.955 against 0.940 in durak against greedy at 100 ms, +0.015 (+0.002 to +0.029) "
        "(docs/learning.md)")
    practical: bool = _option(
        True, "boolean", "moves of the same proven loss or draw are ordered by the tree search, for the "
        "other seat's mistakes",
        "against greedy 0.881 → 0.916 durak, 0.894 → 0.953 tan "
        "(benchmarks/HISTORY.md, \"Playing proven losses\")")
    beliefs: bool = _option(
        True, "boolean", "with a game's history, weigh the worlds by how likely the other seats' moves are",
        "read by the learned policy, the weighed worlds beat the fitted weighing (BENCHMARKS.md, "
        "\"Strength: weighted against uniform beliefs\")")
    particles: int = _option(
        16384, "integer", "the worlds drawn and weighed by a history",
        "65,536 was stopped unfinished for its cost (benchmarks/HISTORY.md)", minimum=1)
    value: bool = _option(
        True, "boolean", "value the leaves with the learned net shipped for the rules and seats",
        "against ismcts_playouts 0.722 durak, 0.770 tan at 100 ms (BENCHMARKS.md)")
    value_mix: float | None = _option(
        None, "number", "the net's weight against a playout's result; null: 1 − how greedy the others read",
        "the net alone 0.637 against 0.592 half mixed at 3,000 iterations (benchmarks/HISTORY.md)",
        nullable=True, minimum=0, maximum=1)
    policy_prior: bool = _option(
        True, "boolean", "the learned policy shipped for the rules is the tree's prior (expansion order, "
        "PUCT's P)", "as `puct` (BENCHMARKS.md, \"The learned policy by default: PUCT\")")
    value_model: str = _option(
        "", "string", "search with the value net of that name (a shipped one or a kept generation)",
        "generations play each other (BENCHMARKS.md, \"Generations\")")
    policy_model: str = _option(
        "", "string", "search and read the others with the policy of that name",
        "generations play each other (BENCHMARKS.md, \"Generations\")")
    others: str | None = _option(
        None, "string", "the kind of player every other seat is known to be; null: read from their moves",
        "against greedy at 100 ms 0.966 durak, 0.989 tan (BENCHMARKS.md, \"Known opponents\")",
        nullable=True, choices=tuple(kind.name for kind in KINDS))
    beliefs_policy: bool = _option(
        True, "boolean", "the engine kind of player is read by the learned policy, not its fitted model",
        "the tracker's log-loss 0.4824 against 0.5090 durak, 0.4654 against 0.4909 tan (docs/learning.md)")
    # Test hooks, no seat's option: the exact solve of a root with nothing hidden (off to test the
    # tree search alone) and its node budget, and the kinds of player the worlds are weighed by.
    _exact_root: bool = True
    _exact_root_nodes: int = 2_000_000
    _opponent_model: OpponentModel | Sequence[Kind] | None = None

    def __post_init__(self) -> None:
        if self.algorithm not in ALGORITHMS:
            raise TanError(f"unknown algorithm {self.algorithm!r} (expected one of {', '.join(ALGORITHMS)})",
                           ErrorCode.BAD_ALGORITHM)
        for option in OPTIONS.values():
            object.__setattr__(self, option.name, option.check(getattr(self, option.name)))
        if not isinstance(self._exact_root, bool) or not isinstance(self._exact_root_nodes, int):
            raise TanError("_exact_root must be true or false and _exact_root_nodes a whole number",
                           ErrorCode.BAD_ALGORITHM)
        for name, kind in (("value_model", "value"), ("policy_model", "policy")):
            chosen = getattr(self, name)
            if chosen and (chosen not in model_names() or named_model(chosen).kind != kind):
                known = ", ".join(n for n in model_names() if named_model(n).kind == kind)
                raise TanError(f"{name} {chosen!r} is not a {kind} model (known: {known})",
                               ErrorCode.BAD_ALGORITHM)

    def with_options(self, **options: Any) -> SearchConfig:
        """This config with `options` changed, checked; an unknown name is refused."""
        unknown = sorted(set(options) - _FIELDS)
        if unknown:
            raise TanError(f"unknown search option(s) {', '.join(unknown)} (known: {', '.join(OPTIONS)})",
                           ErrorCode.BAD_ALGORITHM)
        return dataclasses.replace(self, **options) if options else self

    def options(self) -> dict[str, Any]:
        """The public options with this config's values, in `OPTIONS`' order (JSON)."""
        return {name: getattr(self, name) for name in OPTIONS}


_FIELDS = frozenset(declared.name for declared in dataclasses.fields(SearchConfig))


def _declared() -> dict[str, SearchOption]:
    options = {}
    for declared in dataclasses.fields(SearchConfig):
        if "option" in declared.metadata:
            kind, *rest = declared.metadata["option"]
            options[declared.name] = SearchOption(declared.name, kind, declared.default, *rest)
    return options


OPTIONS: dict[str, SearchOption] = _declared()
"""Every public search option, by name, in the order the faces list them."""


@dataclass(frozen=True)
class Preset:
    """A search engine a seat may be: its name, what it is, and its config."""

    name: str
    meaning: str
    config: SearchConfig


PRESETS: dict[str, Preset] = {
    "ismcts": Preset("ismcts", ALGORITHMS["ismcts"], SearchConfig()),
    "pimc": Preset("pimc", ALGORITHMS["pimc"], SearchConfig(algorithm="pimc")),
    "ismcts_playouts": Preset(
        "ismcts_playouts",
        "ISMCTS without a learned model: greedy playouts and a greedy model of the others (the default "
        "engine before the learned value, kept to compare against)",
        # Its worlds weighed by the fitted models, not by the learned policy, and its worlds'
        # endgames solved in every iteration.
        SearchConfig(value=False, policy_prior=False, puct=0.0, opponent_policy=PLAYOUT_OPPONENT_POLICY,
                     beliefs_policy=False, exact_modelled=True),
    ),
}
"""The search engines by name, in the order the faces list them."""


def preset_named(name: str) -> SearchConfig:
    """The config of the engine `name` (`PRESETS`)."""
    if name not in PRESETS:
        raise TanError(f"unknown algorithm {name!r} (expected one of {', '.join(PRESETS)})",
                       ErrorCode.BAD_ALGORITHM)
    return PRESETS[name].config


def config_of(base: SearchConfig | str, options: Mapping[str, Any]) -> SearchConfig:
    """`base` (a config, or an engine's name) with `options` changed."""
    config = base if isinstance(base, SearchConfig) else preset_named(base)
    return config.with_options(**options)
