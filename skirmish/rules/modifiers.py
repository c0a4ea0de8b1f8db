"""Named modifiers and scores, applied positive-first (R-C1, R-C4).

Every number that moves a score carries its name, so the log and the UI can say *why* a score is
what it is (`3 + Ranged 2 + hill 1 + friend within 5" 1 - dense cover 2 = 5`).
"""

from __future__ import annotations

from dataclasses import dataclass, field


@dataclass(frozen=True, slots=True)
class Modifier:
    """One named change to a score, e.g. `Modifier("higher ground", +1)`."""

    name: str
    value: int

    def __str__(self) -> str:
        sign = "+" if self.value >= 0 else "−"
        return f"{sign} {self.name} {abs(self.value)}"


@dataclass(frozen=True, slots=True)
class Score:
    """A characteristic plus modifiers, before the die (`base_total`) and after (`total`)."""

    stat_name: str
    stat: int
    modifiers: tuple[Modifier, ...] = ()
    die: int | None = None

    @property
    def ordered(self) -> tuple[Modifier, ...]:
        """Positive modifiers first, then negative (the seed's rule for avoiding confusion)."""
        return tuple(m for m in self.modifiers if m.value >= 0) + tuple(
            m for m in self.modifiers if m.value < 0
        )

    @property
    def base_total(self) -> int:
        """Characteristic plus all modifiers, without the die: what decides Impossible Shot.

        Added up in a plain loop (the same integers as `stat + sum(...)`, without a generator per
        call: the bots ask it of every scored pair)."""
        total = self.stat
        for m in self.modifiers:
            total += m.value
        return total

    @property
    def total(self) -> int:
        return self.base_total + (self.die or 0)

    def with_die(self, die: int) -> Score:
        return Score(self.stat_name, self.stat, self.modifiers, die)

    def explain(self) -> str:
        """E.g. `3 + Ranged 2 + higher ground 1 − dense cover 2 = 4`."""
        parts = [] if self.die is None else [str(self.die), "+"]
        parts.append(f"{self.stat_name} {self.stat}")
        parts.extend(str(m) for m in self.ordered)
        return " ".join(parts) + f" = {self.total}"


@dataclass
class ScoreBuilder:
    """Collects modifiers for a score; zero-valued ones are dropped so the log stays readable."""

    stat_name: str
    stat: int
    modifiers: list[Modifier] = field(default_factory=list)

    def add(self, name: str, value: int) -> ScoreBuilder:
        if value:
            self.modifiers.append(Modifier(name, value))
        return self

    def build(self) -> Score:
        return Score(self.stat_name, self.stat, tuple(self.modifiers))
