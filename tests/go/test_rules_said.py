"""Rules and komi are said, never assumed silently: where they come from (the record's RU and KM, `--rules`,
or tengen's assumption and why), and `tengen score` explains a difference from the recorded result."""
from __future__ import annotations

import pytest

from tengen.cli import main
from tengen.go.sgf import load_game_bytes

# both groups pass-alive (Benson): no dead stones. Area: Black 7 stones + 3 eyes, White 11 + 4 = W+5.5 at
# komi 0.5; territory: Black 3, White 4 = W+1.5.
TWO_LIVING_GROUPS = """
    . X O O .
    X X O . O
    . X O O O
    X X O . O
    . X O O .
"""


def record(diagram: str, root: str) -> str:
    """An SGF of the diagram as setup stones (X Black, O White; top row first), with `root` properties."""
    rows = [row.split() for row in diagram.strip().splitlines()]
    stones = {"X": "", "O": ""}
    for r, row in enumerate(rows):
        for c, cell in enumerate(row):
            if cell in stones:
                stones[cell] += f"[{'abcdefghijklmnopqrs'[c]}{'abcdefghijklmnopqrs'[r]}]"
    return f"(;GM[1]FF[4]SZ[{len(rows)}]{root}AB{stones['X']}AW{stones['O']})"


@pytest.mark.parametrize("root, said", [
    ("KM[0.5]", "chinese rules (area scoring) assumed: the record names no rules (RU); records without it were "
                "often played under Japanese rules (--rules japanese); komi 0.5 as the record says (KM)"),
    ("KM[6.5]RU[Japanese]", "japanese rules (territory scoring) as the record says (RU); komi 6.5 as the record says (KM)"),
    ("RU[Chinese]", "chinese rules (area scoring) as the record says (RU); komi 0 assumed: the record gives no "
                    "readable komi (KM)"),
    ("KM[0.5]RU[Pirate]", "japanese rules (territory scoring) assumed: the record's RU names rules tengen does not know; "
                          "komi 0.5 as the record says (KM)"),
])
def test_rules_said_names_their_source(root, said):
    assert load_game_bytes(record(TWO_LIVING_GROUPS, root).encode()).rules_said() == said


def test_override_keeps_the_records_komi():
    game = load_game_bytes(record(TWO_LIVING_GROUPS, "KM[0.5]").encode())
    game.override_rules("japanese")
    assert (game.rules.name, game.rules.scoring, game.komi) == ("japanese", "territory", 0.5)
    assert game.rules_said().startswith("japanese rules (territory scoring) as asked; komi 0.5")


def score(tmp_path, capsys, root: str, *flags: str) -> list[str]:
    path = tmp_path / "game.sgf"
    path.write_text(record(TWO_LIVING_GROUPS, root))
    assert main(["score", str(path), "--benson", *flags]) == 0
    return capsys.readouterr().out.splitlines()


@pytest.mark.parametrize("root, flags, score_line, comparison", [
    # no RU: Chinese assumed; the record's W+1.5 is territory scoring's: said, with the flag to use
    ("KM[0.5]RE[W+1.5]", (), "score: W+5.5",
     "comparison: the recorded W+1.5 is what territory scoring gives with these dead stones (W+1.5): the game "
     "was probably played under Japanese rules (--rules japanese)"),
    ("KM[0.5]RE[W+1.5]", ("--rules", "japanese"), "score: W+1.5",
     "comparison: the score agrees with the recorded result"),
    ("KM[0.5]RE[W+5.5]", (), "score: W+5.5", "comparison: the score agrees with the recorded result"),
    ("KM[0.5]RE[B+R]", (), "score: W+5.5",
     "comparison: the record gives no counted result (resignation, time or none): nothing to compare"),
])
def test_score_explains_a_difference_from_the_record(tmp_path, capsys, root, flags, score_line, comparison):
    lines = score(tmp_path, capsys, root, *flags)
    assert score_line in lines and lines[-1] == comparison
    assert lines[0].startswith("rules: ")


def test_score_names_the_dead_stones_when_no_scoring_explains_it(tmp_path, capsys):
    last = score(tmp_path, capsys, "KM[0.5]RE[B+10.5]")[-1]
    assert last.startswith("comparison: the score differs from the recorded B+10.5 by 16 points, and territory "
                           "scoring would give W+1.5: not a difference of rules; Benson's")


def test_unknown_rules_are_one_line_errors(tmp_path, capsys):
    path = tmp_path / "game.sgf"
    path.write_text(record(TWO_LIVING_GROUPS, "KM[0.5]"))
    assert main(["score", str(path), "--benson", "--rules", "pirate"]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert err == ["tengen: error: --rules pirate: not a rule set tengen knows (chinese, japanese, korean, aga, "
                   "tromp-taylor)"]
