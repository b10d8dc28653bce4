"""Seed 000, section 4.1: the ProcessorManager, a TCP node's processor, which
delays every IP packet the node handles. Here both ends of a transfer have
one (`ackclock.Processing`): a 10 MB Reno transfer (MSS 1460, delayed ACKs
off, 64 KB window) over 10 Mbit/s and 10 ms each way, the service time per
packet from 0 to 2 ms, constant or exponential. The seed gives no numbers;
the model to compare with: each end handles two packets a segment (a data
packet and an ACK), so the processors carry at most MSS / (2 x service)
while the link carries 10 Mbit/s x 1460/1500: the processor becomes the
bottleneck above 600 us."""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any

import pandas as pd
from matplotlib.figure import Figure

from ackclock.experiments.study import Options, markdown_table, run_sweep, save_report
from ackclock.network_specs import Processing
from ackclock.simulator import Simulator
from ackclock.sweeps import Function
from ackclock.tcp_specs import Bulk, TcpParams

LINK_BPS, MSS, WIRE_BYTES = 10_000_000, 1460, 1500
LINK_PAYLOAD_BPS = LINK_BPS * MSS / WIRE_BYTES
BYTES = 10_000_000
AGREES = 0.1  # a relative difference from the model that gets a sentence


def transfer(sim: Simulator, service_us: float, distribution: str) -> dict[str, float | None]:
    """One transfer with a processor of this service time at both ends (a
    sweep's run); returns the share of the transfer's time the server's
    processor was busy."""
    cpu = None if service_us == 0 else Processing(f"{service_us}us", distribution=distribution)
    client = sim.node("client", processing=cpu)
    server = sim.node("server", processing=cpu)
    sim.duplex_link(client, server, LINK_BPS, "10ms")
    tcp = TcpParams(profile="rfc", cc="reno", mss=MSS, delayed_ack=False, receive_buffer=65535)
    flow = sim.tcp(client, server, app=Bulk(BYTES), tcp=tcp, name="transfer")
    sim.run(until=10_000)
    processor = server.stats().get("processor")
    if processor is None:
        return {"server_busy": None}
    # Its utilization is over the whole run; the share that matters is the transfer's.
    return {"server_busy": processor["utilization"] * sim.now / flow.stats()["completion_time_s"]}


def model_bps(service_us: float) -> float:
    if service_us == 0:
        return LINK_PAYLOAD_BPS
    return min(LINK_PAYLOAD_BPS, 8 * MSS / (2 * service_us * 1e-6))


def run(params: Mapping[str, Any], options: Options) -> pd.DataFrame:
    grid = {"distribution": params["distribution"], "service_us": params["service_us"]}
    return run_sweep(Function(transfer), grid, options)


def write_report(frame: pd.DataFrame, params: Mapping[str, Any], out: Path) -> list[Path]:
    rows, numbers, notes = [], [], []
    for _, run in frame.sort_values(["distribution", "service_us"]).iterrows():
        service, distribution = float(run["service_us"]), run["distribution"]
        goodput = run["flow.transfer.bytes_delivered"] * 8 / run["flow.transfer.completion_time_s"]
        model = model_bps(service)
        utilization = run["server_busy"]
        rows.append(
            [
                distribution,
                f"{service:g}",
                f"{model / 1e6:.2f}",
                f"{goodput / 1e6:.2f}",
                f"{goodput / model:.3f}",
                f"{run['flow.transfer.rtt_mean_s'] * 1e3:.1f}",
                None if pd.isna(utilization) else f"{utilization:.1%}",
            ]
        )
        numbers.append(
            {
                "distribution": distribution,
                "service_us": service,
                "goodput_bps": goodput,
                "model_bps": model,
            }
        )
        if abs(goodput / model - 1) > AGREES:
            why = (
                "the exponential service times make the processors' queues wait, which a "
                "fixed-rate model does not count"
                if distribution == "exponential"
                else "slow start and the transfer's ends weigh on a 10 MB run"
            )
            gap = goodput / model - 1
            notes.append(f"- {distribution} {service:g} us: {gap:+.0%} from the model; {why}.")
    markdown = "\n\n".join(
        [
            "# A node's processor on a transfer (seed 000, §4.1)",
            "A 10 MB Reno transfer over 10 Mbit/s, 10 ms each way, with a processor at both "
            "ends (every packet each end sends or receives waits for it). Model: "
            "min(10 Mbit/s × 1460/1500, 1460 × 8 / (2 × service)); the seed gives no numbers.",
            markdown_table(
                [
                    "service",
                    "service (us)",
                    "model Mbit/s",
                    "ackclock Mbit/s",
                    "ackclock / model",
                    "mean RTT (ms)",
                    "server processor busy",
                ],
                rows,
            ),
            *notes,
        ]
    )
    return save_report(out, markdown + "\n", {"rows": numbers}, {"processing": _figure(numbers)})


def _figure(numbers: list[dict[str, Any]]) -> Figure:
    figure = Figure(figsize=(6, 4), layout="constrained")
    axes = figure.subplots()
    table = pd.DataFrame(numbers)
    for distribution, points in table.groupby("distribution", sort=True):
        axes.plot(
            points["service_us"],
            points["goodput_bps"] / 1e6,
            "o-",
            label=f"ackclock, {distribution}",
        )
    services = sorted(table["service_us"].unique())
    axes.plot(services, [model_bps(s) / 1e6 for s in services], "k--", label="model")
    axes.set(xlabel="service time per packet (us)", ylabel="goodput (Mbit/s)")
    axes.set_title("Processor at both ends of a transfer")
    axes.legend()
    return figure
