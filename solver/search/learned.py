"""The learned models that ship with Tấn: which rules they were trained for, and loading them.

A model file (solver/search/models/*.json) holds the weights of a value net
or a policy (solver/search/_model.pyx; a contextual policy's `context` weights with the size of
its `view`) and how it was made: the command, the seed, the
games it learned from and its held-out figures, so anyone can remake it
(`python -m solver.tools.train`). A model answers only for the rules and table
size it was trained on, or rules that differ from them only in options that leave
the game as it was (`KEEPS_MODEL`); for anything else the search plays its leaves out
with the greedy policy as before, and a hint's `stats.model` says which.
"""

from __future__ import annotations

import dataclasses
import functools
import json
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from solver.game.rules import PRESETS, Rules, Throwers
from solver.search._model import FEATURE_SETS, POLICY_FEATURES, POLICY_VIEW, PolicyModel, ValueModel

__all__ = ["GENERATIONS", "KEEPS_MODEL", "MODELS", "KeptOption", "ModelFile", "answering_model",
           "chosen_model", "fits", "load_model", "model_for", "model_from_json", "model_names", "named_model"]

MODELS = Path(__file__).resolve().parent / "models"
GENERATIONS = MODELS / "generations"
"""Earlier generations of the shipped models that a test or a documented command reads by name
(`value_model`, `policy_model`); the others are remade by their commands in docs/learning.md
(`python -m solver.tools.train ... --out solver/search/models/generations/NAME.json`)."""
FORMAT = 1


KINDS = ("value", "policy")


class ModelFile:
    """A value net or a policy read from its file: the weights in C and what the file says of itself."""

    def __init__(self, name: str, data: Mapping[str, Any]) -> None:
        self.name = name
        self.data = dict(data)
        self.kind: str = data["kind"]
        self.rules: str = data["rules"]
        self.players: int = int(data["players"])
        self.net: ValueModel | PolicyModel
        if self.kind == "value":
            self.net = ValueModel(data["mean"], data["scale"], data["w1"], data["b1"], data["w2"],
                                  data["skip"], float(data["b2"]), data.get("feature_set", "two-seat"))
        else:
            self.net = PolicyModel(data["weights"], float(data.get("temperature", 1.0)), data.get("context"))

    def __repr__(self) -> str:
        return f"ModelFile({self.name!r}, rules={self.rules!r}, players={self.players})"


def model_from_json(name: str, data: Mapping[str, Any]) -> ModelFile:
    """A model from its JSON, checked: a file of another format or feature count is refused."""
    kind = data.get("kind")
    if data.get("format") != FORMAT or kind not in KINDS:
        raise ValueError(f"model {name}: not a format-{FORMAT} value net or policy")
    feature_set = data.get("feature_set", "two-seat")  # a value net's: `_model.FEATURE_SETS`
    if kind == "value" and feature_set not in FEATURE_SETS:
        raise ValueError(f"model {name}: feature set {feature_set!r} is not one of {', '.join(FEATURE_SETS)}")
    features = FEATURE_SETS[feature_set] if kind == "value" else POLICY_FEATURES
    if data.get("features") != features:
        raise ValueError(f"model {name}: made for {data.get('features')} features, this build has {features}")
    if kind == "policy" and "context" in data and data.get("view") != POLICY_VIEW:
        raise ValueError(f"model {name}: a contextual policy for a view of {data.get('view')} numbers, "
                         f"this build has {POLICY_VIEW}")
    if data.get("rules") not in PRESETS:
        raise ValueError(f"model {name}: rules {data.get('rules')!r} are not a preset")
    return ModelFile(name, data)


def load_model(path: str | Path) -> ModelFile:
    """The model in a file."""
    path = Path(path)
    return model_from_json(path.stem, json.loads(path.read_text(encoding="utf-8")))


@functools.cache
def _shipped() -> dict[tuple[str, str, int], ModelFile]:
    models = {}
    for path in sorted(MODELS.glob("*.json")):
        model = load_model(path)
        models[(model.kind, model.rules, model.players)] = model
    return models


@dataclass(frozen=True)
class KeptOption:
    """A rules option under which a model keeps answering (`when` it holds at that table), and why:
    a model learned the value of a game's positions under its preset, and the option leaves that
    game as it was."""

    name: str
    why: str
    when: Callable[[Rules, int], bool] = lambda rules, players: True


KEEPS_MODEL: tuple[KeptOption, ...] = (
    KeptOption("first_attacker", "it picks who leads the first bout, before any position is searched"),
    KeptOption("first_bout_max_attack", "it limits only the bouts before the first defence: the "
               "search plays the legal cards, the value may misjudge those few opening bouts"),
    KeptOption("throw_in_after_take", "the features do not read it, and measured the model still answers "
               "far better than the playouts: `durak` under false 0.858 (0.785-0.910), `tan` under true "
               "0.856 (0.763-0.917) (docs/experiments/models-under-rule-options.md)"),
    KeptOption("refill_order", "the features do not read it, and measured `durak` under the Tấn order "
               "scores 0.867 (0.794-0.916) against the playouts "
               "(docs/experiments/models-under-rule-options.md)"),
    KeptOption("min_players", "it says which seat counts the rules allow, not how a game is played"),
    KeptOption("max_players", "it says which seat counts the rules allow, not how a game is played"),
    KeptOption("throwers", "every rule gives the same throwers at 2 seats (the main attacker alone) "
               "and `neighbours` the same at 3 (both others)",
               lambda rules, players: players <= (3 if rules.throwers is Throwers.NEIGHBOURS else 2)),
    KeptOption("trump_repeat_limit", "at 2 seats it ends a game at the deal or never",
               lambda rules, players: players == 2),
    KeptOption("trump_swap_cedes_lead", "it means something only with `trump_swap`, which keeps no model"),
    KeptOption("tribute_inspect", "it means something only with `tribute`, which keeps no model"),
)
"""The one list of the options that keep a shipped model (docs/learning.md): a model answers under
rules that differ from its preset only in these. The others change what the features read (the deck,
the hand size) or the game the model valued more than measured here — the attack cap, transfers, a
defender's refill, who throws in at 4 seats and more, a side rule — and answer with the playouts."""


def fits(rules: Rules, players: int, preset: str) -> bool:
    """Whether a model trained on `preset` answers for `rules` at `players` seats: the rules are the
    preset's but for the options of `KEEPS_MODEL` that keep it there (the preset's name aside:
    `{"preset": "durak", "transfer": true}` is `perevodnoy`)."""
    trained = PRESETS[preset]
    kept = {
        option.name: getattr(trained, option.name) for option in KEEPS_MODEL if option.when(rules, players)
    }
    return dataclasses.replace(rules, preset=preset, **kept) == trained


def model_for(rules: Rules, players: int, kind: str = "value") -> ModelFile | None:
    """The shipped model of `kind` for these rules and seats (its preset's, but for `KEEPS_MODEL`),
    or None."""
    for (of_kind, preset, seats), model in _shipped().items():
        if of_kind == kind and seats == players and fits(rules, players, preset):
            return model
    return None


def chosen_model(rules: Rules, players: int, name: str, kind: str) -> ModelFile | None:
    """The model called `name` where it was made for these rules and seats (else none: the greedy
    model answers), or without a name the one shipped for them."""
    if not name:
        return model_for(rules, players, kind)
    model = named_model(name)
    return model if model.players == players and fits(rules, players, model.rules) else None


def answering_model(rules: Rules, players: int) -> str:
    """What the default search's model of play is for these rules and seats (its `stats.model`):
    the learned value and the learned policy (the tree's prior) shipped for them, joined by `+`,
    else `playouts` (the greedy model)."""
    names = [model.name for kind in ("value", "policy") if (model := model_for(rules, players, kind))]
    return "+".join(names) or "playouts"


@functools.cache
def model_names() -> tuple[str, ...]:
    """Every model a search may name: the shipped ones and the earlier generations."""
    return tuple(sorted(path.stem for folder in (MODELS, GENERATIONS) for path in folder.glob("*.json")))


@functools.cache
def named_model(name: str) -> ModelFile:
    """The shipped model or earlier generation called `name` (a name, never a path)."""
    if name not in model_names():
        raise KeyError(name)
    for folder in (MODELS, GENERATIONS):
        path = folder / f"{name}.json"
        if path.is_file():
            return load_model(path)
    raise KeyError(name)  # pragma: no cover - model_names() lists only files that exist
