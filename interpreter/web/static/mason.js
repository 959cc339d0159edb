/* mason serve: the lobby and the game page for every game, drawn from the JSON board models
   (docs/boards.md, docs/web.md). No game is named here: SVG for hex grids, rings, pyramids, tracks,
   staircases, wheels, slots and markets; HTML for hands, counters and cards. */
"use strict";

const Mason = (() => {
  const SEAT_COLOURS = ["#d62728", "#1f77b4", "#2ca02c", "#ff7f0e", "#9467bd", "#8c564b", "#e377c2", "#17becf"];
  const NAMED = {
    red: "#e45756", green: "#6bbf59", yellow: "#f2cf5b", blue: "#5b8fd1", magenta: "#c27bc0", cyan: "#72c7c2",
    white: "#fbfbf7", grey: "#a9a9a9", gray: "#a9a9a9", black: "#444", orange: "#f59a3c", purple: "#9b72c7",
    brown: "#a0704b", pink: "#f2a6c2",
  };
  const PALE = ["#e8d9b5", "#cfe3c4", "#c8dcef", "#f0cfc7", "#dccfe8", "#f3e3a6", "#c9e7e3", "#e6cfdc", "#d9d9cf", "#f1d7b0"];
  const SVGNS = "http://www.w3.org/2000/svg";

  // ------------------------------------------------------------------ small helpers
  function el(tag, attrs, ...kids) {
    const e = document.createElement(tag);
    for (const [k, v] of Object.entries(attrs || {})) {
      if (v === null || v === undefined || v === false) continue;
      if (k === "text") e.textContent = v;
      else if (k.startsWith("on")) e.addEventListener(k.slice(2), v);
      else e.setAttribute(k, v === true ? "" : v);
    }
    for (const c of kids.flat(4)) if (c !== null && c !== undefined) e.append(c.nodeType ? c : String(c));
    return e;
  }
  function sv(tag, attrs, ...kids) {
    const e = document.createElementNS(SVGNS, tag);
    for (const [k, v] of Object.entries(attrs || {})) if (v !== null && v !== undefined) e.setAttribute(k, v);
    for (const c of kids.flat(4)) if (c !== null && c !== undefined) e.append(c.nodeType ? c : String(c));
    return e;
  }
  function text(x, y, t, size, attrs) {
    return sv("text", Object.assign({ x, y, "font-size": size || 12, "text-anchor": "middle", "dominant-baseline": "middle" }, attrs || {}), String(t));
  }
  function title(t) { return sv("title", {}, t); }
  function words(s) { return String(s).replace(/_/g, " "); }
  function hash(s) { let h = 0; for (const ch of String(s)) h = (h * 31 + ch.charCodeAt(0)) | 0; return Math.abs(h); }
  function seatColour(s) { return SEAT_COLOURS[s % SEAT_COLOURS.length]; }
  function colourOf(code, display) {
    if (code === null || code === undefined) return "#f4f1e8";
    const named = display && display.colours && display.colours[code];
    if (named && NAMED[named]) return NAMED[named];
    const c = String(code).toLowerCase();
    for (const name of Object.keys(NAMED)) if (c === name || c.startsWith(name + " ") || c.endsWith(" " + name)) return NAMED[name];
    return PALE[hash(code) % PALE.length];
  }
  function short(name, max) {
    max = max || 9;
    let s = String(name).split(" (")[0];
    if (s.length <= max) return s;
    const parts = s.split(" ");
    if (parts.length > 1) s = parts.slice(0, -1).map((w) => w[0]).join("") + " " + parts[parts.length - 1];
    return s.length <= max ? s : s.slice(0, max - 1) + "\u2026";
  }
  function seatName(s) { return (S && S.names && S.names[s]) || "P" + (s + 1); }
  function pieceText(p) { return typeof p === "number" ? seatName(p) : String(p); }
  function seatDisc(x, y, s, r) {
    return sv("g", {}, sv("circle", { cx: x, cy: y, r: r || 8, fill: seatColour(s), stroke: "#222" }),
      text(x, y + 0.5, String(s + 1), (r || 8) * 1.2, { fill: "#fff", "font-weight": 700 }));
  }
  function fitSvg(node, w, h, maxw) {
    node.setAttribute("viewBox", `0 0 ${Math.ceil(w)} ${Math.ceil(h)}`);
    node.style.maxWidth = (maxw || Math.max(w * 1.4, 260)) + "px";
    return node;
  }
  async function api(path, opts) {
    const r = await fetch(path, opts);
    const body = r.headers.get("content-type") && r.headers.get("content-type").includes("json") ? await r.json() : await r.text();
    if (!r.ok) throw new Error((body && body.error) || r.statusText);
    return body;
  }
  function show(msg, info) {
    const m = document.getElementById("message");
    if (!m) return;
    m.hidden = !msg;
    m.className = "message" + (info ? " info" : "");
    m.textContent = msg || "";
  }

  // ------------------------------------------------------------------ board drawings
  // each returns an element; reg(pid, node) names a place of the board for options and highlights
  const DRAW = {};

  DRAW.hexgrid = (b, reg) => {
    const size = 30, w3 = Math.sqrt(3);
    const pos = (c) => [size * w3 * (c.q + c.r / 2), size * 1.5 * c.r];
    const xs = b.cells.map((c) => pos(c)[0]), ys = b.cells.map((c) => pos(c)[1]);
    const minx = Math.min(...xs) - size, miny = Math.min(...ys) - size;
    const W = Math.max(...xs) - minx + size, H = Math.max(...ys) - miny + size;
    const g = sv("svg", { class: "hexgrid" });
    const code = (b.display && b.display.cell_code) || "kind";
    const legend = new Map();
    for (const c of b.cells) {
      const [x0, y0] = pos(c), x = x0 - minx, y = y0 - miny;
      const pts = [];
      for (let i = 0; i < 6; i++) { const a = Math.PI / 180 * (60 * i - 30); pts.push(`${x + (size - 1) * Math.cos(a)},${y + (size - 1) * Math.sin(a)}`); }
      const kind = c.kind !== null && c.kind !== undefined ? c.kind : (c.data && c.data[code]);
      const fill = colourOf(kind, b.display);
      if (kind !== null && kind !== undefined) legend.set(String(kind), fill);
      const top = c.stack && c.stack.length ? c.stack[c.stack.length - 1] : null;
      const poly = sv("polygon", { points: pts.join(" "), fill: top ? "#fffdf3" : fill, class: "place" });
      const tip = [`${c.id}${kind ? " " + words(kind) : ""}`];
      for (const [k, v] of Object.entries(c.data || {})) if (k !== code) tip.push(`${words(k)}: ${JSON.stringify(v)}`);
      for (const p of c.stack || []) tip.push(`${p.piece}${p.rot ? " (turned " + p.rot + ")" : ""}`);
      const cell = sv("g", {}, poly, title(tip.join("\n")));
      if (top) {
        cell.append(sv("polygon", { points: pts.join(" "), fill, "fill-opacity": 0.35, stroke: "none" }));
        cell.append(text(x, y - 4, short(top.piece, 8), 9, { "font-weight": 600 }));
        if (c.stack.length > 1) cell.append(text(x, y + 8, `+${c.stack.length - 1}`, 8));
      } else if (kind) {
        cell.append(text(x, y - 3, short(words(kind), 8), 9));
      }
      cell.append(text(x, y + 16, c.id, 7, { fill: "#555" }));
      reg(c.id, poly, cell);
      g.append(cell);
    }
    for (const m of b.marks || []) {
      const c = b.cells.find((x) => x.id === m.cell);
      if (!c) continue;
      const [x0, y0] = pos(c), a = Math.PI / 180 * (60 * m.corner - 90);
      g.append(sv("g", {}, sv("circle", { cx: x0 - minx + size * 0.8 * Math.cos(a), cy: y0 - miny + size * 0.8 * Math.sin(a), r: 3.5, fill: "#333" }), title(`${c.id} corner ${m.corner}: ${words(m.mark)}`)));
    }
    const wrap = el("div", {}, fitSvg(g, W, H, W * 1.6));
    if (legend.size) wrap.append(el("div", { class: "legend" }, [...legend].map(([k, f]) => el("span", {}, el("span", { class: "dot", style: `background:${f}` }), words(k) + "  "))));
    return wrap;
  };

  DRAW.ring = (b, reg) => {
    const n = b.places.length, R = Math.max(90, n * 19), r = Math.min(34, Math.max(22, 300 / n));
    const W = 2 * (R + r + 14), H = W, cx = W / 2, cy = H / 2;
    const g = sv("svg", { class: "ring" });
    g.append(sv("circle", { cx, cy, r: R, fill: "none", stroke: "#bbb", "stroke-dasharray": "4 4" }));
    const at = (i) => { const a = -Math.PI / 2 + 2 * Math.PI * i / n; return [cx + R * Math.cos(a), cy + R * Math.sin(a)]; };
    b.places.forEach((p, i) => {
      const [x, y] = at(i);
      const circle = sv("circle", { cx: x, cy: y, r, fill: "#f7f3e6", class: "place" });
      const tip = [`${p.label}${p.capacity ? " (room for " + p.capacity + ")" : ""}`];
      if (p.pieces.length) tip.push(`${b.piece || "pieces"}: ${p.pieces.map(pieceText).join(", ")}`);
      if (p.pawns.length) tip.push(`${b.pawn || "pawns"}: ${p.pawns.map(seatName).join(", ")}`);
      for (const [k, v] of Object.entries(p.tokens || {})) tip.push(`${words(k)}: ${v}`);
      const grp = sv("g", {}, circle, title(tip.join("\n")), text(x, y - r * 0.52, short(p.label, 10), 10, { "font-weight": 600 }));
      p.pieces.forEach((pc, k) => {
        const px = x - (p.pieces.length - 1) * 5 + k * 10;
        grp.append(typeof pc === "number" ? seatDisc(px, y, pc, 5) : sv("circle", { cx: px, cy: y, r: 4.6, fill: colourOf(pc, b.display), stroke: "#333" }));
      });
      p.pawns.forEach((s, k) => grp.append(seatDisc(x - (p.pawns.length - 1) * 9 + k * 18, y + r * 0.5, s, 7)));
      const toks = Object.entries(p.tokens || {}).filter(([, v]) => v);
      if (toks.length) grp.append(text(x, y + r + 8, toks.map(([k, v]) => `${short(words(k), 6)} ${v}`).join(" "), 8.5));
      reg(p.id, circle, grp);
      g.append(grp);
    });
    for (const m of b.markers || []) {
      const [x1, y1] = at(m.after), [x2, y2] = at((m.after + 1) % n);
      const mx = cx + (((x1 + x2) / 2) - cx) * 1.0, my = cy + (((y1 + y2) / 2) - cy) * 1.0;
      g.append(sv("g", {}, sv("rect", { x: mx - 6, y: my - 6, width: 12, height: 12, transform: `rotate(45 ${mx} ${my})`, fill: "#222" }),
        text(mx, my + 14, words(m.id), 9, { "font-weight": 700 }), title(`${words(m.id)} after ${b.places[m.after].label}`)));
    }
    if (b.held && b.held.length) g.append(text(cx, cy, `held: ${b.held.map(pieceText).join(", ")}`, 10));
    return fitSvg(g, W, H, 520);
  };

  DRAW.pyramid = (b, reg) => {
    const layers = Math.max(...b.slots.map((s) => s.layer)), maxx = Math.max(...b.slots.map((s) => s.x));
    const CW = 52, CH = 34, W = (maxx + 1) * CW, H = layers * CH + 8;
    const g = sv("svg", { class: "pyramid" });
    const count = {}, seen = {};
    for (const s of b.slots) count[`${s.layer}/${s.x}`] = (count[`${s.layer}/${s.x}`] || 0) + 1;
    for (const s of b.slots) {
      // slots sharing a spot (two on the same supports) share its width
      const k = `${s.layer}/${s.x}`, dup = seen[k] || 0, share = count[k]; seen[k] = dup + 1;
      const w = share > 1 ? CW * 0.8 : CW, x = (s.x - 0.5) * CW - (share - 1) * w / 2 + dup * w, y = (layers - s.layer) * CH + 4;
      const fill = s.owner !== null && s.owner !== undefined ? seatColour(s.owner) : s.state === "open" ? "#ffffff" : "#e4e1d8";
      const rect = sv("rect", { x: x + 2, y, width: w - 4, height: CH - 4, rx: 4, fill, class: "place", "stroke-dasharray": s.state === "open" ? "" : s.state === "waiting" ? "3 3" : "" });
      const grp = sv("g", {}, rect, title(`${s.id}: ${s.points} points, ${s.state}${s.owner !== null && s.owner !== undefined ? ", " + seatName(s.owner) : ""}`),
        text(x + w / 2, y + CH / 2 - 6, s.id, 9, { fill: s.owner !== null && s.owner !== undefined ? "#fff" : "#333" }),
        text(x + w / 2, y + CH / 2 + 7, `${s.points} pt`, 9, { fill: s.owner !== null && s.owner !== undefined ? "#fff" : "#333", "font-weight": 600 }));
      reg(s.id, rect, grp);
      g.append(grp);
    }
    return fitSvg(g, W, H, 300);
  };

  function stepText(st) {
    const v = Object.entries(st || {}).map(([k, x]) => (typeof x === "string" ? words(x) : `${words(k)} ${JSON.stringify(x)}`));
    return v.join(", ");
  }

  DRAW.track = (b, reg) => {
    const top = Math.max(...b.tracks.map((t) => t.top)), LW = 92, CW = 52, RH = 40;
    const W = LW + (top + 1) * CW + 4, H = b.tracks.length * RH + 4;
    const g = sv("svg", { class: "track" });
    b.tracks.forEach((t, i) => {
      const y = i * RH + 2;
      const row = sv("g", {});
      const band = sv("rect", { x: 0, y, width: LW + (t.top + 1) * CW, height: RH - 4, fill: "none", class: "place", stroke: "none" });
      row.append(band, text(LW - 6, y + RH / 2 - 2, short(t.label, 13), 11, { "text-anchor": "end", "font-weight": 600 }));
      for (let k = 0; k <= t.top; k++) {
        const x = LW + k * CW, st = (t.steps || [])[k];
        row.append(sv("g", {}, sv("rect", { x: x + 1, y: y + 1, width: CW - 2, height: RH - 6, fill: k === t.top ? "#efe4c8" : "#faf8f1", stroke: "#999" }),
          text(x + 5, y + 8, k, 8, { "text-anchor": "start", fill: "#666" }), title(`${t.label} ${k}${stepText(st) ? ": " + stepText(st) : ""}`)));
        if (stepText(st)) row.append(text(x + CW / 2, y + RH - 12, stepText(st).length <= 11 ? stepText(st) : stepText(st).split(", ").pop().slice(0, 11), 7.5, { fill: "#7a5a00" }));
      }
      (t.positions || []).forEach((p, s) => {
        if (p === null || p === undefined) return;
        const same = t.positions.slice(0, s).filter((q) => q === p).length;
        row.append(seatDisc(LW + p * CW + 12 + same * 13, y + RH / 2 - 2, s, 6.5));
      });
      reg(t.id, band, row);
      g.append(row);
    });
    return fitSvg(g, W, H, W * 1.3);
  };

  DRAW.staircase = (b, reg) => {
    const rows = b.rows, nr = rows.length, nc = Math.max(...rows.map((r) => r.length)), CW = 30, CH = 26, LW = 30;
    const W = LW + nc * CW + 36, H = nr * CH + 22;
    const g = sv("svg", { class: "staircase" });
    const frame = sv("rect", { x: LW, y: 0, width: nc * CW, height: nr * CH, fill: "none", class: "place", stroke: "none" });
    g.append(frame);
    rows.forEach((row, i) => {
      const y = (nr - 1 - i) * CH;
      g.append(text(LW - 6, y + CH / 2, i + 1, 9, { "text-anchor": "end", fill: "#666" }));
      row.forEach((code, j) => {
        const x = LW + j * CW;
        const meaning = (b.codes || {})[code] || (typeof code === "number" ? `${code} points` : code);
        g.append(sv("g", {}, sv("rect", { x, y, width: CW, height: CH, fill: code === "." ? "#faf8f1" : typeof code === "number" ? "#f3e3a6" : "#dfe8f3", stroke: "#bbb" }),
          code === "." ? null : text(x + CW / 2, y + CH / 2, code, 11), title(`row ${i + 1}, column ${j + 1}: ${meaning}`)));
      });
      if (b.row_scores) g.append(text(LW + nc * CW + 18, y + CH / 2, b.row_scores[i], 10, { fill: "#7a5a00", "font-weight": 600 }));
    });
    (b.column_values || []).forEach((v, j) => g.append(text(LW + j * CW + CW / 2, nr * CH + 11, v, 9, { fill: "#7a5a00" })));
    (b.positions || []).forEach((p, s) => {
      if (!p) return;
      const same = b.positions.slice(0, s).filter((q) => q && q[0] === p[0] && q[1] === p[1]).length;
      g.append(seatDisc(LW + (p[1] - 1) * CW + 9 + same * 10, (nr - p[0]) * CH + CH / 2, s, 7));
    });
    reg("*", frame, g);
    return fitSvg(g, W, H, W * 1.4);
  };

  // a text in lines of at most max characters, at most count of them (the last cut short with an ellipsis)
  function wrapWords(t, max, count) {
    const out = [];
    let cur = "";
    for (const w of String(t || "").split(" ")) {
      if (!cur) cur = w;
      else if ((cur + " " + w).length <= max) cur += " " + w;
      else { out.push(cur); cur = w; }
    }
    if (cur) out.push(cur);
    if (out.length > count) { out.length = count; out[count - 1] = out[count - 1].slice(0, max - 1) + "\u2026"; }
    return out.map((x) => (x.length > max ? x.slice(0, max - 1) + "\u2026" : x));
  }

  DRAW.wheel = (b, reg) => {
    // each station: its id and the slot over it, the piece, then the station's and the slot's data in
    // the words the model gives them (as the terminal's `view` writes them)
    const n = b.stations.length, bw = 124, LH = 11, MAX = 22;
    const said = b.stations.map((s) => [wrapWords(s.words, MAX, 2), wrapWords(s.slot_words, MAX, 2)]);
    const most = Math.max(0, ...said.map(([a, c]) => a.length + c.length));
    const bh = 10 + LH * (2 + most);
    // the smallest radius (from 110) at which no two neighbouring boxes overlap
    const at = (i, r) => { const a = -Math.PI / 2 + 2 * Math.PI * i / n; return [r * Math.cos(a), r * Math.sin(a)]; };
    const clear = (r) => b.stations.every((_, i) => {
      const [x1, y1] = at(i, r), [x2, y2] = at((i + 1) % n, r);
      return n < 2 || Math.abs(x1 - x2) >= bw + 4 || Math.abs(y1 - y2) >= bh + 4;
    });
    let R = 110;
    while (!clear(R) && R < 2000) R += 4;
    const W = 2 * R + bw + 20, H = 2 * R + bh + 20, cx = W / 2, cy = H / 2;
    const g = sv("svg", { class: "wheel" });
    g.append(sv("circle", { cx, cy, r: R * 0.55, fill: "#f3efe2", stroke: "#aaa" }), text(cx, cy, `turned ${b.rotation}`, 11, { fill: "#555" }));
    b.stations.forEach((s, i) => {
      const [dx, dy] = at(i, R), x = cx + dx, y = cy + dy, top = y - bh / 2;
      const rect = sv("rect", { x: x - bw / 2, y: top, width: bw, height: bh, rx: 6, fill: s.piece ? "#fffdf3" : "#f4f1e8", class: "place" });
      const grp = sv("g", {}, rect, title([s.summary, s.slot_summary, s.piece].filter(Boolean).join("\n")),
        text(x, top + 10, `${s.id}${s.slot ? " \u00b7 " + s.slot : ""}`, 9, { fill: "#555" }),
        text(x, top + 10 + LH, s.piece ? short(s.piece, 18) : "empty", 10, { "font-weight": 600 }));
      const [st, sl] = said[i];
      st.forEach((t, k) => grp.append(text(x, top + 10 + LH * (2 + k), t, 8.5, { fill: "#7a5a00", class: "station-words" })));
      sl.forEach((t, k) => grp.append(text(x, top + 10 + LH * (2 + st.length + k), t, 8.5, { fill: "#2f5f8f", class: "slot-words" })));
      reg(s.id, rect, grp);
      g.append(grp);
    });
    return fitSvg(g, W, H, W * 1.05);
  };

  DRAW.slots = (b, reg) => {
    const per = b.columns, regions = b.regions, CW = 34, CH = 30, GAP = 16, LW = 24;
    const W = LW + regions * per * CW + (regions - 1) * GAP + 4, H = b.levels.length * CH + 18;
    const g = sv("svg", { class: "slots" });
    for (let r = 0; r < regions; r++) g.append(text(LW + r * (per * CW + GAP) + per * CW / 2, H - 7, `region ${r + 1}`, 9, { fill: "#666" }));
    b.levels.forEach((lv, i) => {
      const y = i * CH;
      g.append(text(LW - 6, y + CH / 2, `L${lv.level}`, 9, { "text-anchor": "end", fill: "#666" }));
      lv.cells.forEach((c, j) => {
        if (!c) return;
        const r = Math.floor(j / per), x = LW + j * CW + r * GAP;
        const fill = c.owner !== null && c.owner !== undefined ? seatColour(c.owner) : c.neutral ? "#8d8d8d" : c.open ? "#ffffff" : "#e8e4da";
        const rect = sv("rect", { x: x + 1, y: y + 1, width: CW - 2, height: CH - 2, rx: 3, fill, class: "place", "stroke-dasharray": c.open ? "" : "2 2" });
        const marks = Object.entries(c.marks || {}).map(([k, v]) => `${words(k)} ${v}`).join(", ");
        const grp = sv("g", {}, rect, title(`${c.id}${c.open ? " (open)" : ""}${c.owner !== null && c.owner !== undefined ? ": " + seatName(c.owner) : c.neutral ? ": neutral" : ""}${marks ? "\n" + marks : ""}`));
        if (marks) grp.append(text(x + CW / 2, y + CH / 2, short(marks, 5), 7.5));
        reg(c.id, rect, grp);
        g.append(grp);
      });
    });
    const wrap = el("div", {}, fitSvg(g, W, H, W * 1.5));
    if (b.stores) {
      const said = (v) => (v && typeof v === "object" ? Object.entries(v).map(([k, x]) => `${words(k)} ${x}`).join(", ") : String(v));
      const list = Array.isArray(b.stores) ? b.stores.map((v, r) => `region ${r + 1}: ${said(v)}`) : [said(b.stores)];
      wrap.append(el("div", { class: "legend" }, `${b.store_label || "stores"}: ${list.join("; ")}`));
    }
    return wrap;
  };

  DRAW.market = (b, reg) => {
    if (b.goods.length && b.goods[0].spaces) {
      const most = Math.max(...b.goods.map((x) => x.spaces.length)), LW = 70, CW = 32, RH = 30;
      const g = sv("svg", { class: "market" });
      b.goods.forEach((good, i) => {
        const y = i * RH + 2, row = sv("g", {});
        const band = sv("rect", { x: 0, y, width: LW + most * CW, height: RH - 2, fill: "none", stroke: "none", class: "place" });
        row.append(band, text(LW - 6, y + RH / 2, good.label, 11, { "text-anchor": "end", "font-weight": 600 }));
        good.spaces.forEach((sp, k) => {
          const x = LW + k * CW;
          row.append(sv("g", {}, sv("rect", { x: x + 1, y: y + 1, width: CW - 2, height: RH - 5, rx: 4, fill: sp.filled ? colourOf(good.id, b.display) : "#fff", stroke: "#888" }),
            text(x + CW / 2, y + RH / 2 - 1, sp.price, 10, { "font-weight": 600 }),
            title(`${good.label}: price ${sp.price}${sp.points ? ", " + sp.points + " points" : ""}${sp.filled ? " (filled)" : " (empty)"}`)));
        });
        reg(good.id, band, row);
        g.append(row);
      });
      return fitSvg(g, LW + most * CW + 4, b.goods.length * RH + 4, 420);
    }
    const t = el("table", { class: "plain" }, el("tr", {}, el("th", { text: "good" }), el("th", { text: "buy" }), el("th", { text: "sell" }), el("th", { text: "stock" })));
    for (const good of b.goods) {
      const tr = el("tr", {}, el("td", { text: good.label }), el("td", { text: good.buy ?? "-" }), el("td", { text: good.sell ?? "-" }), el("td", { text: good.stock ?? "-" }));
      reg(good.id, tr, tr);
      t.append(tr);
    }
    return t;
  };

  DRAW.spaces = (b, reg) => {
    const ul = el("ul", { class: "spaces" });
    for (const loc of b.locations) {
      const li = el("li", {}, el("b", { text: loc.label }), ": ",
        loc.spaces.length ? loc.spaces.map((o, k) => [k ? ", " : "", o === null ? "free" : typeof o === "number" ? el("span", {}, el("span", { class: "dot", style: `background:${seatColour(o)}` }), seatName(o)) : String(o)]) : "(no space)");
      reg(loc.id, li, li);
      ul.append(li);
    }
    return ul;
  };

  DRAW.bag = (b) => el("div", {},
    el("div", {}, "inside: " + (b.inside.map((x) => `${pieceText(x.piece)} \u00d7${x.count}`).join(", ") || "nothing")),
    b.drawn !== null && b.drawn !== undefined ? el("div", {}, "drawn: " + pieceText(b.drawn)) : null,
    b.parked && b.parked.length ? el("div", {}, "set aside: " + b.parked.map((p) => `${pieceText(p.piece)} (${p.slot})`).join(", ")) : null);

  DRAW.cost_track = (b) => el("div", { class: "cards" }, b.prices.map((p, i) => el("span", { class: "card" + (i === b.position ? " target-now" : ""), style: i === b.position ? "font-weight:700;border:2px solid #222" : "" }, String(p))));

  function drawBoard(b, reg) {
    const fn = DRAW[b.kind];
    if (fn) return fn(b, reg);
    const keys = Object.keys(b).filter((k) => !["name", "kind", "label", "status", "display"].includes(k));
    return el("pre", { class: "legend" }, JSON.stringify(Object.fromEntries(keys.map((k) => [k, b[k]])), null, 1).slice(0, 2000));
  }

  function placeSigs(b) {
    const out = {};
    const put = (id, v) => { out[`${b.name}|${id}`] = JSON.stringify(v); };
    if (b.kind === "hexgrid") b.cells.forEach((c) => put(c.id, c));
    else if (b.kind === "ring") b.places.forEach((p) => put(p.id, p));
    else if (b.kind === "pyramid") b.slots.forEach((s) => put(s.id, s));
    else if (b.kind === "track") b.tracks.forEach((t) => put(t.id, t.positions));
    else if (b.kind === "wheel") b.stations.forEach((s) => put(s.id, s));
    else if (b.kind === "slots") b.levels.forEach((lv) => lv.cells.forEach((c) => c && put(c.id, c)));
    else if (b.kind === "market") b.goods.forEach((g) => put(g.id, g));
    else if (b.kind === "spaces") b.locations.forEach((l) => put(l.id, l));
    else put("*", b);
    return out;
  }

  function signatures(table) {
    const out = {};
    for (const b of table.boards) Object.assign(out, placeSigs(b));
    for (const s of table.shared) out[`shared|${s.id}`] = JSON.stringify(s.value);
    const zone = (z) => { out[`zone|${z.id}`] = JSON.stringify([z.cards.map((c) => c.id), z.hidden]); };
    table.zones.forEach(zone);
    for (const s of table.seats) {
      for (const c of s.counters) out[`counter|${s.seat}|${c.id}`] = JSON.stringify(c.value);
      s.zones.forEach(zone);
    }
    return out;
  }

  // ------------------------------------------------------------------ the game page
  let S = null, token = null, ws = null, base = {}, now = {}, places = {}, cards = {}, lastLogCount = 0;

  function mark(key, node) { if (base[key] !== undefined && now[key] !== undefined && base[key] !== now[key]) node.classList.add("changed"); }

  function renderBoards() {
    const box = document.getElementById("boards");
    box.replaceChildren();
    places = {};
    for (const b of S.table.boards) {
      if (b.display && b.display.table === "off") continue;
      const reg = (pid, node, group) => {
        const key = `${b.name}|${pid}`;
        (places[key] = places[key] || []).push(node);
        mark(key, node);
        if (group) group.setAttribute("data-place", key);
      };
      const wide = ["hexgrid", "track", "wheel", "slots"].includes(b.kind) && !(b.display && b.display.seat) && S.table.boards.length > 1;
      const card = el("div", { class: "board" + (wide ? " wide" : ""), "data-board": b.name });
      card.append(el("h3", {}, (b.display && b.display.label) || b.label || words(b.name), " ", el("span", { class: "kind", text: words(b.kind) })));
      card.append(drawBoard(b, reg));
      box.append(card);
    }
    if (!box.children.length) box.append(el("div", { class: "board" }, el("h3", { text: S.title }), el("p", { class: "waiting", text: "This game has no board: the cards and counters are on the right." })));
  }

  function renderCard(c) {
    const d = el("span", { class: "card", "data-card": c.id, title: [c.name, c.summary, ...c.flags, ...Object.entries(c.state || {}).map(([k, v]) => `${words(k)}: ${JSON.stringify(v)}`)].filter(Boolean).join("\n") },
      el("b", { text: c.name }), c.summary ? el("span", { class: "summary", text: c.summary }) : null,
      c.flags.length ? el("span", { class: "summary", text: c.flags.join(", ") }) : null);
    (cards[c.id] = cards[c.id] || []).push(d);
    return d;
  }

  function renderZone(z) {
    if (!z.cards.length && !z.hidden) return null;
    const box = el("div", { class: "zone" }, el("div", { class: "zlabel", text: `${z.label} (${z.cards.length + z.hidden})` }),
      el("div", { class: "cards" }, z.cards.map(renderCard), z.hidden ? el("span", { class: "card hidden", text: `${z.hidden} hidden` }) : null));
    mark(`zone|${z.id}`, box);
    return box;
  }

  function renderTable() {
    cards = {};
    const t = S.table;
    const turn = t.turn ? ` \u00b7 ${seatName(t.turn.seat)}'s turn${t.turn.card ? " (" + t.turn.card + ")" : ""}` : "";
    document.getElementById("where").textContent = `round ${t.round} \u00b7 ${words(t.phase || "")}${turn}`;
    const shared = document.getElementById("shared");
    shared.replaceChildren(el("h2", { text: "Table" }));
    const line = el("div", { class: "counters" });
    for (const s of t.shared) {
      const c = el("span", { class: "counter" }, `${s.label}${s.text === null ? "" : ": "}`, el("b", { text: s.text === undefined ? s.value : s.text === null ? "" : s.text }));
      mark(`shared|${s.id}`, c);
      line.append(c);
    }
    shared.append(line);
    for (const z of t.zones) { if (!(z.display && z.display.table === "off")) { const n = renderZone(z); if (n) shared.append(n); } }
    const seats = document.getElementById("seats");
    seats.replaceChildren(el("h2", { text: "Players" }));
    for (const s of t.seats) {
      const kind = S.kinds[s.seat];
      const box = el("div", { class: "seat" + (s.you ? " you" : ""), style: `border-left-color:${seatColour(s.seat)}`, "data-seat": s.seat },
        el("h3", {}, s.name, s.you ? " (you)" : "", kind && kind !== "human" ? ` \u00b7 ${kind}` : "", s.holds.length ? ` \u00b7 ${s.holds.join(", ")}` : ""));
      const cs = el("div", { class: "counters" });
      for (const c of s.counters) {
        if (c.quiet) continue;
        const n = el("span", { class: "counter" }, `${c.label} `, el("b", { text: c.cap !== null && c.cap !== undefined ? `${c.value}/${c.cap}` : c.value }));
        mark(`counter|${s.seat}|${c.id}`, n);
        cs.append(n);
      }
      for (const v of s.vars) cs.append(el("span", { class: "counter" }, v.label, v.text === null ? "" : ": ", el("b", { text: v.text === null ? "" : v.text ?? JSON.stringify(v.value) })));
      for (const v of s.values || []) cs.append(el("span", { class: "counter" }, `${v.label} `, el("b", { text: v.used !== null && v.used !== undefined ? `${v.used}/${v.value}` : v.value })));
      box.append(cs);
      for (const z of s.zones) { if (!(z.display && z.display.table === "off")) { const n = renderZone(z); if (n) box.append(n); } }
      seats.append(box);
    }
  }

  function send(answer) {
    const d = S.decision;
    base = signatures(S.table);  // "what changed since your last decision" starts here
    try { sessionStorage.setItem("mason-base-" + token, JSON.stringify(base)); } catch (e) { /* private mode */ }
    show("");
    const msg = { type: "answer", decision: d.id, answer };
    if (ws && ws.readyState === 1) ws.send(JSON.stringify(msg));
    else api(`/api/play/${token}/answer`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(msg) }).then(update).catch((e) => show(e.message));
    document.querySelectorAll("#decision button").forEach((b) => { b.disabled = true; });
  }

  function renderDecision() {
    const box = document.getElementById("decision");
    box.replaceChildren();
    for (const n of document.querySelectorAll(".target, .hot")) n.classList.remove("target", "hot");
    if (S.failed) { box.append(el("h2", { text: "The game stopped" }), el("p", { text: S.failed })); return; }
    if (S.over) { box.append(el("h2", { text: "The game is over" })); return; }
    const d = S.decision;
    if (!d) {
      const w = S.waiting;
      box.append(el("h2", { text: S.seat === null ? "Watching" : "Waiting" }),
        el("p", { class: "waiting", text: w ? `${w.name}${w.bot ? " (bot)" : ""} is deciding...` : "..." }));
      tools(box);
      return;
    }
    box.append(el("h2", { text: "Your decision" }), el("div", { class: "prompt", text: d.prompt }));
    const opts = el("div", { class: "options" });
    const byPlace = {};
    const byCard = {};
    const buttons = [];
    if (d.subset) {
      const checks = d.options.map((o) => el("input", { type: "checkbox", value: o.i }));
      d.options.forEach((o, k) => opts.append(el("label", { class: "option" }, checks[k], " ", o.text, o.preview ? el("span", { class: "preview", text: " " + o.preview }) : null)));
      opts.append(el("button", { type: "button", class: "option", id: "confirm", onclick: () => {
        const chosen = checks.filter((c) => c.checked).map((c) => Number(c.value));
        if (chosen.length > d.subset) { show(`choose at most ${d.subset}`); return; }
        send(chosen);
      } }, `Confirm (up to ${d.subset})`));
    } else {
      for (const o of d.options) {
        const b = el("button", { type: "button", class: "option", "data-option": o.i, onclick: () => send(o.i) },
          o.key ? el("span", { class: "key", text: o.key }) : null, o.text, o.preview ? el("span", { class: "preview", text: o.preview }) : null);
        buttons[o.i] = b;
        const hot = (on) => { for (const [bd, pid] of o.places) for (const n of places[`${bd}|${pid}`] || []) n.classList.toggle("hot", on); };
        b.addEventListener("mouseenter", () => hot(true));
        b.addEventListener("mouseleave", () => hot(false));
        for (const [bd, pid] of o.places) (byPlace[`${bd}|${pid}`] = byPlace[`${bd}|${pid}`] || []).push(o.i);
        if (o.card !== undefined) (byCard[o.card] = byCard[o.card] || []).push(o.i);
        opts.append(b);
      }
    }
    box.append(opts);
    const pick = (list) => {
      if (list.length === 1) { send(list[0]); return; }
      for (const i of list) { buttons[i].classList.add("hot"); }
      buttons[list[0]].scrollIntoView({ block: "nearest" });
    };
    for (const [key, list] of Object.entries(byPlace)) {
      for (const n of places[key] || []) {
        n.classList.add("target");
        const g = n.closest("[data-place]") || n;
        g.style.cursor = "pointer";
        g.onclick = () => pick(list);
        const board = n.closest(".board");
        if (board) board.classList.add("focus");
      }
    }
    for (const [id, list] of Object.entries(byCard)) {
      for (const n of cards[id] || []) { n.classList.add("target"); n.onclick = () => pick(list); }
    }
    if (d.unavailable.length || d.not_offered.length) {
      box.append(el("ul", { class: "unavailable" }, d.unavailable.map((u) => el("li", { text: `${u.key ? u.key + ". " : ""}${u.label}: ${u.reason}` })),
        d.unavailable.length ? null : d.not_offered.map((t) => el("li", { text: t }))));
    }
    tools(box);
  }

  function tools(box) {
    if (S.seat === null) return;
    const t = el("div", { class: "tools" });
    if (S.can_undo) t.append(el("button", { type: "button", id: "undo", onclick: () => {
      if (ws && ws.readyState === 1) ws.send(JSON.stringify({ type: "undo" }));
      else api(`/api/play/${token}/undo`, { method: "POST" }).then((p) => { update(p); show(p.message, true); }).catch((e) => show(e.message));
    } }, "Undo my last decision"));
    box.append(t);
  }

  function renderResult() {
    const box = document.getElementById("result");
    if (!S.result) { box.hidden = true; return; }
    box.hidden = false;
    const r = S.result, parts = Object.keys(r.labels);
    const t = el("table", { class: "scores" }, el("tr", {}, el("th", { text: "seat" }), parts.map((p) => el("th", { text: r.labels[p] })), el("th", { text: "total" })));
    r.scores.forEach((sc, s) => t.append(el("tr", { class: r.winners.includes(s) ? "winner" : "" }, el("td", { text: seatName(s) + (r.winners.includes(s) ? " (winner)" : "") }),
      parts.map((p) => el("td", { text: (r.parts[s] || {})[p] ?? "" })), el("td", { text: sc }))));
    box.replaceChildren(el("h2", { text: `Final scores${r.rounds ? " after " + r.rounds + " rounds" : ""}` }), t,
      el("p", {}, "Export: ", el("a", { href: `/api/play/${token}/export?format=save`, text: "save" }), " \u00b7 ", el("a", { href: `/api/play/${token}/export?format=log`, text: "log" })));
  }

  function renderLog(lines) {
    const ol = document.getElementById("log");
    const atBottom = ol.scrollTop + ol.clientHeight >= ol.scrollHeight - 20;
    ol.replaceChildren();
    for (const l of lines) {
      const li = el("li", { class: S.since !== null && l.n >= S.since ? "new" : "", "data-n": l.n }, l.text);
      const why = el("button", { type: "button", class: "why", title: "why did this happen?", text: "why", onclick: async () => {
        const old = li.querySelector("pre");
        if (old) { old.remove(); return; }
        try { const w = await api(`/api/play/${token}/why/${l.n}`); li.append(el("pre", { text: w.lines.join("\n") })); } catch (e) { show(e.message); }
      } });
      li.append(why);
      ol.append(li);
    }
    if (atBottom || lines.length !== lastLogCount) ol.scrollTop = ol.scrollHeight;
    lastLogCount = lines.length;
  }

  async function renderHost() {
    const box = document.getElementById("host");
    if (S.role !== "host") { box.hidden = true; return; }
    box.hidden = false;
    if (box.dataset.done) return;
    box.dataset.done = "1";
    const info = await api(`/api/play/${token}/links`);
    box.replaceChildren(el("h2", { text: "Host" }), el("ul", {}, info.links.filter((l) => l.role !== "host").map((l) => {
      const url = `${location.origin}/play/${l.token}`;
      return el("li", {}, l.role === "seat" ? `${seatName(l.seat)}: ` : "spectator: ", el("a", { href: url, text: url }));
    })), el("p", {}, "Export (shows every hidden card): ", el("a", { href: `/api/play/${token}/export?format=save`, text: "save" }), " \u00b7 ", el("a", { href: `/api/play/${token}/export?format=log`, text: "log" })));
  }

  function update(payload) {
    S = payload;
    now = signatures(S.table);
    document.title = `${S.title} - Mason`;
    document.getElementById("title").textContent = S.title + (S.seat === null ? ` (${S.role})` : ` \u00b7 ${seatName(S.seat)}`);
    renderBoards();
    renderTable();
    renderDecision();
    renderResult();
    renderLog(S.log);
    renderHost().catch((e) => show(e.message));
    document.body.dataset.version = S.version;
    document.body.dataset.decision = S.decision ? S.decision.id : "";
    document.body.dataset.over = S.over ? "1" : "";
    document.body.dataset.round = S.table.round;
  }

  function connect() {
    const status = document.getElementById("status");
    ws = new WebSocket(`${location.protocol === "https:" ? "wss" : "ws"}://${location.host}/ws/${token}`);
    ws.onopen = () => { status.textContent = "live"; };
    ws.onmessage = (ev) => {
      const m = JSON.parse(ev.data);
      if (m.type === "state") update(m.state);
      else if (m.type === "error" || m.error) {
        show(m.error);
        if (S) renderDecision();
        if (m.code === "web/stale") ws.send(JSON.stringify({ type: "state" }));
      } else if (m.type === "message") show(m.text, true);
    };
    ws.onclose = () => { status.textContent = "reconnecting..."; setTimeout(connect, 1500); };
  }

  function game() {
    token = location.pathname.split("/").pop();
    try { base = JSON.parse(sessionStorage.getItem("mason-base-" + token) || "{}"); } catch (e) { base = {}; }
    document.getElementById("fulllog").onclick = async () => {
      try { const all = await api(`/api/play/${token}/log`); renderLog(all.log); } catch (e) { show(e.message); }
    };
    api(`/api/play/${token}`).then((p) => { update(p); connect(); }).catch((e) => show(e.message));
  }

  // ------------------------------------------------------------------ the lobby
  function lobby() {
    let games = [];
    const $ = (id) => document.getElementById(id);
    const fill = () => {
      const g = games.find((x) => x.id === $("game").value);
      if (!g) return;
      $("players").replaceChildren(...Array.from({ length: g.max - g.min + 1 }, (_, k) => el("option", { value: g.min + k, text: g.min + k })));
      $("players").value = Math.max(g.min, Math.min(2, g.max));
      $("expansions").replaceChildren(el("legend", { text: "Expansions" }), ...(g.expansions.length ? g.expansions.map((e) => el("label", {}, el("input", { type: "checkbox", name: "expansion", value: e }), " " + e)) : [el("span", { class: "waiting", text: "none" })]));
      $("variants").replaceChildren(el("legend", { text: "Variants" }), ...(g.variants.length ? g.variants.map((v) => el("label", {}, el("input", { type: "checkbox", name: "variant", value: v.id }), " " + v.name)) : [el("span", { class: "waiting", text: "none" })]));
      $("options").replaceChildren(el("legend", { text: "Options" }), ...(g.options.length ? g.options.map((o) => el("label", {}, `${words(o.id)} `, el("input", { name: "option", "data-key": o.id, placeholder: JSON.stringify(o.default), size: 8 }))) : [el("span", { class: "waiting", text: "none" })]));
      seats();
    };
    const seats = () => {
      const n = Number($("players").value);
      $("seatkinds").replaceChildren(el("legend", { text: "Seats" }), ...Array.from({ length: n }, (_, s) => el("label", {}, `P${s + 1} `,
        el("select", { name: "seat", id: `seat${s}` }, ["human", "random", "greedy", "mcts"].map((k) => el("option", { value: k, text: k === "human" ? "human (a link)" : k + " bot", selected: (s === 0) === (k === "human") ? true : null }))))));
      for (let s = 1; s < n; s++) $(`seat${s}`).value = "greedy";
    };
    $("game").addEventListener("change", fill);
    $("players").addEventListener("change", seats);
    api("/api/games").then((list) => {
      games = list;
      $("game").replaceChildren(...list.map((g) => el("option", { value: g.id, text: `${g.name} (${g.min}-${g.max})` })));
      fill();
    }).catch((e) => show(e.message));
    const made = (m) => {
      $("made").hidden = false;
      $("links").replaceChildren(...m.links.map((l) => {
        const url = `${location.origin}/play/${l.token}`;
        return el("li", { "data-role": l.role, "data-seat": l.seat ?? "" }, l.role === "seat" ? `P${l.seat + 1}: ` : `${l.role}: `, el("a", { href: url, target: "_blank", text: url }));
      }));
      show("");
    };
    $("create").addEventListener("submit", (ev) => {
      ev.preventDefault();
      const spec = {
        game: $("game").value, players: Number($("players").value),
        expansions: [...document.querySelectorAll("input[name=expansion]:checked")].map((x) => x.value),
        variants: [...document.querySelectorAll("input[name=variant]:checked")].map((x) => x.value),
        options: Object.fromEntries([...document.querySelectorAll("input[name=option]")].filter((x) => x.value !== "").map((x) => [x.dataset.key, x.value])),
        seats: [...document.querySelectorAll("select[name=seat]")].map((x) => x.value),
      };
      if ($("seed").value !== "") spec.seed = Number($("seed").value);
      api("/api/games", { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(spec) }).then(made).catch((e) => show(e.message));
    });
    $("importform").addEventListener("submit", async (ev) => {
      ev.preventDefault();
      const f = $("importfile").files[0];
      if (!f) { show("choose a save or a log file first"); return; }
      api("/api/import", { method: "POST", body: await f.text() }).then(made).catch((e) => show(e.message));
    });
  }

  return { game, lobby, signatures };
})();
