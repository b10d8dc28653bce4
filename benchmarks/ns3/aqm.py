"""ns-3's queue discs, the oracle for ackclock's CoDel, FQ-CoDel and PIE
(README.md here says how to run it; the live kernel here has none of them).

One 10 Mbit/s point-to-point link with the queue disc at its head and
constant-rate UDP flows that overload it, so that the disc, not a transport,
sets what happens. Writes what the comparison in tests/test_aqm.py reads:
the drops, the mean sojourn time and what each flow delivered.

    /path/to/venv-with-ns3/bin/python benchmarks/ns3/aqm.py > benchmarks/ns3/fixtures/aqm.json
"""

from __future__ import annotations

import json
import sys

from ns import ns

# The trace sinks, in C++: cppyy compiles them into the running process.
ns.cppyy.cppdef(
    """
    #include <vector>
    namespace ackclock_oracle {
    std::vector<double> drop_times;  // when each drop happened
    double sojourn_sum = 0; long sojourn_count = 0;
    void DroppedAfter(ns3::Ptr<const ns3::QueueDiscItem>, const char*) {
        drop_times.push_back(ns3::Simulator::Now().GetSeconds());
    }
    void Sojourn(ns3::Time t) { sojourn_sum += t.GetSeconds(); sojourn_count++; }
    void Connect(ns3::Ptr<ns3::QueueDisc> q) {
        drop_times.clear(); sojourn_sum = 0; sojourn_count = 0;
        q->TraceConnectWithoutContext("DropBeforeEnqueue", ns3::MakeCallback(&DroppedAfter));
        q->TraceConnectWithoutContext("DropAfterDequeue", ns3::MakeCallback(&DroppedAfter));
        q->TraceConnectWithoutContext("SojournTime", ns3::MakeCallback(&Sojourn));
    }
    }
    """
)
oracle = ns.cppyy.gbl.ackclock_oracle

# The scenarios: the queue disc with its attributes, and each flow's rate.
LINK_BPS = 10_000_000
IP_BYTES = 1500  # the UDP datagram; point-to-point adds a 2-byte PPP header
DURATION_S = 20.0
SCENARIOS = {
    "codel_overload": ("ns3::CoDelQueueDisc", {"MaxSize": "1000p"}, [12_000_000]),
    "codel_mild_overload": ("ns3::CoDelQueueDisc", {"MaxSize": "1000p"}, [10_500_000]),
    "pie_overload": (
        "ns3::PieQueueDisc",
        {"MaxSize": "1000p", "UseDequeueRateEstimator": "false", "MeanPktSize": "1500"},
        [12_000_000],
    ),
    "fq_codel_two_flows": (
        "ns3::FqCoDelQueueDisc",
        {"MaxSize": "10240p", "Flows": "1024", "Perturbation": "0"},
        [8_000_000, 4_000_000],
    ),
}


def run(disc: str, attributes: dict[str, str], rates: list[int]) -> dict:
    ns.Simulator.Destroy()
    nodes = ns.NodeContainer()
    nodes.Create(2)
    p2p = ns.PointToPointHelper()
    p2p.SetDeviceAttribute("DataRate", ns.StringValue(f"{LINK_BPS}bps"))
    p2p.SetChannelAttribute("Delay", ns.StringValue("10ms"))
    # The device's own queue holds one packet, so the disc does the queueing.
    p2p.SetQueue("ns3::DropTailQueue", "MaxSize", ns.StringValue("1p"))
    devices = p2p.Install(nodes)
    ns.InternetStackHelper().Install(nodes)
    tch = ns.TrafficControlHelper()
    tch.SetRootQueueDisc(disc)
    ns.Config.Reset()
    for name, value in attributes.items():
        ns.Config.SetDefault(f"{disc}::{name}", ns.StringValue(value))
    discs = tch.Install(devices)
    addresses = ns.Ipv4AddressHelper()
    addresses.SetBase(ns.Ipv4Address("10.1.1.0"), ns.Ipv4Mask("255.255.255.0"))
    interfaces = addresses.Assign(devices)
    oracle.Connect(discs.Get(0))
    sinks = []
    for i, rate in enumerate(rates):
        port = 9000 + i
        address = ns.InetSocketAddress(interfaces.GetAddress(1), port).ConvertTo()
        source = ns.OnOffHelper("ns3::UdpSocketFactory", address)
        source.SetAttribute("DataRate", ns.StringValue(f"{rate}bps"))
        source.SetAttribute("PacketSize", ns.UintegerValue(IP_BYTES - 28))
        source.SetAttribute("OnTime", ns.StringValue("ns3::ConstantRandomVariable[Constant=1]"))
        source.SetAttribute("OffTime", ns.StringValue("ns3::ConstantRandomVariable[Constant=0]"))
        apps = source.Install(nodes.Get(0))
        apps.Start(ns.Seconds(0.0))
        apps.Stop(ns.Seconds(DURATION_S))
        any_address = ns.InetSocketAddress(ns.Ipv4Address.GetAny(), port).ConvertTo()
        sink = ns.PacketSinkHelper("ns3::UdpSocketFactory", any_address).Install(nodes.Get(1))
        sinks.append(sink.Get(0))
    ns.Simulator.Stop(ns.Seconds(DURATION_S + 1))
    ns.Simulator.Run()
    drops = list(oracle.drop_times)
    payload = IP_BYTES - 28
    delivered = [int(ns.DynamicCast["ns3::PacketSink"](s).GetTotalRx()) // payload for s in sinks]
    return {
        "drops": len(drops),
        "mean_sojourn_s": oracle.sojourn_sum / max(oracle.sojourn_count, 1),
        "delivered_packets": delivered,
    }


def main() -> None:
    document = {
        "ns3": "3.44 (pip package ns3)",
        "link_bps": LINK_BPS,
        "ip_bytes": IP_BYTES,
        "wire_overhead_bytes": 2,
        "duration_s": DURATION_S,
        "scenarios": {},
    }
    for name, (disc, attributes, rates) in SCENARIOS.items():
        result = run(disc, attributes, rates)
        scenario = {"disc": disc, "attributes": attributes, "rates_bps": rates}
        document["scenarios"][name] = {**scenario, **result}
        print(name, result, file=sys.stderr)
    json.dump(document, sys.stdout, indent=1)
    print()


if __name__ == "__main__":
    main()
