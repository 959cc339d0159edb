"""Compile a loaded game (Spec) into a Program: component types, zones, counters, compiled DSL.

The Program is immutable during play and shared by every state of the game; the state refers to
its parts by name or by integer node id only.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Callable, Optional

from mason import primitives  # noqa: F401  (every primitive registers its names: builtins, procedures, board kinds)
from mason.dsl import ast as A
from mason.dsl import numbers
from mason.dsl.expr import CompileError, ExprCompiler, Scope
from mason.dsl.fastexpr import FAST, regenerate, value_evaluator
from mason.dsl.parser import DslSyntaxError, parse_effect, parse_expression
from mason.dsl.stmt import Node, StmtCompiler
from mason.errors import DefinitionError, DefinitionErrors, Place, did_you_mean
from mason.model.names import GameNames
from mason.runtime import statements  # noqa: F401  (the DSL statements register their syntax and runs)
from mason.runtime.automaton import compile_automata
from mason.runtime.boards import KINDS as BOARD_KIND_OBJECTS
from mason.runtime.boards import display_problems as _display_problems
from mason.runtime.boards import zone_display_problems as _zone_display_problems

# ---------------------------------------------------------------- typed constants and options
CONSTANT_TYPES = ("int", "number", "bool", "str", "list", "map", "any")
_TYPE_WORDS = {
    "int": "a number",
    "number": "a number",
    "bool": "true or false",
    "str": "text",
    "list": "a list",
    "map": "a mapping",
    "any": "any value",
}
_DECLARATION_KEYS = ("value", "type", "min", "max", "one_of", "text")
# cards (component copies) in one game, checked before any is made (docs/rule-files.md, "Limits")
MAX_CARDS = 100_000
MAX_VALUE_CHAIN = 32  # named values calling named values, one inside the other (docs/dsl.md, "Limits")


def is_declaration(entry) -> bool:
    """A constant written as a declaration, ``{value: 4, type: int, min: 1, max: 10}``, not as a bare value."""
    return isinstance(entry, dict) and "value" in entry


def type_of(value) -> str:
    """The type a bare constant has: its value's."""
    if isinstance(value, bool):
        return "bool"
    if isinstance(value, int):
        return "int"
    if isinstance(value, float):
        return "number"
    if isinstance(value, str):
        return "str"
    if isinstance(value, list):
        return "list"
    if isinstance(value, dict):
        return "map"
    return "any"


@dataclass(frozen=True)
class ConstantType:
    """What values a constant (and so an option) takes: a type, and for numbers a range, or a list."""

    type: str = "any"
    min: float | None = None
    max: float | None = None
    one_of: tuple | None = None

    @classmethod
    def of(cls, entry) -> "ConstantType":
        """The type of a constant's declaration (or of a plain value written as one)."""
        if not is_declaration(entry):
            return cls(type_of(entry))
        one_of = entry.get("one_of")
        return cls(
            entry.get("type") or type_of(entry["value"]),
            entry.get("min"),
            entry.get("max"),
            tuple(one_of) if isinstance(one_of, list) else None,
        )

    def describe(self) -> str:
        """The type in words, for a refused option value (``a whole number from 1 to 5``)."""
        if self.one_of is not None:
            return "one of " + ", ".join(json.dumps(x) if not isinstance(x, str) else x for x in self.one_of)
        words = _TYPE_WORDS.get(self.type, self.type)
        if self.min is not None and self.max is not None:
            return f"{words} from {self.min} to {self.max}"
        if self.min is not None:
            return f"{words} of at least {self.min}"
        if self.max is not None:
            return f"{words} of at most {self.max}"
        return words

    def problem(self, value) -> str | None:
        """Why ``value`` does not fit, or None."""
        t = self.type
        fits = (
            t == "any"
            or (t == "int" and type(value) is int)
            or (t == "number" and isinstance(value, (int, float)) and not isinstance(value, bool))
            or (t == "bool" and isinstance(value, bool))
            or (t == "str" and isinstance(value, str))
            or (t == "list" and isinstance(value, list))
            or (t == "map" and isinstance(value, dict))
        )
        if not fits:
            words = "a whole number" if t == "int" and isinstance(value, float) else _TYPE_WORDS.get(t, t)
            return f"takes {words}, got {_shown(value)}"
        if self.one_of is not None and value not in self.one_of:
            return f"takes {self.describe()}, got {_shown(value)}"
        if (
            isinstance(value, (int, float))
            and not isinstance(value, bool)
            and ((self.min is not None and value < self.min) or (self.max is not None and value > self.max))
        ):
            return f"takes {self.describe()}, got {_shown(value)}"
        return None


def _shown(value) -> str:
    if isinstance(value, str):
        return repr(value) if value else "empty text"
    return json.dumps(value) if isinstance(value, (bool, int, float, type(None))) else _TYPE_WORDS[type_of(value)]


@dataclass
class ValueDef:
    """A named value: its parameters, its compiled expression and the modifiers that change it."""

    name: str
    params: tuple
    fn: Optional[Callable]  # None until the program's values are compiled (``_compile_all``)
    mods: list = field(default_factory=list)  # [ModDef]
    place: Optional[Place] = None
    held: Optional[tuple] = None  # (modifier, holding card or None) in declaration order: see prepare
    ev: Optional[Callable] = None  # the value with its modifiers as one generated function (prepare)
    evp: Optional[Callable] = None  # the same, given its arguments and ``me`` as Python arguments

    def prepare(self, program) -> tuple:
        """Once its modifiers are all known: every (modifier, card that may hold it, or None for a
        modifier of no component type) in declaration order, and the generated function that applies
        them (``fastexpr.value_evaluator``, which ``Runtime.value`` calls first)."""
        instances = program.type_instances
        self.held = tuple((mod, c) for mod in self.mods for c in ((None,) if mod.type is None else instances[mod.type]))
        self.ev, self.evp = value_evaluator(self, self.held, program) or (None, None)
        return self.held


@dataclass
class ModDef:
    """A modifier on a named value: add, set, max or min, when its condition holds, from a component in play."""

    value: str
    op: str
    fn: Callable
    when: Optional[Callable]
    type: Optional[str]
    place: Place
    rule: str = ""
    key: str = ""


@dataclass
class ActionDef:
    """An action of the turn or an ability of a card: its group, limits, condition and effect."""

    key: str
    label: str
    group: str
    after: tuple
    times: Optional[Callable]
    cond: Optional[Callable]
    block: Node
    type: Optional[str]
    place: Place
    rule: str = ""
    text: str = ""
    cond_src: str = ""  # the `if` as written, and where: why an action is unavailable
    cond_place: Optional[Place] = None
    cond_text: str = ""  # the `if` in words (``if_text``), for players


@dataclass
class TriggerDef:
    """A trigger: the event it listens to, its condition, priority and effect."""

    key: str
    event: str
    when: Optional[Callable]
    priority: int
    block: Node
    type: Optional[str]
    place: Place
    rule: str = ""
    text: str = ""


@dataclass
class ScorePart:
    """One named part of the final score, an expression of the seat ``s``."""

    id: str
    label: str
    fn: Callable
    place: Place


class Program:
    """Everything the machine needs to run a game, compiled once."""

    # what the runtime derives from the program once (made by runtime.engine.prepare when compiled):
    # the action window's plan (turns._plan) and each event's trigger lookup (machine._heard)
    _window_plan = None
    _heard = None
    # the expressions that got a fast form while it compiled, and those declined: {"on", "made",
    # "declined"}, set by session.game.load_program (``mason simulate --coverage`` shows them)
    fast_forms: dict | None = None

    def __init__(self, spec, players: int | None = None):
        self.spec = spec
        self.fast = FAST.on  # generated fast forms made for it (else every construct runs its reference path)
        g = spec.game
        self.id, self.name = g["id"], g.get("name", g["id"])
        self.min_players, self.max_players = g["players"]["min"], g["players"]["max"]
        self.nodes: list[Node] = []
        self.errors: list[DefinitionError] = []
        self.sets = {k: list(v) for k, v in (g.get("sets") or {}).items()}
        self.set_members = {m for v in self.sets.values() for m in v}
        self.table_rows = {int(k): v for k, v in (g.get("table") or {}).items()}
        self.table_columns = sorted({c for row in self.table_rows.values() for c in row if c != "status"})
        self.constant_types: dict[str, ConstantType] = {}
        self.constant_places: dict[str, Place] = {}
        self.constants = self._constants(g.get("constants") or {})  # checked: check_constants
        self.counters = {k: _counter(v) for k, v in (g.get("counters") or {}).items()}
        self.zones = {k: _zone(v) for k, v in (g.get("zones") or {}).items()}
        self.active_zones = frozenset(k for k, v in self.zones.items() if v["active"])
        self.vars = {k: _var(v) for k, v in (g.get("vars") or {}).items()}
        self.card_state = dict(g.get("card_state") or {})
        for zname, zdef in (g.get("zones") or {}).items():  # layout hints of a zone (docs/boards.md)
            for msg, key in _zone_display_problems((zdef or {}).get("display"), self.card_state):
                self.errors.append(DefinitionError(f"zone '{zname}': {msg}", self.place(zdef, key), "definition/zone"))
        self.events: dict[str, tuple[str, ...]] = {"turn_start": ("actor", "card"), "turn_end": ("actor", "card")}
        for name, args in (g.get("events") or {}).items():
            self.events[name] = tuple(args or ())
        for name, v in (g.get("vars") or {}).items():
            if isinstance(v, dict) and v.get("event"):
                # a variable declared with `event: NAME` emits NAME(old, new[, seat]) whenever it changes
                self.events.setdefault(
                    v["event"], ("old", "new", "seat") if v.get("scope") == "seat" else ("old", "new")
                )
        self.events_emitted: set[str] = {"turn_start", "turn_end"} | {
            v["event"] for v in (g.get("vars") or {}).values() if isinstance(v, dict) and v.get("event")
        }
        self.families = g.get("families") or {}
        # automated seats (runtime/automaton.py): their ids are names for themselves; policies compile last
        self.automaton_ids = tuple(g.get("automata") or ())
        self.automata: dict = {}
        self.boards = dict(g.get("boards") or {})
        for bname, bdef in self.boards.items():
            bkind = BOARD_KIND_OBJECTS.get(bdef.get("kind")) if isinstance(bdef.get("kind"), str) else None
            if bkind is None:
                self.errors.append(
                    DefinitionError(
                        f"unknown board kind '{bdef.get('kind')}'{did_you_mean(str(bdef.get('kind')), BOARD_KIND_OBJECTS)}",
                        self.place(bdef, "kind"),
                        "definition/unknown-name",
                    )
                )
            else:
                problems = _display_problems(bdef.get("display"))  # layout hints, any kind (docs/boards.md)
                if bkind.check is not None:
                    problems += bkind.check({k: v for k, v in bdef.items() if k != "display"}, self.table_columns)
                for msg, key in problems:
                    self.errors.append(
                        DefinitionError(f"board '{bname}': {msg}", self.place(bdef, key), "definition/board")
                    )
        self._build_types()
        self.values: dict[str, ValueDef] = {}
        self.names = GameNames(self)
        self.exprs = ExprCompiler(self.names)
        # (name, place, used as a number, only under a condition, the named value being compiled)
        self._uses: list[tuple] = []
        self._in_value: str | None = None
        self._compile_all()
        self._check_uses()
        if self.errors:
            raise DefinitionErrors(self.errors)

    # ---------------------------------------------------------------- registry
    def names_itself(self, name) -> bool:
        """Whether the name ``name`` stands for itself in an expression: a set's member, a component
        type, a board or an automaton (``open_slots(tiers)``; model/names.py, dsl/fastexpr.py)."""
        return (
            name in self.set_members
            or name in self.types
            or name in getattr(self, "boards", ())
            or name in self.automaton_ids
        )

    def register(self, node: Node) -> Node:
        """Give a compiled node its id (its index in ``nodes``), as frames name it."""
        node.id = len(self.nodes)
        self.nodes.append(node)
        return node

    # ---------------------------------------------------------------- components
    def _build_types(self):
        self.types: dict[str, dict] = {}
        self.type_order: list[str] = []
        self.card_props = {"id", "name", "family", "type", "copies", "status", "text", "up", "seen"}
        self.family_of: dict[str, str] = {}
        for fam, fdef in self.families.items():
            props = fdef.get("properties") or {}
            self.card_props |= set(props)
            for comp in self.spec.components.get(fam, []):
                t = {"id": comp["id"], "name": comp.get("name", comp["id"]), "family": fam}
                for pname, pdef in props.items():
                    if pname in comp:
                        t[pname] = comp[pname]
                    elif isinstance(pdef, dict) and "default" in pdef:
                        d = pdef["default"]
                        t[pname] = comp.get(d) if isinstance(d, str) and d in props else d
                    else:
                        t[pname] = None
                t["text"] = comp.get("text", "")
                self.types[comp["id"]] = t
                self.type_order.append(comp["id"])
                self.family_of[comp["id"]] = fam
        self.family_cards: dict[str, list] = {f: [] for f in self.families}
        # families whose cards are played as turns (``turn_card: true``): their actions are offered only in
        # the turn taken with the card, and the family's id names the card of the turn under way
        self.turn_families = frozenset(f for f, d in self.families.items() if d.get("turn_card"))
        self.turn_card_types = frozenset(t for t in self.type_order if self.family_of[t] in self.turn_families)
        self.instances: list[str] = []
        self.type_instances: dict[str, list[int]] = {}
        self.start_zone: list[str] = []
        for tid in self.type_order:
            comp = self.spec.component(tid)
            fam = self.family_of[tid]
            zone = self.families[fam].get("zone")
            for _ in range(int(comp.get("copies", 1))):
                self.type_instances.setdefault(tid, []).append(len(self.instances))
                self.family_cards[fam].append(len(self.instances))
                self.instances.append(tid)
                self.start_zone.append(zone)

    # ---------------------------------------------------------------- DSL compilation
    def _place_fn(self, owner, key):
        pos, path = self.spec.where(owner, key)
        return lambda line, col: pos.inside(path, line, col)

    def _fail(self, exc, owner, key):
        place = self._place_fn(owner, key)(exc.line, exc.col)
        self.errors.append(DefinitionError(exc.message, place, exc.code))

    def expr(self, owner, key, scope_names=(), numeric=False, tree_of=None):
        """Compile ``owner[key]`` as an expression; None when absent; errors are collected.

        ``numeric``: it must give a number (what it reads must hold numbers: dsl/numbers.py).
        ``tree_of``: it gives the named value of that name (its tree is kept for the number check).
        """
        text = _get(owner, key)
        if text is None:
            return None
        if isinstance(text, bool) or isinstance(text, int):
            if tree_of is not None:  # a value written as a number is surely one
                self.exprs.value_trees.setdefault(tree_of, []).append((A.Literal(text), Scope(), self.exprs.context()))
            return _constant(text)
        self._begin(owner, key)
        try:
            ast = parse_expression(str(text))
            scope = Scope(scope_names)
            fn = self.exprs.compile(ast, scope)
            if numeric:
                self.exprs.demand(ast, scope)
            if tree_of is not None:
                self.exprs.value_trees.setdefault(tree_of, []).append((ast, scope, self.exprs.context()))
            return fn
        except (DslSyntaxError, CompileError) as exc:
            self._fail(exc, owner, key)
            return lambda rt, env: None
        finally:
            self._end()

    def effect(self, owner, key, scope_names=()):
        """Compile ``owner[key]`` as an effect block; None when absent."""
        text = _get(owner, key)
        if text is None:
            return None
        self._begin(owner, key)
        try:
            ast = parse_effect(str(text))
            compiler = StmtCompiler(self, self.exprs, self.names, self._place_fn(owner, key))
            return compiler.block(ast, Scope(scope_names))
        except (DslSyntaxError, CompileError) as exc:
            self._fail(exc, owner, key)
            return self.register(Node("block", Place(""), stmts=[]))
        finally:
            self._end()

    def _begin(self, owner, key):
        """Point the expression compiler at the DSL string ``owner[key]`` (places, names read)."""
        self.exprs.place_of = self._place_fn(owner, key)
        self.exprs.uses = []

    def _end(self):
        self._uses += [
            (name, place, numeric, conditional, self._in_value) for name, place, numeric, conditional in self.exprs.uses
        ]
        self.exprs.uses = []

    def place(self, owner, key=None) -> Place:
        """The rule-file place of ``owner`` (or of its entry ``key``)."""
        pos, path = self.spec.where(owner, key)
        return pos.at(path)

    def _compile_all(self):
        """Compile the rule files' expressions and effects, in named steps (the order matters: values
        first, as everything may call them; the modified values once every modifier is known)."""
        g = self.spec.game
        self._compile_values(g)
        self._compile_var_domains(g)
        self._compile_components(g)
        self._compile_flow(g)
        self._compile_scoring(g)
        self.automata = compile_automata(self)
        if not self.errors:  # an effect that failed to compile may hold the missing emit
            self._check_values_used()

    def _compile_values(self, g):
        """The named values: declared (so any may call any), their table hints, compiled, regenerated."""
        # named values first: they may be called from everywhere
        for name, vdef in (g.get("values") or {}).items():
            vdef = vdef if isinstance(vdef, dict) else {"value": vdef}
            self.values[name] = ValueDef(name, tuple(vdef.get("params") or ()), None, [], self.place(g["values"], name))
        self.value_display = {}  # value -> its layout hints (``display: {label, used}``; docs/boards.md)
        for name, vdef in (g.get("values") or {}).items():
            d = vdef.get("display") if isinstance(vdef, dict) else None
            if d is None:
                continue
            used = d.get("used") if isinstance(d, dict) else None
            if not isinstance(d, dict) or len(self.values[name].params) != 1:
                msg = "display: a value shown on the table has one parameter, the seat, and hints {label, used}"
            elif used is not None and (used not in self.values or len(self.values[used].params) != 1):
                msg = f"display: used must name a value of one seat, not '{used}'"
            else:
                self.value_display[name] = {"label": d.get("label") or name.replace("_", " "), "used": used}
                continue
            self.errors.append(
                DefinitionError(f"value '{name}': {msg}", self.place(vdef, "display"), "definition/value")
            )
        for name, vdef in (g.get("values") or {}).items():
            holder = g["values"][name] if isinstance(g["values"][name], dict) else g["values"]
            key = "value" if isinstance(g["values"][name], dict) else name
            self._in_value = self.exprs.in_value = name
            self.exprs.params = self.values[name].params
            self.values[name].fn = self.expr(holder, key, self.values[name].params + ("me",), tree_of=name) or (
                lambda rt, env: None
            )
            self._in_value = self.exprs.in_value = None
            self.exprs.params = ()
        for vd in self.values.values():  # the values that call values declared after them, now all compiled
            vd.fn = regenerate(vd.fn, self)

    def _compile_var_domains(self, g):
        """The domains of secret per-seat variables (what the other seats know they may hold)."""
        # the values a secret per-seat variable may hold for seat s, as the other seats know (determinization)
        self.var_domains: dict[str, Callable] = {}
        for name, v in (g.get("vars") or {}).items():
            if isinstance(v, dict) and v.get("domain") is not None:
                if v.get("scope") != "seat" or v.get("visibility") != "owner":
                    self.errors.append(
                        DefinitionError(
                            f"var '{name}': a domain is for a secret per-seat variable (scope: seat, visibility: owner)",
                            self.place(g["vars"][name], "domain"),
                            "definition/var-domain",
                        )
                    )
                    continue
                fn = self.expr(v, "domain", ("s", "me"))
                if fn is not None:
                    self.var_domains[name] = fn

    def _compile_components(self, g):
        """Modifiers, abilities and triggers of the components and the game; the modified values prepared."""
        card_scope = ("self", "owner", "me")
        # modifiers, abilities and triggers of components
        self.abilities: dict[str, list[ActionDef]] = {}
        self.triggers: dict[str, list[TriggerDef]] = {}
        self.modifiers: list[ModDef] = []
        for tid in self.type_order:
            comp = self.spec.component(tid)
            for i, m in enumerate(comp.get("modifiers") or []):
                self._modifier(m, tid, f"{tid}.modifiers[{i}]")
            for a in comp.get("abilities") or []:
                self.abilities.setdefault(tid, []).append(self._action(a, tid, card_scope))
            for i, t in enumerate(comp.get("triggers") or []):
                self._trigger(t, tid, card_scope, f"{tid}.{t.get('id', i)}")
        for i, m in enumerate(g.get("modifiers") or []):
            self._modifier(m, None, f"game.modifiers[{i}]")
        for i, t in enumerate(g.get("triggers") or []):
            self._trigger(t, None, ("me",), f"game.{t.get('id', i)}")
        for vd in self.values.values():  # every modifier is known: the generated form of each modified value
            if vd.mods:
                vd.prepare(self)
        for lst in self.triggers.values():
            lst.sort(key=lambda t: t.priority)
        self.ability_types = [t for t in self.type_order if t in self.abilities]

    def _compile_flow(self, g):
        """The turn's actions, setup steps, phases, the end condition and the stall guard."""
        turn = g.get("turn") or {}
        self.turn_required = tuple(turn.get("required") or ())
        self.actions = [self._action(a, None, ("me",)) for a in turn.get("actions") or []]
        flow = g.get("flow") or {}
        setup = g.get("setup")
        if isinstance(setup, list):
            self.setup_steps = [(st["id"], self.effect(st, "do")) for st in setup]
        else:
            self.setup_steps = [("setup", self.effect(g, "setup"))] if setup else []
        self.phases = [(ph["id"], self.effect(ph, "do")) for ph in flow.get("phases") or []]
        self.until = self.expr(flow, "until")
        self.max_rounds = int(flow.get("max_rounds", 200))
        # the idle guard and what a stall means (turns.py: _flow; docs/rule-files.md, "Stalls")
        self.phase_places = [self.place(ph) for ph in flow.get("phases") or []]
        self.flow_places = {k: self.place(flow, k) for k in ("max_rounds", "idle_rounds", "until") if k in flow}
        self.idle_rounds = int(flow.get("idle_rounds", 3))
        stall = flow.get("stall") or {}
        self.stall_when = self.expr(stall, "when")
        self.stall_progress = self.expr(stall, "progress")
        self.stall_after = int(stall.get("after", self.idle_rounds))
        if "after" in stall and self.stall_when is None and self.stall_progress is None:
            self.errors.append(
                DefinitionError(
                    "stall.after counts rounds that are stuck: say what stuck means with stall.when or stall.progress "
                    "(rounds without a decision are counted by flow.idle_rounds)",
                    self.place(stall, "after"),
                    "definition/schema",
                )
            )
        self.stall_do = self.effect(stall, "do")
        self.stall_place = self.spec.key_place(flow, "stall") if stall else None
        self.flow_places.update({f"stall.{k}": self.place(stall, k) for k in ("when", "progress") if k in stall})

    def _compile_scoring(self, g):
        """Score parts, tie-breaks and whether the lowest total wins."""
        scoring = g.get("scoring") or {}
        self.score_parts = [
            ScorePart(p["id"], p.get("label", p["id"]), self.expr(p, "value", ("s", "me"), numeric=True), self.place(p))
            for p in scoring.get("parts") or []
        ]
        tb = scoring.get("tie_break") or []
        self.tie_break = [self.expr(tb, i, ("s", "me")) for i in range(len(tb))]
        self.lowest_wins = bool(scoring.get("lowest_wins", False))  # the lowest total wins; tie-breaks too

    def _modifier(self, m, tid, key):
        value = m.get("value")
        if value not in self.values:
            self.errors.append(
                DefinitionError(
                    f"unknown value '{value}'{did_you_mean(value, self.values)}",
                    self.place(m, "value"),
                    "definition/unknown-name",
                )
            )
            return
        ops = [op for op in ("add", "set", "max", "min") if op in m]
        if len(ops) != 1:
            self.errors.append(
                DefinitionError(
                    "a modifier needs exactly one of add, set, max, min", self.place(m), "definition/schema"
                )
            )
            return
        vd = self.values[value]
        scope = vd.params + ("self", "owner", "me", "base")
        self._in_value = self.exprs.in_value = value  # what a modifier reads, its value reads
        self.exprs.params = vd.params
        op = ops[0]
        mod = ModDef(
            value,
            op,
            # add, max and min take numbers; what set gives, the value gives
            self.expr(m, op, scope, numeric=op != "set", tree_of=value if op == "set" else None),
            self.expr(m, "when", scope),
            tid,
            self.place(m),
            m.get("rule", ""),
            key,
        )
        self._in_value = self.exprs.in_value = None
        self.exprs.params = ()
        vd.mods.append(mod)
        self.modifiers.append(mod)

    def _action(self, a, tid, scope) -> ActionDef:
        key = a["id"]
        return ActionDef(
            key=key,
            label=a.get("label", a["id"].replace("_", " ")),
            group=a.get("group", ""),
            after=tuple(a.get("after") or ()),
            times=self.expr(a, "times", scope, numeric=True),
            cond=self.expr(a, "if", scope),
            block=self.effect(a, "do", scope),
            type=tid,
            place=self.place(a),
            rule=a.get("rule", ""),
            text=a.get("text", ""),
            cond_src=str(a["if"]) if "if" in a else "",
            cond_place=self.place(a, "if") if "if" in a else None,
            cond_text=a.get("if_text", ""),
        )

    def _trigger(self, t, tid, scope, key):
        event = t["on"]
        if event not in self.events:
            self.errors.append(
                DefinitionError(
                    f"unknown event '{event}'{did_you_mean(event, self.events)}; declare it under events",
                    self.place(t, "on"),
                    "definition/unknown-name",
                )
            )
            return
        args = self.events[event]
        td = TriggerDef(
            key=key,
            event=event,
            when=self.expr(t, "when", scope + args),
            priority=int(t.get("priority", 0)),
            block=self.effect(t, "do", scope + args),
            type=tid,
            place=self.place(t),
            rule=t.get("rule", ""),
            text=t.get("text", ""),
        )
        self.triggers.setdefault(event, []).append(td)

    def _check_values_used(self):
        for event, lst in self.triggers.items():
            if event not in self.events_emitted:
                for t in lst:
                    self.errors.append(
                        DefinitionError(
                            f"trigger listens to event '{event}' that nothing emits"
                            f"{did_you_mean(event, self.events_emitted)}",
                            t.place,
                            "definition/unknown-name",
                        )
                    )

    # ---------------------------------------------------------------- constants, options, named values
    def _constants(self, entries: dict) -> dict:
        """The constants' values; their types and ranges (declared, or the defining value's) are checked."""
        out, self.constant_types, self.constant_places, errors = check_constants(self.spec, entries)
        self.errors += errors
        return out

    def option_value(self, key: str, text: str):
        """The value of ``--option key=text`` for constant ``key``: (value, None), or (None, why not).

        Text constants take the text as written; others read it as JSON (``3``, ``true``, ``[1, 2]``).
        """
        ctype = self.constant_types.get(key, ConstantType())
        if ctype.type == "str":
            value = text
        else:
            try:
                value = json.loads(text)
            except ValueError:
                value = text
        problem = ctype.problem(value)
        if problem:
            return None, f"'{key}' {problem} (default {json.dumps(self.constants.get(key))})"
        return value, None

    def _check_uses(self):
        """Names read: constants used as numbers must hold numbers; named values must not call themselves."""
        numbers.follow(self.exprs)  # into named values and their parameters
        reported = set()
        for name, place, _ in self.exprs.demanded:
            if name in self.table_columns and name not in reported:
                reported.add(name)
                self._check_column(name, place)
            if name not in self.constants or name in reported:
                continue
            ctype = self.constant_types[name]
            if ctype.type not in ("int", "number", "any"):
                reported.add(name)
                self.errors.append(
                    DefinitionError(
                        f"constant '{name}' is {_shown(self.constants[name])} ({_TYPE_WORDS[ctype.type]}), but {place}"
                        " uses it as a number",
                        self.constant_places[name],
                        "definition/type",
                    )
                )
        self._check_fields()
        calls: dict[str, list] = {}
        for name, place, _, conditional, caller in self._uses:
            if caller is not None and name in self.values and not conditional:
                calls.setdefault(caller, []).append((name, place))
        self._check_value_calls(calls)

    def _check_column(self, name, place):
        """A table column read as a number holds a number (or none) in every row."""
        table = self.spec.game.get("table") or {}
        for n, row in table.items():
            v = row.get(name) if isinstance(row, dict) else None
            if v is not None and not numbers.is_number(v):
                self.errors.append(
                    DefinitionError(
                        f"table column '{name}' is {_shown(v)} for {n} players, but {place} uses it as a number",
                        self.place(row, name),
                        "definition/type",
                    )
                )
                return

    def _check_fields(self):
        """Card fields read where a number is needed must hold numbers: a card state's start, a property's
        declared type, and each card's value of a property of type any."""
        for name, place in self.exprs.fields.items():
            if name in self.card_state:
                v = self.card_state[name]
                if v is not None and not numbers.is_number(v):
                    self.errors.append(
                        DefinitionError(
                            f"card state '{name}' starts as {_shown(v)} ({_TYPE_WORDS[type_of(v)]}), but {place}"
                            " uses it as a number",
                            self.place(self.spec.game["card_state"], name),
                            "definition/type",
                        )
                    )
                continue
            for fam, fdef in self.families.items():
                pdef = (fdef.get("properties") or {}).get(name) if isinstance(fdef, dict) else None
                if not isinstance(pdef, dict):
                    continue
                t = pdef.get("type")
                if t in ("str", "bool") or t in self.sets:
                    what = "text" if t == "str" else "true or false" if t == "bool" else f"a {t} member (text)"
                    self.errors.append(
                        DefinitionError(
                            f"property '{name}' of family '{fam}' is {what}, but {place} uses it as a number",
                            self.place(pdef, "type"),
                            "definition/type",
                        )
                    )
                elif t == "any":
                    for comp in self.spec.components.get(fam, []):
                        v = comp.get(name) if isinstance(comp, dict) else None
                        if v is not None and not numbers.is_number(v):
                            self.errors.append(
                                DefinitionError(
                                    f"{fam} '{comp.get('id')}': '{name}' is {_shown(v)}, but {place} uses it as a number",
                                    self.place(comp, name),
                                    "definition/type",
                                )
                            )
                            break

    def _check_value_calls(self, calls: dict) -> None:
        """A named value (with its modifiers) may not call itself, nor call values MAX_VALUE_CHAIN deep.

        Only calls made whatever the state are followed: a call under a condition (a branch, the right
        of and/or, a comprehension's item or filter) may be a recursion that ends, like
        ``f(n): 0 if n == 0 else f(n - 1)``; such a call that never ends stops at run time with its place.
        """
        depth: dict[str, int] = {}  # value -> the longest chain of calls from it (1: it calls no value)
        looped = False
        for start in calls:
            if start in depth:
                continue
            path, on_path, todo = [], set(), [(start, iter(calls.get(start, ())))]
            path.append(start)
            on_path.add(start)
            while todo:
                name, it = todo[-1]
                step = next(it, None)
                if step is None:
                    todo.pop()
                    path.pop()
                    on_path.discard(name)
                    depth[name] = 1 + max((depth.get(callee, 0) for callee, _ in calls.get(name, ())), default=0)
                    continue
                callee, place = step
                if callee in on_path:  # a call back into the chain being followed: a loop
                    cycle = path[path.index(callee) :] + [callee]
                    self.errors.append(
                        DefinitionError(
                            f"named value '{callee}' calls itself ({' -> '.join(cycle)}); a named value and its"
                            " modifiers may not call it back",
                            place,
                            "definition/recursive",
                        )
                    )
                    looped = True
                    continue
                if callee in depth:
                    continue
                path.append(callee)
                on_path.add(callee)
                todo.append((callee, iter(calls.get(callee, ()))))
        deepest = max(depth, key=lambda n: depth[n], default=None)
        if not looped and deepest is not None and depth[deepest] > MAX_VALUE_CHAIN:
            self.errors.append(
                DefinitionError(
                    f"named value '{deepest}' calls named values {depth[deepest]} deep (at most {MAX_VALUE_CHAIN});"
                    " flatten the chain",
                    self.values[deepest].place,
                    "definition/too-deep",
                )
            )

    # ---------------------------------------------------------------- per player count
    def table_for(self, players: int) -> dict:
        """The player-count table's row for ``players`` players (empty when none is given)."""
        row = self.table_rows.get(players)
        return dict(row) if row else {}

    def automata_at(self, players: int) -> list[str]:
        """Ids of the automata that join a game of ``players`` players (their seats follow the players')."""
        return [aid for aid, a in self.automata.items() if players in a.players]


def check_constants(spec, entries: dict) -> tuple[dict, dict, dict, list]:
    """Check constants against their types and ranges: (values, types, places of values, errors).

    A constant's type and range come from the entry that defines it (``spec.constant_defs``: the
    game's, an expansion's, a declaration), so a variant or an expansion that only sets a value is
    checked against the base: ``start_gold: two`` over ``start_gold: 2`` is an error at the variant.
    """
    values, types, places, errors = {}, {}, {}, []
    for name, entry in entries.items():
        defining, (def_pos, def_path) = spec.constant_defs.get(name, (entry, spec.where(entries, name)))
        ctype = ConstantType.of(defining)
        if is_declaration(entry):
            value, place = entry["value"], spec.place(entry, "value")
            for k in entry:
                if k not in _DECLARATION_KEYS:
                    errors.append(
                        DefinitionError(
                            f"constant '{name}': unknown key '{k}' in its declaration ({', '.join(_DECLARATION_KEYS)})"
                            f"{did_you_mean(str(k), _DECLARATION_KEYS)}",
                            spec.key_place(entry, k),
                            "definition/schema",
                        )
                    )
            if isinstance(entry.get("type"), str) and entry["type"] not in CONSTANT_TYPES:
                errors.append(
                    DefinitionError(
                        f"constant '{name}': unknown type '{entry['type']}' ({', '.join(CONSTANT_TYPES)})"
                        f"{did_you_mean(entry['type'], CONSTANT_TYPES)}",
                        spec.place(entry, "type"),
                        "definition/unknown-name",
                    )
                )
                ctype = ConstantType()
            elif (entry.get("min") is not None or entry.get("max") is not None) and ctype.type not in ("int", "number"):
                errors.append(
                    DefinitionError(
                        f"constant '{name}': min and max need a number type, not {ctype.type}",
                        spec.place(entry, "min" if "min" in entry else "max"),
                        "definition/type",
                    )
                )
                ctype = ConstantType(ctype.type)
        else:
            value, place = entry, spec.place(entries, name)
        problem = ctype.problem(value)
        if problem:
            where = "" if defining is entry else f" (as defined at {def_pos.at(def_path)})"
            errors.append(DefinitionError(f"constant '{name}' {problem}{where}", place, "definition/type"))
        values[name], types[name], places[name] = value, ctype, place
    return values, types, places, errors


def _constant(v):
    """The expression of a number or true/false written as such in YAML: ``fn.constant`` holds it
    (generated code writes it in place)."""

    def fn(rt, env):
        return v

    fn.__dict__["constant"] = v  # a function's own attribute, read with getattr
    return fn


def _get(owner, key):
    if owner is None:
        return None
    if isinstance(owner, list):
        return owner[key] if 0 <= key < len(owner) else None
    return owner.get(key)


def _counter(v):
    v = v or {}
    return {
        "scope": v.get("scope", "seat"),
        "start": v.get("start", 0),
        "supply": v.get("supply"),
        "cap": v.get("cap"),
        "label": v.get("label"),
        "one": v.get("one"),
    }


def _zone(v):
    v = v or {}
    return {
        "scope": v.get("scope", "game"),
        "visibility": v.get("visibility", "all"),
        "active": bool(v.get("active", False)),
        "label": v.get("label"),
        "narrate": bool(v.get("narrate", True)),
        "display": v.get("display"),
    }


def _var(v):
    if not isinstance(v, dict):
        v = {"start": v}
    return {
        "scope": v.get("scope", "game"),
        "start": v.get("start"),
        "visibility": v.get("visibility", "all"),
        "event": v.get("event"),
        "type": v.get("type"),
        "words": v.get("words"),  # how its values read on the table: value -> words
    }
