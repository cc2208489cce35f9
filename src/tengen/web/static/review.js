// The review's views: the temperature graph, the mistakes table, the move shown and its marks on the board.
import { h } from "preact";
import { colorName, emptyMap, fmt, vertexOf } from "./common.js";

export function ticks(lo, hi, count) {
  // about `count` round values (1, 2 or 5 times a power of ten apart) from lo to hi
  const raw = (hi - lo) / Math.max(1, count);
  const power = 10 ** Math.floor(Math.log10(raw || 1));
  const step = [1, 2, 5, 10].map((f) => f * power).find((s) => s >= raw) || raw;
  const out = [];
  for (let v = Math.ceil(lo / step) * step; v <= hi + 1e-9; v += step) out.push(Math.round(v * 1e6) / 1e6);
  return out;
}

export function TemperatureGraph({ review, current, onPick }) {
  // the review's temperatures: the hottest before each move as a step line, each move's own region as a dot
  // (Black's filled, White's open), mistakes ringed in red and numbered; a click on a column goes to that move
  const moves = review.moves;
  if (!moves.length) return h("p", { class: "muted" }, "no move reviewed");
  const W = 600, H = 180, left = 30, right = 8, top = 14, bottom = 26;
  const played = (m) => m.region_temperature ?? 0;  // 0: played outside every region
  const values = moves.flatMap((m) => [m.hottest_temperature ?? 0, played(m)]);
  const t1 = Math.max(1, ...values) * 1.15, t0 = Math.min(0, ...values);
  const n0 = moves[0].move_number, n1 = moves[moves.length - 1].move_number;
  const step = (W - left - right) / moves.length;
  const x = (n) => left + (n - n0 + 0.5) * step;
  const y = (t) => top + ((t1 - t) / (t1 - t0)) * (H - top - bottom);
  const hottest = moves.map((m, i) => `${i ? "L" : "M"}${(x(m.move_number) - step / 2).toFixed(1)},` +
    `${y(m.hottest_temperature ?? 0).toFixed(1)} H${(x(m.move_number) + step / 2).toFixed(1)}`).join(" ");
  const mistakes = new Set(review.mistakes);
  const r = Math.max(2.5, Math.min(5, step / 3));
  const dot = (m) => {
    const bad = mistakes.has(m.move_number);
    return h("circle", { key: `d${m.move_number}`, cx: x(m.move_number), cy: y(played(m)), r: bad ? r + 1.5 : r,
      class: "dot" + (bad ? " mistake" : ""), "data-move": m.move_number, fill: m.color === "B" ? "#111" : "#fff",
      stroke: bad ? "#c0392b" : "#111", "stroke-width": bad ? 2.5 : 1, onClick: () => onPick(m.move_number) });
  };
  const svg = h("svg", { viewBox: `0 0 ${W} ${H}`, width: "100%", class: "tempgraph", "data-testid": "temperature-graph",
    role: "img", "aria-label": `temperatures of moves ${n0} to ${n1}` },
    h("rect", { x: left, y: top, width: W - left - right, height: H - top - bottom, fill: "#fafafa", stroke: "#ccc" }),
    ticks(t0, t1, 4).map((t) => [
      h("line", { key: `gy${t}`, x1: left, x2: W - right, y1: y(t), y2: y(t), stroke: t ? "#eee" : "#ccc" }),
      h("text", { key: `ty${t}`, x: left - 4, y: y(t) + 3, "text-anchor": "end" }, String(t))]),
    ticks(n0, n1, 10).filter(Number.isInteger).map((n) => h("text", { key: `tx${n}`, x: x(n), y: H - bottom + 12,
      "text-anchor": "middle" }, String(n))),
    h("text", { x: W - right, y: H - 2, "text-anchor": "end" }, "move"),
    current >= n0 && current <= n1 ? h("line", { x1: x(current), x2: x(current), y1: top, y2: H - bottom, stroke: "#2e86de",
      "stroke-dasharray": "3 2", "data-testid": "graph-current" }) : null,
    moves.map((m) => h("rect", { key: `c${m.move_number}`, class: "column", x: x(m.move_number) - step / 2, y: top, width: step,
      height: H - top - bottom, onClick: () => onPick(m.move_number) },
      h("title", null, `move ${m.move_number} ${m.color} ${m.move}: hottest ${fmt(m.hottest_temperature)}, played ${fmt(m.region_temperature)}`))),
    h("path", { d: hottest, fill: "none", stroke: "#b03020", "stroke-width": 1.5, "data-testid": "graph-hottest" }),
    moves.map(dot),
    moves.filter((m) => mistakes.has(m.move_number)).map((m) => h("text", { key: `l${m.move_number}`, x: x(m.move_number),
      y: y(played(m)) - r - 5, "text-anchor": "middle", class: "mistake-label" }, String(m.move_number))));
  return h("div", null, svg,
    h("div", { class: "legend" },
      h("span", null, h("span", { class: "swatch step" }), "hottest temperature before the move"),
      h("span", null, h("span", { class: "swatch dot black" }), h("span", { class: "swatch dot white" }),
        "the temperature of the region each move was played in (0: outside every region)"),
      h("span", null, h("span", { class: "swatch dot mistake" }), "a mistake (click a move to show it)")));
}

export function MistakeTable({ review, current, onPick }) {
  // the mistakes, largest loss first; a click shows the position after the move (the move as the last move)
  if (!review.mistakes.length) return h("p", { class: "muted", "data-testid": "review-no-mistakes" }, "no mistake found");
  const byNumber = new Map(review.moves.map((m) => [m.move_number, m]));
  const head = ["move", "colour", "played", "loss", "network loss", "reason"];
  return h("table", { class: "regions mistakes", "data-testid": "review-mistakes" },
    h("thead", null, h("tr", null, head.map((c) => h("th", { key: c }, c)))),
    h("tbody", null, review.mistakes.map((n) => byNumber.get(n)).map((m) => h("tr", {
      key: m.move_number, class: "mistake" + (current === m.move_number ? " selected" : ""), "data-move": m.move_number,
      onClick: () => onPick(m.move_number), title: "show this move on the board",
    }, h("td", null, m.move_number), h("td", null, colorName(m.color)), h("td", null, m.move), h("td", null, fmt(m.loss)),
      h("td", null, fmt(m.network_loss)), h("td", null, m.reason)))));
}

export function ReviewedMove({ m }) {
  // the move the board shows: what it lost and why, and the legend of the board's review marks
  if (!m) return h("p", { class: "muted" }, "step to a reviewed move (or click the graph or a mistake) to see its regions on the board");
  return h("div", { "data-testid": "review-move" },
    h("div", null, h("b", null, `Move ${m.move_number}: ${colorName(m.color)} ${m.move}`),
      ` — loss ${fmt(m.loss)} (network ${fmt(m.network_loss)}): ${m.reason}`),
    h("div", { class: "legend" },
      h("span", null, h("span", { class: "swatch hottest" }), m.hottest ? `hottest region before it (${m.hottest}, temperature ${fmt(m.hottest_temperature)})` : "no hot region before it"),
      m.region ? h("span", null, h("span", { class: "swatch played" }), `the region it was played in (${m.region}, temperature ${fmt(m.region_temperature)})`) :
        h("span", null, "played outside every region"),
      h("span", null, h("span", { class: "swatch orthodox" }, "▲"), m.orthodox ? `the orthodox move ${m.orthodox}${m.orthodox === m.move ? " (the move played)" : ""}` : "no orthodox move"),
      h("span", null, h("span", { class: "swatch last" }), `the move played (${m.move})`)));
}

export function reviewMarks(m, W, H) {
  // the board's marks for a reviewed move: the hottest region before it outlined (Shudan's selection), the
  // region it was played in shaded (a heat mark the review's CSS draws as a translucent square), and the
  // orthodox move's vertex (a triangle)
  const vertices = (points) => points.map((p) => vertexOf(p, H)).filter(Boolean);
  const heat = emptyMap(W, H);
  vertices(m.region_points).forEach(([x, y]) => { heat[y][x] = { strength: 5 }; });
  return { selected: vertices(m.hottest_points), heat, orthodox: vertexOf(m.orthodox, H) };
}
