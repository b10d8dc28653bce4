//! ns-2's trace formats (seed 003 §16.2.2; docs/ns2-reference.md):
//!
//! `+ 0.58616 1 2 tcp 1000 ------- 0 0.0 2.0 28 43`: event, time, from and
//! to node, type, size, flags, flow id, source and destination as
//! node.port, sequence number (packets, not bytes, for TCP) and packet id.
//!
//! `0.58616  0  0  2  0  cwnd_ 20.935`: a traced variable's new value.

use crate::record::{FlowView, LinkRecord, PacketRecord, TcpEventRecord, VarRecord, VarValue};
use ackclock_core::Instant;
use ackclock_net::{ControlKind, NodeId, Packet, Transport, ARP_FLOW, CONTROL_FLOW};
use std::io::{self, Write};

/// Seconds rounded to the microsecond, as ns-2's `%.15g` of a
/// microsecond-rounded time prints them.
pub fn time(t: Instant) -> String {
    let mut out = Vec::new();
    write_time(&mut out, t).expect("writing to a Vec cannot fail");
    String::from_utf8(out).expect("ASCII")
}

/// `time` without an allocation: this runs for every trace record.
fn write_time(out: &mut dyn Write, t: Instant) -> io::Result<()> {
    write_g15(out, (t.as_ps() + 500_000) / 1_000_000, -6)
}

/// `value * 10^exp10` as C's `%.15g` prints it, which is how ns-2 prints
/// times in both its formats: at most fifteen significant digits (rounded
/// half up), no trailing zeros, and an exponent outside [1e-4, 1e15), so
/// that 32 µs is `3.2e-05`. Works on the exact decimal value, not a double.
pub(crate) fn write_g15(out: &mut dyn Write, mut value: u64, mut exp10: i32) -> io::Result<()> {
    if value == 0 {
        return out.write_all(b"0");
    }
    let digits = value.ilog10() + 1;
    if digits > 15 {
        let d = 10u64.pow(digits - 15);
        value = value / d + u64::from(value % d >= d / 2);
        exp10 += (digits - 15) as i32;
    }
    // Without trailing zeros (written so as not to need Rust 1.87's is_multiple_of).
    while let (rest, 0) = (value / 10, value % 10) {
        value = rest;
        exp10 += 1;
    }
    let digits = value.ilog10() as i32 + 1;
    // The decimal exponent of the leading digit.
    let lead = digits - 1 + exp10;
    if !(-4..15).contains(&lead) {
        let scale = 10u64.pow(digits as u32 - 1);
        write!(out, "{}", value / scale)?;
        if digits > 1 {
            write!(out, ".{:0w$}", value % scale, w = digits as usize - 1)?;
        }
        let sign = if lead < 0 { '-' } else { '+' };
        write!(out, "e{sign}{:02}", lead.abs())
    } else if exp10 >= 0 {
        write!(out, "{}", value * 10u64.pow(exp10 as u32))
    } else {
        let scale = 10u64.pow(exp10.unsigned_abs());
        write!(out, "{}.{:0w$}", value / scale, value % scale, w = exp10.unsigned_abs() as usize)
    }
}

/// A packet record as ns-2 sees it: the fields both its trace and its nam
/// formats print.
pub(crate) struct Ns2Packet {
    pub kind: &'static str,
    pub size: u32,
    pub fid: u32,
    pub src: (NodeId, u16),
    pub dst: (NodeId, u16),
    /// Packet number for TCP (not bytes), the source's count for UDP.
    pub seq: i64,
    pub uid: u64,
    pub flags: &'static str,
}

impl Ns2Packet {
    pub fn new(r: &PacketRecord, view: Option<&FlowView>) -> Self {
        let (kind, seq) = type_and_seq(&r.packet, view);
        let fid = match view {
            Some(FlowView::Tcp { fid, .. }) | Some(FlowView::Udp { fid, .. }) => *fid,
            None if r.packet.flow == CONTROL_FLOW => 0,
            None => r.packet.flow,
        };
        let (sport, dport) = ports(&r.packet);
        let p = &r.packet;
        let flags = if r.congestion_action { "---A---" } else { "-------" };
        Ns2Packet { kind, size: p.size, fid, src: (p.ip.src, sport), dst: (p.ip.dst, dport), seq, uid: p.uid, flags }
    }
}

/// (type name, sequence number) as ns-2 prints them.
pub(crate) fn type_and_seq(packet: &Packet, view: Option<&FlowView>) -> (&'static str, i64) {
    match (packet.transport, view) {
        (Transport::Tcp(seg), Some(&FlowView::Tcp { client, client_iss, server_iss, mss, syn, full_tcp, .. })) => {
            let from_client = packet.ip.src == client;
            let (own_iss, peer_iss) = if from_client { (client_iss, server_iss) } else { (server_iss, client_iss) };
            if full_tcp {
                // The header's own sequence number (FullTcp's ISS is ns-2's iss_).
                return (if from_client { "tcp" } else { "ack" }, i64::from(seg.seq.0));
            }
            let mss = i64::from(mss.max(1));
            // The SYN is packet 0, data packet k covers bytes from 1 + (k-1) mss;
            // without a SYN data packet k starts at 1 + k mss.
            let shift = i64::from(!syn);
            let carries_data = seg.payload_len > 0 || seg.flags.syn && !seg.flags.ack;
            if carries_data {
                let offset = i64::from(seg.seq.0.wrapping_sub(own_iss));
                ("tcp", if seg.flags.syn { 0 } else { (offset - 1).div_euclid(mss) + 1 - shift })
            } else {
                // Segments acknowledged, counting a short last one.
                let acked = i64::from(seg.ack.0.wrapping_sub(peer_iss));
                ("ack", (acked - 1 + mss - 1).div_euclid(mss) - shift)
            }
        }
        (Transport::Tcp(seg), _) => ("tcp", i64::from(seg.seq.0)),
        // ns-2 numbers its traffic generators' packets, not its pings.
        (Transport::Udp(_), Some(&FlowView::Udp { type_name: "ping", .. })) => ("ping", -1),
        (_, _) if packet.flow == ARP_FLOW => ("ARP", packet.seq as i64),
        (Transport::Udp(_), Some(&FlowView::Udp { type_name, .. })) => (type_name, packet.seq as i64),
        (Transport::Udp(h), _) if packet.flow == CONTROL_FLOW => {
            (ControlKind::from_port(h.dst_port).map_or("udp", ControlKind::ns2_name), -1)
        }
        (Transport::Udp(_), _) => ("udp", packet.seq as i64),
    }
}

fn ports(packet: &Packet) -> (u16, u16) {
    match packet.transport {
        Transport::Tcp(seg) => (seg.src_port, seg.dst_port),
        // ns-2's routing agent is the second attached to its node (after
        // the one for direct routes), so its port is 1.
        Transport::Udp(_) if packet.flow == CONTROL_FLOW => (1, 1),
        Transport::Udp(h) => (h.src_port, h.dst_port),
    }
}

/// A packet record; with `tcp_header` (ns-2's `show_tcphdr_`), a FullTcp
/// packet's ACK number (-1 without ACK), flags, header length and SACK
/// length follow.
pub fn write_packet(
    out: &mut dyn Write,
    r: &PacketRecord,
    view: Option<&FlowView>,
    tcp_header: bool,
) -> io::Result<()> {
    let p = Ns2Packet::new(r, view);
    write!(out, "{} ", r.event.symbol())?;
    write_time(out, r.time)?;
    write!(
        out,
        " {} {} {} {} {} {} {}.{} {}.{} {} {}",
        r.from, r.to, p.kind, p.size, p.flags, p.fid, p.src.0, p.src.1, p.dst.0, p.dst.1, p.seq, p.uid
    )?;
    match (r.packet.transport, view) {
        (Transport::Tcp(seg), Some(FlowView::Tcp { full_tcp: true, .. })) if tcp_header => {
            let ack = if seg.flags.ack { i64::from(seg.ack.0) } else { -1 };
            let f = seg.flags;
            let bits = [(f.fin, 0x01), (f.syn, 0x02), (f.rst, 0x04), (f.psh, 0x08), (f.ack, 0x10), (f.ece, 0x40)];
            let cwr = if r.congestion_action { 0x80 } else { 0 };
            let flags = bits.iter().filter(|(on, _)| *on).fold(cwr, |acc, (_, bit)| acc | bit);
            writeln!(out, " {ack} 0x{flags:x} {} 0", r.packet.size - seg.payload_len)
        }
        _ => writeln!(out),
    }
}

/// `v 0.10000000000000001 link-down 0 1`: ns-2 prints the time as Tcl
/// does with its `tcl_precision` of 17.
pub fn write_link(out: &mut dyn Write, l: &LinkRecord) -> io::Result<()> {
    write!(out, "v ")?;
    write_g17(out, l.time.as_secs_f64())?;
    writeln!(out, " {} {} {}", link_event(l), l.from, l.to)
}

pub(crate) fn link_event(l: &LinkRecord) -> &'static str {
    if l.up {
        "link-up"
    } else {
        "link-down"
    }
}

/// An event-trace line (tcp.cc's trace_event).
pub fn write_tcp_event(out: &mut dyn Write, e: &TcpEventRecord) -> io::Result<()> {
    let TcpEventRecord { src, dst, event, fid, seqno, cwnd, .. } = *e;
    writeln!(out, "E {} {src} {dst} TCP {event} {fid} {seqno} {cwnd}", time(e.time))
}

/// `x` as C's `%.17g` prints it.
pub(crate) fn write_g17(out: &mut dyn Write, x: f64) -> io::Result<()> {
    write_g(out, x, 17)
}

/// `x` (not negative) as C's `%.{precision}g` prints it (`%g` is 6).
pub(crate) fn write_g(out: &mut dyn Write, x: f64, precision: usize) -> io::Result<()> {
    // `{:.Ne}` gives the same significant digits, rounded as printf rounds
    // them; only the layout differs.
    let sci = format!("{x:.*e}", precision - 1);
    let (mantissa, exp) = sci.split_once('e').expect("exponent form");
    let exp: i32 = exp.parse().expect("an integer exponent");
    let digits: String = mantissa.chars().filter(char::is_ascii_digit).collect();
    let digits = digits.trim_end_matches('0');
    let digits = if digits.is_empty() { "0" } else { digits };
    if !(-4..precision as i32).contains(&exp) {
        let (lead, rest) = digits.split_at(1);
        let dot = if rest.is_empty() { "" } else { "." };
        let sign = if exp < 0 { '-' } else { '+' };
        return write!(out, "{lead}{dot}{rest}e{sign}{:02}", exp.abs());
    }
    let point = exp + 1; // digits before the decimal point
    if point <= 0 {
        write!(out, "0.{}{digits}", "0".repeat(point.unsigned_abs() as usize))
    } else if digits.len() <= point as usize {
        write!(out, "{digits}{}", "0".repeat(point as usize - digits.len()))
    } else {
        let (int, frac) = digits.split_at(point as usize);
        write!(out, "{int}.{frac}")
    }
}

pub fn write_var(out: &mut dyn Write, v: &VarRecord) -> io::Result<()> {
    let secs = v.time.as_secs_f64();
    let (node, port) = v.peer.map_or((-1, -1), |(n, p)| (i64::from(n), i64::from(p)));
    let head = format!("{secs:<8.5} {:<2} {:<2} {node:<2} {port:<2} {}", v.agent.0, v.agent.1, v.name);
    match v.value {
        VarValue::Real(x) => writeln!(out, "{head} {x:<6.3}"),
        VarValue::Int(n) => writeln!(out, "{head} {n}"),
        VarValue::Ticks { secs, .. } => writeln!(out, "{head} {secs:<6.3}"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::record::PacketEvent;
    use ackclock_net::{Ecn, Ipv4Header, Packet, UdpHeader};
    use ackclock_wire::{SeqNum, TcpFlags, TcpRepr};

    #[test]
    fn times_are_rounded_to_microseconds_without_trailing_zeros() {
        assert_eq!(time(Instant::from_ps(586_160_000_000)), "0.58616");
        assert_eq!(time(Instant::from_ps(3_000_000_000_000)), "3");
        assert_eq!(time(Instant::from_ps(999_995_727_800_000)), "999.995728");
    }

    #[test]
    fn times_below_a_tenth_of_a_millisecond_print_with_an_exponent_like_ns2() {
        // Real ns-2 2.35 prints `r 3.2e-05 0 1 cbr 40 ...` for a 40-byte packet on 10 Mb/s.
        assert_eq!(time(Instant::from_ps(32_000_000)), "3.2e-05");
        assert_eq!(time(Instant::from_ps(1_000_000)), "1e-06");
        assert_eq!(time(Instant::from_ps(100_000_000)), "0.0001");
    }

    fn g15(value: u64, exp10: i32) -> String {
        let mut out = Vec::new();
        write_g15(&mut out, value, exp10).unwrap();
        String::from_utf8(out).unwrap()
    }

    #[test]
    fn g15_rounds_to_fifteen_significant_digits_as_printf_does() {
        assert_eq!(g15(1_234_567_890_123_456, -12), "1234.56789012346");
        assert_eq!(g15(9_999_999_999_999_999, -12), "10000");
        assert_eq!(g15(706_365_333_333, -12), "0.706365333333");
        assert_eq!(g15(5, 20), "5e+20");
        assert_eq!(g15(12, -7), "1.2e-06");
    }

    fn g17(x: f64) -> String {
        let mut out = Vec::new();
        write_g17(&mut out, x).unwrap();
        String::from_utf8(out).unwrap()
    }

    #[test]
    fn g17_prints_doubles_as_ns2s_tcl_does() {
        // As ns-2 2.35 prints link-down times in its traces.
        assert_eq!(g17(0.1), "0.10000000000000001");
        assert_eq!(g17(0.2), "0.20000000000000001");
        assert_eq!(g17(1.0), "1");
        assert_eq!(g17(12.5), "12.5");
        assert_eq!(g17(0.0), "0");
        assert_eq!(g17(3.2e-5), "3.1999999999999999e-05", "C printf rounds the double, not 3.2");
        assert_eq!(g17(1e20), "1e+20");
    }

    #[test]
    fn link_changes_print_as_ns2s_dynamics_records() {
        let l = LinkRecord { time: Instant::from_ps(100_000_000_000), channel: 1, from: 0, to: 1, up: false };
        let mut out = Vec::new();
        write_link(&mut out, &l).unwrap();
        assert_eq!(String::from_utf8(out).unwrap(), "v 0.10000000000000001 link-down 0 1\n");
    }

    fn tcp_record(event: PacketEvent, seg: TcpRepr, size: u32) -> PacketRecord {
        let packet = Packet {
            uid: 43,
            ip: Ipv4Header { src: 0, dst: 2, ttl: 64, ecn: Ecn::NotEct },
            transport: Transport::Tcp(seg),
            size,
            flow: 0,
            seq: 0,
            created: Instant::ZERO,
        };
        PacketRecord {
            time: Instant::from_ps(586_160_000_000),
            event,
            channel: 1,
            from: 1,
            to: 2,
            packet,
            congestion_action: false,
            early_drop: false,
        }
    }

    fn line(r: &PacketRecord, view: &FlowView) -> String {
        let mut out = Vec::new();
        write_packet(&mut out, r, Some(view), false).unwrap();
        String::from_utf8(out).unwrap()
    }

    #[test]
    fn tcp_data_prints_packet_numbers_like_ns2() {
        let view =
            FlowView::Tcp { client: 0, client_iss: 1000, server_iss: 0, mss: 960, syn: true, fid: 0, full_tcp: false };
        // Packet 28 covers bytes from 1 + 27 * 960.
        let seg = TcpRepr { seq: SeqNum(1000 + 1 + 27 * 960), payload_len: 960, ..TcpRepr::default() };
        let r = tcp_record(PacketEvent::Drop, seg, 1000);
        assert_eq!(line(&r, &view), "d 0.58616 1 2 tcp 1000 ------- 0 0.0 2.0 28 43\n");
    }

    #[test]
    fn acks_print_the_last_packet_acknowledged() {
        let view =
            FlowView::Tcp { client: 2, client_iss: 1000, server_iss: 0, mss: 960, syn: true, fid: 1, full_tcp: false };
        let mut seg = TcpRepr { ack: SeqNum(1000 + 1 + 5 * 960), ..TcpRepr::default() };
        seg.flags = TcpFlags { ack: true, ..TcpFlags::default() };
        let r = tcp_record(PacketEvent::Receive, seg, 40);
        assert_eq!(line(&r, &view), "r 0.58616 1 2 ack 40 ------- 1 0.0 2.0 5 43\n");
    }

    #[test]
    fn udp_prints_its_type_and_sequence() {
        let mut r = tcp_record(PacketEvent::Enqueue, TcpRepr::default(), 210);
        r.packet.transport = Transport::Udp(UdpHeader { src_port: 0, dst_port: 1 });
        r.packet.seq = 225;
        let view = FlowView::Udp { type_name: "cbr", fid: 0 };
        assert_eq!(line(&r, &view), "+ 0.58616 1 2 cbr 210 ------- 0 0.0 2.1 225 43\n");
    }

    #[test]
    fn pings_print_no_sequence_number() {
        // ns-2 2.35's trace of its Agent/Ping: "+ 0 0 1 ping 64 ------- 0 0.0 2.0 -1 0".
        let mut r = tcp_record(PacketEvent::Enqueue, TcpRepr::default(), 64);
        r.packet.transport = Transport::Udp(UdpHeader { src_port: 0, dst_port: 0 });
        r.packet.seq = 3;
        let view = FlowView::Udp { type_name: "ping", fid: 0 };
        assert_eq!(line(&r, &view), "+ 0.58616 1 2 ping 64 ------- 0 0.0 2.0 -1 43\n");
    }

    #[test]
    fn variables_use_ns2_column_widths() {
        let v = VarRecord {
            time: Instant::from_ps(586_160_000_000),
            flow: 0,
            agent: (0, 0),
            peer: Some((2, 0)),
            name: "cwnd_",
            value: VarValue::Real(1.0),
        };
        let mut out = Vec::new();
        write_var(&mut out, &v).unwrap();
        assert_eq!(String::from_utf8(out).unwrap(), "0.58616  0  0  2  0  cwnd_ 1.000 \n");
        let v = VarRecord { name: "ack_", value: VarValue::Int(808), ..v };
        let mut out = Vec::new();
        write_var(&mut out, &v).unwrap();
        assert_eq!(String::from_utf8(out).unwrap(), "0.58616  0  0  2  0  ack_ 808\n");
        let v = VarRecord { time: Instant::ZERO, peer: None, name: "maxseq_", value: VarValue::Int(-1), ..v };
        let mut out = Vec::new();
        write_var(&mut out, &v).unwrap();
        assert_eq!(String::from_utf8(out).unwrap(), "0.00000  0  0  -1 -1 maxseq_ -1\n");
    }
}
