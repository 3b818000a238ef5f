"""The overview's charts: messages put and got per second and the total depth, sampled (sans-IO).

The message layer counts every put and every get since the engine opened (two integers, incremented on the hot
path); a shell calls :meth:`Sampler.sample` every ``interval`` seconds (``formats/console.tsv``), which keeps the
rates since the previous sample and the depth of every local queue added up, the last ``size`` samples in memory.
"""

from __future__ import annotations

import time
from collections import deque
from dataclasses import dataclass
from typing import Protocol


class Counters(Protocol):
    """What the sampler reads of the message layer."""

    put_count: int
    get_count: int

    def total_depth(self) -> int: ...


@dataclass(frozen=True, slots=True)
class Sample:
    at: float  # Unix time
    put_rate: float  # messages put per second since the previous sample
    get_rate: float
    depth: int  # every local queue's depth added up
    puts: int  # the counters at that time
    gets: int


class Sampler:
    def __init__(self, layer: Counters, interval: float = 10.0, size: int = 360) -> None:
        self.layer = layer
        self.interval = interval
        self.samples: deque[Sample] = deque(maxlen=size)
        self._last: tuple[float, int, int] | None = None
        self.started = time.time()  # when the engine opened: the queue manager's start, as the overview shows it

    def sample(self, now: float) -> Sample | None:
        """One sample at ``now``; the first call only sets where the rates count from (None)."""
        layer = self.layer
        puts, gets = layer.put_count, layer.get_count
        last, self._last = self._last, (now, puts, gets)
        if last is None:
            return None
        span = now - last[0]
        if span <= 0:
            return None
        taken = Sample(now, (puts - last[1]) / span, (gets - last[2]) / span, layer.total_depth(), puts, gets)
        self.samples.append(taken)
        return taken

    def series(self) -> dict[str, object]:
        """The samples as columns (uPlot's data layout: times, then one array per series)."""
        samples = list(self.samples)
        return {
            "interval": self.interval,
            "time": [round(s.at, 3) for s in samples],
            "put_rate": [round(s.put_rate, 3) for s in samples],
            "get_rate": [round(s.get_rate, 3) for s in samples],
            "depth": [s.depth for s in samples],
            "puts": self.layer.put_count,
            "gets": self.layer.get_count,
        }
