// The endgame quiz: positions from a reviewed game (or every game reviewed on this page) where the biggest
// move is clear, shown without the numbers; click a move, read the regions' values, the move's loss, the best
// move and why; a score over the round. The review is the server's (a game reviewed already is not analysed
// again), the round and the answers are /api/quiz's.
import { h } from "preact";
import { useState, useEffect, useRef } from "preact/hooks";
import { Goban } from "@sabaki/shudan";

import { api, emptyMap, vertexOf, fmt, kindText, Progress, isRunning, followJob, colorName, Explain } from "./common.js";

function useReview(record, onDone) {
  // the record's review from the endgame's start: the server answers a finished one at once
  const [job, setJob] = useState(null);
  const source = useRef(null);
  useEffect(() => () => source.current && source.current.close(), []);
  const start = async () => {
    if (source.current) source.current.close();
    const started = await api("/api/reviews", { json: { record_id: record.id, from: "auto" } });
    setJob(started);
    if (started.status === "done") { onDone(started, record); return; }
    source.current = followJob("reviews", started, setJob, (final) => { setJob(final); if (final.status === "done") onDone(final, record); });
  };
  const cancel = () => job && api(`/api/reviews/${job.id}`, { method: "DELETE" }).then(setJob);
  return { job, start, cancel };
}

function AnswerCard({ a, position }) {
  const verdict = a.correct ? "Right: the biggest move." : a.loss === null ? "Not the best move (its loss is not known)."
    : `Loss: ${a.loss_at_least ? "at least " : ""}${fmt(a.loss)} point(s).`;
  return h("div", { class: "card", "data-testid": "quiz-answer" },
    h("h2", { class: a.correct ? "right" : "wrong", "data-testid": "quiz-verdict" }, `${a.play}: ${verdict}`),
    h("p", { "data-testid": "quiz-reason" }, a.reason),
    h("p", null, "Best move: ", h("b", { "data-testid": "quiz-best" }, a.best.join(" / ")), ` (${colorName(position.to_play)}); `,
      h("span", { class: "muted" }, `the analysis: ${a.best_reason}`)),
    h("table", { class: "regions", "data-testid": "quiz-regions" },
      h("thead", null, h("tr", null, ["region", h(Explain, { term: "temperature" }), h(Explain, { term: "count" }), "type",
        `best for ${colorName(position.to_play)}`].map((c, i) => h("th", { key: i }, c)))),
      h("tbody", null, a.regions.filter((r) => r.temperature > 0 || r.id === a.region).map((r) => h("tr", { key: r.id, class: "region" + (r.id === a.region ? " selected" : ""), "data-region": r.id },
        h("td", null, r.id), h("td", { "data-temperature": r.temperature }, fmt(r.temperature, 2)), h("td", null, fmt(r.count, 2)),
        h("td", null, kindText(r.type) + (r.type.endsWith("_sente") ? ` (${r.type_for_mover} for ${colorName(position.to_play)})` : "")),
        h("td", null, r.best.join(" ") || "–"))))),
    cold(a) ? h("p", { class: "muted" }, `and ${cold(a)} region(s) with nothing left to gain (temperature 0 or below)`) : null,
    h("p", { class: "muted" }, "The loss is the hottest region's temperature minus the temperature of the region played in " +
      "(all of it outside every region): what the move gives up against orthodox play, in points of area count."));
}

const cold = (a) => a.regions.filter((r) => !(r.temperature > 0) && r.id !== a.region).length;

function QuizBoard({ shown, answer, onPlay }) {
  // the position without numbers; once answered: the best move (triangle), the move played (cross), the
  // regions labelled with their temperatures and the hottest one outlined
  if (!shown) return h("p", { class: "muted" }, "loading the position…");
  const W = shown.width, H = shown.height;
  const markerMap = emptyMap(W, H);
  let selectedVertices = [];
  if (answer) {
    answer.regions.filter((r) => r.temperature > 0 || r.id === answer.region).forEach((r) => {
      const pts = r.points.map((p) => vertexOf(p, H)).filter(Boolean);
      if (r.id === answer.hottest) selectedVertices = pts;
      const free = pts.find(([x, y]) => !markerMap[y][x]) || pts[0];
      if (free) markerMap[free[1]][free[0]] = { type: "label", label: `${r.id} ${fmt(r.temperature)}` };
    });
    answer.best.forEach((p) => { const v = vertexOf(p, H); if (v) markerMap[v[1]][v[0]] = { type: "triangle", label: "the best move" }; });
    const v = vertexOf(answer.play, H);
    if (v) markerMap[v[1]][v[0]] = { type: answer.correct ? "triangle" : "cross", label: "your move" };
  }
  const size = Math.max(16, Math.min(40, Math.floor(Math.min(520, window.innerHeight - 200) / (Math.max(W, H) + 1))));
  return h("div", { "data-testid": "quiz-board", class: "quiz-board" },
    h(Goban, { vertexSize: size, signMap: shown.stones, markerMap, selectedVertices, showCoordinates: true,
      fuzzyStonePlacement: false, animateStonePlacement: false,
      onVertexClick: (e, v) => { if (!answer && !shown.stones[v[1]][v[0]]) onPlay(v); } }));
}

function Score({ answers, total, onAgain }) {
  const right = answers.filter((a) => a.correct).length;
  const valued = answers.filter((a) => a.loss !== null);
  const lost = valued.reduce((s, a) => s + a.loss, 0);
  const unknown = answers.length - valued.length;
  return h("div", { class: "card", "data-testid": "quiz-score" }, h("h2", null, "Score"),
    h("p", null, `${right} of ${total} best moves found; ${fmt(lost)} point(s) lost over the round` +
      (unknown ? ` (and ${unknown} move(s) whose loss the regions' values cannot say)` : "") + "."),
    h("button", { onClick: onAgain, "data-testid": "quiz-again" }, "Another round"));
}

export function Quiz({ record }) {
  const [sources, setSources] = useState([]);  // the reviews finished on this page: { review, record, name }
  const [everyGame, setEveryGame] = useState(false);
  const [round, setRound] = useState(null);  // /api/quiz's answer, with its number
  const [index, setIndex] = useState(0);
  const [answers, setAnswers] = useState([]);
  const [shown, setShown] = useState(null);
  const [error, setError] = useState(null);
  const fail = (e) => setError(e.message || String(e));

  const load = async (ids, number = 0) => {
    setError(null);
    try {
      setRound(await api(`/api/quiz?reviews=${ids.join(",")}&round=${number}`));
      setIndex(0); setAnswers([]);
    } catch (e) { fail(e); }
  };
  const reviewed = (job, rec) => {
    const mine = { review: job.id, record: rec.id, name: `${rec.black || "Black"} – ${rec.white || "White"}` };
    const next = [...sources.filter((s) => s.record !== rec.id), mine];
    setSources(next);
    load(everyGame ? next.map((s) => s.review) : [job.id]);
  };
  const { job, start, cancel } = useReview(record, reviewed);
  const ids = everyGame ? sources.map((s) => s.review) : sources.filter((s) => record && s.record === record.id).map((s) => s.review);

  const position = round && round.positions[index];
  useEffect(() => {
    setShown(null);
    if (!position) return;
    let live = true;
    api("/api/position", { json: { record: position.record, move: position.move } }).then((p) => live && setShown(p)).catch(fail);
    return () => { live = false; };
  }, [position]);
  const answer = position ? answers[index] : null;
  const play = async ([x, y]) => {
    const vertex = "ABCDEFGHJKLMNOPQRSTUVWXYZ"[x] + String(shown.height - y);
    try {
      const a = await api("/api/quiz/answer", { json: { review: position.review, move: position.move, play: vertex } });
      setAnswers((all) => { const next = [...all]; next[index] = a; return next; });
    } catch (e) { fail(e); }
  };

  const finished = round && round.positions.length && answers.filter(Boolean).length === round.positions.length;
  return h("main", { "data-testid": "quiz" },
    h("div", { class: "boardcol" },
      position ? h("div", { "data-testid": "quiz-prompt", "data-review": position.review }, `Position ${index + 1} of ${round.positions.length} (after move ${position.move}): ` +
        `${colorName(position.to_play)} to play. `, answer ? "" : "Click the biggest move.") : null,
      position ? h(QuizBoard, { shown, answer, onPlay: play }) : null,
      position ? h("div", { class: "actions" },
        h("button", { disabled: !answer || index + 1 >= round.positions.length, onClick: () => setIndex(index + 1), "data-testid": "quiz-next" }, "Next position ›")) : null),
    h("div", { class: "panel" },
      h("div", { class: "card" }, h("h2", null, "Endgame quiz"),
        !record ? h("p", null, "Open a game record (in Records) to draw a quiz from its review.") : h("div", null,
          h("p", { class: "muted" }, `From ${record.black || "Black"} – ${record.white || "White"}: positions of its endgame where the biggest move is clear ` +
            "(the hottest region leads the next by at least a point), drawn from tengen's review of the game (a game reviewed already costs no new analysis)."),
          h("div", { class: "actions" },
            h("button", { onClick: () => start().catch(fail), disabled: isRunning(job), "data-testid": "quiz-start" }, "Quiz on this game"),
            sources.length > 1 ? h("label", { title: sources.map((s) => s.name).join("; ") },
              h("input", { type: "checkbox", checked: everyGame, "data-testid": "quiz-every-game",
                onChange: () => { const all = !everyGame; setEveryGame(all); load(all ? sources.map((s) => s.review) : ids.slice(-1)); } }),
              ` draw from every game reviewed here (${sources.length})`) : null),
          h(Progress, { job, onCancel: cancel, unit: "moves", prefix: "quiz" }))),
      error ? h("div", { class: "error", "data-testid": "quiz-error" }, error) : null,
      round ? h("div", { class: "card muted", "data-testid": "quiz-note" }, round.note) : null,
      answer ? h(AnswerCard, { a: answer, position }) : null,
      finished ? h(Score, { answers, total: round.positions.length, onAgain: () => load(ids, round.round + 1) }) : null));
}
