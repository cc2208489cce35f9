// The teacher's workbench: set up a diagram (stones, side to move, the local region by a brush or detected
// from the network's ownership; undo and redo), solve the region exactly (the exhaustive solver, no network) as a job with progress and cancel,
// read the answer as the analysis table's row with both colours' principal lines (stepped on the board) and
// the thermograph, try a move of your own in the region (its loss against the best, by the exact solver), and
// save the diagram as an SGF that `tengen analyze` reads back to the same numbers.
import { h } from "preact";
import { useState, useEffect, useRef } from "preact/hooks";
import { Goban } from "@sabaki/shudan";

import { api, emptyMap, vertexOf, Progress, isRunning, Thermograph, RegionTable, LocalTree, followJob, colorName, LETTERS } from "./common.js";
import { SIGN, blankDiagram, diagramOfPosition, withStone, withRegion, placementProblem, setupProblem, diagramSgf,
  regionVertices, regionSize } from "./diagram.js";

const SIZES = ["9", "13", "19"];
const KEYS = { b: "black", w: "white", e: "erase", r: "region", t: "try" };  // keyboard shortcut -> tool
const TOOL_LABELS = { black: "● Black (b)", white: "○ White (w)", erase: "erase (e)", region: "region brush (r)",
  try: "try a move (t)" };
const SOLVE_SECONDS = 120;  // the solve's time limit on the server
const HISTORY = 200;  // undo steps kept

function useHistory(initial) {
  // the diagram with its undo and redo stacks; `commit` makes a new step, `amend` changes the current one
  // (a brush stroke's later points)
  const [hist, setHist] = useState({ now: initial, past: [], future: [] });
  const commit = (next) => setHist((s) => ({ now: next, past: [...s.past, s.now].slice(-HISTORY), future: [] }));
  const amend = (change) => setHist((s) => ({ ...s, now: change(s.now) }));
  const undo = () => setHist((s) => (s.past.length ? { now: s.past[s.past.length - 1], past: s.past.slice(0, -1), future: [s.now, ...s.future] } : s));
  const redo = () => setHist((s) => (s.future.length ? { now: s.future[0], past: [...s.past, s.now], future: s.future.slice(1) } : s));
  return { hist, commit, amend, undo, redo };
}

const lineMoves = (text) => {
  // "B D1 W E1" -> ["B D1", "W E1"]
  const t = (text || "").split(/\s+/).filter(Boolean);
  return t.flatMap((c, i) => (i % 2 === 0 && t[i + 1] ? [`${c} ${t[i + 1]}`] : []));
};

function useSolver(setMessage) {
  // the solve of a diagram: paste it as SGF, start the analysis of its SQ[] region, follow the job; `run`
  // holds the diagram it was for, the job, and once done the report and the region's thermograph
  const [run, setRun] = useState(null);
  const source = useRef(null);
  const finish = async (final, base) => {
    const report = final.status === "done" ? await api(`/api/analyses/${final.id}/result`) : null;
    const thermo = report && report.regions.length
      ? await api(`/api/analyses/${final.id}/regions/${report.regions[0].id}/thermograph`).catch((e) => ({ error: e.message })) : null;
    setRun((r) => (r && r.job.id === final.id ? { ...base, job: final, report, thermo } : r));
  };
  const solve = async (diagram, predictor) => {
    const problem = setupProblem(diagram);
    setMessage(problem);
    if (problem) return;
    if (source.current) source.current.close();
    if (run && isRunning(run.job)) api(`/api/analyses/${run.job.id}`, { method: "DELETE" }).catch(() => {});  // the last diagram's
    try {
      const record = await api("/api/records/paste", { json: { sgf: diagramSgf(diagram) } });
      const job = await api("/api/analyses", { json: { record: record.id, move: 0, predictor, time_limit_s: SOLVE_SECONDS } });
      const base = { diagram, record: record.id, predictor, job };
      setRun(base);
      source.current = followJob("analyses", job, (j) => setRun((r) => (r && r.job.id === j.id ? { ...r, job: j } : r)),
        (final) => finish(final, base).catch((e) => setMessage(e.message)));
    } catch (e) { setMessage(e.message); }
  };
  const cancel = () => run && api(`/api/analyses/${run.job.id}`, { method: "DELETE" })
    .then((j) => setRun((r) => (r ? { ...r, job: j } : r))).catch((e) => setMessage(e.message));
  return { run, solve, cancel };
}

function useOwnMove(setMessage) {
  // a move of the user's own inside the solved region, valued against the best by the exact solver (a job)
  const [tried, setTried] = useState(null);
  const source = useRef(null);
  const tryMove = async (run, vertex, color) => {
    if (source.current) source.current.close();
    try {
      const job = await api(`/api/analyses/${run.job.id}/own-move`, { json: { move: vertex, color } });
      setTried({ run, job, vertex, color });
      source.current = followJob("own-moves", job, (j) => setTried((t) => (t && t.job.id === j.id ? { ...t, job: j } : t)),
        async (final) => {
          const result = final.status === "done" ? await api(`/api/own-moves/${final.id}/result`) : null;
          setTried((t) => (t && t.job.id === final.id ? { ...t, job: final, result } : t));
        });
    } catch (e) { setMessage(e.message); }
  };
  return { tried, tryMove, clear: () => setTried(null) };
}

function OwnMove({ tried }) {
  // what the tried move is worth against the best: its loss when a move here is due, and played out alone
  if (!tried) return null;
  const r = tried.result;
  return h("div", { class: "card", "data-testid": "wb-own-move" }, h("h2", null, `Your move: ${colorName(tried.color)} ${tried.vertex}`),
    r ? h("div", null,
      h("p", { "data-testid": "wb-own-loss" }, r.loss === null ? "no value to compare" : r.loss === 0 && r.loss_alone === 0 ? "as good as the best move"
        : `loss ${r.loss.toFixed(1)} point(s) against ${r.best} at the region's temperature ${r.temperature.toFixed(1)}` +
          (r.loss_alone === null ? "" : `; played out alone: ${r.loss_alone.toFixed(1)}`)),
      h("p", { class: "muted", "data-testid": "wb-own-reason" }, r.reason)) : h(Progress, { job: tried.job, onCancel: () => {}, prefix: "wb-own" }));
}

function download(href, name) {
  const a = document.createElement("a");
  a.href = href; a.download = name;
  document.body.appendChild(a); a.click(); a.remove();
  if (href.startsWith("blob:")) setTimeout(() => URL.revokeObjectURL(href), 10_000);
}

function Toolbar({ tool, setTool, d, commit, undo, redo, hist, from, onNew, onDetect, detecting }) {
  const [size, setSize] = useState("9");
  return h("div", { class: "wb-tools" },
    h("div", { class: "actions" },
      h("select", { value: size, onChange: (e) => setSize(e.target.value), "data-testid": "wb-new-size" },
        SIZES.map((s) => h("option", { key: s, value: s }, `${s}×${s} empty board`)),
        h("option", { value: "position", disabled: !from }, from ? `the position shown (move ${from.move} of the record)` : "the position of an opened record")),
      h("button", { onClick: () => onNew(size), "data-testid": "wb-new" }, "New diagram"),
      h("button", { onClick: undo, disabled: !hist.past.length, title: "undo (z)", "data-testid": "wb-undo" }, "Undo"),
      h("button", { onClick: redo, disabled: !hist.future.length, title: "redo (y)", "data-testid": "wb-redo" }, "Redo")),
    h("div", { class: "actions", role: "radiogroup" },
      Object.entries(TOOL_LABELS).map(([key, label]) => h("button", { key, role: "radio", "aria-checked": tool === key,
        class: "tool" + (tool === key ? " active" : ""), onClick: () => setTool(key), "data-testid": `wb-tool-${key}` }, label)),
      h("select", { value: d.toPlay, onChange: (e) => commit({ ...d, toPlay: e.target.value }), "data-testid": "wb-to-play" },
        h("option", { value: "B" }, "Black to play"), h("option", { value: "W" }, "White to play")),
      h("button", { onClick: () => commit({ ...d, region: emptyMap(d.width, d.height, false) }), disabled: !regionSize(d),
        "data-testid": "wb-clear-region" }, "Clear region"),
      h("button", { onClick: onDetect, disabled: detecting, "data-testid": "wb-detect",
        title: "mark the points the network's ownership leaves undecided (needs a network)" },
        detecting ? "Detecting…" : "Detect region")));
}

function LineStepper({ name, moves, step, setStep }) {
  // a principal line, each move a button: the board shows the position after it
  if (!moves.length) return h("div", { class: "muted" }, `${name} first: no move gains here`);
  const at = step && step.name === name ? step.k : 0;
  return h("div", { class: "line", "data-testid": `wb-line-${name.toLowerCase()}` }, h("b", null, `${name} first: `),
    moves.map((m, i) => h("button", { key: i, class: "move" + (at === i + 1 ? " active" : ""), "data-k": i + 1,
      onClick: () => setStep({ name, moves, k: i + 1 }), title: "show the position after this move" }, `${i + 1}. ${m}`)),
    at ? h("button", { onClick: () => setStep(at < moves.length ? { name, moves, k: at + 1 } : null), "data-testid": "wb-step-next" }, at < moves.length ? "next ›" : "done") : null);
}

function Answer({ run, step, setStep, onTryAuto, onCancel }) {
  if (!run) return null;
  const r = run.report && run.report.regions[0];
  const unsolved = r && r.type === "unsolved";
  const declined = r && run.predictor !== "auto" && (r.declined || unsolved);  // the exact solver's "no"
  const byTree = r && !unsolved && r.method !== "exhaustive";
  return h("div", { class: "card", "data-testid": "wb-answer" },
    h("h2", null, run.predictor === "auto" ? "Answer (the tree method with the network: judged, not exact)" : "Answer (the exact solver)"),
    h(Progress, { job: run.job, onCancel, prefix: "wb" }),
    r ? h(RegionTable, { report: run.report, hover: null, setHover: () => {}, selected: null, onSelect: () => {} }) : null,
    declined ? h("div", { class: "warning", "data-testid": "wb-declined" },
      `The exact solver declined this region: ${r.declined || "no value found"}. `,
      run.predictor === "auto" ? null : h("button", { onClick: onTryAuto, "data-testid": "wb-try-auto",
        title: "grow the region's tree with the local-move network and score its leaves with the value network" },
        "Try the tree method with the network (auto: judged, not exact)")) : null,
    byTree ? h("div", { class: "muted", "data-testid": "wb-by-tree" }, `answered by a grown tree (${r.method}): judged by the network, not proved`) : null,
    unsolved && run.predictor === "auto" ? h("div", { class: "warning" }, "The tree method found no value either (see the notes).") : null,
    r && !unsolved ? h("div", { "data-testid": "wb-lines" },
      h(LineStepper, { name: "Black", moves: lineMoves(r.principal_black), step, setStep }),
      h(LineStepper, { name: "White", moves: lineMoves(r.principal_white), step, setStep })) : null,
    run.thermo ? h("div", null, h(Thermograph, { data: run.thermo })) : null,
    r && r.tree ? h("div", { "data-testid": "wb-tree" }, h("h2", null, "local tree (click a node: the board shows it)"),
      h(LocalTree, { tree: { tree: r.tree }, onPick: (path) => setStep({ name: "tree", moves: path, k: path.length }),
        active: step && step.name === "tree" ? step.moves.join(",") : null })) : null,
    r ? h("ul", { class: "muted notes" }, r.notes.map((n, i) => h("li", { key: i }, n))) : null);
}

function useStepBoard(run, step) {
  // the stones after the stepped line's first k moves (the server plays them on the pasted diagram)
  const [shown, setShown] = useState(null);
  useEffect(() => {
    if (!run || !step) { setShown(null); return; }
    let live = true;
    api("/api/position", { json: { record: run.record, move: 0, line: step.moves.slice(0, step.k) } })
      .then((p) => live && setShown(p)).catch(() => live && setShown(null));
    return () => { live = false; };
  }, [run, step]);
  return shown;
}

function boardMaps(d, shown, step, answerRegion) {
  // the Goban's maps: the stepped position (its moves numbered) or the diagram (the region selected, the
  // answer's best moves marked)
  const markerMap = emptyMap(d.width, d.height);
  if (shown && step) {
    step.moves.slice(0, step.k).forEach((m, i) => {
      const v = vertexOf(m.split(" ")[1], d.height);
      if (v) markerMap[v[1]][v[0]] = { type: "label", label: String(i + 1) };
    });
    return { signMap: shown.stones, markerMap, selectedVertices: regionVertices(d) };
  }
  if (answerRegion) {
    answerRegion.best_black.forEach((p) => { const v = vertexOf(p, d.height); if (v) markerMap[v[1]][v[0]] = { type: "triangle" }; });
    answerRegion.best_white.forEach((p) => { const v = vertexOf(p, d.height); if (v && !markerMap[v[1]][v[0]]) markerMap[v[1]][v[0]] = { type: "square" }; });
  }
  return { signMap: d.stones, markerMap, selectedVertices: regionVertices(d) };
}

export function Workbench({ active, from }) {
  const { hist, commit, amend, undo, redo } = useHistory(blankDiagram(9));
  const [tool, setTool] = useState("black");
  const [message, setMessage] = useState(null);
  const [step, setStep] = useState(null);
  const { run, solve, cancel } = useSolver(setMessage);
  const { tried, tryMove, clear: clearTried } = useOwnMove(setMessage);
  const brush = useRef(null);  // during a region stroke: whether it marks (true) or unmarks (false)
  const d = hist.now;
  const answered = run && run.diagram === d ? run : null;  // an answer is shown only for the diagram it was for
  const stepped = useStepBoard(answered, step);
  const shown = stepped && step ? stepped : null;  // an answer for a step since left is not shown
  useEffect(() => { setStep(null); clearTried(); }, [d, run]);

  const place = (v) => {
    const sign = SIGN[tool], here = d.stones[v[1]][v[0]];
    if (!sign && !here) return;  // erasing an empty point: no undo step
    const next = withStone(d, v, here === sign ? 0 : sign);  // the same colour again removes it
    const problem = sign ? placementProblem(next, v) : null;
    setMessage(problem);
    if (!problem) commit(next);
  };
  const startStroke = (v) => {
    brush.current = !d.region[v[1]][v[0]];
    commit(withRegion(d, v, brush.current));
  };
  // a finger's (or pen's) stroke, by pointer events: the board captures the pointer, so its moves keep coming
  // while the points under it re-render, and the point under the finger is looked up at each move (the page
  // does not scroll while the brush is down: style.css's touch-action); a mouse keeps Shudan's vertex events
  const lastTouched = useRef(null);
  const vertexAt = (e) => {
    const el = document.elementFromPoint(e.clientX, e.clientY);
    const cell = el && el.closest("[data-testid=wb-board] .shudan-vertex");
    return cell ? [Number(cell.dataset.x), Number(cell.dataset.y)] : null;
  };
  const onPointerDown = (e) => {
    if (e.pointerType === "mouse" || !editing || tool !== "region") return;
    const v = vertexAt(e);
    if (!v) return;
    e.preventDefault();  // no compatibility mouse events: the stroke is these handlers'
    e.currentTarget.setPointerCapture(e.pointerId);
    lastTouched.current = v.join(",");
    startStroke(v);
  };
  const onPointerMove = (e) => {
    if (e.pointerType === "mouse" || brush.current === null || lastTouched.current === null) return;
    const v = vertexAt(e);
    if (!v || v.join(",") === lastTouched.current) return;
    lastTouched.current = v.join(",");
    const mark = brush.current;
    amend((now) => withRegion(now, v, mark));
  };
  const onPointerEnd = (e) => {
    if (e.pointerType === "mouse" || lastTouched.current === null) return;
    brush.current = null;
    lastTouched.current = null;
  };
  const [detecting, setDetecting] = useState(false);
  const onDetect = async () => {
    // the region the analysis would find: the points whose ownership by the network is undecided
    setDetecting(true);
    setMessage(null);
    try {
      const record = await api("/api/records/paste", { json: { sgf: diagramSgf(d) } });
      const ev = await api("/api/evaluate", { json: { record: record.id, move: 0 } });
      const t = ev.undecided_threshold;
      const region = ev.ownership.map((row) => row.map((o) => Math.abs(o) < t));
      if (!region.flat().some(Boolean)) setMessage(`the network leaves no point undecided here (|ownership| < ${t}): nothing to mark`);
      else commit({ ...d, region });
    } catch (e) {
      setMessage(`Detect needs the network's ownership: ${e.message}`);
    } finally {
      setDetecting(false);
    }
  };
  const onNew = (size) => {
    setMessage(null);
    commit(size === "position" ? diagramOfPosition(from.pos, from.record) : blankDiagram(Number(size)));
  };

  const keys = useRef(null);
  keys.current = { active, undo, redo };
  useEffect(() => {
    const onKey = (e) => {
      if (!keys.current.active || ["INPUT", "TEXTAREA", "SELECT"].includes(e.target.tagName) || e.altKey || e.metaKey) return;
      const k = e.key.toLowerCase();
      if (KEYS[k] && !e.ctrlKey) setTool(KEYS[k]);
      else if (k === "z" && !e.shiftKey) keys.current.undo();
      else if (k === "y" || (k === "z" && e.shiftKey)) keys.current.redo();
      else return;
      e.preventDefault();
    };
    const endStroke = () => { brush.current = null; };
    window.addEventListener("keydown", onKey);
    window.addEventListener("mouseup", endStroke);
    return () => { window.removeEventListener("keydown", onKey); window.removeEventListener("mouseup", endStroke); };
  }, []);

  const r = answered && answered.report ? answered.report.regions[0] : null;
  const maps = boardMaps(d, shown, step, r);
  const triedHere = tried && tried.run === answered ? tried : null;
  const tv = triedHere && !shown ? vertexOf(triedHere.vertex, d.height) : null;
  if (tv) maps.markerMap[tv[1]][tv[0]] = { type: "circle", label: "your move" };
  const tryAt = (v) => {
    if (!r || r.temperature === null || r.type === "unsolved") { setMessage("Solve the region first: a move of your own is valued against the solver's best."); return; }
    setMessage(null);
    tryMove(answered, LETTERS[v[0]] + String(d.height - v[1]), d.toPlay);
  };
  const size = Math.max(16, Math.min(40, Math.floor(Math.min(520, window.innerHeight - 220) / (Math.max(d.width, d.height) + 1))));
  const editing = !shown;
  return h("main", { "data-testid": "workbench" },
    h("div", { class: "boardcol" },
      h(Toolbar, { tool, setTool, d, commit, undo, redo, hist, from, onNew, onDetect, detecting }),
      h("div", { "data-testid": "wb-board", class: "wb-board" + (tool === "region" ? " brushing" : ""),
                 onPointerDown, onPointerMove, onPointerUp: onPointerEnd, onPointerCancel: onPointerEnd },
        h(Goban, { vertexSize: size, ...maps, showCoordinates: true, fuzzyStonePlacement: false, animateStonePlacement: false,
          onVertexClick: (e, v) => { if (editing && tool === "try") tryAt(v); else if (editing && tool !== "region") place(v); else if (!editing) setStep(null); },
          onVertexMouseDown: (e, v) => { if (editing && tool === "region") { e.preventDefault(); startStroke(v); } },
          onVertexMouseEnter: (e, v) => { if (editing && brush.current !== null && e.buttons & 1) amend((now) => withRegion(now, v, brush.current)); } })),
      message ? h("div", { class: "error", "data-testid": "wb-message", onClick: () => setMessage(null) }, message) : null,
      shown ? h("div", { class: "muted", "data-testid": "wb-stepping" }, step.name === "tree" ? `the tree node ${step.moves.join(", ") || "root"}: `
        : `${step.name} first, after move ${step.k} of ${step.moves.length}: `,
        h("button", { onClick: () => setStep(null), "data-testid": "wb-back" }, "back to the diagram")) :
        h("div", { class: "muted" }, `${colorName(d.toPlay)} to play; ${regionSize(d)} point(s) marked. Click a point to place the tool's stone ` +
          "(the same colour again removes it); the region brush marks or unmarks the points you click or drag over (a finger too).",
          r ? " ▲ Black's best move, ■ White's best; click a move of a line to see the board after it; with \"try a move\", click a point of the region to see what your move is worth." : "")),
    h("div", { class: "panel" },
      h("div", { class: "card" }, h("h2", null, "Solve"),
        h("div", { class: "actions" },
          h("button", { onClick: () => solve(d, "exhaustive"), disabled: isRunning(answered && answered.job), "data-testid": "wb-solve",
            title: "the exact solver on the marked region (no network)" }, "Solve the region"),
          h("button", { onClick: () => download(answered && answered.report ? `/api/analyses/${answered.job.id}/sgf`
            : URL.createObjectURL(new Blob([diagramSgf(d)], { type: "application/x-go-sgf" })), "diagram.sgf"), "data-testid": "wb-save",
            title: "the diagram as SGF: setup stones, the region as SQ[], and once solved the values in the comment and the best lines as variations" },
            answered && answered.report ? "Download SGF (with the answer)" : "Download SGF"),
          h("button", { onClick: () => download(`/api/analyses/${answered.job.id}/png`, "region.png"), "data-testid": "wb-png",
            disabled: !(r && r.temperature !== null && r.type !== "unsolved"),
            title: "a picture of the region on the board beside its thermograph (once solved)" }, "Download PNG"))),
      h(Answer, { run: answered, step, setStep, onTryAuto: () => solve(d, "auto"), onCancel: cancel }),
      h(OwnMove, { tried: triedHere })));
}
