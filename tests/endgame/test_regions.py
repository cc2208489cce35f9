"""Decomposition into regions from ownership maps, and user masks."""
from __future__ import annotations

import numpy as np

from tengen.endgame.regions import find_regions, region_from_points, sure_territory
from tengen.go.diagram import parse_diagram


def _ownership(diagram: str) -> np.ndarray:
    """An ownership map drawn as a board diagram: X = +1 (Black's), O = -1, ? = 0.5 and - = -0.5 (undecided)."""
    grid, marks = parse_diagram(diagram)
    own = grid.astype(float)
    for mark, value in (("?", 0.5), ("-", -0.5)):
        for point in marks.get(mark, []):
            own[point] = value
    return own


OWN = _ownership("""
    X X ? O O
    X X ? O O
    X X X O O
    X - ? O O
    X X X O O
""")


def test_undecided_points_form_4_connected_regions():
    regions = find_regions(OWN)
    assert [sorted(r.points) for r in regions] == [[(0, 2), (1, 2)], [(3, 1), (3, 2)]]


def test_threshold_is_configurable():
    assert find_regions(OWN, threshold=0.4) == []


def test_small_regions_are_flagged_not_hidden():
    regions = find_regions(OWN, min_size=3)
    assert len(regions) == 2 and all("smaller than 3 points" in r.notes for r in regions)


def test_margin_dilates():
    regions = find_regions(OWN, margin=1)
    assert len(regions) == 1 and len(regions[0]) > 4


def test_single_point_mask_grows_to_its_component():
    region = region_from_points([(0, 2)], OWN)
    assert sorted(region.points) == [(0, 2), (1, 2)]
    exact = region_from_points([(0, 2), (4, 4)], OWN)
    assert sorted(exact.points) == [(0, 2), (4, 4)]


def test_sure_territory_counts_outside_regions():
    regions = find_regions(OWN)
    # outside the 4 region points: Black 11, White 10
    assert sure_territory(OWN, regions) == 11 - 10
