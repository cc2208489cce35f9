"""Rule sets: ko rule, scoring, suicide, komi. Presets follow the usual names (KataGo's spellings)."""
from __future__ import annotations

from dataclasses import dataclass, replace

KO_RULES = ("simple", "positional", "situational")
SCORINGS = ("area", "territory")


@dataclass(frozen=True)
class Rules:
    """A Go rule set. `komi` is White's compensation in points."""

    name: str = "chinese"
    komi: float = 7.5
    scoring: str = "area"
    ko: str = "simple"
    suicide: bool = False
    # AGA / Chinese count handicap stones in White's favour under area scoring (KataGo's "hasButton"
    # and "whiteHandicapBonus"): 0 = none, 1 = N-1 points, 2 = N points.
    white_handicap_bonus: int = 0
    tax: str = "none"  # territory-scoring tax as KataGo names it: none, seki, all

    def __post_init__(self) -> None:
        if self.ko not in KO_RULES:
            raise ValueError(f"unknown ko rule {self.ko!r} (expected one of {', '.join(KO_RULES)})")
        if self.scoring not in SCORINGS:
            raise ValueError(f"unknown scoring {self.scoring!r} (expected area or territory)")

    def with_komi(self, komi: float) -> "Rules":
        """The same rules with another komi."""
        return replace(self, komi=float(komi))

    @classmethod
    def chinese(cls, komi: float = 7.5) -> "Rules":
        return cls("chinese", komi, "area", "simple", False, 2, "none")

    @classmethod
    def japanese(cls, komi: float = 6.5) -> "Rules":
        return cls("japanese", komi, "territory", "simple", False, 0, "seki")

    @classmethod
    def tromp_taylor(cls, komi: float = 7.5) -> "Rules":
        return cls("tromp-taylor", komi, "area", "positional", True, 0, "none")

    @classmethod
    def aga(cls, komi: float = 7.5) -> "Rules":
        return cls("aga", komi, "area", "situational", False, 1, "none")

    @classmethod
    def from_name(cls, name: str, komi: float | None = None) -> "Rules":
        """Rules by name as written in SGF RU[] or GTP (case-insensitive; unknown names raise ValueError)."""
        key = name.strip().lower().replace("_", "-").replace(" ", "-")
        table = {
            "chinese": cls.chinese, "cn": cls.chinese, "area": cls.chinese, "old-chinese": cls.chinese,
            "japanese": cls.japanese, "jp": cls.japanese, "jpn": cls.japanese, "korean": cls.japanese, "territory": cls.japanese,
            "tromp-taylor": cls.tromp_taylor, "trompTaylor".lower(): cls.tromp_taylor, "tt": cls.tromp_taylor,
            "aga": cls.aga, "bga": cls.aga, "new-zealand": cls.tromp_taylor, "nz": cls.tromp_taylor,
            # Ing / GOE: area counting with multi-stone suicide allowed (their ko rules are not modelled)
            "goe": cls.tromp_taylor, "ing": cls.tromp_taylor, "ing-goe": cls.tromp_taylor,
        }
        if key not in table:
            raise ValueError(f"unknown rules {name!r}")
        rules = table[key]()
        return rules if komi is None else rules.with_komi(komi)
