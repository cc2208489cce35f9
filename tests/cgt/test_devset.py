"""The 33 dev-set variation trees (../shared/data/endgame_dev): temperature, mean, type, first moves and
move values must all match the verified answers."""
import json
from fractions import Fraction as F

from conftest import shared_data
from tengen.cgt import analyze_tree, format_game, variation_from_dict

KIND = {("gote", None): "gote", ("ko", None): "ko", ("sente", "B"): "black_sente", ("sente", "W"): "white_sente"}


def _value(text):
    return None if text in (None, "None") else F(text)


def test_dev_set_trees_33_of_33():
    problems = json.loads(shared_data("endgame_dev", "problems.json").read_text())
    assert len(problems) == 33
    for p in problems:
        a = analyze_tree(variation_from_dict(p["tree"]))
        assert a.temperature == F(p["expected_temperature"]), p["id"]
        assert a.mean == F(p["expected_mean_area"]), p["id"]
        assert a.kind == KIND[(p["expected_type"], p["sente_player"])], p["id"]
        best = {f"B {m}" for m in a.best_black} | {f"W {m}" for m in a.best_white}
        assert set(p["correct_moves"]) <= best, p["id"]
        mv, expected = a.move_values, p["expected_move_value_territory"]
        assert (mv.miai, mv.deiri, mv.swing) == \
            (_value(expected["miai"]), _value(expected["deiri"]), _value(expected["frejlak_efn_value"])), p["id"]
        assert format_game(a.game) == p["game_area"], p["id"]  # kos: the phantom the rule computes
