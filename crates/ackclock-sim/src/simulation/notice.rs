//! Telling the front end when something it watches happens: an echo reply
//! reaching its source (ns-2's Agent/Ping), a message reaching its sink
//! (ns-2's `$udp send` with data), a TCP side having received a
//! given number of bytes (ns-2's Application/TcpApp). `run` returns a
//! [`crate::RunOutcome::Notice`] right after the event that caused it, before any
//! other event, so the front end acts at that instant and in event order.
//! Nothing here is on the packet path of flows that are not watched.

use super::{Event, Simulation, Transfer};
use crate::error::ConfigError;
use crate::label::FlowLabel;
use crate::source::{SizeModel, Traffic, UdpSourceConfig};
use crate::tcp_flow::Side;
use crate::udp::UdpRole;
use ackclock_core::{Bandwidth, Instant};
use ackclock_net::{Ecn, NodeId, PacketId, Transport, UdpHeader};
use std::collections::VecDeque;

/// A watched happening, handed out by `run` as [`crate::RunOutcome::Notice`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Notice {
    pub flow: u32,
    /// The end it happened at.
    pub side: Side,
    /// For an echo reply, when its request was sent (picoseconds); for a
    /// message, its sequence number; for a TCP watch, the bytes that side
    /// has received in order.
    pub value: u64,
}

impl Simulation {
    /// Adds an echo flow: `ping` sends a request of `size` bytes from `src`,
    /// the sink on `dst` answers with a reply of the same size, and its
    /// arrival at `src` is a notice carrying the request's send time.
    pub fn add_echo_flow(
        &mut self,
        name: &str,
        src: NodeId,
        dst: NodeId,
        size: u32,
        label: FlowLabel,
    ) -> Result<u32, ConfigError> {
        self.add_on_demand_flow(name, (src, dst), size, label, UdpRole::Echo)
    }

    /// Adds a message flow: `post_message` sends packets from `src` to
    /// `dst`, and each one's arrival is a notice carrying its sequence
    /// number (ns-2's `$udp send` with a `process_data` at the far end).
    pub fn add_message_flow(
        &mut self,
        name: &str,
        src: NodeId,
        dst: NodeId,
        label: FlowLabel,
    ) -> Result<u32, ConfigError> {
        self.add_on_demand_flow(name, (src, dst), 1, label, UdpRole::Messages { pending: VecDeque::new() })
    }

    /// A UDP flow whose packets leave only when the front end asks.
    fn add_on_demand_flow(
        &mut self,
        name: &str,
        (src, dst): (NodeId, NodeId),
        size: u32,
        label: FlowLabel,
        role: UdpRole,
    ) -> Result<u32, ConfigError> {
        // A source that never departs on its own.
        let config = UdpSourceConfig {
            traffic: Traffic::Cbr { rate: Bandwidth::from_bps(1).expect("1 bit/s is a rate"), jitter: false },
            size: SizeModel::Fixed(size),
            start: Instant::ZERO,
            stop: None,
            max_packets: Some(0),
            ecn: false,
            label: Some(label),
        };
        let id = self.push_udp_flow(name, src, dst, config, role)?;
        // Packets may leave before the next run prepares its flows.
        self.register_flow_views();
        Ok(id)
    }

    /// Sends a packet of `size` bytes from the source of message flow
    /// `flow` now, after the events already due at this instant (as `ping` does);
    /// returns its sequence number, which its arrival's notice carries.
    pub fn post_message(&mut self, flow: u32, size: u32) -> Result<u64, ConfigError> {
        if size == 0 {
            return Err(ConfigError::invalid("size", size, "a packet has at least one byte"));
        }
        let f = self.flows.get_mut(flow as usize);
        let Some((Transfer::Udp(u), monitor)) = f.map(|f| (&mut f.transfer, &f.monitor)) else {
            return Err(ConfigError::invalid("flow", flow, "is not a message flow"));
        };
        let UdpRole::Messages { pending } = &mut u.role else {
            return Err(ConfigError::invalid("flow", flow, "is not a message flow"));
        };
        let seq = monitor.tx_packets + pending.len() as u64;
        pending.push_back(size);
        let now = self.now();
        self.schedule_from_now(now, now, Event::Departure(flow));
        Ok(seq)
    }

    /// Sends an echo request from the source of echo flow `flow` now, after
    /// the events already due at this instant (as a UDP flow started now
    /// sends its first packet).
    pub fn ping(&mut self, flow: u32) -> Result<(), ConfigError> {
        match self.flows.get(flow as usize).map(|f| &f.transfer) {
            Some(Transfer::Udp(u)) if matches!(u.role, UdpRole::Echo) => {}
            _ => return Err(ConfigError::invalid("flow", flow, "is not an echo flow")),
        }
        let now = self.now();
        self.schedule_from_now(now, now, Event::Departure(flow));
        Ok(())
    }

    /// An echo flow's request, or a message flow's oldest asked-for
    /// packet, leaves now.
    #[cold]
    #[inline(never)]
    pub(super) fn send_on_demand(&mut self, now: Instant, flow: u32) {
        let f = &mut self.flows[flow as usize];
        let Transfer::Udp(u) = &mut f.transfer else { unreachable!("on-demand flows are UDP flows") };
        let size = match (&mut u.role, u.source.config.size) {
            (UdpRole::Messages { pending }, _) => pending.pop_front().expect("a departure per asked-for packet"),
            (_, SizeModel::Fixed(size)) => size,
            _ => unreachable!("echo flows have one size"),
        };
        if f.detached[Side::Client as usize] {
            return;
        }
        let transport = Transport::Udp(UdpHeader { src_port: u.ports.0, dst_port: u.ports.1 });
        let seq = f.monitor.tx_packets;
        f.monitor.sent(now, size);
        let (src, dst) = (f.src, f.dst);
        let packet = self.new_packet(now, flow, (src, dst), Ecn::NotEct, transport, size, seq);
        self.receive(now, src, packet);
    }

    /// A notice when `side` of TCP flow `flow` has received `bytes` bytes in
    /// order (at once if it already has); replaces that side's earlier watch.
    pub fn watch_received(&mut self, flow: u32, side: Side, bytes: u64) -> Result<(), ConfigError> {
        self.tcp_flow(flow)?;
        self.tcp(flow).watch[side as usize] = Some(bytes);
        self.check_watch(flow, side);
        Ok(())
    }

    /// Queues a notice for `run` to hand out before the next event.
    fn notify(&mut self, notice: Notice) {
        self.notices.push_back(notice);
        self.interrupted = true;
    }

    /// An echo packet reached `node`: a request is answered, a reply noticed.
    #[cold]
    #[inline(never)]
    pub(super) fn on_echo(&mut self, now: Instant, node: NodeId, id: PacketId) {
        let p = self.packets[id];
        let f = &self.flows[p.flow as usize];
        let Transport::Udp(h) = p.transport else { unreachable!("echo flows send UDP") };
        if node == f.dst {
            if f.detached[Side::Server as usize] {
                return;
            }
            // The reply carries its request's send time, as ns-2's does.
            let transport = Transport::Udp(UdpHeader { src_port: h.dst_port, dst_port: h.src_port });
            let reply = self.new_packet(now, p.flow, (f.dst, f.src), Ecn::NotEct, transport, p.size, p.created.as_ps());
            self.receive(now, node, reply);
        } else if !f.detached[Side::Client as usize] {
            self.notify(Notice { flow: p.flow, side: Side::Client, value: p.seq });
        }
    }

    /// A message flow's packet reached its sink: a notice with its number.
    #[cold]
    #[inline(never)]
    pub(super) fn on_message_arrival(&mut self, id: PacketId) {
        let p = self.packets[id];
        if !self.flows[p.flow as usize].detached[Side::Server as usize] {
            self.notify(Notice { flow: p.flow, side: Side::Server, value: p.seq });
        }
    }

    /// Raises the notice `side`'s watch waits for, once it has received
    /// enough; returns whether it did.
    #[cold]
    #[inline(never)]
    pub(super) fn check_watch(&mut self, flow: u32, side: Side) -> bool {
        let t = self.tcp(flow);
        let received = t.endpoint(side).bytes_received();
        let due = t.watch[side as usize].is_some_and(|mark| received >= mark);
        if due {
            t.watch[side as usize] = None;
            self.notify(Notice { flow, side, value: received });
        }
        due
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::RunOutcome;

    /// a <-> b at 1 Mb/s with 10 ms of delay each way, and a flow label.
    fn two_nodes() -> (Simulation, NodeId, NodeId, FlowLabel) {
        let mut sim = Simulation::new(1, 0);
        let a = sim.add_node("a");
        let b = sim.add_node("b");
        let rate = Bandwidth::from_bps(1_000_000).unwrap();
        let delay = ackclock_core::Duration::from_millis(10);
        sim.add_duplex(a, b, rate, delay, ackclock_net::Discipline::ns2_drop_tail(50)).unwrap();
        (sim, a, b, FlowLabel { src_port: 0, dst_port: 0, fid: 0 })
    }

    fn outcome_is_notice(outcome: RunOutcome) -> Option<Notice> {
        match outcome {
            RunOutcome::Notice(n) => Some(n),
            _ => None,
        }
    }

    #[test]
    fn echo_reply_arrives_one_round_trip_after_its_request() {
        let (mut sim, a, b, label) = two_nodes();
        let flow = sim.add_echo_flow("ping", a, b, 64, label).unwrap();
        sim.ping(flow).unwrap();
        let notice = outcome_is_notice(sim.run(None).unwrap()).expect("a reply");
        assert_eq!(notice, Notice { flow, side: Side::Client, value: 0 });
        // 64 bytes at 1 Mb/s is 512 us; two of them plus two 10 ms delays.
        assert_eq!(sim.now().as_ps(), 2 * (512_000_000 + 10_000_000_000));
        assert_eq!(sim.run(None).unwrap(), RunOutcome::Idle);
    }

    #[test]
    fn posted_messages_arrive_in_order_each_a_notice_with_its_number() {
        let (mut sim, a, b, label) = two_nodes();
        let flow = sim.add_message_flow("udp", a, b, label).unwrap();
        assert_eq!(sim.post_message(flow, 100).unwrap(), 0);
        assert_eq!(sim.post_message(flow, 25).unwrap(), 1);
        let first = outcome_is_notice(sim.run(None).unwrap()).expect("the first message");
        assert_eq!(first, Notice { flow, side: Side::Server, value: 0 });
        // 100 bytes at 1 Mb/s is 800 us, then the 10 ms delay.
        assert_eq!(sim.now().as_ps(), 800_000_000 + 10_000_000_000);
        let second = outcome_is_notice(sim.run(None).unwrap()).expect("the second message");
        assert_eq!(second.value, 1);
        // It waited for the first: 800 + 200 us of transmission.
        assert_eq!(sim.now().as_ps(), 1_000_000_000 + 10_000_000_000);
        assert_eq!(sim.run(None).unwrap(), RunOutcome::Idle);
        assert!(sim.post_message(flow, 0).is_err());
        let echo = sim.add_echo_flow("ping", a, b, 64, label).unwrap();
        assert!(sim.post_message(echo, 10).is_err());
    }
}
