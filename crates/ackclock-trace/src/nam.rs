//! ns-2's nam (network animator) packet events, as `$ns namtrace-all`
//! writes them:
//!
//! `d -t 0.58616 -s 1 -d 2 -p tcp -e 1000 -c 0 -i 43 -a 0 -x {0.0 2.0 28 ------- null}`:
//! event, time, from and to node, type, size, flow id (`-c`, and again as
//! `-a`, the colour nam draws it in), packet id, then source and
//! destination as node.port, sequence number and flags. Each `-` is
//! followed by an `h` (hop) record of the same packet with sequence -1.
//!
//! The header lines (nodes, links, colours) come from the front end that
//! knows them; see `Sink::Nam`.

use crate::ns2::{link_event, write_g15, write_g17, Ns2Packet};
use crate::ns2_wireless::{kind_and_uid, secs9};
use crate::record::{FlowView, LinkRecord, MovementRecord, PacketEvent, PacketRecord, WirelessEvent, WirelessRecord};
use std::io::{self, Write};

pub fn write_packet(out: &mut dyn Write, r: &PacketRecord, view: Option<&FlowView>) -> io::Result<()> {
    let p = Ns2Packet::new(r, view);
    write_event(out, r.event.symbol(), r, &p, p.seq)?;
    if r.event == PacketEvent::Dequeue {
        write_event(out, 'h', r, &p, -1)?;
    }
    Ok(())
}

/// A radio node's packet event as ns-2's `namtrace-all-wireless` writes
/// it: `+ -t 0.020480000 -s 0 -d -1 -p cbr -e 512 -c 2 -a 0 -i 1 -k AGT `
/// (a send is `+`, `-` and `h`; `-d` is the next hop, -1 for none).
pub fn write_wireless(out: &mut dyn Write, r: &WirelessRecord, view: Option<&FlowView>) -> io::Result<()> {
    let (kind, uid) = kind_and_uid(r, view);
    let fields = format!(
        "-t {} -s {} -d {} -p {kind} -e {} -c 2 -a 0 -i {uid} -k {}",
        secs9(r.time),
        r.node,
        r.next_hop.max(-1),
        r.packet.size,
        r.layer.name()
    );
    match r.event {
        WirelessEvent::Send | WirelessEvent::Forward => {
            writeln!(out, "+ {fields} ")?;
            writeln!(out, "- {fields}")?;
            writeln!(out, "h {fields}")
        }
        WirelessEvent::Receive => writeln!(out, "r {fields}"),
        WirelessEvent::Drop => writeln!(out, "d {fields}"),
    }
}

/// A radio node starts a move: `n -t 0.000000 -s 5 -x 0.000000 -y 200.000000
/// -U 8.010000 -V 0.000000 -T 99.875156` (velocity and duration).
pub fn write_movement(out: &mut dyn Write, m: &MovementRecord) -> io::Result<()> {
    let (x, y, _) = m.from;
    let (dx, dy) = (m.to.0 - x, m.to.1 - y);
    let distance = dx.hypot(dy);
    let (vx, vy, duration) = if distance > 0.0 && m.speed > 0.0 {
        (m.speed * dx / distance, m.speed * dy / distance, distance / m.speed)
    } else {
        (0.0, 0.0, 0.0)
    };
    writeln!(
        out,
        "n -t {:.6} -s {} -x {x:.6} -y {y:.6} -U {vx:.6} -V {vy:.6} -T {duration:.6}",
        m.time.as_secs_f64(),
        m.node
    )
}

/// `l -t 0.10000000000000001 -s 0 -d 1 -S DOWN`, the link's new state,
/// then `v -t 0.10000000000000001 link-down 0.10000000000000001 0 1`, the
/// record nam animates the change from: ns-2 writes both.
pub fn write_link(out: &mut dyn Write, l: &LinkRecord) -> io::Result<()> {
    let mut t = Vec::new();
    write_g17(&mut t, l.time.as_secs_f64())?;
    let time = String::from_utf8(t).expect("ASCII");
    let state = if l.up { "UP" } else { "DOWN" };
    writeln!(out, "l -t {time} -s {} -d {} -S {state}", l.from, l.to)?;
    writeln!(out, "v -t {time} {} {time} {} {}", link_event(l), l.from, l.to)
}

fn write_event(out: &mut dyn Write, symbol: char, r: &PacketRecord, p: &Ns2Packet, seq: i64) -> io::Result<()> {
    write!(out, "{symbol} -t ")?;
    // Unlike its trace format, ns-2 does not round nam times to the
    // microsecond: this is %.15g of the exact time.
    write_g15(out, r.time.as_ps(), -12)?;
    writeln!(
        out,
        " -s {} -d {} -p {} -e {} -c {} -i {} -a {} -x {{{}.{} {}.{} {} {} null}}",
        r.from, r.to, p.kind, p.size, p.fid, p.uid, p.fid, p.src.0, p.src.1, p.dst.0, p.dst.1, seq, p.flags
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::record::{MacFields, WirelessLayer};
    use ackclock_core::Instant;
    use ackclock_net::{Ecn, Ipv4Header, NodeId, Packet, Transport, UdpHeader};
    use ackclock_wire::{SeqNum, TcpFlags, TcpRepr};

    // Expected lines are real ns-2 2.35 output: basic1.tcl (TCP, flow 0,
    // packetSize_ 960) and a CBR flow of class 2 from node 2 to port 1 of node 3.
    const BASIC1: FlowView =
        FlowView::Tcp { client: 0, client_iss: 1000, server_iss: 5000, mss: 960, syn: true, fid: 0, full_tcp: false };
    const CBR: FlowView = FlowView::Udp { type_name: "cbr", fid: 2 };

    fn record(us: u64, event: PacketEvent, hop: (NodeId, NodeId), uid: u64, ip: (NodeId, NodeId)) -> PacketRecord {
        let packet = Packet {
            uid,
            ip: Ipv4Header { src: ip.0, dst: ip.1, ttl: 64, ecn: Ecn::NotEct },
            transport: Transport::Tcp(TcpRepr::default()),
            size: 40,
            flow: 0,
            seq: 0,
            created: Instant::ZERO,
        };
        PacketRecord {
            time: Instant::from_ps(us * 1_000_000),
            event,
            channel: 0,
            from: hop.0,
            to: hop.1,
            packet,
            congestion_action: false,
            early_drop: false,
        }
    }

    /// Packet 28 of basic1's TCP flow, 1000 bytes with headers.
    fn tcp_data(us: u64, event: PacketEvent, hop: (NodeId, NodeId)) -> PacketRecord {
        let mut r = record(us, event, hop, 43, (0, 2));
        r.packet.size = 1000;
        r.packet.transport =
            Transport::Tcp(TcpRepr { seq: SeqNum(1000 + 1 + 27 * 960), payload_len: 960, ..TcpRepr::default() });
        r
    }

    /// The ACK of basic1's first five packets.
    fn tcp_ack(us: u64, event: PacketEvent, hop: (NodeId, NodeId)) -> PacketRecord {
        let mut r = record(us, event, hop, 12, (2, 0));
        let flags = TcpFlags { ack: true, ..TcpFlags::default() };
        r.packet.transport = Transport::Tcp(TcpRepr { ack: SeqNum(1000 + 1 + 5 * 960), flags, ..TcpRepr::default() });
        r
    }

    /// CBR packet `seq`, 500 bytes, from port 0 of node 2 to port 1 of node 3.
    fn cbr(us: u64, event: PacketEvent, hop: (NodeId, NodeId), uid: u64, seq: u64) -> PacketRecord {
        let mut r = record(us, event, hop, uid, (2, 3));
        r.packet.size = 500;
        r.packet.seq = seq;
        r.packet.transport = Transport::Udp(UdpHeader { src_port: 0, dst_port: 1 });
        r
    }

    fn lines(r: &PacketRecord, view: &FlowView) -> String {
        let mut out = Vec::new();
        write_packet(&mut out, r, Some(view)).unwrap();
        String::from_utf8(out).unwrap()
    }

    #[test]
    fn a_link_change_is_its_state_then_the_animation_record() {
        // ns-2 2.35, simple-rtg.tcl's `trace-dynamics $ns stdout "nam"` at 2.5 s.
        let l = LinkRecord { time: Instant::from_ps(2_500_000_000_000), channel: 0, from: 0, to: 1, up: false };
        let mut out = Vec::new();
        write_link(&mut out, &l).unwrap();
        assert_eq!(String::from_utf8(out).unwrap(), "l -t 2.5 -s 0 -d 1 -S DOWN\nv -t 2.5 link-down 2.5 0 1\n");
    }

    #[test]
    fn tcp_data_events_match_ns2() {
        use PacketEvent::*;
        let cases = [
            (
                tcp_data(574_560, Enqueue, (0, 1)),
                "+ -t 0.57456 -s 0 -d 1 -p tcp -e 1000 -c 0 -i 43 -a 0 -x {0.0 2.0 28 ------- null}\n",
            ),
            (
                tcp_data(575_360, Dequeue, (0, 1)),
                "- -t 0.57536 -s 0 -d 1 -p tcp -e 1000 -c 0 -i 43 -a 0 -x {0.0 2.0 28 ------- null}\n\
                 h -t 0.57536 -s 0 -d 1 -p tcp -e 1000 -c 0 -i 43 -a 0 -x {0.0 2.0 -1 ------- null}\n",
            ),
            (
                tcp_data(586_160, Receive, (0, 1)),
                "r -t 0.58616 -s 0 -d 1 -p tcp -e 1000 -c 0 -i 43 -a 0 -x {0.0 2.0 28 ------- null}\n",
            ),
            (
                tcp_data(586_160, Drop, (1, 2)),
                "d -t 0.58616 -s 1 -d 2 -p tcp -e 1000 -c 0 -i 43 -a 0 -x {0.0 2.0 28 ------- null}\n",
            ),
        ];
        for (r, expected) in cases {
            assert_eq!(lines(&r, &BASIC1), expected);
        }
    }

    #[test]
    fn tcp_ack_events_match_ns2() {
        use PacketEvent::*;
        let cases = [
            (
                tcp_ack(342_896, Enqueue, (2, 1)),
                "+ -t 0.342896 -s 2 -d 1 -p ack -e 40 -c 0 -i 12 -a 0 -x {2.0 0.0 5 ------- null}\n",
            ),
            (
                tcp_ack(393_296, Dequeue, (1, 0)),
                "- -t 0.393296 -s 1 -d 0 -p ack -e 40 -c 0 -i 12 -a 0 -x {2.0 0.0 5 ------- null}\n\
                 h -t 0.393296 -s 1 -d 0 -p ack -e 40 -c 0 -i 12 -a 0 -x {2.0 0.0 -1 ------- null}\n",
            ),
            (
                tcp_ack(403_328, Receive, (1, 0)),
                "r -t 0.403328 -s 1 -d 0 -p ack -e 40 -c 0 -i 12 -a 0 -x {2.0 0.0 5 ------- null}\n",
            ),
        ];
        for (r, expected) in cases {
            assert_eq!(lines(&r, &BASIC1), expected);
        }
    }

    #[test]
    fn cbr_events_carry_the_flow_id_as_class_and_colour_like_ns2() {
        use PacketEvent::*;
        let cases = [
            (
                cbr(100_000, Enqueue, (2, 1), 1, 0),
                "+ -t 0.1 -s 2 -d 1 -p cbr -e 500 -c 2 -i 1 -a 2 -x {2.0 3.1 0 ------- null}\n",
            ),
            (
                cbr(100_000, Dequeue, (2, 1), 1, 0),
                "- -t 0.1 -s 2 -d 1 -p cbr -e 500 -c 2 -i 1 -a 2 -x {2.0 3.1 0 ------- null}\n\
                 h -t 0.1 -s 2 -d 1 -p cbr -e 500 -c 2 -i 1 -a 2 -x {2.0 3.1 -1 ------- null}\n",
            ),
            (
                cbr(726_000, Receive, (2, 1), 99, 86),
                "r -t 0.726 -s 2 -d 1 -p cbr -e 500 -c 2 -i 99 -a 2 -x {2.0 3.1 86 ------- null}\n",
            ),
            (
                cbr(726_000, Drop, (1, 3), 99, 86),
                "d -t 0.726 -s 1 -d 3 -p cbr -e 500 -c 2 -i 99 -a 2 -x {2.0 3.1 86 ------- null}\n",
            ),
        ];
        for (r, expected) in cases {
            assert_eq!(lines(&r, &CBR), expected);
        }
    }

    #[test]
    fn times_are_not_rounded_to_the_microsecond_and_small_ones_use_an_exponent() {
        let mut r = cbr(0, PacketEvent::Receive, (0, 1), 0, 0);
        r.time = Instant::from_ps(706_365_333_333);
        assert!(lines(&r, &CBR).starts_with("r -t 0.706365333333 -s"));
        // Real ns-2: `r -t 3.2e-05 -s 0 -d 1 -p cbr -e 40 ...` on a 10 Mb/s link without delay.
        r.time = Instant::from_ps(32_000_000);
        assert!(lines(&r, &CBR).starts_with("r -t 3.2e-05 -s"));
    }

    fn cbr_record(event: WirelessEvent, node: NodeId, next_hop: i64, size: u32, uid: u64) -> WirelessRecord {
        let packet = Packet {
            uid,
            ip: Ipv4Header { src: 0, dst: 5, ttl: 64, ecn: Ecn::NotEct },
            transport: Transport::Udp(UdpHeader { src_port: 0, dst_port: 0 }),
            size,
            flow: 0,
            seq: uid,
            created: Instant::ZERO,
        };
        WirelessRecord {
            time: Instant::ZERO,
            event,
            node,
            position: (0.0, 0.0, 0.0),
            layer: WirelessLayer::Agent,
            reason: "---",
            packet,
            next_hop,
            mac: MacFields::default(),
            forwards: 0,
            aodv: None,
        }
    }

    fn wireless_lines(r: &WirelessRecord) -> String {
        let mut out = Vec::new();
        write_wireless(&mut out, r, Some(&FlowView::Udp { type_name: "cbr", fid: 0 })).unwrap();
        String::from_utf8(out).unwrap()
    }

    // Expected lines: ns-2 2.35's wireless.nam for the chapter's wireless.tcl.
    #[test]
    fn radio_events_print_as_namtrace_all_wireless_does() {
        let sent = cbr_record(WirelessEvent::Send, 0, -2, 512, 0);
        assert_eq!(
            wireless_lines(&sent),
            "+ -t 0.000000000 -s 0 -d -1 -p cbr -e 512 -c 2 -a 0 -i 0 -k AGT \n\
             - -t 0.000000000 -s 0 -d -1 -p cbr -e 512 -c 2 -a 0 -i 0 -k AGT\n\
             h -t 0.000000000 -s 0 -d -1 -p cbr -e 512 -c 2 -a 0 -i 0 -k AGT\n"
        );
        let received = WirelessRecord {
            time: Instant::from_ps(12_816_166_000),
            ..cbr_record(WirelessEvent::Receive, 5, 5, 532, 0)
        };
        assert_eq!(wireless_lines(&received), "r -t 0.012816166 -s 5 -d 5 -p cbr -e 532 -c 2 -a 0 -i 0 -k AGT\n");
        let dropped = WirelessRecord {
            time: Instant::from_ps(25_014_212_333_000),
            layer: WirelessLayer::Router,
            reason: "CBK",
            ..cbr_record(WirelessEvent::Drop, 0, 5, 532, 1219)
        };
        assert_eq!(wireless_lines(&dropped), "d -t 25.014212333 -s 0 -d 5 -p cbr -e 532 -c 2 -a 0 -i 1219 -k RTR\n");
    }

    #[test]
    fn a_move_prints_its_velocity_and_duration() {
        let m =
            MovementRecord { time: Instant::ZERO, node: 5, from: (0.0, 200.0, 0.0), to: (800.0, 200.0), speed: 8.01 };
        let mut out = Vec::new();
        write_movement(&mut out, &m).unwrap();
        assert_eq!(
            String::from_utf8(out).unwrap(),
            "n -t 0.000000 -s 5 -x 0.000000 -y 200.000000 -U 8.010000 -V 0.000000 -T 99.875156\n"
        );
    }
}
