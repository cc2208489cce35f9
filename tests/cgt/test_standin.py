"""stand_in games reproduce the mean, temperature and kind they are built from."""
from fractions import Fraction

import pytest
from hypothesis import given, strategies as st

from tengen.cgt.standin import stand_in
from tengen.cgt.thermo import BLACK_SENTE, GOTE, WHITE_SENTE

means = st.fractions(min_value=-20, max_value=20, max_denominator=8)
temps = st.fractions(min_value=Fraction(1, 8), max_value=12, max_denominator=8)


@pytest.mark.parametrize("kind", [GOTE, BLACK_SENTE, WHITE_SENTE])
@given(mean=means, temperature=temps)
def test_stand_in_has_the_asked_thermograph(kind, mean, temperature):
    th = stand_in(mean, temperature, kind).thermograph
    assert (th.mean, th.temperature, th.kind) == (mean, temperature, kind)


def test_stand_in_rejects_kinds_it_cannot_build():
    with pytest.raises(ValueError):
        stand_in(Fraction(0), Fraction(1), "ko")
