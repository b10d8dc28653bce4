"""What the core tells Python when a watched thing happens: an echo reply
reaching its source (`Simulator.ping`), a message reaching its sink
(`Simulator.messages`), or a TCP end having received a
given number of bytes (`TcpFlow.when_received`). The core's run stops
right after the event that caused it, so the handler runs at that instant,
before any later event, like a callback from `Simulator.at`."""

from __future__ import annotations

import heapq
import itertools
from typing import TYPE_CHECKING, Callable

if TYPE_CHECKING:
    from ackclock._native import Sim


class Notices:
    """The handlers of one simulation's notices, by flow."""

    def __init__(self, native: Sim) -> None:
        self._native = native
        # echo or message flow id -> handler(the notice's value)
        self._by_flow: dict[int, Callable[[int], object]] = {}
        # (TCP flow id, server end) -> heap of (bytes, order, handler)
        self._marks: dict[tuple[int, bool], list[tuple[int, int, Callable[[], object]]]] = {}
        self._order = itertools.count()

    def on_flow(self, flow_id: int, handler: Callable[[int], object]) -> None:
        """`handler(value)` for each notice of an echo flow (the request's
        send time in ps) or message flow (the message's sequence number)."""
        self._by_flow[flow_id] = handler

    def when_received(
        self, flow_id: int, server: bool, nbytes: int, handler: Callable[[], object]
    ) -> None:
        marks = self._marks.setdefault((flow_id, server), [])
        heapq.heappush(marks, (nbytes, next(self._order), handler))
        # The core keeps one mark per end: the nearest.
        self._native.watch_received(flow_id, server, marks[0][0])

    def dispatch(self) -> None:
        """Runs the handlers of the notice `run` just returned for."""
        notice = self._native.take_notice()
        assert notice is not None, "run returned 'notice' without one"
        flow_id, server, value = notice
        if flow_id in self._by_flow:
            self._by_flow[flow_id](value)
            return
        marks = self._marks[(flow_id, server)]
        due = []
        while marks and marks[0][0] <= value:
            due.append(heapq.heappop(marks)[2])
        if marks:
            self._native.watch_received(flow_id, server, marks[0][0])
        for handler in due:
            handler()
