"""Load a game folder into a Spec: YAML with positions, component files, variants applied.

A game is a folder with ``game.yaml`` and one file per component family (named in
``game.yaml: families.<family>.file``). Games are found by id among the shipped games
(``games/`` of the installed package) or given as a path to a folder.
"""

from __future__ import annotations

import copy
from pathlib import Path

from mason import games as _shipped
from mason.errors import DefinitionError, DefinitionErrors, Place, did_you_mean
from mason.model import cache
from mason.model.expansions import apply_expansions
from mason.model.positions import Positions

GAMES_DIR = Path(_shipped.__file__).resolve().parent  # the ``games/`` folder, installed as ``mason.games``


class Spec:
    """A loaded game: ``game`` (game.yaml data), ``components`` by family, and source places."""

    def __init__(self, root: Path, shown_root: str):
        self.root, self.shown_root = root, shown_root
        self.game: dict = {}
        self.components: dict[str, list[dict]] = {}
        self.files: dict[str, tuple] = {}  # shown file name -> (data, Positions)
        self._src: dict[int, tuple] = {}  # id(dict or list) -> (Positions, path)
        self._alive: list = []  # keeps registered objects alive so their ids stay theirs
        self._by_id: dict[str, dict] = {}
        self.variants: list[str] = []
        self.expansions: list[str] = []
        self.family_files: dict[str, dict] = {}  # family -> its file's data
        self._keysrc: dict[tuple, tuple] = {}  # (id(mapping), key) -> (Positions, path): merged entries
        # the entry that defines each constant's type and range: game.yaml's, an expansion's add, or a
        # declaration ({value: ..., type: ...}) that replaced it; variants and options only set values
        self.constant_defs: dict[str, tuple] = {}  # name -> (entry, (Positions, path) where written)

    # ---------------------------------------------------------------- places
    def register(self, data, pos: Positions, path=()):
        """Record where ``data`` and everything under it was read (``pos``, the key path), for places."""
        if isinstance(data, (dict, list)):
            self._alive.append(data)
        if isinstance(data, dict):
            self._src[id(data)] = (pos, tuple(path))
            for k, v in data.items():
                self.register(v, pos, tuple(path) + (k,))
        elif isinstance(data, list):
            self._src[id(data)] = (pos, tuple(path))
            for i, v in enumerate(data):
                self.register(v, pos, tuple(path) + (i,))

    def where(self, obj, key=None):
        """(Positions, path) of ``obj[key]`` (or of ``obj`` when key is None)."""
        if key is not None:
            src = self._keysrc.get((id(obj), key))
            if src is not None:
                return src
        pos, path = self._src.get(id(obj), (None, ()))
        if pos is None:
            pos = Positions(self.shown_root, "")
        return pos, path + ((key,) if key is not None else ())

    def place(self, obj, key=None) -> Place:
        """The rule-file place of ``obj`` (or of its entry ``key``), for a positioned message."""
        pos, path = self.where(obj, key)
        return pos.at(path)

    def set_source(self, obj, key, source: tuple) -> None:
        """Say where ``obj[key]`` was written, when ``obj`` merges entries from several places."""
        self._keysrc[(id(obj), key)] = source
        self._alive.append(obj)

    def key_place(self, obj, key) -> Place:
        """The place of the key ``key`` in the mapping ``obj`` (for unknown or misspelt keys)."""
        pos, path = self.where(obj, key)
        return pos.key_at(path)

    def component(self, tid: str) -> dict:
        """The component declared with id ``tid``."""
        return self._by_id[tid]


def find_game(name: str) -> Path:
    """A game folder by id (shipped games) or by path."""
    p = Path(name)
    if p.is_dir() and (p / "game.yaml").exists():
        return p
    shipped = GAMES_DIR / name
    if (shipped / "game.yaml").exists():
        return shipped
    known = list_games()
    raise DefinitionError(
        f"no game '{name}'{did_you_mean(name, known)} (known: {', '.join(known)})", Place(name), "definition/no-game"
    )


def list_games() -> list[str]:
    """The ids of the games shipped with Mason (folders of games/ with a game.yaml)."""
    if not GAMES_DIR.is_dir():
        return []
    return sorted(d.name for d in GAMES_DIR.iterdir() if (d / "game.yaml").exists())


def _shown(path: Path) -> str:
    try:
        return str(path.resolve().relative_to(Path.cwd().resolve()))
    except ValueError:
        try:
            return "games/" + str(path.resolve().relative_to(GAMES_DIR.resolve()))
        except ValueError:
            return str(path)


def load_spec(name: str, variants=(), expansions=(), collect: list | None = None, files: dict | None = None) -> Spec:
    """Load a game folder. Errors are raised (DefinitionErrors) unless ``collect`` gathers them.

    Reading goes on past a bad file or a duplicate key so that validation can report every
    problem at once; a spec loaded with errors is only good for more diagnostics. ``files``, when
    given, keeps the files read (path -> data and places) so that loading the same game again (once
    per variant, when validating) reads nothing twice; the data read is never changed.
    """
    root = find_game(name)
    spec = Spec(root, _shown(root))
    errors: list[DefinitionError] = [] if collect is None else collect
    before = len(errors)
    game_file = root / "game.yaml"
    read = _reader(files)
    try:
        game, pos = read(game_file)
    except DefinitionError as exc:
        errors.append(exc)
        if collect is None:
            raise DefinitionErrors(errors) from None
        return spec
    errors += pos.errors
    spec.files[pos.file] = (game, pos)
    if not isinstance(game, dict):
        errors.append(
            DefinitionError(
                "game.yaml must be a mapping of keys (id, name, players, ...)",
                Place(pos.file, 1, 1),
                "definition/schema",
            )
        )
        if collect is None:
            raise DefinitionErrors(errors)
        return spec
    # the files keep their data as written (schema checks); overlays work on a registered copy
    game = copy.deepcopy(game)
    spec.register(game, pos)
    spec.game = game
    if isinstance(game.get("constants"), dict):
        spec.constant_defs = {k: (v, spec.where(game["constants"], k)) for k, v in game["constants"].items()}
    families = game.get("families")
    for fam, fdef in families.items() if isinstance(families, dict) else ():
        if not isinstance(fdef, dict) or not isinstance(fdef.get("file"), str):
            continue  # the schema check reports it
        path = root / fdef["file"]
        if not path.is_file():
            here = sorted(p.name for p in root.glob("*.yaml"))
            errors.append(
                DefinitionError(
                    f"family '{fam}': no file '{fdef['file']}' in {spec.shown_root}{did_you_mean(fdef['file'], here)}",
                    spec.place(fdef, "file"),
                    "definition/io",
                )
            )
            continue
        try:
            data, fpos = read(path)
        except DefinitionError as exc:
            errors.append(exc)
            continue
        errors += fpos.errors
        spec.files[fpos.file] = (data, fpos)
        spec.register(data, fpos)
        comps = data.get("components") if isinstance(data, dict) else None
        spec.components[fam] = list(comps) if isinstance(comps, list) else []
        spec.family_files[fam] = data
    _index_components(spec, errors)
    if expansions:
        apply_expansions(spec, expansions, errors, _shown, read)
    if variants:
        apply_variants(spec, variants, errors)
    if len(errors) > before and collect is None:
        raise DefinitionErrors(errors)
    return spec


def _reader(files: dict | None):
    """load_yaml (non-strict, shown relative to here; through the compile cache), remembering what it
    read in ``files`` if given."""

    def read(path: Path):
        if files is None:
            return cache.read_yaml(path, _shown(path))
        key = str(Path(path).resolve())
        if key not in files:
            try:
                files[key] = cache.read_yaml(path, _shown(path))
            except DefinitionError as exc:
                files[key] = exc
        got = files[key]
        if isinstance(got, DefinitionError):
            raise got
        return got

    return read


def _index_components(spec: Spec, errors):
    for _fam, comps in spec.components.items():
        for comp in comps:
            if not isinstance(comp, dict) or not isinstance(comp.get("id"), str):
                continue
            cid = comp["id"]
            if cid in spec._by_id:
                first = spec.place(spec._by_id[cid])
                errors.append(
                    DefinitionError(
                        f"duplicate component id '{cid}' (first defined at {first})",
                        spec.place(comp, "id"),
                        "definition/duplicate-id",
                    )
                )
                continue
            spec._by_id[cid] = comp


def apply_variants(spec: Spec, names, errors):
    """Apply named variants (declared in game.yaml ``variants``) onto the spec, in order.

    Parts a variant brings keep the variant's place, so later errors point into it.
    """
    listed = spec.game.get("variants")
    declared = {v.get("id"): v for v in (listed if isinstance(listed, list) else []) if isinstance(v, dict)}
    for name in names:
        v = declared.get(name)
        if v is None:
            errors.append(
                DefinitionError(
                    f"unknown variant '{name}'{did_you_mean(name, declared)}"
                    f" (variants: {', '.join(map(str, declared)) or 'none'})",
                    spec.place(spec.game, "variants") if listed else Place(spec.shown_root),
                    "definition/unknown-variant",
                )
            )
            continue
        apply_overlay(spec.game, v, spec)
        _adopt(spec, spec.game, spec.where(v))
        spec.variants.append(name)


def _adopt(spec: Spec, data, origin) -> None:
    """Register dicts and lists made by an overlay (not yet known) at the overlay's place."""
    if isinstance(data, (dict, list)):
        if id(data) not in spec._src:
            spec._src[id(data)] = origin
            spec._alive.append(data)
        for v in data.values() if isinstance(data, dict) else data:
            _adopt(spec, v, origin)


def apply_overlay(game: dict, v: dict, spec: Spec | None = None) -> None:
    """Patch a game dict with an overlay (variant): table rows, constants, values, lists appended.

    Parts of the wrong shape are skipped here; the schema check reports them. With ``spec``, every
    entry of a merged mapping keeps the place it was written at (the base's or the variant's).
    """

    def mapping(x):
        return x if isinstance(x, dict) else {}

    def merged(old, new):
        out = {**mapping(old), **new}
        if spec is not None:
            for k in out:
                spec.set_source(out, k, spec.where(new if k in new else old, k))
        return out

    for count, row in mapping(v.get("table")).items():
        table = game.setdefault("table", {})
        if isinstance(table, dict) and isinstance(row, dict):
            table[count] = merged(table.get(count), row)
    for key in ("constants", "values", "players", "scoring", "counters"):
        if isinstance(v.get(key), dict) and v[key]:
            game[key] = merged(game.get(key), v[key])
    for key in ("modifiers", "triggers"):
        if isinstance(v.get(key), list) and v[key]:
            old = game.get(key)
            game[key] = (list(old) if isinstance(old, list) else []) + list(v[key])
