//! The trace bus: records in, time-ordered lines and packets out.

use crate::monitor::{Counts, FlowKey, Monitor};
use crate::nam;
use crate::ns2;
use crate::ns2_wireless::{self, WirelessTrace};
use crate::ordering::TimeOrdered;
use crate::pcap::PcapWriter;
use crate::record::{FlowView, LanRecord, PacketEvent, PacketRecord, TraceRecord, VarRecord, WirelessLayer};
use crate::red::RedVars;
use crate::tcpdump;
use crate::view::{IndexError, ViewSink};
use ackclock_core::{Instant, OrderKey};
use ackclock_net::{ChannelId, MediumId, NicId, NodeId, Packet, Transport};
use std::collections::HashSet;
use std::io::{self, Write};

pub type Output = Box<dyn Write + Send + Sync>;

/// Which packets a tcpdump or pcap sink sees.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Capture {
    /// Packets starting transmission on these link directions.
    Channels(Vec<ChannelId>),
    /// Packets a node sends (as they start transmission) and receives, as
    /// a capture on all its interfaces would see them: a router's forwarded
    /// packets appear twice, as received and as sent.
    Node(NodeId),
    /// One interface of a node, as tcpdump -i sees it: what the node sends
    /// on channel `sent` and receives from channel `received`.
    Interface { sent: ChannelId, received: Option<ChannelId> },
    /// The 802.11 frames a radio NIC sends and those that reach it (see
    /// `FrameRecord`); only a pcap sink writes them.
    Nic(NicId),
}

impl Capture {
    fn sees(&self, r: &PacketRecord) -> bool {
        match self {
            Capture::Channels(c) => r.event == PacketEvent::Dequeue && c.contains(&r.channel),
            Capture::Node(n) => {
                (r.event == PacketEvent::Dequeue && r.from == *n) || (r.event == PacketEvent::Receive && r.to == *n)
            }
            Capture::Interface { sent, received } => {
                (r.event == PacketEvent::Dequeue && r.channel == *sent)
                    || (r.event == PacketEvent::Receive && Some(r.channel) == *received)
            }
            Capture::Nic(_) => false,
        }
    }
}

/// Which variable records an ns-2 sink writes.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum TracedVars {
    None,
    All,
    /// These variables of the senders at these (node, port) addresses, like
    /// ns-2's `tracevar`; with `changes_only`, not their initial values
    /// (the Tcl front end writes those when the script calls `tracevar`).
    Only {
        vars: Vec<((NodeId, u16), String)>,
        changes_only: bool,
    },
}

impl TracedVars {
    fn wants(&self, v: &VarRecord) -> bool {
        match self {
            TracedVars::None => false,
            TracedVars::All => true,
            TracedVars::Only { vars, changes_only } => {
                // An initial value is the record without a peer yet.
                !(*changes_only && v.peer.is_none())
                    && vars.iter().any(|(agent, name)| *agent == v.agent && name == v.name)
            }
        }
    }
}

pub enum Sink {
    /// ns-2 trace lines for the listed channels (all when `None`) and the
    /// listed LANs (each with the node id that names it), plus
    /// the variable records `vars` selects, radio nodes' records as
    /// `wireless` says (none without), and with `events` the TCP event
    /// records (ns-2's eventtrace-all). `tcp_header`: ns-2's
    /// `show_tcphdr_`, the TCP header's ACK number, flags, header length
    /// and SACK length after each FullTcp packet's fields.
    Ns2 {
        out: Output,
        channels: Option<Vec<ChannelId>>,
        lans: Vec<(MediumId, NodeId)>,
        vars: TracedVars,
        wireless: Option<WirelessTrace>,
        events: bool,
        tcp_header: bool,
    },
    Tcpdump {
        out: Output,
        capture: Capture,
    },
    Pcap {
        out: PcapWriter<Output>,
        capture: Capture,
    },
    /// nam packet events on every channel and the listed LANs (named as
    /// for `Ns2`), after `preamble`: the header lines (V, A, c, n, l, X, L,
    /// q) the front end composes, since it knows the nodes, links and
    /// colours. The preamble is written before the first record or flush,
    /// and then emptied.
    Nam {
        out: Output,
        preamble: String,
        lans: Vec<(MediumId, NodeId)>,
    },
    /// Only up and down records (ns-2's `$link trace-dynamics`): for each
    /// (channel, nam) in order, a change of that channel as ns-2's trace
    /// writes it or, with `nam`, as its nam trace does.
    LinkChanges {
        out: Output,
        links: Vec<(ChannelId, bool)>,
    },
    /// A RED queue's traced variables (red.rs).
    RedVars {
        out: Output,
        vars: RedVars,
    },
    /// Counts, not lines: a queue or flow monitor (monitor.rs).
    Monitor(Monitor),
    /// The viewer's index (`ackclock view`), complete when the tracer finishes.
    View(Box<ViewSink>),
}

impl Sink {
    /// A plain ns-2 trace: every channel's packet records and the variable
    /// records `vars` selects; no radio, event or TCP header fields.
    pub fn ns2(out: Output, vars: TracedVars) -> Sink {
        Sink::Ns2 { out, channels: None, lans: Vec::new(), vars, wireless: None, events: false, tcp_header: false }
    }

    fn write(&mut self, rec: &TraceRecord, flows: &[Option<FlowView>]) -> io::Result<()> {
        let view = |flow: u32| flows.get(flow as usize).copied().flatten();
        match (self, rec) {
            (Sink::Ns2 { out, channels, tcp_header, .. }, TraceRecord::Packet(p))
                if channels.as_ref().is_none_or(|c| c.contains(&p.channel)) =>
            {
                ns2::write_packet(out, p, view(p.packet.flow).as_ref(), *tcp_header)
            }
            (Sink::Ns2 { out, lans, .. }, TraceRecord::Lan(l)) => match lan_name(lans, l) {
                Some(lan) => ns2::write_packet(out, &l.between(lan), view(l.packet.flow).as_ref(), false),
                None => Ok(()),
            },
            (Sink::Ns2 { out, vars, .. }, TraceRecord::Var(v)) if vars.wants(v) => ns2::write_var(out, v),
            (Sink::Ns2 { out, events: true, .. }, TraceRecord::TcpEvent(e)) => ns2::write_tcp_event(out, e),
            (Sink::Ns2 { out, channels, .. }, TraceRecord::Link(l))
                if channels.as_ref().is_none_or(|c| c.contains(&l.channel)) =>
            {
                ns2::write_link(out, l)
            }
            (Sink::Ns2 { out, wireless: Some(wireless), .. }, TraceRecord::Wireless(w)) if wireless.wants(w) => {
                ns2_wireless::write_record(out, w, view(w.packet.flow).as_ref(), wireless.format)
            }
            (Sink::Ns2 { out, wireless: Some(wireless), .. }, TraceRecord::ControlFrame(c)) if wireless.mac => {
                ns2_wireless::write_control(out, c, wireless.format)
            }
            (Sink::Ns2 { out, wireless: Some(_), .. }, TraceRecord::Movement(m)) => {
                ns2_wireless::write_movement(out, m)
            }
            (Sink::Tcpdump { out, capture }, TraceRecord::Packet(p)) if capture.sees(p) => {
                tcpdump::write_packet(out, p, view(p.packet.flow).as_ref())
            }
            (Sink::Pcap { out, capture }, TraceRecord::Packet(p)) if capture.sees(p) => {
                out.write_packet(p.time, &p.packet)
            }
            (Sink::Pcap { out, capture: Capture::Nic(nic) }, TraceRecord::Frame(f)) if f.nic == *nic => {
                out.write_frame(f)
            }
            (Sink::Nam { out, preamble, lans }, TraceRecord::Lan(l)) => match lan_name(lans, l) {
                Some(lan) => {
                    write_preamble(out, preamble)?;
                    nam::write_packet(out, &l.between(lan), view(l.packet.flow).as_ref())
                }
                None => Ok(()),
            },
            (Sink::Nam { out, preamble, .. }, TraceRecord::Packet(p)) => {
                write_preamble(out, preamble)?;
                nam::write_packet(out, p, view(p.packet.flow).as_ref())
            }
            (Sink::LinkChanges { out, links }, TraceRecord::Link(l)) => {
                for &(_, nam) in links.iter().filter(|(channel, _)| *channel == l.channel) {
                    if nam {
                        nam::write_link(out, l)?;
                    } else {
                        ns2::write_link(out, l)?;
                    }
                }
                Ok(())
            }
            (Sink::RedVars { out, vars }, TraceRecord::RedQueue(r)) if r.channel == vars.channel => vars.write(out, r),
            (Sink::Monitor(m), TraceRecord::Packet(p)) => {
                m.record(p, view(p.packet.flow).as_ref());
                Ok(())
            }
            (Sink::View(sink), TraceRecord::Packet(p)) => sink.packet(p, view(p.packet.flow).as_ref()),
            (Sink::View(sink), TraceRecord::Var(v)) => {
                sink.variable(v);
                Ok(())
            }
            // nam shows the layers above the MAC (see docs/wireless.md).
            (Sink::Nam { out, preamble, .. }, TraceRecord::Wireless(w)) if w.layer != WirelessLayer::Mac => {
                write_preamble(out, preamble)?;
                nam::write_wireless(out, w, view(w.packet.flow).as_ref())
            }
            (Sink::Nam { out, preamble, .. }, TraceRecord::Movement(m)) => {
                write_preamble(out, preamble)?;
                nam::write_movement(out, m)
            }
            (Sink::Nam { out, preamble, .. }, TraceRecord::Link(l)) => {
                write_preamble(out, preamble)?;
                nam::write_link(out, l)
            }
            _ => Ok(()),
        }
    }

    fn flush(&mut self) -> io::Result<()> {
        match self {
            Sink::Ns2 { out, .. }
            | Sink::Tcpdump { out, .. }
            | Sink::RedVars { out, .. }
            | Sink::LinkChanges { out, .. } => out.flush(),
            Sink::Pcap { out, .. } => out.flush(),
            Sink::Nam { out, preamble, .. } => {
                write_preamble(out, preamble)?;
                out.flush()
            }
            Sink::Monitor(_) => Ok(()),
            // The index is written when it is complete.
            Sink::View(_) => Ok(()),
        }
    }

    fn wants_vars(&self) -> bool {
        matches!(self, Sink::Ns2 { vars, .. } if *vars != TracedVars::None) || matches!(self, Sink::View(_))
    }

    fn wants_mac(&self) -> bool {
        matches!(self, Sink::Ns2 { wireless: Some(w), .. } if w.mac)
    }
}

/// The node id a sink names the LAN of `l` by, if it shows that LAN.
fn lan_name(lans: &[(MediumId, NodeId)], l: &LanRecord) -> Option<NodeId> {
    lans.iter().find(|(m, _)| *m == l.medium).map(|&(_, lan)| lan)
}

/// Writes the header lines once: a trace without packets still has them.
fn write_preamble(out: &mut Output, preamble: &mut String) -> io::Result<()> {
    if preamble.is_empty() {
        return Ok(());
    }
    out.write_all(std::mem::take(preamble).as_bytes())
}

/// Names a sink added with [`Tracer::add_sink`], to remove it later.
pub type SinkId = u32;

#[derive(Default)]
pub struct Tracer {
    pending: TimeOrdered<TraceRecord>,
    sinks: Vec<(SinkId, Sink)>,
    next_sink: SinkId,
    flows: Vec<Option<FlowView>>,
    /// Packets that carry ns-2's congestion-action flag.
    congestion_actions: HashSet<u64>,
    /// TCP packets ns-2's FullTcp sends with PSH where ackclock's TCP does not.
    pushes: HashSet<u64>,
    /// The first write error; later records are dropped and `finish`
    /// reports it.
    error: Option<io::Error>,
}

impl Tracer {
    pub fn add_sink(&mut self, sink: Sink) -> SinkId {
        let id = self.next_sink;
        self.next_sink += 1;
        self.sinks.push((id, sink));
        id
    }

    /// A monitor's counts (see `Monitor::counts`) after the records due by
    /// `now`; `None` if `id` is not a monitor.
    pub fn monitor_counts(&mut self, id: SinkId, now: Instant) -> Option<Vec<(FlowKey, Counts)>> {
        self.flush_until(now);
        match self.sinks.iter().find(|(sink, _)| *sink == id) {
            Some((_, Sink::Monitor(m))) => Some(m.counts(now)),
            _ => None,
        }
    }

    /// Writes the records due by `now`, then flushes and drops one sink
    /// (its file is closed); later records no longer reach it.
    pub fn remove_sink(&mut self, id: SinkId, now: Instant) -> io::Result<()> {
        self.flush_until(now);
        let Some(i) = self.sinks.iter().position(|(sink, _)| *sink == id) else {
            return Ok(());
        };
        let (_, mut sink) = self.sinks.remove(i);
        sink.flush()
    }

    pub fn set_flow_view(&mut self, flow: u32, view: FlowView) {
        let i = flow as usize;
        if self.flows.len() <= i {
            self.flows.resize(i + 1, None);
        }
        self.flows[i] = Some(view);
    }

    pub fn wants_vars(&self) -> bool {
        self.sinks.iter().any(|(_, sink)| sink.wants_vars())
    }

    /// Whether a sink captures the frames of `nic`.
    pub fn wants_frames(&self, nic: NicId) -> bool {
        self.sinks.iter().any(|(_, sink)| matches!(sink, Sink::Pcap { capture: Capture::Nic(n), .. } if *n == nic))
    }

    /// Whether an ns-2 or nam sink writes the records of the LAN `medium`.
    pub fn wants_lan(&self, medium: MediumId) -> bool {
        self.sinks
            .iter()
            .any(|(_, sink)| matches!(sink, Sink::Ns2 { lans, .. } if lans.iter().any(|(m, _)| *m == medium)))
    }

    /// Whether a sink traces the RED queue of `channel`.
    pub fn wants_red(&self, channel: ChannelId) -> bool {
        self.sinks.iter().any(|(_, sink)| matches!(sink, Sink::RedVars { vars, .. } if vars.channel == channel))
    }

    /// Whether some sink shows radio MACs' frames (ns-2's `-macTrace`).
    pub fn wants_mac(&self) -> bool {
        self.sinks.iter().any(|(_, sink)| sink.wants_mac())
    }

    /// Adds a record that the event at `place` writes (in ns-2's order;
    /// any constant otherwise): records of one instant are written in the
    /// order of their events, as ns-2's are.
    pub fn record(&mut self, mut rec: TraceRecord, place: OrderKey) {
        match &mut rec {
            TraceRecord::Packet(p) => p.congestion_action = self.mark(&mut p.packet),
            TraceRecord::Lan(l) => l.congestion_action = self.mark(&mut l.packet),
            _ => {}
        }
        self.pending.push(rec.time(), place, rec);
    }

    /// Sets the PSH flag ns-2 would send `packet` with; whether it carries
    /// the congestion-action flag.
    fn mark(&self, packet: &mut Packet) -> bool {
        if let Transport::Tcp(seg) = &mut packet.transport {
            seg.flags.psh |= !self.pushes.is_empty() && self.pushes.contains(&packet.uid);
        }
        self.congestion_actions.contains(&packet.uid)
    }

    /// Withdraws the `-` records of these packets on `channel` that are
    /// still waiting to be written: their transmission was re-timed or
    /// will not happen.
    pub fn retract_dequeues(&mut self, channel: ChannelId, uids: &[u64]) {
        self.pending.retain(|rec| {
            !matches!(rec, TraceRecord::Packet(p)
                if p.event == PacketEvent::Dequeue && p.channel == channel && uids.contains(&p.packet.uid))
        });
    }

    /// Packet `uid` is the first its sender sent after cutting its window.
    pub fn mark_congestion_action(&mut self, uid: u64) {
        self.congestion_actions.insert(uid);
    }

    /// The packet `uid` shows PSH in traces (ns-2's FullTcp's rule).
    pub fn mark_push(&mut self, uid: u64) {
        self.pushes.insert(uid);
    }

    /// Writes every record due by `now`.
    pub fn flush_until(&mut self, now: Instant) {
        self.flush_through(now, OrderKey::LAST);
    }

    /// Writes every record due by `now` whose event runs no later than
    /// the one at `place`.
    pub fn flush_through(&mut self, now: Instant, place: OrderKey) {
        while let Some(rec) = self.pending.pop_due(now, place) {
            if self.error.is_some() {
                continue;
            }
            for (_, sink) in &mut self.sinks {
                if let Err(e) = sink.write(&rec, &self.flows) {
                    self.error = Some(e);
                    break;
                }
            }
        }
    }

    /// Writes the records due by `now` and pushes buffered bytes to the
    /// files, keeping later records for a run that continues.
    pub fn flush_files(&mut self, now: Instant) -> io::Result<()> {
        self.flush_until(now);
        for (_, sink) in &mut self.sinks {
            sink.flush()?;
        }
        match self.error.take() {
            Some(e) => Err(e),
            None => Ok(()),
        }
    }

    /// Writes what is still pending (records up to `now`; later ones, such
    /// as transmissions that have not started, are discarded) and flushes
    /// every sink.
    pub fn finish(&mut self, now: Instant) -> io::Result<()> {
        let mut result = self.flush_files(now);
        self.pending = TimeOrdered::default();
        for (_, sink) in self.sinks.drain(..) {
            if let Sink::View(view) = sink {
                let finished = view.finish().map_err(|e| match e {
                    IndexError::Io(e) => e,
                    IndexError::Line { .. } => io::Error::other(e.to_string()),
                });
                result = result.and(finished);
            }
        }
        result
    }
}
