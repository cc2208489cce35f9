// What the pages share: the API call, coordinates and number formats, the terms explained, a job's progress
// bar, and the analysis's views (the region table, a thermograph, a local tree), used by the record view
// (app.js) and the workbench (workbench.js).
import { h } from "preact";

export const LETTERS = "ABCDEFGHJKLMNOPQRSTUVWXYZ";

export const EXPLAIN = {
  count: "Count: what the region is worth to Black in points (area scoring) when both sides play it out well, " +
    "averaged over who moves first. Negative: White's.",
  temperature: "Temperature: how many points a move here gains (per move, compared with the other side playing " +
    "here). Play the hottest region first.",
  sente: "Sente: a move that threatens so much that the opponent must answer it; you keep the initiative.",
  gote: "Gote: a move the opponent need not answer; afterwards the opponent plays elsewhere first.",
  miai: "Miai value: what one move here is worth (temperature - 1 in area scoring).",
  deiri: "Deiri value: the swing between the two sides' moves here (2 x miai for gote, miai for sente).",
  follow: "Follow-up: the temperature left after each side's first move (0 or less: the move settles it).",
  ownership: "Ownership: the network's guess of who ends up owning each point (dark: Black, light: White).",
};

export async function api(path, options = {}) {
  const init = { ...options };
  if (options.json !== undefined) {
    init.method = options.method || "POST";
    init.headers = { "Content-Type": "application/json" };
    init.body = JSON.stringify(options.json);
  }
  const response = await fetch(path, init);
  const data = await response.json().catch(() => ({ error: `HTTP ${response.status}` }));
  if (!response.ok) throw new Error(data.error || `HTTP ${response.status}`);
  return data;
}

export function vertexOf(text, height) {
  // a GTP vertex ("D4") as Shudan's [x, y] (y from the top), null for a pass or nonsense
  if (!text || text.toLowerCase() === "pass") return null;
  const x = LETTERS.indexOf(text[0].toUpperCase());
  const y = height - parseInt(text.slice(1), 10);
  return x < 0 || isNaN(y) ? null : [x, y];
}

export const emptyMap = (w, hgt, value = null) => Array.from({ length: hgt }, () => Array(w).fill(value));
export const fmt = (x, d = 1) => (x === null || x === undefined ? "–" : typeof x === "string" ? x : x.toFixed(d));
export const kindText = (k) => ({ black_sente: "Black sente", white_sente: "White sente", gote: "gote", ko: "ko",
  number: "settled (number)", infinitesimal: "infinitesimal", unbounded: "threat" }[k] || k);

export function Explain({ term, children }) {
  return h("abbr", { title: EXPLAIN[term], "data-explain": term }, children || term);
}

export function Progress({ job, onCancel, unit = "regions", prefix = "" }) {
  // a job's progress bar, status and Cancel button; `prefix` keeps two jobs' test ids apart
  if (!job) return null;
  const id = (name) => (prefix ? `${prefix}-${name}` : name);
  const pct = job.status === "done" ? 100 : job.total ? Math.round((100 * job.done) / job.total) : 5;
  const count = job.total ? `${job.status === "done" ? job.total : job.done}/${job.total} ${unit}` : job.status === "running" ? job.stage : "";
  return h("div", { class: "actions", "data-testid": id("progress") },
    h("div", { class: "progress", title: `${job.done}/${job.total} ${unit}` }, h("div", { style: { width: pct + "%" } })),
    h("span", { class: "muted", "data-testid": id("job-status") }, `${job.status} ${count} ${job.seconds ? job.seconds.toFixed(1) + " s" : ""}`),
    job.status === "running" || job.status === "queued" ? h("button", { onClick: onCancel, "data-testid": id("cancel") }, "Cancel") : null,
    job.error ? h("span", { class: "warning" }, job.error) : null);
}

export const isRunning = (job) => !!job && (job.status === "running" || job.status === "queued");
export const colorName = (c) => (c === "B" ? "Black" : "White");

export function Thermograph({ data }) {
  if (!data) return null;
  if (data.error) return h("p", { class: "muted" }, data.error);
  const W = 300, H = 200, pad = 30;
  const vals = [...data.left, ...data.right].map((p) => p[1]).concat(data.mean === null ? [] : [data.mean]);
  let v0 = Math.min(...vals, 0) - 1, v1 = Math.max(...vals, 0) + 1;
  // Winning Ways orientation: Black (positive) on the left
  const x = (v) => pad + ((v1 - v) / (v1 - v0)) * (W - pad - 10);
  const y = (t) => H - pad - (t / data.top) * (H - pad - 10);
  const path = (pts) => pts.map(([t, v]) => `${x(v).toFixed(1)},${y(t).toFixed(1)}`).join(" ");
  const T = data.temperature;
  return h("svg", { width: W, height: H, "data-testid": "thermograph", role: "img", "aria-label": `thermograph of region ${data.region}` },
    h("rect", { x: pad, y: 10, width: W - pad - 10, height: H - pad - 10, fill: "#fafafa", stroke: "#ccc" }),
    data.left.length ? h("polyline", { points: path(data.left), fill: "none", stroke: "#111", "stroke-width": 2, "data-wall": "left" }) : null,
    data.right.length ? h("polyline", { points: path(data.right), fill: "none", stroke: "#888", "stroke-width": 2, "data-wall": "right" }) : null,
    data.mean !== null ? h("line", { x1: x(data.mean), x2: x(data.mean), y1: y(T && T > 0 ? T : 0), y2: y(data.top), stroke: "#c0392b", "stroke-width": 2, "data-wall": "mast" }) : null,
    T !== null && T > 0 ? h("line", { x1: pad, x2: W - 10, y1: y(T), y2: y(T), stroke: "#2e86de", "stroke-dasharray": "4 3" }) : null,
    T !== null && T > 0 ? h("text", { x: pad + 4, y: y(T) - 3 }, `temperature ${T}`) : null,
    h("text", { x: pad, y: H - 16 }, fmt(v1)), h("text", { x: W - 30, y: H - 16 }, fmt(v0)),
    h("text", { x: pad + 30, y: H - 3 }, "value (Black + on the left)"),
    h("text", { x: 2, y: 20 }, "t"),
    h("text", { x: W - 120, y: 24 }, `mean ${fmt(data.mean, 2)}, ${kindText(data.kind)}`));
}

export function TreeNode({ name, node, path, depth, onPick, active }) {
  const clickable = !name.endsWith("threat");
  const here = path.join(",");
  const label = h("span", { class: "node" + (active === here ? " active" : ""), "data-path": here,
    onClick: (e) => { e.stopPropagation(); if (clickable) onPick(path); },
    title: clickable ? "show this position on the board" : "a threat: no move to show" },
    `${name}${node.value !== undefined ? ` = ${fmt(node.value, 2)}` : ""}${node.reason ? ` (${node.reason})` : ""}${node.threat ? ` ${node.threat}` : ""}`);
  const kids = Object.entries(node.children || {});
  if (!kids.length) return h("li", null, label);
  return h("li", null, h("details", { open: depth < 2 }, h("summary", null, label),
    h("ul", null, kids.map(([k, child]) => h(TreeNode, { key: k, name: k, node: child, path: [...path, k], depth: depth + 1, onPick, active })))));
}

export function LocalTree({ tree, onPick, active }) {
  if (!tree) return null;
  if (!tree.tree) return h("p", { class: "muted" }, "solved exactly: no variation tree");
  return h("div", { class: "tree", "data-testid": "tree" },
    h("ul", null, h(TreeNode, { name: "root", node: tree.tree, path: [], depth: 0, onPick, active })));
}

export function RegionTable({ report, hover, setHover, selected, onSelect }) {
  if (!report.regions.length) return h("p", { class: "muted" }, "no undecided region: the position is settled");
  const head = ["region", h(Explain, { term: "count" }), h(Explain, { term: "temperature" }), h(Explain, { term: "miai" }),
    h(Explain, { term: "deiri" }), h("span", null, "type (", h(Explain, { term: "sente" }), " / ", h(Explain, { term: "gote" }), ")"),
    "best B", "best W", h(Explain, { term: "follow" }, "follow-up B / W")];
  return h("table", { class: "regions", "data-testid": "region-table" },
    h("thead", null, h("tr", null, head.map((c, i) => h("th", { key: i }, c)))),
    h("tbody", null, report.regions.flatMap((r) => [h("tr", {
      key: r.id, class: "region" + (selected === r.id ? " selected" : ""), "data-region": r.id,
      onMouseEnter: () => setHover(r.id), onMouseLeave: () => setHover(null), onClick: () => onSelect(r.id),
    }, h("td", null, r.id), h("td", null, fmt(r.count, 2)), h("td", null, fmt(r.temperature, 2)),
      h("td", null, fmt(r.miai_value, 2)), h("td", null, fmt(r.deiri_value, 2)), h("td", null, kindText(r.type)),
      h("td", null, r.best_black.join(" ") || "–"), h("td", null, r.best_white.join(" ") || "–"),
      h("td", null, `${fmt(r.follow_up_black, 1)} / ${fmt(r.follow_up_white, 1)}`)),
      // a group the side to move decides: said in words, not folded into the count (tengen.life.notes)
      ...lifeNotes(report, r).map((note, i) => h("tr", { key: `${r.id}-life-${i}`, class: "life-note" },
        h("td", null, ""), h("td", { colSpan: 8, "data-testid": "life-note" }, "Life and death: ", note)))])));
}

export function lifeNotes(report, region) {
  // the critical groups' sentences that this region's notes carry
  return (report.critical_groups || []).map((g) => g.note).filter((note) => (region.notes || []).includes(note));
}

export function OtherLifeNotes({ report }) {
  // critical groups outside every region (rare: the key move and the stones both lie in settled territory)
  const said = new Set(report.regions.flatMap((r) => lifeNotes(report, r)));
  const rest = (report.critical_groups || []).filter((g) => !said.has(g.note));
  return rest.length ? h("ul", { class: "life-notes", "data-testid": "other-life-notes" },
    rest.map((g, i) => h("li", { key: i }, "Life and death: ", g.note))) : null;
}

export function followJob(kind, started, onProgress, onEnd) {
  // a job's SSE stream (`kind`: "analyses" or "reviews"): each state to onProgress, the final one to onEnd;
  // returns the EventSource (close it to stop following)
  const es = new EventSource(`/api/${kind}/${started.id}/events`);
  es.addEventListener("progress", (e) => onProgress(JSON.parse(e.data)));
  es.addEventListener("end", (e) => { es.close(); onEnd(JSON.parse(e.data)); });
  es.onerror = () => es.close();
  return es;
}
