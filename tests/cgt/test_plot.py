"""thermograph_figure draws the walls, mast and temperature it should (checked on the data, no images)."""
from fractions import Fraction as F

from tengen.cgt import parse_game, thermograph_figure


def _lines(fig):
    return {line.get_gid(): line for line in fig.axes[0].get_lines()}


def test_figure_data_for_a_kinked_thermograph(tmp_path):
    g = parse_game("{6|{0|-6}}")  # mean 3/2, temperature 9/2, right wall kinked at t = 3
    fig = thermograph_figure(g, title="test")
    lines = _lines(fig)
    assert set(lines) == {"left wall", "right wall", "mast", "temperature"}
    lx, lt = lines["left wall"].get_data()
    assert list(zip(lx, lt)) == [(6.0, 0.0), (1.5, 4.5)]
    rx, rt = lines["right wall"].get_data()
    assert list(zip(rx, rt)) == [(0.0, 0.0), (0.0, 3.0), (1.5, 4.5)]
    mx, mt = lines["mast"].get_data()
    assert list(mx) == [1.5, 1.5] and mt[0] == 4.5 and mt[1] > 4.5
    assert lines["temperature"].get_ydata()[0] == 4.5
    ax = fig.axes[0]
    assert ax.xaxis_inverted()  # Winning Ways: Black (positive) on the left
    assert "mean 1.5, temperature 4.5" in ax.get_title()  # decimals, never 9/2
    for ext in ("png", "svg"):
        path = tmp_path / f"t.{ext}"
        fig.savefig(path)
        assert path.stat().st_size > 1000


def test_figure_of_a_number_and_of_a_threat():
    fig = thermograph_figure(parse_game("{1|5/2}"))
    lines = _lines(fig)
    assert "temperature" not in lines and list(lines["mast"].get_xdata()) == [2.0, 2.0]
    fig = thermograph_figure(parse_game("{+inf | 0}"), t_max=F(3))
    lines = _lines(fig)
    assert "left wall" not in lines and "mast" not in lines  # infinite wall, no mast
    rx, rt = lines["right wall"].get_data()
    assert list(zip(rx, rt)) == [(0.0, 0.0), (3.0, 3.0)]


def test_the_title_names_an_unbounded_game_and_a_kind_the_caller_knows():
    ax = thermograph_figure(parse_game("{+inf | 0}")).axes[0]
    assert "no mean (an unanswered threat)" in ax.get_title() and "None" not in ax.get_title()
    # a simple ko, valued by the ko rule, is drawn from its phantom-filled game: the region's kind is named
    ax = thermograph_figure(parse_game("{2 | {-2/3 | -2}}"), kind="ko").axes[0]
    assert ax.get_title().endswith(", ko")


def test_a_number_is_a_marked_point_and_fractions_are_decimals():
    fig = thermograph_figure(parse_game("{1|5/2}"))  # the number 2
    lines = _lines(fig)
    assert list(lines["value"].get_xdata()) == [2.0] and list(lines["value"].get_ydata()) == [0.0]
    assert any("a number: 2" in t.get_text() for t in fig.axes[0].texts)
    title = thermograph_figure(parse_game("{4525/383|-1}")).axes[0].get_title()
    assert "/" not in title and "mean" in title  # 4525/383 and its halves as decimals


def test_no_label_is_clipped(tmp_path):
    # big values (long tick labels) and a two-line title: a fixed layout cut the title and the t label here
    fig = thermograph_figure(parse_game("{1000|-1000}"), title="region A\nline two")
    from matplotlib.backends.backend_agg import FigureCanvasAgg

    canvas = FigureCanvasAgg(fig)
    canvas.draw()  # lays the figure out
    box = fig.bbox
    renderer = canvas.get_renderer()
    ax = fig.axes[0]
    def shown(labels, ticks, limits):  # tick labels past the view limits are not drawn
        return [label for label, tick in zip(labels, ticks) if min(limits) <= tick <= max(limits)]

    ticks = shown(ax.get_xticklabels(), ax.get_xticks(), ax.get_xlim()) + shown(
        ax.get_yticklabels(), ax.get_yticks(), ax.get_ylim())
    for text in [ax.title, ax.xaxis.label, ax.yaxis.label, *ticks]:
        if text.get_text():
            extent = text.get_window_extent(renderer)
            assert box.x0 - 1 <= extent.x0 and extent.x1 <= box.x1 + 1, text.get_text()
            assert box.y0 - 1 <= extent.y0 and extent.y1 <= box.y1 + 1, text.get_text()
