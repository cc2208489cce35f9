"""genmove through the search (`--player search`): moves on 9x9 with a stand-in evaluator, the clock's
seconds given to the search, resignation, cleanup, dead stones from the search's ownership, dynamic komi,
and the `tengen gtp` flags. Visit-bounded searches only: nothing here depends on the machine's speed."""
from __future__ import annotations

import re
import sys
from pathlib import Path

import numpy as np
import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from standin_networks import StandInNetwork  # noqa: E402
from tengen.go.coords import from_gtp  # noqa: E402
from tengen.io.engines import gtp_engine
from tengen.io.gtp import GtpEngine  # noqa: E402
from tengen.io.gtp_player import PlayerSettings, SearchPlayer  # noqa: E402


class Recording:
    """Wraps the real search and records the budget of every run."""

    runs: list = []

    def __init__(self, evaluator, config):
        from tengen.search import Search

        self.inner = Search(evaluator, config)
        self.evaluator = evaluator

    def run(self, board, **kwargs):
        Recording.runs.append(kwargs)
        return self.inner.run(board, **kwargs)

    def clear(self):
        self.inner.clear()


class Losing(StandInNetwork):
    """The stand-in, but Black always loses."""

    def _one(self, board):
        e = super()._one(board)
        e.win, e.loss = 0.0, 1.0
        return e


def player(evaluator=None, seconds=None, dynamic_komi="none", temperature_early=0.5, **config):
    settings = {"visits": 12, "batch_size": 4, "root_symmetries": 1, **config}
    return SearchPlayer(lambda: evaluator or StandInNetwork("anywhere"), settings,
                        PlayerSettings(seconds=seconds, dynamic_komi=dynamic_komi,
                                       temperature_early=temperature_early), search_factory=Recording)


def test_genmove_through_the_search_on_9x9_plays_legal_moves():
    engine = gtp_engine(size=9, player=player())
    for color in "bwbwbw":
        before = engine.board.copy()
        answer = engine.handle(f"genmove {color}")
        vertex = re.fullmatch(r"= (\S+)\n\n", answer).group(1)
        assert vertex != "resign"
        if vertex != "pass":
            assert before.is_legal(1 if color == "b" else -1, from_gtp(vertex, 9))
    assert len(engine.board.moves) == 6


def test_time_settings_and_time_left_change_the_seconds_given_to_the_search():
    engine = gtp_engine(size=9, player=player())
    Recording.runs = []
    engine.handle("genmove b")
    assert Recording.runs[-1]["seconds"] is None  # no clock: visits alone
    engine.handle("time_settings 300 0 0")
    engine.handle("genmove w")
    main_time = Recording.runs[-1]["seconds"]
    engine.handle("time_left b 30 0")
    engine.handle("genmove b")
    short = Recording.runs[-1]["seconds"]
    engine.handle("time_settings 0 30 5")
    engine.handle("time_left w 10 2")
    engine.handle("genmove w")
    byo = Recording.runs[-1]["seconds"]
    assert main_time > short > 0 and byo == pytest.approx((10 - 1) / 2)


def test_the_seconds_flag_caps_the_clock():
    engine = gtp_engine(size=9, player=player(seconds=0.5))
    Recording.runs = []
    engine.handle("genmove b")
    engine.handle("time_settings 3000 0 0")
    engine.handle("genmove w")
    assert [r["seconds"] for r in Recording.runs] == [0.5, 0.5]


def test_resignation_after_consecutive_lost_searches():
    engine = gtp_engine(size=9, player=player(Losing("anywhere"), resign_threshold=0.1, resign_consecutive=2,
                                             min_resign_visits=4))
    first = engine.handle("genmove b")
    assert first != "= resign\n\n"
    assert engine.handle("genmove b") == "= resign\n\n"
    assert engine.handle("clear_board") == "=\n\n"
    assert engine.handle("genmove b") != "= resign\n\n"  # a new game starts the count afresh


def test_final_status_list_and_score_from_the_search_ownership():
    class WhiteOwnsAll(StandInNetwork):
        def _one(self, board):
            e = super()._one(board)
            e.ownership = -np.ones((board.height, board.width), np.float32)
            return e

    p = player(WhiteOwnsAll("anywhere"))
    engine = gtp_engine(size=5, player=p, dead_stones=p.dead_stones)
    out = [engine.handle(c) for c in ("komi 0.5", "play b A1", "play w C3", "final_status_list dead",
                                      "final_status_list alive", "final_score")]
    assert out[3:] == ["= A1\n\n", "= C3\n\n", "= W+25.5\n\n"]


def test_cleanup_never_passes_while_dead_stones_stand_in_its_area():
    class BlackOwnsAll(StandInNetwork):  # the white stone on B5 is dead; the search itself would pass
        def _one(self, board):
            e = super()._one(board)
            e.ownership = np.ones((board.height, board.width), np.float32)
            e.policy = np.zeros_like(e.policy)
            e.pass_policy = 1.0
            return e

    p = player(BlackOwnsAll("contested"), visits=2)
    engine = gtp_engine(size=5, player=p)
    for cmd in ("play b A4", "play b B4", "play b C4", "play b C5", "play w B5"):
        engine.handle(cmd)
    answer = engine.handle("kgs-genmove_cleanup b")
    assert answer == "= A5\n\n"  # B5's only liberty
    assert engine.handle("kgs-genmove_cleanup b") == "= pass\n\n"  # nothing dead is left


def test_dynamic_komi_moves_the_search_komi():
    class Ahead(StandInNetwork):
        def _one(self, board):
            e = super()._one(board)
            e.win, e.loss = 0.9, 0.1
            return e

    engine = gtp_engine(size=9, player=player(Ahead("anywhere"), dynamic_komi="vs"))
    Recording.runs = []
    engine.handle("genmove b")
    engine.handle("genmove b")
    komis = [r["komi"] for r in Recording.runs]
    assert komis[0] == 7.5 and komis[1] == 8.5  # VS: Black ahead -> one point more komi


@pytest.mark.parametrize("command", ["genmove", "genmove purple", "kgs-genmove_cleanup", "time_left b x 0",
                                     "final_status_list maybe"])
def test_bad_input_is_one_error_line(command):
    engine = gtp_engine(size=9, player=player())
    answer = engine.handle(command)
    assert answer.startswith("? ") and answer.count("\n") == 2


def test_gtp_flags_parse_and_start_without_the_network(monkeypatch, capsys):
    import io

    from tengen.cli import main

    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(b"1 name\n2 version\n3 known_command kata-analyze\n")))
    assert main(["gtp", "--lizzie", "--visits", "8", "--batch", "4", "--dynamic-komi", "mldk", "--device", "cpu",
                 "--resign-threshold", "0.02", "--seconds", "3", "--model", "/nonexistent.bin.gz"]) == 0
    from tengen import __version__

    assert capsys.readouterr().out == f"=1 KataGo-compatible tengen\n\n=2 {__version__}\n\n=3 true\n\n"


def test_gtp_with_a_missing_model_answers_genmove_with_an_error(monkeypatch, capsys):
    import io

    from tengen.cli import main

    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(b"1 genmove b\n2 name\n")))
    assert main(["gtp", "--model", "/nonexistent.bin.gz"]) == 0
    out = capsys.readouterr().out
    assert out == "?1 cannot load the network: /nonexistent.bin.gz: no such model file\n\n=2 tengen\n\n"


@pytest.mark.parametrize("argv", [["--visits", "0"], ["--batch", "0"], ["--resign-threshold", "0.7"],
                                  ["--player", "simple", "--dead-stones", "search"], ["--temperature-early", "-1"],
                                  ["--temperature-halflife", "0"]])
def test_bad_flags_are_one_line(argv, capsys):
    from tengen.cli import main

    assert main(["gtp"] + argv) == 2
    assert capsys.readouterr().err.count("\n") == 1


def _opening(seed, temperature_early=0.5, visits=24):
    engine = gtp_engine(size=9, player=player(visits=visits, temperature_early=temperature_early))
    answers = []
    if seed is not None:
        assert engine.handle(f"set_random_seed {seed}") == "=\n\n"
    for color in "bwbw":
        answers.append(engine.handle(f"genmove {color}"))
    return answers


def test_set_random_seed_varies_the_opening_and_replays_it_exactly():
    assert _opening(None) == _opening(None)  # unseeded: the most visited move, always the same game
    assert _opening(7) == _opening(7)
    assert len({tuple(_opening(seed)) for seed in range(6)}) > 1


def test_a_one_visit_player_varies_its_opening_by_seed_too():
    assert _opening(None, visits=1) == _opening(None, visits=1)
    assert _opening(3, visits=1) == _opening(3, visits=1)
    assert len({tuple(_opening(seed, visits=1)) for seed in range(6)}) > 1


def test_temperature_zero_plays_the_unseeded_game_whatever_the_seed():
    assert {tuple(_opening(seed, temperature_early=0.0)) for seed in range(4)} == {tuple(_opening(None))}


def test_set_random_seed_refuses_a_non_integer():
    engine = gtp_engine(size=9, player=player())
    assert engine.handle("set_random_seed x").startswith("? syntax error")
    assert engine.handle("set_random_seed").startswith("? syntax error")
