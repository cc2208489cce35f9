// The workbench's diagram as plain data, every change a new object (so undo keeps the old ones): stones
// (1 Black, -1 White, 0 empty; rows from the top, as the server's positions), the marked region, the side
// to move, komi and rules; the setup check (no chain without liberties) and the diagram as SGF.
import { LETTERS, emptyMap } from "./common.js";

const SGF_LETTERS = "abcdefghijklmnopqrstuvwxyz";
export const SIGN = { black: 1, white: -1, erase: 0 };

export const blankDiagram = (size) => ({ width: size, height: size, stones: emptyMap(size, size, 0),
  region: emptyMap(size, size, false), toPlay: "B", komi: 0, rules: "chinese" });

export function diagramOfPosition(pos, record) {
  // the position a record shows, as a new diagram (its region unmarked)
  return { width: pos.width, height: pos.height, stones: pos.stones.map((row) => row.slice()),
    region: emptyMap(pos.width, pos.height, false), toPlay: pos.to_play, komi: record.komi, rules: record.rules };
}

export const vertexName = (d, [x, y]) => `${LETTERS[x]}${d.height - y}`;
const replaced = (rows, [x, y], value) => rows.map((row, j) => (j === y ? row.map((v, i) => (i === x ? value : v)) : row));
export const withStone = (d, v, sign) => ({ ...d, stones: replaced(d.stones, v, sign) });
export const withRegion = (d, v, marked) => ({ ...d, region: replaced(d.region, v, marked) });
export const regionSize = (d) => d.region.flat().filter(Boolean).length;

function neighbours(d, [x, y]) {
  return [[x - 1, y], [x + 1, y], [x, y - 1], [x, y + 1]].filter(([a, b]) => a >= 0 && b >= 0 && a < d.width && b < d.height);
}

function hasLiberty(d, start) {
  // whether the chain through `start` (a stone) touches an empty point
  const sign = d.stones[start[1]][start[0]];
  const seen = new Set([start.join()]);
  const todo = [start];
  while (todo.length) {
    for (const n of neighbours(d, todo.pop())) {
      const s = d.stones[n[1]][n[0]];
      if (s === 0) return true;
      if (s === sign && !seen.has(n.join())) { seen.add(n.join()); todo.push(n); }
    }
  }
  return false;
}

function breathless(d, v) {
  // a stone at or beside `v` whose chain has no liberty, or null
  return [v, ...neighbours(d, v)].find((u) => d.stones[u[1]][u[0]] !== 0 && !hasLiberty(d, u)) || null;
}

export function placementProblem(next, v) {
  // why the stone just set at `v` makes an impossible setup (a chain without liberties), or null
  const u = breathless(next, v);
  if (!u) return null;
  const who = (s) => (s === 1 ? "Black" : "White");
  const placed = next.stones[v[1]][v[0]];
  return `refused: ${who(placed)} at ${vertexName(next, v)} would leave the ${who(next.stones[u[1]][u[0]])} chain at ` +
    `${vertexName(next, u)} without liberties (an impossible setup: a chain with no liberty cannot stand on the board)`;
}

export function setupProblem(d) {
  // why the diagram cannot be solved as it is (no region marked, a chain without liberties), or null
  if (!regionSize(d)) return "mark the local region first: the region brush (r), then click or drag over its points";
  for (let y = 0; y < d.height; y++) {
    for (let x = 0; x < d.width; x++) {
      if (d.stones[y][x] !== 0 && !hasLiberty(d, [x, y])) return `the chain at ${vertexName(d, [x, y])} has no liberties: an impossible setup`;
    }
  }
  return null;
}

export function diagramSgf(d) {
  // the diagram as an SGF record of one node: setup stones (AB / AW), side to move (PL), the region as SQ[]
  const points = (test) => d.stones.flatMap((row, y) => row.map((s, x) => (test(s, x, y) ? `[${SGF_LETTERS[x]}${SGF_LETTERS[y]}]` : ""))).join("");
  const black = points((s) => s === 1), white = points((s) => s === -1);
  const marked = points((s, x, y) => d.region[y][x]);
  const size = d.width === d.height ? `${d.width}` : `${d.width}:${d.height}`;
  return `(;GM[1]FF[4]CA[UTF-8]SZ[${size}]KM[${d.komi}]RU[${d.rules}]` + (black ? `AB${black}` : "") +
    (white ? `AW${white}` : "") + `PL[${d.toPlay}]` + (marked ? `SQ${marked}` : "") + ")";
}

export function regionVertices(d) {
  return d.region.flatMap((row, y) => row.map((m, x) => (m ? [x, y] : null))).filter(Boolean);
}
