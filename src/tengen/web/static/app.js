// tengen's page: open a record, step through it, see ownership, influence, the endgame regions with their
// values, thermographs and local trees, and the recommended move; review the game's endgame (temperature
// graph, mistakes, each move's regions on the board); the workbench (workbench.js) sets up and solves a diagram;
// the quiz (quiz.js) asks for the biggest move in positions drawn from the game's review.
// Preact + Shudan, no build step.
import { h, render } from "preact";
import { useState, useEffect, useRef, useCallback } from "preact/hooks";
import { Goban } from "@sabaki/shudan";

import { EXPLAIN, api, vertexOf, emptyMap, fmt, Explain, Progress, isRunning, colorName, Thermograph, LocalTree,
  RegionTable, OtherLifeNotes, followJob } from "./common.js";
import { TemperatureGraph, MistakeTable, ReviewedMove, reviewMarks } from "./review.js";
import { Workbench } from "./workbench.js";
import { Quiz } from "./quiz.js";
// this page's id for the server (`/api/evaluate` lets a page's newer request supersede its older ones)
const CLIENT_ID = Math.random().toString(36).slice(2, 12) || "page";
const PAGE = 100;  // files per page of the folder's list (the server's PAGE_SIZE)
// the analysis's tree budgets, as `tengen analyze`'s flags; "default" is the CLI's own (AnalysisOptions())
const BUDGETS = {
  quick: { max_nodes: 100, max_total_nodes: 300 },
  default: { max_nodes: 800, max_total_nodes: 1000 },
  deep: { max_nodes: 2000, max_total_nodes: 5000 },
};

function KomiCurve({ curve, komi }) {
  if (!curve || !curve.length) return h("p", { class: "muted" }, "no win rate by komi from this network");
  const W = 300, H = 150, pad = 28;
  const ks = curve.map((p) => p[0]);
  const k0 = Math.min(...ks), k1 = Math.max(...ks);
  const x = (k) => pad + ((k - k0) / (k1 - k0 || 1)) * (W - pad - 8);
  const y = (w) => 8 + (1 - w) * (H - pad - 8);
  const line = curve.map(([k, w]) => `${x(k).toFixed(1)},${y(w).toFixed(1)}`).join(" ");
  return h("svg", { width: W, height: H, "data-testid": "komi-curve", role: "img", "aria-label": "Black's win rate by komi" },
    h("rect", { x: pad, y: 8, width: W - pad - 8, height: H - pad - 8, fill: "#fafafa", stroke: "#ccc" }),
    h("line", { x1: pad, x2: W - 8, y1: y(0.5), y2: y(0.5), stroke: "#ddd" }),
    komi >= k0 && komi <= k1 ? h("line", { x1: x(komi), x2: x(komi), y1: 8, y2: H - pad, stroke: "#c0392b", "stroke-dasharray": "3 2" }) : null,
    h("polyline", { points: line, fill: "none", stroke: "#2e86de", "stroke-width": 2 }),
    h("text", { x: pad, y: H - 12 }, String(k0)), h("text", { x: W - 30, y: H - 12 }, String(k1)),
    h("text", { x: W / 2 - 40, y: H - 2 }, "komi (points to White)"),
    h("text", { x: 2, y: 14 }, "100%"), h("text", { x: 8, y: H - pad }, "0%"));
}

function App() {
  const [listing, setListing] = useState(null);  // a page of the served folder's records (/api/files)
  const [fileSearch, setFileSearch] = useState("");
  const [fileOffset, setFileOffset] = useState(0);
  const [record, setRecord] = useState(null);
  const [move, setMove] = useState(0);
  const [line, setLine] = useState([]);
  const [pos, setPos] = useState(null);
  const [evaluation, setEvaluation] = useState(null);
  const [influence, setInfluence] = useState(null);
  const [show, setShow] = useState({ ownership: true, influence: false, regions: true });
  const [model, setModel] = useState("bouzy");
  const [job, setJob] = useState(null);
  const [report, setReport] = useState(null);
  const [rec, setRec] = useState(null);
  const [hover, setHover] = useState(null);
  const [selected, setSelected] = useState(null);
  const [thermo, setThermo] = useState(null);
  const [tree, setTree] = useState(null);
  const [error, setError] = useState(null);
  const [busy, setBusy] = useState(false);
  const [treeLine, setTreeLine] = useState(null);
  const [base, setBase] = useState([]);
  const [budget, setBudget] = useState("default");  // a name of BUDGETS: `tengen analyze`'s tree budgets
  const [mode, setMode] = useState("records");  // the record view, or the workbench (workbench.js)
  const [tab, setTab] = useState("position");  // the panel shown: the position's analysis, or the game's review
  const [reviewJob, setReviewJob] = useState(null);
  const [review, setReview] = useState(null);
  const source = useRef(null);
  const reviewSource = useRef(null);
  const paste = useRef(null);

  const fail = (e) => setError(e.message || String(e));
  const total = record ? record.moves.length : 0;

  useEffect(() => {
    let live = true;
    const query = new URLSearchParams({ search: fileSearch, offset: String(fileOffset) });
    api(`/api/files?${query}`).then((d) => live && setListing(d)).catch(() => {});
    return () => { live = false; };
  }, [fileSearch, fileOffset]);

  const opened = (r) => { setError(null); setRecord(r); setLine([]); setMove(r.moves.length); clearAnalysis(); clearReview(); };
  const clearReview = () => {
    if (reviewSource.current) reviewSource.current.close();
    setReviewJob(null); setReview(null);
  };
  const clearAnalysis = () => {
    if (source.current) source.current.close();
    setJob(null); setReport(null); setRec(null); setSelected(null); setThermo(null); setTree(null); setTreeLine(null);
  };

  // the position: refetched whenever the record, the move or the tree line changes; an answer that comes
  // back after the page moved on is dropped (`live`), so no panel ever shows another position's numbers
  useEffect(() => {
    if (!record) return;
    let live = true;
    api("/api/position", { json: { record: record.id, move, line } }).then((p) => live && setPos(p)).catch((e) => live && fail(e));
    return () => { live = false; };
  }, [record, move, line]);

  // the network's evaluation: one request in flight per page; stepping on while it runs asks for the
  // newest position only (the server also drops this page's older waiting requests: `client`), and an
  // answer is shown only if it names the position on the board now
  const current = useRef(null);
  const wanted = useRef(null);
  const evaluating = useRef(false);
  const requestEvaluation = useCallback(() => {
    if (evaluating.current || !wanted.current) return;
    const asked = wanted.current;
    wanted.current = null;
    evaluating.current = true;
    setBusy(true);
    api("/api/evaluate", { json: { ...asked, client: CLIENT_ID } })
      .then((ev) => {
        const now = current.current;
        if (!ev.superseded && now && ev.record === now.record && ev.move === now.move && JSON.stringify(ev.line) === JSON.stringify(now.line)) setEvaluation(ev);
      })
      .catch(fail)
      .finally(() => { evaluating.current = false; setBusy(false); requestEvaluation(); });
  }, []);
  useEffect(() => {
    current.current = record ? { record: record.id, move, line } : null;
    setEvaluation((ev) => (ev && current.current && ev.record === current.current.record && ev.move === move && JSON.stringify(ev.line) === JSON.stringify(line) ? ev : null));
    if (!record || !show.ownership) return;
    wanted.current = current.current;
    requestEvaluation();
  }, [record, move, line, show.ownership]);

  useEffect(() => {
    if (!record || !show.influence) return;
    let live = true;
    api(`/api/influence/${model}`, { json: { record: record.id, move, line } }).then((inf) => live && setInfluence(inf)).catch((e) => live && fail(e));
    return () => { live = false; };
  }, [record, move, line, show.influence, model]);

  const go = useCallback((n) => {
    if (!record) return;
    const m = Math.max(0, Math.min(total, n));
    if (m !== move || line.length) { clearAnalysis(); setLine([]); setMove(m); }
  }, [record, move, total, line]);

  // the key handler reads the latest render's state through a ref: an effect re-registered after each render
  // leaves a window (effects run after paint) where a quick second key press would see the previous move
  const nav = useRef({ go, move, total, mode });
  nav.current = { go, move, total, mode };
  useEffect(() => {
    const onKey = (e) => {
      if (["INPUT", "TEXTAREA", "SELECT"].includes(e.target.tagName) || nav.current.mode !== "records") return;
      const { go, move, total } = nav.current;
      if (e.key === "ArrowLeft") go(move - 1);
      else if (e.key === "ArrowRight") go(move + 1);
      else if (e.key === "Home") go(0);
      else if (e.key === "End") go(total);
      else return;
      e.preventDefault();
    };
    window.addEventListener("keydown", onKey);
    return () => window.removeEventListener("keydown", onKey);
  }, []);

  const openPath = (path) => api("/api/records/open", { json: { path } }).then(opened).catch(fail);
  const openPaste = () => api("/api/records/paste", { json: { sgf: paste.current.value } }).then(opened).catch(fail);
  const upload = async (e) => {
    const file = e.target.files[0];
    if (!file) return;
    try {
      opened(await api("/api/records/upload", { method: "POST", body: file, headers: { "Content-Type": "application/x-go-sgf", "X-Filename": encodeURIComponent(file.name) } }));
    } catch (err) { fail(err); }
  };

  const analyze = async () => {
    clearAnalysis();
    try {
      const started = await api("/api/analyses", { json: { record: record.id, move, line, ...BUDGETS[budget] } });
      setJob(started);
      setBase(line);
      source.current = followJob("analyses", started, setJob, async (final) => {
        setJob(final);
        if (final.status === "done") {
          setReport(await api(`/api/analyses/${final.id}/result`));
          setRec(await api(`/api/analyses/${final.id}/recommended`));
        }
      });
    } catch (err) { fail(err); }
  };
  const cancel = () => job && api(`/api/analyses/${job.id}`, { method: "DELETE" }).then(setJob).catch(fail);

  const startReview = async () => {
    clearReview();
    try {
      const started = await api("/api/reviews", { json: { record_id: record.id, from: "auto" } });
      setReviewJob(started);
      reviewSource.current = followJob("reviews", started, setReviewJob, async (final) => {
        setReviewJob(final);
        if (final.status === "done") setReview(await api(`/api/reviews/${final.id}/result`));
      });
    } catch (err) { fail(err); }
  };
  const cancelReview = () => reviewJob && api(`/api/reviews/${reviewJob.id}`, { method: "DELETE" }).then(setReviewJob).catch(fail);
  const reviewed = tab === "review" && review && !line.length ? review.moves.find((m) => m.move_number === move) : null;

  const selectRegion = async (id) => {
    setSelected(id);
    setThermo(null); setTree(null);
    try { setThermo(await api(`/api/analyses/${job.id}/regions/${id}/thermograph`)); }
    catch (err) { setThermo({ error: err.message }); }
    try { setTree(await api(`/api/analyses/${job.id}/regions/${id}/tree`)); } catch (err) { fail(err); }
  };
  const pickTreeNode = (path) => {
    setTreeLine(path.join(","));
    setLine([...base, ...path]);  // keys are "B D4": the moves from the analyzed position
  };
  const onBase = line.join("|") === base.join("|");

  // ------------------------------------------------------------- the board's maps
  let board = null;
  if (pos) {
    const W = pos.width, H = pos.height;
    const paintMap = emptyMap(W, H, 0);
    const markerMap = emptyMap(W, H);
    const ghostStoneMap = emptyMap(W, H);
    const heatMap = emptyMap(W, H);
    let selectedVertices = [];
    if (show.ownership && evaluation) {
      evaluation.ownership.forEach((row, y) => row.forEach((v, x) => { paintMap[y][x] = v; }));
    } else if (show.influence && influence) {
      const peak = Math.max(1, ...influence.influence.flat().map(Math.abs));
      influence.influence.forEach((row, y) => row.forEach((v, x) => { paintMap[y][x] = v / peak; }));
    }
    if (report && show.regions && onBase && tab === "position") {
      const hottest = Math.max(1, ...report.regions.map((r) => (typeof r.temperature === "number" ? r.temperature : 0)));
      report.regions.forEach((r) => {
        const t = typeof r.temperature === "number" ? r.temperature : hottest;
        const pts = r.points.map((p) => vertexOf(p, H)).filter(Boolean);
        pts.forEach(([x, y]) => { heatMap[y][x] = { strength: Math.max(1, Math.min(9, Math.round((9 * t) / hottest))) }; });
        r.best_black.forEach((p) => { const v = vertexOf(p, H); if (v) markerMap[v[1]][v[0]] = { type: "triangle", label: `best for Black in ${r.id}` }; });
        r.best_white.forEach((p) => { const v = vertexOf(p, H); if (v && !markerMap[v[1]][v[0]]) markerMap[v[1]][v[0]] = { type: "square", label: `best for White in ${r.id}` }; });
        const free = pts.find(([x, y]) => !markerMap[y][x]) || pts[0];
        if (free) markerMap[free[1]][free[0]] = { type: "label", label: `${r.id}${typeof r.temperature === "number" ? " " + r.temperature.toFixed(1) : ""}` };
        if (hover === r.id || selected === r.id) selectedVertices = selectedVertices.concat(pts);
      });
    }
    if (rec && rec.move && onBase && tab === "position") {
      const v = vertexOf(rec.move, H);
      if (v) { ghostStoneMap[v[1]][v[0]] = { sign: rec.color === "B" ? 1 : -1, type: "good" }; }
    }
    let reviewHeat = null;
    if (reviewed) {
      const marks = reviewMarks(reviewed, W, H);
      selectedVertices = marks.selected; reviewHeat = marks.heat;
      if (marks.orthodox && reviewed.orthodox !== reviewed.move) {
        markerMap[marks.orthodox[1]][marks.orthodox[0]] = { type: "triangle", label: `the orthodox move ${reviewed.orthodox}` };
      }
    }
    if (pos.last_move) {
      const v = vertexOf(pos.last_move, H);
      if (v && !markerMap[v[1]][v[0]]) markerMap[v[1]][v[0]] = { type: "circle" };
    }
    board = h("div", { "data-testid": "board", "data-move": move, class: reviewed ? "review-marks" : "region-marks" },
      h(Goban, { vertexSize: Math.max(16, Math.min(40, Math.floor(Math.min(520, window.innerHeight - 180) / (Math.max(W, H) + 1)))),
        signMap: pos.stones, paintMap, markerMap, ghostStoneMap, heatMap: reviewHeat || heatMap,
        selectedVertices, showCoordinates: true,
        fuzzyStonePlacement: false, animateStonePlacement: false }));
  }

  const toggle = (key) => h("label", { title: key === "ownership" ? EXPLAIN.ownership : "" },
    h("input", { type: "checkbox", checked: show[key], "data-testid": `toggle-${key}`, onChange: () => setShow({ ...show, [key]: !show[key] }) }), ` ${key}`);

  return h("div", null,
    h("header", null, h("h1", null, "tengen"),
      h("div", { class: "modes", role: "tablist" }, [["records", "Records"], ["workbench", "Workbench"], ["quiz", "Quiz"]].map(([key, label]) =>
        h("button", { key, role: "tab", "aria-selected": mode === key, class: "mode" + (mode === key ? " active" : ""),
          "data-testid": `mode-${key}`, onClick: () => setMode(key) }, label))),
      listing && listing.folder ? h("span", { class: "files" },
        h("input", { type: "search", placeholder: "search the folder", value: fileSearch, "data-testid": "file-search",
          onInput: (e) => { setFileSearch(e.target.value); setFileOffset(0); } }),
        h("select", { "data-testid": "file-select", onChange: (e) => e.target.value && openPath(e.target.value) },
          h("option", { value: "" }, "open a file of the folder…"), listing.files.map((f) => h("option", { key: f, value: f }, f))),
        h("span", { class: "muted", "data-testid": "file-count" }, listing.total
          ? `${listing.offset + 1}–${listing.offset + listing.files.length} of ${listing.total}${listing.complete ? "" : "+ (the folder holds more than the server reads at once: search to narrow it)"}`
          : "no matching file"),
        h("button", { "data-testid": "file-prev", disabled: listing.offset === 0, onClick: () => setFileOffset(Math.max(0, listing.offset - PAGE)) }, "‹"),
        h("button", { "data-testid": "file-next", disabled: listing.offset + listing.files.length >= listing.total, onClick: () => setFileOffset(listing.offset + PAGE) }, "›")) : null,
      h("label", null, "upload ", h("input", { type: "file", accept: ".sgf", onChange: upload, "data-testid": "upload" })),
      h("textarea", { ref: paste, placeholder: "or paste SGF here", "data-testid": "paste" }),
      h("button", { onClick: openPaste, "data-testid": "paste-open" }, "Open pasted")),
    error ? h("div", { class: "error", "data-testid": "error", onClick: () => setError(null) }, error, " (click to dismiss)") : null,
    h("div", { hidden: mode !== "workbench" }, h(Workbench, { active: mode === "workbench",
      from: record && pos ? { pos, record, move } : null })),
    h("div", { hidden: mode !== "quiz" }, h(Quiz, { record })),
    mode !== "records" ? null : !record ? h("main", null, h("p", null, "Open a game record (SGF) to start: pick a file, upload one, or paste it.")) :
      h("main", null,
        h("div", { class: "boardcol" },
          h("div", { class: "nav" },
            h("button", { onClick: () => go(0), title: "start (Home)" }, "|<"),
            h("button", { onClick: () => go(move - 10), title: "10 back" }, "<<"),
            h("button", { onClick: () => go(move - 1), title: "back (left arrow)", "data-testid": "prev" }, "<"),
            h("span", { "data-testid": "move-number" }, `move ${move} / ${total}`),
            h("button", { onClick: () => go(move + 1), title: "forward (right arrow)", "data-testid": "next" }, ">"),
            h("button", { onClick: () => go(move + 10), title: "10 forward" }, ">>"),
            h("button", { onClick: () => go(total), title: "end (End)" }, ">|"),
            line.length ? h("button", { onClick: () => { setLine(onBase ? [] : base); setTreeLine(null); }, "data-testid": "back-to-game" }, onBase ? `back to the game (${line.join(", ")})` : `back to the analyzed position (${line.slice(base.length).join(", ")})`) : null),
          board,
          h("div", { class: "overlays" }, toggle("ownership"), toggle("influence"),
            h("select", { value: model, onChange: (e) => setModel(e.target.value), "data-testid": "influence-model" },
              ["zobrist", "bouzy", "cross"].map((m) => h("option", { key: m, value: m }, m))), toggle("regions")),
          tab === "review" ? h("div", { class: "muted" }, "the review marks the move shown: see the legend in the review panel") :
            h("div", { class: "legend", "data-testid": "board-legend" },
              h("span", null, h("span", { class: "swatch own" }), "ownership (or influence): Black's ◼ dark, White's ◻ light"),
              h("span", null, h("span", { class: "swatch region-hot" }), "a region's points, outlined: the stronger, the hotter"),
              h("span", null, "▲ Black's best, ■ White's best"),
              h("span", null, "A 2.5: region A, temperature 2.5"),
              h("span", null, h("span", { class: "swatch ghost" }), "the recommended move"))),
        h("div", { class: "panel" },
          h("div", { class: "card" }, h("h2", null, `${record.black || "Black"} – ${record.white || "White"}`),
            h("div", null, `${record.width}×${record.height}, komi ${record.komi}, ${record.rules} rules${record.result ? ", result " + record.result : ""}`),
            h("div", { class: "muted", "data-testid": "rules-said" }, `rules: ${record.rules_said}`),
            pos ? h("div", null, `${pos.to_play === "B" ? "Black" : "White"} to play; captures B ${pos.captures.B}, W ${pos.captures.W}`) : null,
            record.variations.length ? h("div", { class: "muted" }, `${record.variations.length} variation(s): `,
              record.variations.slice(0, 8).map((v, i) => h("a", { key: i, href: "#", onClick: (e) => { e.preventDefault(); clearAnalysis(); setMove(v.at_move); setLine(v.moves); } }, ` after ${v.at_move}: ${v.moves.slice(0, 3).join(" ")}…`))) : null,
            record.warnings.slice(0, 3).map((w, i) => h("div", { key: i, class: "warning" }, w))),
          h("div", { class: "tabs", role: "tablist" }, [["position", "Position"], ["review", "Review"]].map(([key, label]) =>
            h("button", { key, role: "tab", "aria-selected": tab === key, class: "tab" + (tab === key ? " active" : ""),
              "data-testid": `tab-${key}`, onClick: () => setTab(key) }, label))),
          tab === "review" ? h("div", { class: "card", "data-testid": "review-panel" }, h("h2", null, "Endgame review"),
            h("div", { class: "actions" },
              h("button", { onClick: startReview, disabled: isRunning(reviewJob), "data-testid": "review-start",
                title: "review every move from the start of the endgame (found by the network) to the end" }, "Review this game"),
              h(Progress, { job: reviewJob, onCancel: cancelReview, unit: "moves", prefix: "review" })),
            review ? h("div", null,
              h("div", { class: "muted", title: review.assumptions }, `moves ${review.start}–${review.moves.length ? review.moves[review.moves.length - 1].move_number : review.start}: ${review.start_reason}`),
              h("div", { class: "muted", "data-testid": "review-totals" }, ["B", "W"].map((c) => `${colorName(c)}: ${fmt(review.totals[c].loss)} points lost ` +
                `(network ${fmt(review.totals[c].network_loss)}), ${review.totals[c].mistakes} mistake(s)`).join("; ")),
              h(TemperatureGraph, { review, current: line.length ? null : move, onPick: go }),
              h(ReviewedMove, { m: reviewed }),
              h("h2", null, "Mistakes (largest loss first; click one to show it)"),
              h(MistakeTable, { review, current: line.length ? null : move, onPick: go })) : null) : [
          h("div", { key: "network", class: "card" }, h("h2", null, "Network"),
            evaluation ? h("div", { "data-testid": "evaluation" },
              `Black's win rate ${(100 * evaluation.win).toFixed(1)}%, score lead ${evaluation.score_lead > 0 ? "B" : "W"}+${Math.abs(evaluation.score_lead).toFixed(1)}`,
              evaluation.policy_best ? `, network move ${evaluation.policy_best}` : "") : h("span", { class: "muted" }, busy ? "evaluating…" : "turn on ownership to evaluate"),
            evaluation ? h("div", null, h("div", { class: "muted" }, "Black's win rate by komi"), h(KomiCurve, { curve: evaluation.winrate_by_komi, komi: evaluation.komi })) : null),
          h("div", { key: "analysis", class: "card" }, h("h2", null, "Endgame analysis"),
            h("div", { class: "actions" },
              h("button", { onClick: analyze, disabled: job && (job.status === "running" || job.status === "queued"), "data-testid": "analyze" }, "Analyze this position"),
              h("label", { title: "tree budgets, as tengen analyze's flags: fewer nodes is faster and shallower" }, "budget ",
                h("select", { value: budget, onChange: (e) => setBudget(e.target.value), "data-testid": "budget" },
                  Object.entries(BUDGETS).map(([name, b]) => h("option", { key: name, value: name },
                    `${name} (--max-nodes ${b.max_nodes} --max-total-nodes ${b.max_total_nodes})`)))),
              h(Progress, { job, onCancel: cancel })),
            rec ? h("p", { "data-testid": "recommended" }, "Recommended for ", rec.color === "B" ? "Black" : "White", ": ",
              h("span", { class: "recommended" }, rec.move || "none"), ` — ${rec.reason}`) : null,
            report ? h("div", null,
              h("div", { class: "muted" }, `board count ${fmt(report.board_count, 1)} (Black's area minus White's, before komi); ${report.evaluations} evaluations, ${report.seconds} s; hover a row to light its region, click it for its thermograph and tree`),
              h(RegionTable, { report, hover, setHover, selected, onSelect: selectRegion }),
              h(OtherLifeNotes, { report }),
              report.settings ? h("div", { class: "muted", "data-testid": "settings" },
                `assumed: ${report.rules.name} rules (${report.rules.scoring} scoring), komi ${report.komi}; as tengen analyze ` +
                Object.entries(report.settings).filter(([k]) => k !== "sealed_rules").map(([k, v]) => `--${k.replace(/_/g, "-")} ${v}`).join(" ") +
                (report.settings.sealed_rules ? "" : " --no-sealed-rules")) : null) : null),
          selected ? h("div", { key: "detail", class: "card row2", "data-testid": "region-detail" },
            h("div", null, h("h2", null, `Region ${selected}: thermograph`), h(Thermograph, { data: thermo }),
              h("p", { class: "muted" }, "walls: Black's (dark) and White's (grey) results as each move is taxed by t; the mast (red) rises from the ", h(Explain, { term: "temperature" }), ".")),
            h("div", null, h("h2", null, "local tree (click a node)"), h(LocalTree, { tree, onPick: pickTreeNode, active: treeLine }))) : null])));
}

const root = document.getElementById("app");
root.textContent = "";  // the loading note
render(h(App, null), root);
