//! Core reports as the plain dicts documented in `_native.pyi`.

use ackclock_sim::{FlowReport, LinkReport, NicReport, NodeReport};
use pyo3::prelude::*;
use pyo3::types::PyDict;

pub fn link_dict<'py>(py: Python<'py>, r: &LinkReport) -> PyResult<Bound<'py, PyDict>> {
    let d = PyDict::new(py);
    d.set_item("id", r.id)?;
    d.set_item("src", r.src)?;
    d.set_item("dst", r.dst)?;
    d.set_item("bandwidth_bps", r.bandwidth_bps)?;
    d.set_item("delay_s", r.delay_s)?;
    d.set_item("tx_packets", r.tx_packets)?;
    d.set_item("tx_bytes", r.tx_bytes)?;
    d.set_item("drops", r.drops())?;
    d.set_item("queue_drops", r.queue_drops)?;
    d.set_item("loss_drops", r.loss_drops)?;
    d.set_item("down_drops", r.down_drops)?;
    d.set_item("up", r.up)?;
    d.set_item("ecn_marks", r.ecn_marks)?;
    d.set_item("utilization", r.utilization)?;
    d.set_item("active_s", r.active_s)?;
    d.set_item("active_utilization", r.active_utilization)?;
    d.set_item("mean_queue_packets", r.mean_queue_packets)?;
    d.set_item("mean_queue_bytes", r.mean_queue_bytes)?;
    Ok(d)
}

pub fn node_dict<'py>(py: Python<'py>, r: &NodeReport) -> PyResult<Bound<'py, PyDict>> {
    let d = PyDict::new(py);
    d.set_item("id", r.id)?;
    d.set_item("name", &r.name)?;
    d.set_item("routing", r.routing)?;
    d.set_item("no_route_drops", r.no_route_drops)?;
    d.set_item("ttl_drops", r.ttl_drops)?;
    d.set_item("waiting", r.waiting)?;
    if let Some(p) = &r.processor {
        let cpu = PyDict::new(py);
        cpu.set_item("packets", p.packets)?;
        cpu.set_item("drops", p.drops)?;
        cpu.set_item("utilization", p.utilization)?;
        cpu.set_item("mean_wait_s", p.mean_wait_s)?;
        cpu.set_item("max_waiting", p.max_waiting)?;
        cpu.set_item("waiting", p.waiting)?;
        d.set_item("processor", cpu)?;
    }
    Ok(d)
}

pub fn nic_dict<'py>(py: Python<'py>, r: &NicReport) -> PyResult<Bound<'py, PyDict>> {
    let d = PyDict::new(py);
    d.set_item("id", r.id)?;
    d.set_item("node", r.node)?;
    d.set_item("medium", r.medium)?;
    d.set_item("tx_packets", r.tx_packets)?;
    d.set_item("tx_bytes", r.tx_bytes)?;
    d.set_item("rx_packets", r.rx_packets)?;
    d.set_item("queue_drops", r.queue_drops)?;
    d.set_item("rx_errors", r.rx_errors)?;
    d.set_item("link_failures", r.link_failures)?;
    d.set_item("arp_drops", r.arp_drops)?;
    d.set_item("queued", r.queued)?;
    d.set_item("utilization", r.utilization)?;
    Ok(d)
}

pub fn flow_dict<'py>(py: Python<'py>, r: &FlowReport) -> PyResult<Bound<'py, PyDict>> {
    let d = PyDict::new(py);
    d.set_item("id", r.id)?;
    d.set_item("name", &r.name)?;
    d.set_item("src", r.src)?;
    d.set_item("dst", r.dst)?;
    d.set_item("kind", r.kind)?;
    d.set_item("tx_packets", r.tx_packets)?;
    d.set_item("tx_bytes", r.tx_bytes)?;
    d.set_item("rx_packets", r.rx_packets)?;
    d.set_item("rx_bytes", r.rx_bytes)?;
    d.set_item("lost_packets", r.lost_packets)?;
    d.set_item("loss_rate", r.loss_rate)?;
    d.set_item("link_drops", &r.link_drops)?;
    d.set_item("mean_delay_s", r.mean_delay_s)?;
    d.set_item("delay_p50_s", r.delay_p50_s)?;
    d.set_item("delay_p95_s", r.delay_p95_s)?;
    d.set_item("delay_p99_s", r.delay_p99_s)?;
    d.set_item("max_delay_s", r.max_delay_s)?;
    d.set_item("mean_jitter_s", r.mean_jitter_s)?;
    d.set_item("active_s", r.active_s)?;
    d.set_item("throughput_bps", r.throughput_bps)?;
    d.set_item("goodput_bps", r.goodput_bps)?;
    if let Some(t) = &r.tcp {
        d.set_item("cc", t.cc)?;
        d.set_item("bytes_sent", t.bytes_sent)?;
        d.set_item("bytes_delivered", t.bytes_delivered)?;
        d.set_item("retransmits", t.retransmits)?;
        d.set_item("fast_retransmits", t.fast_retransmits)?;
        d.set_item("timeouts", t.timeouts)?;
        d.set_item("timeouts_after_ecn", t.timeouts_after_ecn)?;
        d.set_item("loss_probes", t.loss_probes)?;
        d.set_item("ecn_reductions", t.ecn_reductions)?;
        d.set_item("sack_recoveries", t.sack_recoveries)?;
        d.set_item("dsacks", t.dsacks)?;
        d.set_item("segments_received", t.segments_received)?;
        d.set_item("spurious_retransmits", t.spurious_retransmits)?;
        d.set_item("undos", t.undos)?;
        d.set_item("rtt_min_s", t.rtt_min_s)?;
        d.set_item("rtt_mean_s", t.rtt_mean_s)?;
        d.set_item("rtt_max_s", t.rtt_max_s)?;
        d.set_item("completion_time_s", t.completion_time_s)?;
        d.set_item("mss", t.mss)?;
        d.set_item("cwnd_bytes", t.cwnd_bytes)?;
        d.set_item("mean_cwnd_bytes", t.mean_cwnd_bytes)?;
        d.set_item("ssthresh_bytes", t.ssthresh_bytes)?;
        d.set_item("client_state", &t.client_state)?;
        d.set_item("server_state", &t.server_state)?;
    }
    Ok(d)
}
