"""The variable-trace lines ns-2 writes before the run starts.

ns-2's `tracevar` writes the variable's value at once, with the agent's
address and its peer's (`-1 -1` for what is not attached or connected yet),
and the agents' reset at `$ns run` writes the traced variables it changes.
The front end writes these lines into the script's channel, in the script's
order; the core writes the changes from the start of the run on.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from ackclock.tcl.agents import TcpAgent

NOWHERE = (-1, -1)


def after_reset(agent: TcpAgent) -> dict[str, str]:
    """The traceable variables as ns-2's TCP agent reset leaves them (when
    created, and at `$ns run`), as its trace prints them."""
    slow = agent.flag("syn_") and agent.flag("delay_growth_")
    return {
        "cwnd_": real(1 if slow else agent.number("windowInit_")),
        "ssthresh_": str(int(agent.number("window_"))),
        "ack_": "-1",
        "maxseq_": "-1",
        "rtt_": real(0),
        "srtt_": real(0),
        # What ns-2 2.35 prints before the run: rttvar_init_'s whole part
        # (12 -> 12.000, 5 -> 5.000, 0.7 -> 0.000, whatever tcpTick_ is).
        "rttvar_": real(int(agent.number("rttvar_init_"))),
        "backoff_": "1",
    }


def assigned_text(name: str, value: str) -> str:
    """A value the script set, as the trace prints it."""
    number = float(value)
    return real(number) if name in ("cwnd_", "rtt_", "srtt_", "rttvar_") else str(int(number))


def real(x: float) -> str:
    return f"{x:<6.3f}"


def line(agent: tuple[int, int], peer: tuple[int, int], name: str, value: str) -> str:
    """One variable-trace line at time 0 (no newline), as ns-2 writes it."""
    return f"{0.0:<8.5f} {agent[0]:<2} {agent[1]:<2} {peer[0]:<2} {peer[1]:<2} {name} {value}"
