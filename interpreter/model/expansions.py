"""Expansions: a folder that extends a base game by overlays, without touching the base files.

An expansion is ``<base>/expansions/<id>/expansion.yaml`` (or any folder given by path) with:

- ``id``, ``name``, ``extends`` (the base game id), ``requires`` and ``conflicts`` (expansion ids);
- ``families``: extra component files appended to existing families (``hero: more_heroes.yaml``);
- ``add``: new entries for game.yaml sections (an id that already exists is an error: use replace);
- ``replace``: entries that replace existing ones by id (values, constants, table rows, phases,
  turn actions, triggers, modifiers by key, variants, components, setup, players, scoring);
- ``remove``: ids to remove (components, phases, actions, triggers, variants).

Every entry keeps the place of the file that introduced it, so validation of the merged game points
into the expansion. Two expansions touching the same id conflict unless one requires the other.
"""

from __future__ import annotations

from pathlib import Path

from mason.errors import DefinitionError, Place, did_you_mean
from mason.model import cache
from mason.model.program import is_declaration
from mason.model.schema import check_file

MAPPING_SECTIONS = (
    "sets",
    "constants",
    "counters",
    "zones",
    "vars",
    "card_state",
    "events",
    "values",
    "table",
    "boards",
)
LIST_SECTIONS = {"triggers": "id", "modifiers": "id", "variants": "id"}


def _schema_failed(data, pos, schema: str, errors: list) -> bool:
    """Check a file against its schema before it is merged; report and refuse it when it fails."""
    found = check_file(schema, data, pos)
    errors.extend(found)
    return bool(found)


def find_expansion(spec, name: str) -> Path | None:
    """The folder of expansion ``name``: a path, one under the game's expansions/, or a shipped one."""
    p = Path(name)
    if p.is_dir() and (p / "expansion.yaml").exists():
        return p
    local = spec.root / "expansions" / name
    if (local / "expansion.yaml").exists():
        return local
    return None


def list_expansions(root: Path) -> list[str]:
    """The ids of the expansions shipped in a game folder's expansions/."""
    d = root / "expansions"
    if not d.is_dir():
        return []
    return sorted(x.name for x in d.iterdir() if (x / "expansion.yaml").exists())


def apply_expansions(spec, names, errors: list, shown, read=None) -> None:
    """Load each named expansion and merge it into ``spec`` (in the order given).

    ``read(path)`` reads a YAML file (data, Positions) and may serve it from a cache of the files read so
    far; by default the file is read (through the compile cache). Expansion files are read strictly:
    their first key problem stops them.
    """

    def strict(path):
        data, pos = read(path) if read is not None else cache.read_yaml(path, shown(path))
        if pos.errors:
            raise pos.errors[0]
        return data, pos

    loaded = []
    for name in names:
        folder = find_expansion(spec, name)
        if folder is None:
            known = list_expansions(spec.root)
            errors.append(
                DefinitionError(
                    f"no expansion '{name}' for {spec.game.get('id')}{did_you_mean(name, known)}"
                    f" (available: {', '.join(known) or 'none'})",
                    Place(spec.shown_root),
                    "definition/no-expansion",
                )
            )
            continue
        path = folder / "expansion.yaml"
        try:
            data, pos = strict(path)
        except DefinitionError as exc:
            errors.append(exc)
            continue
        if not isinstance(data, dict):
            errors.append(
                DefinitionError("expansion.yaml must be a mapping", Place(pos.file, 1, 1), "definition/schema")
            )
            continue
        if _schema_failed(data, pos, "expansion.schema.json", errors):
            continue  # a malformed manifest is reported, never merged
        spec.files[pos.file] = (data, pos)
        spec.register(data, pos)
        loaded.append((data.get("id", name), data, pos, folder))
    ids = [l[0] for l in loaded]
    for eid, data, pos, folder in loaded:
        base = data.get("extends")
        if base != spec.game.get("id"):
            errors.append(
                DefinitionError(
                    f"expansion '{eid}' extends '{base}', not '{spec.game.get('id')}'",
                    spec.place(data, "extends"),
                    "definition/expansion",
                )
            )
        for req in data.get("requires") or []:
            if req not in ids:
                errors.append(
                    DefinitionError(
                        f"expansion '{eid}' requires '{req}': add --with {req}",
                        spec.place(data, "requires"),
                        "definition/expansion",
                    )
                )
        for other in data.get("conflicts") or []:
            if other in ids:
                errors.append(
                    DefinitionError(
                        f"expansion '{eid}' declares a conflict with '{other}'",
                        spec.place(data, "conflicts"),
                        "definition/conflict",
                    )
                )
    touched: dict[tuple, tuple] = {}
    for eid, data, pos, folder in loaded:
        _merge(spec, eid, data, folder, errors, touched, {l[0]: l[1] for l in loaded}, strict)
        spec.expansions.append(eid)


def _related(a: str, b: str, manifests: dict) -> bool:
    ra = manifests.get(a, {}).get("requires") or []
    rb = manifests.get(b, {}).get("requires") or []
    return b in ra or a in rb


def _touch(spec, touched, key, eid, obj, k, errors, manifests):
    place = spec.place(obj, k)
    prev = touched.get(key)
    if prev and prev[0] != eid and not _related(prev[0], eid, manifests):
        errors.append(
            DefinitionError(
                f"expansions '{prev[0]}' and '{eid}' both change {key[0]} '{key[1]}' without one requiring the other"
                f" (the other change is at {prev[1]})",
                place,
                "definition/conflict",
            )
        )
    touched[key] = (eid, place)


def _merge(spec, eid, data, folder, errors, touched, manifests, read):
    """Lay one expansion (``data``, its expansion.yaml) over ``spec``, in named steps: its component
    files, then the mapping sections, the list sections (with score parts, actions, phases, setup
    steps), the components replaced or removed by id, and the sections replaced whole."""
    merge = _Merge(spec, eid, errors, touched, manifests)
    merge.component_files(data, folder, read)
    add = data.get("add") or {}
    rep = data.get("replace") or {}
    rem = data.get("remove") or {}
    merge.mapping_sections(add, rep)
    merge.list_sections(add, rep, rem)
    merge.components_by_id(rep, rem)
    merge.whole_sections(rep)


class _Merge:
    """One expansion being merged: the spec, the expansion's id, and the shared error list and record
    of what each expansion changed (``touched``, for conflicts between expansions)."""

    def __init__(self, spec, eid, errors, touched, manifests):
        self.spec, self.eid, self.errors, self.touched, self.manifests = spec, eid, errors, touched, manifests

    def err(self, msg, obj, k=None, code="definition/expansion"):
        """Record an error at ``obj[k]``'s place."""
        self.errors.append(DefinitionError(msg, self.spec.place(obj, k), code))

    def parts(self):
        """What a step reads: spec, game, expansion id, touched, errors, manifests, err."""
        return self.spec, self.spec.game, self.eid, self.touched, self.errors, self.manifests, self.err

    def component_files(self, data, folder, read):
        """The expansion's component files (``families: {family: file}``): new components by id."""
        spec, g, eid, touched, errors, manifests, err = self.parts()
        for fam, fname in (data.get("families") or {}).items():
            if fam not in (g.get("families") or {}):
                err(
                    f"unknown family '{fam}'{did_you_mean(fam, g.get('families') or {})}",
                    data["families"],
                    fam,
                    "definition/unknown-name",
                )
                continue
            path = folder / str(fname)
            if not path.is_file():  # named here: the place is the entry that names it, as for the base game's files
                here = sorted(p.name for p in folder.glob("*.yaml"))
                shown_folder = Path(spec.place(data["families"], fam).file).parent
                err(
                    f"family '{fam}': no file '{fname}' in {shown_folder}{did_you_mean(str(fname), here)}",
                    data["families"],
                    fam,
                    "definition/io",
                )
                continue
            try:
                fdata, fpos = read(path)
            except DefinitionError as exc:
                errors.append(exc)
                continue
            if _schema_failed(fdata, fpos, "components.schema.json", errors):
                continue
            spec.files[fpos.file] = (fdata, fpos)
            spec.register(fdata, fpos)
            comps = fdata.get("components") if isinstance(fdata, dict) else None
            for comp in comps or []:
                if not isinstance(comp, dict) or "id" not in comp:
                    continue
                if comp["id"] in spec._by_id:
                    err(
                        f"component '{comp['id']}' already exists (defined at {spec.place(spec._by_id[comp['id']])});"
                        f" use replace.components to change it",
                        comp,
                        "id",
                        "definition/duplicate-id",
                    )
                    continue
                _touch(spec, touched, ("component", comp["id"]), eid, comp, "id", errors, manifests)
                spec.components.setdefault(fam, []).append(comp)
                spec._by_id[comp["id"]] = comp
            count = (g["families"][fam] or {}).get("count")
            if count is not None:
                g["families"][fam]["count"] = count + sum(
                    int(c.get("copies", 1)) for c in comps or [] if isinstance(c, dict)
                )

    def mapping_sections(self, add, rep):
        """Mapping sections: ``add`` new names, ``replace`` existing ones (a table row cell by cell)."""
        spec, g, eid, touched, errors, manifests, err = self.parts()
        for section in MAPPING_SECTIONS:
            for mode, block in (("add", add), ("replace", rep)):
                entries = block.get(section) or {}
                if not entries:
                    continue
                target = g.setdefault(section, {})
                for name, value in entries.items():
                    exists = name in target
                    if mode == "add" and exists and section != "table":
                        err(f"{section} '{name}' already exists; use replace", entries, name, "definition/duplicate-id")
                        continue
                    if mode == "replace" and not exists:
                        err(
                            f"cannot replace unknown {section} '{name}'{did_you_mean(name, target)}",
                            entries,
                            name,
                            "definition/unknown-name",
                        )
                        continue
                    _touch(spec, touched, (section, name), eid, entries, name, errors, manifests)
                    if section == "table" and exists and isinstance(value, dict):
                        row = {**target[name], **value}
                        spec._src[id(row)] = spec.where(value)
                        for k in row:  # each cell keeps the place it was written at
                            spec.set_source(row, k, spec.where(value if k in value else target[name], k))
                        target[name] = row
                    else:
                        target[name] = value
                    spec.set_source(target, name, spec.where(entries, name))  # errors point into the expansion
                    if section == "constants" and (mode == "add" or _declaration(value)):
                        # a plain replace sets a value of the base's type
                        spec.constant_defs[name] = (value, spec.where(entries, name))

    def list_sections(self, add, rep, rem):
        """List sections by id, score parts, actions, phases and setup steps: add, replace, remove."""
        spec, g, eid, touched, errors, manifests, err = self.parts()
        for section, key in LIST_SECTIONS.items():
            _list_ops(
                spec,
                g,
                section,
                key,
                add.get(section),
                rep.get(section),
                rem.get(section),
                eid,
                touched,
                errors,
                manifests,
                err,
            )
        scoring = g.setdefault("scoring", {})
        _list_ops(
            spec,
            scoring,
            "parts",
            "id",
            add.get("score_parts"),
            rep.get("score_parts"),
            rem.get("score_parts"),
            eid,
            touched,
            errors,
            manifests,
            err,
        )
        turn = g.setdefault("turn", {})
        turn.setdefault("actions", [])
        _list_ops(
            spec,
            turn,
            "actions",
            "id",
            add.get("actions"),
            rep.get("actions"),
            rem.get("actions"),
            eid,
            touched,
            errors,
            manifests,
            err,
        )
        flow = g.setdefault("flow", {})
        _phases(
            spec,
            flow,
            "phases",
            add.get("phases"),
            rep.get("phases"),
            rem.get("phases"),
            eid,
            touched,
            errors,
            manifests,
            err,
        )
        if (add.get("setup") or rep.get("setup_steps") or rem.get("setup")) and isinstance(g.get("setup"), str):
            # a base setup written as one effect becomes one named step, so steps can go around it
            pos, path = spec.where(g, "setup")
            step = {"id": "setup", "do": g["setup"]}
            spec._src[id(step)] = (pos, path)  # the step's text stands where the string stood
            for table in (pos.scalars, pos.nodes):
                if path in table:
                    table[path + ("do",)] = table[path]
            spec._alive.append(step)
            g["setup"] = [step]
        if isinstance(g.get("setup"), list):
            _phases(
                spec,
                g,
                "setup",
                add.get("setup"),
                rep.get("setup_steps"),
                rem.get("setup"),
                eid,
                touched,
                errors,
                manifests,
                err,
            )

    def components_by_id(self, rep, rem):
        """Components replaced or removed by id (a family's count follows a removal)."""
        spec, g, eid, touched, errors, manifests, err = self.parts()
        for comp in rep.get("components") or []:
            cid = comp.get("id")
            old = spec._by_id.get(cid)
            if old is None:
                err(
                    f"cannot replace unknown component '{cid}'{did_you_mean(cid, spec._by_id)}",
                    comp,
                    "id",
                    "definition/unknown-name",
                )
                continue
            _touch(spec, touched, ("component", cid), eid, comp, "id", errors, manifests)
            for fam, comps in spec.components.items():
                for i, c in enumerate(comps):
                    if c is old:
                        comps[i] = comp
            spec._by_id[cid] = comp
        for cid in rem.get("components") or []:
            old = spec._by_id.pop(cid, None)
            if old is None:
                err(
                    f"cannot remove unknown component '{cid}'{did_you_mean(cid, spec._by_id)}",
                    rem["components"],
                    None,
                    "definition/unknown-name",
                )
                continue
            _touch(spec, touched, ("component", cid), eid, rem, "components", errors, manifests)
            for fam, comps in spec.components.items():
                if old in comps:
                    comps.remove(old)
                    fdef = g["families"][fam]
                    if fdef.get("count") is not None:
                        fdef["count"] -= int(old.get("copies", 1))

    def whole_sections(self, rep):
        """Sections replaced whole (``players``, ``scoring`` merged key by key; ``until``)."""
        spec, g, eid, touched, errors, manifests, err = self.parts()
        flow = g.setdefault("flow", {})
        for section in ("players", "scoring"):
            if section in rep:
                _touch(spec, touched, (section, section), eid, rep, section, errors, manifests)
                g[section] = rep[section] if section == "setup" else {**(g.get(section) or {}), **rep[section]}
        if "until" in rep:
            _touch(spec, touched, ("flow", "until"), eid, rep, "until", errors, manifests)
            flow["until"] = rep["until"]


def _declaration(entry) -> bool:
    return is_declaration(entry)


def _list_ops(spec, holder, section, key, adds, reps, rems, eid, touched, errors, manifests, err):
    items = holder.setdefault(section, [])
    ids = {it.get(key): i for i, it in enumerate(items) if isinstance(it, dict) and it.get(key)}
    for it in adds or []:
        iid = it.get(key)
        if iid in ids:
            err(f"{section} '{iid}' already exists; use replace", it, key, "definition/duplicate-id")
            continue
        if iid:
            _touch(spec, touched, (section, iid), eid, it, key, errors, manifests)
            ids[iid] = len(items)
        items.append(it)
    for it in reps or []:
        iid = it.get(key)
        if iid not in ids:
            err(
                f"cannot replace unknown {section} '{iid}'{did_you_mean(str(iid), [str(i) for i in ids])}",
                it,
                key,
                "definition/unknown-name",
            )
            continue
        _touch(spec, touched, (section, iid), eid, it, key, errors, manifests)
        items[ids[iid]] = it
    for iid in rems or []:
        if iid not in ids:
            err(f"cannot remove unknown {section} '{iid}'", rems, None, "definition/unknown-name")
            continue
        _touch(spec, touched, (section, iid), eid, rems, None, errors, manifests)
        items[:] = [it for it in items if not (isinstance(it, dict) and it.get(key) == iid)]
        ids = {it.get(key): i for i, it in enumerate(items) if isinstance(it, dict) and it.get(key)}


def _phases(spec, flow, section, adds, reps, rems, eid, touched, errors, manifests, err):
    """Add (before/after an anchor), replace or remove named steps of ``flow[section]`` by id."""
    phases = flow.setdefault(section, [])
    index = lambda pid: next((i for i, p in enumerate(phases) if p.get("id") == pid), None)
    for ph in adds or []:
        if index(ph.get("id")) is not None:
            err(f"phase '{ph.get('id')}' already exists; use replace", ph, "id", "definition/duplicate-id")
            continue
        _touch(spec, touched, ("phase", ph.get("id")), eid, ph, "id", errors, manifests)
        anchor = ph.get("before") or ph.get("after")
        entry = {k: v for k, v in ph.items() if k not in ("before", "after")}
        spec.register(entry, *spec.where(ph))
        if anchor is None:
            phases.append(entry)
            continue
        i = index(anchor)
        if i is None:
            err(f"unknown phase '{anchor}'", ph, "before" if "before" in ph else "after", "definition/unknown-name")
            continue
        phases.insert(i if "before" in ph else i + 1, entry)
    for ph in reps or []:
        i = index(ph.get("id"))
        if i is None:
            err(f"cannot replace unknown phase '{ph.get('id')}'", ph, "id", "definition/unknown-name")
            continue
        _touch(spec, touched, ("phase", ph.get("id")), eid, ph, "id", errors, manifests)
        phases[i] = ph
    for pid in rems or []:
        i = index(pid)
        if i is None:
            err(f"cannot remove unknown phase '{pid}'", rems, None, "definition/unknown-name")
            continue
        _touch(spec, touched, ("phase", pid), eid, rems, None, errors, manifests)
        del phases[i]
