//! ns-2's wireless trace formats (cmu-trace): the old positional one and the
//! tagged one `use-newtrace` selects (seed 003 §16.6). Each record is one
//! packet event at one node and layer:
//!
//! `s 0.020480000 _0_ AGT  --- 1 cbr 512 [0 0 0 0] ------- [0:0 5:0 32 0] [1] 0 0`
//!
//! `s -t 0.020480000 -Hs 0 -Hd -2 -Ni 0 -Nx 0.00 -Ny 50.00 -Nz 0.00 -Ne -1.000000 -Nl AGT -Nw --- -Ma 0 -Md 0
//! -Ms 0 -Mt 0 -Is 0.0 -Id 5.0 -It cbr -Il 512 -If 0 -Ii 1 -Iv 32 -Pn cbr -Pi 1 -Pf 0 -Po 0 `
//!
//! With `-macTrace ON`, every frame a MAC sends, receives or drops too; a
//! control frame's record ends after its MAC header:
//!
//! `s 2.000435000 _0_ MAC  --- 0 RTS 44 [14ee 1 0 0] `
//!
//! The record carries the values as ns-2 holds them (its `-1` broadcast
//! address, its `-2` unset next hop); this module only lays them out.

use crate::ns2::type_and_seq;
use crate::record::{
    AodvFields, ControlFrameRecord, FlowView, MacFields, MovementRecord, WirelessEvent, WirelessLayer, WirelessRecord,
};
use ackclock_core::Instant;
use ackclock_net::{Transport, ARP_FLOW, ARP_REQUEST, BROADCAST, CONTROL_FLOW};
use std::io::{self, Write};

/// Which of the two layouts.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum WirelessFormat {
    Old,
    New,
}

/// What an ns-2 trace shows of radio nodes: the layout, and whether the
/// agents' and the routing layer's sends and receives are in it (ns-2's
/// `-agentTrace` and `-routerTrace`; their drops always are), and the MAC's
/// frames and drops (`-macTrace`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct WirelessTrace {
    pub format: WirelessFormat,
    pub agent: bool,
    pub router: bool,
    pub mac: bool,
}

impl WirelessTrace {
    pub fn wants(&self, r: &WirelessRecord) -> bool {
        match r.layer {
            WirelessLayer::Mac => self.mac,
            _ if r.event == WirelessEvent::Drop => true,
            WirelessLayer::Agent => self.agent,
            WirelessLayer::Router => self.router,
            WirelessLayer::Ifq => false,
        }
    }
}

/// `%.9f` of the time in seconds (rounded to the nanosecond).
fn write_secs9(out: &mut dyn Write, t: Instant) -> io::Result<()> {
    let ns = (t.as_ps() + 500) / 1000;
    write!(out, "{}.{:09}", ns / 1_000_000_000, ns % 1_000_000_000)
}

fn op(event: WirelessEvent, format: WirelessFormat) -> char {
    match (event, format) {
        (WirelessEvent::Send, _) => 's',
        (WirelessEvent::Receive, _) => 'r',
        (WirelessEvent::Forward, _) => 'f',
        (WirelessEvent::Drop, WirelessFormat::Old) => 'D',
        (WirelessEvent::Drop, WirelessFormat::New) => 'd',
    }
}

/// A C `%x` of an int: negative values print as their 32-bit two's complement.
fn hex(x: i64) -> String {
    format!("{:x}", x as i32 as u32)
}

/// The IP and application fields both layouts print.
struct Fields {
    kind: &'static str,
    seq: i64,
    fid: u32,
    src: (i64, u16),
    dst: (i64, u16),
    ttl: u8,
    app: App,
}

enum App {
    /// A UDP flow's packet (ns-2's cbr and the like): its sequence number.
    Udp,
    Tcp,
    Aodv(AodvFields),
    /// An ARP packet: its operation, sender and target (ns-2 prints each
    /// as hardware/protocol address, both the node id here; a request's
    /// target hardware address is 0, being what it asks for).
    Arp {
        request: bool,
        sender: i64,
        target: i64,
    },
    /// A routing message ns-2 prints no fields of.
    Opaque,
}

/// ns-2's routing agents listen on port 255 (`RT_PORT`).
const ROUTING_PORT: u16 = 255;

fn fields(r: &WirelessRecord, view: Option<&FlowView>) -> Fields {
    let p = &r.packet;
    let (kind, seq) = type_and_seq(p, view);
    let control = p.flow == CONTROL_FLOW;
    let (sport, dport) = match p.transport {
        _ if control => (ROUTING_PORT, ROUTING_PORT),
        Transport::Tcp(seg) => (seg.src_port, seg.dst_port),
        Transport::Udp(h) => (h.src_port, h.dst_port),
    };
    let fid = match view {
        Some(FlowView::Tcp { fid, .. }) | Some(FlowView::Udp { fid, .. }) => *fid,
        None => 0,
    };
    let dst = if p.ip.dst == BROADCAST { -1 } else { i64::from(p.ip.dst) };
    let app = match (r.aodv, p.transport) {
        _ if p.flow == ARP_FLOW => {
            App::Arp { request: p.seq == ARP_REQUEST, sender: i64::from(p.ip.src), target: i64::from(p.ip.dst) }
        }
        (Some(a), _) => App::Aodv(a),
        _ if control => App::Opaque,
        (None, Transport::Tcp(_)) => App::Tcp,
        (None, Transport::Udp(_)) => App::Udp,
    };
    Fields { kind, seq, fid, src: (i64::from(p.ip.src), sport), dst: (dst, dport), ttl: p.ip.ttl, app }
}

/// The packet type and id ns-2's wireless records print (routing messages
/// have id 0: ns-2's routing agents do not number their packets).
pub(crate) fn kind_and_uid(r: &WirelessRecord, view: Option<&FlowView>) -> (&'static str, u64) {
    (type_and_seq(&r.packet, view).0, printed_uid(r))
}

fn printed_uid(r: &WirelessRecord) -> u64 {
    if r.packet.flow >= ARP_FLOW {
        0
    } else {
        r.packet.uid
    }
}

/// `%.9f` of a time in seconds, as both wireless formats print it.
pub(crate) fn secs9(t: Instant) -> String {
    let mut out = Vec::new();
    write_secs9(&mut out, t).expect("writing to a Vec cannot fail");
    String::from_utf8(out).expect("ASCII")
}

pub fn write_record(
    out: &mut dyn Write,
    r: &WirelessRecord,
    view: Option<&FlowView>,
    format: WirelessFormat,
) -> io::Result<()> {
    let f = fields(r, view);
    match format {
        WirelessFormat::Old => write_old(out, r, &f),
        WirelessFormat::New => write_new(out, r, &f),
    }
}

/// A control frame's record: it has no packet, so it ends after the MAC
/// header (ns-2 prints uid 0 and, in the tagged layout, next hop -2).
pub fn write_control(out: &mut dyn Write, r: &ControlFrameRecord, format: WirelessFormat) -> io::Result<()> {
    match format {
        WirelessFormat::Old => {
            write!(out, "{} ", op(r.event, format))?;
            write_secs9(out, r.time)?;
            write!(out, " _{}_ MAC {:>4} 0 {} {}", r.node, r.reason, r.kind.name(), r.bytes)?;
            write_mac_old(out, &r.mac)?;
            writeln!(out)
        }
        WirelessFormat::New => {
            write_new_head(out, r.event, r.time, r.node, -2, r.position, WirelessLayer::Mac, r.reason)?;
            write_mac_new(out, &r.mac)?;
            writeln!(out)
        }
    }
}

/// ` [duration dst src type] `, each in C's `%x`.
fn write_mac_old(out: &mut dyn Write, m: &MacFields) -> io::Result<()> {
    let [d, dst, src, t] = [m.duration_us, m.dst, m.src, m.ether_type].map(hex);
    write!(out, " [{d} {dst} {src} {t}] ")
}

fn write_mac_new(out: &mut dyn Write, m: &MacFields) -> io::Result<()> {
    let [d, dst, src, t] = [m.duration_us, m.dst, m.src, m.ether_type].map(hex);
    write!(out, "-Ma {d} -Md {dst} -Ms {src} -Mt {t} ")
}

#[allow(clippy::too_many_arguments)] // the fields every tagged record starts with
fn write_new_head(
    out: &mut dyn Write,
    event: WirelessEvent,
    time: Instant,
    node: u32,
    next_hop: i64,
    (x, y, z): (f64, f64, f64),
    layer: WirelessLayer,
    reason: &str,
) -> io::Result<()> {
    write!(out, "{} -t ", op(event, WirelessFormat::New))?;
    write_secs9(out, time)?;
    write!(
        out,
        " -Hs {node} -Hd {next_hop} -Ni {node} -Nx {x:.2} -Ny {y:.2} -Nz {z:.2} -Ne -1.000000 -Nl {:>3} -Nw {reason} ",
        layer.name()
    )
}

/// An ARP packet's operation and target hardware address.
fn arp_op(request: bool, target: i64) -> (&'static str, i64) {
    if request {
        ("REQUEST", 0)
    } else {
        ("REPLY", target)
    }
}

fn write_old(out: &mut dyn Write, r: &WirelessRecord, f: &Fields) -> io::Result<()> {
    write!(out, "{} ", op(r.event, WirelessFormat::Old))?;
    write_secs9(out, r.time)?;
    let uid = printed_uid(r);
    write!(out, " _{}_ {:>3} {:>4} {uid} {} {}", r.node, r.layer.name(), r.reason, f.kind, r.packet.size)?;
    write_mac_old(out, &r.mac)?;
    // An ARP packet has no IP header: its own fields follow the MAC's.
    if let App::Arp { request, sender, target } = f.app {
        let (op, hw) = arp_op(request, target);
        return writeln!(out, "------- [{op} {sender}/{sender} {hw}/{target}]");
    }
    write!(out, "------- [{}:{} {}:{} {} {}] ", f.src.0, f.src.1, f.dst.0, f.dst.1, f.ttl, r.next_hop.max(0))?;
    let fw = r.forwards;
    match &f.app {
        App::Udp => writeln!(out, "[{}] {fw} 0", f.seq),
        App::Tcp => writeln!(out, "[{} 0] {fw} 0", f.seq),
        App::Aodv(AodvFields::Request { hops, id, dst, dst_seq, src, src_seq }) => {
            writeln!(out, "[0x2 {hops} {id} [{dst} {dst_seq}] [{src} {src_seq}]] (REQUEST)")
        }
        App::Aodv(AodvFields::Reply { hops, dst, dst_seq, lifetime }) => {
            writeln!(out, "[0x4 {hops} [{dst} {dst_seq}] {lifetime:.6}] (REPLY)")
        }
        App::Aodv(AodvFields::Error { count, dst, dst_seq }) => {
            writeln!(out, "[0x8 {count} [{dst} {dst_seq}] 0.000000] (ERROR)")
        }
        App::Arp { .. } | App::Opaque => writeln!(out),
    }
}

fn write_new(out: &mut dyn Write, r: &WirelessRecord, f: &Fields) -> io::Result<()> {
    write_new_head(out, r.event, r.time, r.node, r.next_hop, r.position, r.layer, r.reason)?;
    write_mac_new(out, &r.mac)?;
    if let App::Arp { request, sender, target } = f.app {
        let (op, hw) = arp_op(request, target);
        return writeln!(out, "-P arp -Po {op} -Pms {sender} -Ps {sender} -Pmd {hw} -Pd {target} ");
    }
    let uid = printed_uid(r);
    write!(
        out,
        "-Is {}.{} -Id {}.{} -It {} -Il {} -If {} -Ii {uid} -Iv {} ",
        f.src.0, f.src.1, f.dst.0, f.dst.1, f.kind, r.packet.size, f.fid, f.ttl,
    )?;
    let fw = r.forwards;
    match &f.app {
        App::Udp => writeln!(out, "-Pn {} -Pi {} -Pf {fw} -Po 0 ", f.kind, f.seq),
        App::Tcp => writeln!(out, "-Pn tcp -Ps {} -Pa 0 -Pf {fw} -Po 0 ", f.seq),
        App::Aodv(AodvFields::Request { hops, id, dst, dst_seq, src, src_seq }) => writeln!(
            out,
            "-P aodv -Pt 0x2 -Ph {hops} -Pb {id} -Pd {dst} -Pds {dst_seq} -Ps {src} -Pss {src_seq} -Pc REQUEST "
        ),
        App::Aodv(AodvFields::Reply { hops, dst, dst_seq, lifetime }) => {
            writeln!(out, "-P aodv -Pt 0x4 -Ph {hops} -Pd {dst} -Pds {dst_seq} -Pl {lifetime:.6} -Pc REPLY ")
        }
        App::Aodv(AodvFields::Error { count, dst, dst_seq }) => {
            writeln!(out, "-P aodv -Pt 0x8 -Ph {count} -Pd {dst} -Pds {dst_seq} -Pl 0.000000 -Pc ERROR ")
        }
        App::Arp { .. } | App::Opaque => writeln!(out),
    }
}

/// `M 0.00000 5 (0.00, 200.00, 0.00), (800.00, 200.00), 8.01`: a node
/// starts a straight move (ns-2's setdest), in both layouts.
pub fn write_movement(out: &mut dyn Write, m: &MovementRecord) -> io::Result<()> {
    let (x, y, z) = m.from;
    let (tx, ty) = m.to;
    writeln!(
        out,
        "M {:.5} {} ({x:.2}, {y:.2}, {z:.2}), ({tx:.2}, {ty:.2}), {:.2}",
        m.time.as_secs_f64(),
        m.node,
        m.speed
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::record::{ControlKind, MacFields, WirelessLayer};
    use ackclock_net::{Ecn, Ipv4Header, Packet, UdpHeader};

    fn secs(s: f64) -> Instant {
        Instant::from_ps((s * 1e12).round() as u64)
    }

    fn line(r: &WirelessRecord, view: Option<&FlowView>, format: WirelessFormat) -> String {
        let mut out = Vec::new();
        write_record(&mut out, r, view, format).unwrap();
        String::from_utf8(out).unwrap()
    }

    const CBR: FlowView = FlowView::Udp { type_name: "cbr", fid: 0 };

    /// ns-2 2.35 on the chapter's wireless.tcl: the second CBR packet as its
    /// agent sends it.
    fn cbr_sent() -> WirelessRecord {
        let packet = Packet {
            uid: 1,
            ip: Ipv4Header { src: 0, dst: 5, ttl: 32, ecn: Ecn::NotEct },
            transport: Transport::Udp(UdpHeader { src_port: 0, dst_port: 0 }),
            size: 512,
            flow: 0,
            seq: 1,
            created: Instant::ZERO,
        };
        WirelessRecord {
            time: secs(0.02048),
            event: WirelessEvent::Send,
            node: 0,
            position: (0.0, 50.0, 0.0),
            layer: WirelessLayer::Agent,
            reason: "---",
            packet,
            next_hop: -2,
            mac: MacFields::default(),
            forwards: 0,
            aodv: None,
        }
    }

    // The expected lines are copied from ns-2 2.35's output for wireless.tcl
    // (`ns wireless.tcl`, with and without `$ns use-newtrace`).

    #[test]
    fn an_agent_send_prints_as_ns2_in_both_layouts() {
        let r = cbr_sent();
        assert_eq!(
            line(&r, Some(&CBR), WirelessFormat::Old),
            "s 0.020480000 _0_ AGT  --- 1 cbr 512 [0 0 0 0] ------- [0:0 5:0 32 0] [1] 0 0\n"
        );
        assert_eq!(
            line(&r, Some(&CBR), WirelessFormat::New),
            "s -t 0.020480000 -Hs 0 -Hd -2 -Ni 0 -Nx 0.00 -Ny 50.00 -Nz 0.00 -Ne -1.000000 -Nl AGT -Nw --- \
             -Ma 0 -Md 0 -Ms 0 -Mt 0 -Is 0.0 -Id 5.0 -It cbr -Il 512 -If 0 -Ii 1 -Iv 32 -Pn cbr -Pi 1 -Pf 0 -Po 0 \n"
        );
    }

    #[test]
    fn a_callback_drop_carries_the_mac_header_and_the_reason() {
        let mut r = WirelessRecord {
            time: secs(25.014212333),
            event: WirelessEvent::Drop,
            layer: WirelessLayer::Router,
            reason: "CBK",
            mac: MacFields { duration_us: 0x13a, dst: 5, src: 0, ether_type: 0x800 },
            next_hop: 5,
            ..cbr_sent()
        };
        (r.packet.uid, r.packet.seq, r.packet.size, r.packet.ip.ttl) = (1219, 1219, 532, 30);
        assert_eq!(
            line(&r, Some(&CBR), WirelessFormat::Old),
            "D 25.014212333 _0_ RTR  CBK 1219 cbr 532 [13a 5 0 800] ------- [0:0 5:0 30 5] [1219] 0 0\n"
        );
        assert_eq!(
            line(&r, Some(&CBR), WirelessFormat::New),
            "d -t 25.014212333 -Hs 0 -Hd 5 -Ni 0 -Nx 0.00 -Ny 50.00 -Nz 0.00 -Ne -1.000000 -Nl RTR -Nw CBK \
             -Ma 13a -Md 5 -Ms 0 -Mt 800 -Is 0.0 -Id 5.0 -It cbr -Il 532 -If 0 -Ii 1219 -Iv 30 \
             -Pn cbr -Pi 1219 -Pf 0 -Po 0 \n"
        );
    }

    fn aodv_packet(src: u32, dst: u32, size: u32, ttl: u8) -> Packet {
        Packet {
            uid: 77,
            ip: Ipv4Header { src, dst, ttl, ecn: Ecn::NotEct },
            transport: Transport::Udp(UdpHeader { src_port: 654, dst_port: 654 }),
            size,
            flow: CONTROL_FLOW,
            seq: 0,
            created: Instant::ZERO,
        }
    }

    #[test]
    fn aodv_messages_print_their_fields() {
        let request = WirelessRecord {
            time: secs(0.0014085),
            event: WirelessEvent::Receive,
            node: 5,
            position: (0.01, 200.0, 0.0),
            layer: WirelessLayer::Router,
            packet: aodv_packet(0, BROADCAST, 48, 30),
            mac: MacFields { duration_us: 0, dst: -1, src: 0, ether_type: 0x800 },
            aodv: Some(AodvFields::Request { hops: 1, id: 1, dst: 5, dst_seq: 0, src: 0, src_seq: 4 }),
            ..cbr_sent()
        };
        assert_eq!(
            line(&request, None, WirelessFormat::Old),
            "r 0.001408500 _5_ RTR  --- 0 AODV 48 [0 ffffffff 0 800] ------- [0:255 -1:255 30 0] \
             [0x2 1 1 [5 0] [0 4]] (REQUEST)\n"
        );
        assert_eq!(
            line(&request, None, WirelessFormat::New),
            "r -t 0.001408500 -Hs 5 -Hd -2 -Ni 5 -Nx 0.01 -Ny 200.00 -Nz 0.00 -Ne -1.000000 -Nl RTR -Nw --- \
             -Ma 0 -Md ffffffff -Ms 0 -Mt 800 -Is 0.255 -Id -1.255 -It AODV -Il 48 -If 0 -Ii 0 -Iv 30 \
             -P aodv -Pt 0x2 -Ph 1 -Pb 1 -Pd 5 -Pds 0 -Ps 0 -Pss 4 -Pc REQUEST \n"
        );
        let reply = WirelessRecord {
            event: WirelessEvent::Send,
            packet: aodv_packet(5, 0, 44, 30),
            mac: MacFields::default(),
            next_hop: 0,
            aodv: Some(AodvFields::Reply { hops: 1, dst: 5, dst_seq: 4, lifetime: 10.0 }),
            ..request
        };
        assert_eq!(
            line(&reply, None, WirelessFormat::Old),
            "s 0.001408500 _5_ RTR  --- 0 AODV 44 [0 0 0 0] ------- [5:255 0:255 30 0] [0x4 1 [5 4] 10.000000] (REPLY)\n"
        );
        let error = WirelessRecord {
            time: secs(25.014212333),
            node: 0,
            position: (0.0, 50.0, 0.0),
            packet: aodv_packet(0, BROADCAST, 32, 1),
            aodv: Some(AodvFields::Error { count: 1, dst: 5, dst_seq: 0 }),
            ..reply
        };
        assert_eq!(
            line(&error, None, WirelessFormat::New),
            "s -t 25.014212333 -Hs 0 -Hd 0 -Ni 0 -Nx 0.00 -Ny 50.00 -Nz 0.00 -Ne -1.000000 -Nl RTR -Nw --- \
             -Ma 0 -Md 0 -Ms 0 -Mt 0 -Is 0.255 -Id -1.255 -It AODV -Il 32 -If 0 -Ii 0 -Iv 1 \
             -P aodv -Pt 0x8 -Ph 1 -Pd 5 -Pds 0 -Pl 0.000000 -Pc ERROR \n"
        );
    }

    #[test]
    fn a_dsdv_update_prints_no_message_fields() {
        let mut packet = aodv_packet(0, BROADCAST, 32, 32);
        packet.transport = Transport::Udp(UdpHeader { src_port: 255, dst_port: 255 });
        let r = WirelessRecord { time: secs(0.003808772), layer: WirelessLayer::Router, packet, ..cbr_sent() };
        let view = None;
        let old = line(&r, view, WirelessFormat::Old);
        assert!(old.ends_with("[0 0 0 0] ------- [0:255 -1:255 32 0] \n"), "{old}");
    }

    // ns-2 2.35 on tests/fixtures/mac_collision.tcl (`-macTrace ON`; the
    // lines are in mac_collision.tr and mac_collision_newtrace.tr).

    fn rts(event: WirelessEvent, node: u32, reason: &'static str, time: f64) -> ControlFrameRecord {
        ControlFrameRecord {
            time: secs(time),
            event,
            node,
            position: (100.0 + 200.0 * f64::from(node), 100.0, 0.0),
            reason,
            kind: ControlKind::Rts,
            bytes: 44,
            mac: MacFields { duration_us: 0x14ee, dst: 1, src: 0, ether_type: 0 },
        }
    }

    fn control_line(r: &ControlFrameRecord, format: WirelessFormat) -> String {
        let mut out = Vec::new();
        write_control(&mut out, r, format).unwrap();
        String::from_utf8(out).unwrap()
    }

    #[test]
    fn a_control_frame_prints_its_mac_header_only() {
        let sent = rts(WirelessEvent::Send, 0, "---", 2.000075);
        assert_eq!(control_line(&sent, WirelessFormat::Old), "s 2.000075000 _0_ MAC  --- 0 RTS 44 [14ee 1 0 0] \n");
        assert_eq!(
            control_line(&sent, WirelessFormat::New),
            "s -t 2.000075000 -Hs 0 -Hd -2 -Ni 0 -Nx 100.00 -Ny 100.00 -Nz 0.00 -Ne -1.000000 -Nl MAC -Nw --- \
             -Ma 14ee -Md 1 -Ms 0 -Mt 0 \n"
        );
        let cts = ControlFrameRecord {
            kind: ControlKind::Cts,
            bytes: 38,
            mac: MacFields { duration_us: 0x13b4, dst: 0, src: 0, ether_type: 0 },
            ..rts(WirelessEvent::Receive, 0, "---", 1.006002667)
        };
        assert_eq!(control_line(&cts, WirelessFormat::Old), "r 1.006002667 _0_ MAC  --- 0 CTS 38 [13b4 0 0 0] \n");
        assert_eq!(
            control_line(&cts, WirelessFormat::New),
            "r -t 1.006002667 -Hs 0 -Hd -2 -Ni 0 -Nx 100.00 -Ny 100.00 -Nz 0.00 -Ne -1.000000 -Nl MAC -Nw --- \
             -Ma 13b4 -Md 0 -Ms 0 -Mt 0 \n"
        );
        // The middle node loses an RTS to a collision.
        let lost = rts(WirelessEvent::Drop, 1, "COL", 2.000075667);
        assert_eq!(control_line(&lost, WirelessFormat::Old), "D 2.000075667 _1_ MAC  COL 0 RTS 44 [14ee 1 0 0] \n");
        assert_eq!(
            control_line(&lost, WirelessFormat::New),
            "d -t 2.000075667 -Hs 1 -Hd -2 -Ni 1 -Nx 300.00 -Ny 100.00 -Nz 0.00 -Ne -1.000000 -Nl MAC -Nw COL \
             -Ma 14ee -Md 1 -Ms 0 -Mt 0 \n"
        );
    }

    #[test]
    fn a_data_frame_at_the_mac_prints_its_packet_after_the_header() {
        let mut r = WirelessRecord {
            time: secs(1.006012667),
            position: (100.0, 100.0, 0.0),
            layer: WirelessLayer::Mac,
            next_hop: 1,
            mac: MacFields { duration_us: 0x13a, dst: 1, src: 0, ether_type: 0x800 },
            ..cbr_sent()
        };
        (r.packet.uid, r.packet.seq, r.packet.ip.dst, r.packet.size, r.packet.ip.ttl) = (0, 0, 1, 590, 30);
        assert_eq!(
            line(&r, Some(&CBR), WirelessFormat::Old),
            "s 1.006012667 _0_ MAC  --- 0 cbr 590 [13a 1 0 800] ------- [0:0 1:0 30 1] [0] 0 0\n"
        );
        assert_eq!(
            line(&r, Some(&CBR), WirelessFormat::New),
            "s -t 1.006012667 -Hs 0 -Hd 1 -Ni 0 -Nx 100.00 -Ny 100.00 -Nz 0.00 -Ne -1.000000 -Nl MAC -Nw --- \
             -Ma 13a -Md 1 -Ms 0 -Mt 800 -Is 0.0 -Id 1.0 -It cbr -Il 590 -If 0 -Ii 0 -Iv 30 \
             -Pn cbr -Pi 0 -Pf 0 -Po 0 \n"
        );
    }

    #[test]
    fn mac_records_drops_included_are_written_only_with_mac_on() {
        let trace = |mac| WirelessTrace { format: WirelessFormat::Old, agent: true, router: true, mac };
        let mac_drop = WirelessRecord { event: WirelessEvent::Drop, layer: WirelessLayer::Mac, ..cbr_sent() };
        let router_drop = WirelessRecord { layer: WirelessLayer::Router, ..mac_drop };
        assert!(!trace(false).wants(&mac_drop) && trace(true).wants(&mac_drop));
        assert!(trace(false).wants(&router_drop));
        let agent = WirelessTrace { agent: false, ..trace(true) };
        assert!(!agent.wants(&cbr_sent()));
    }

    #[test]
    fn a_move_prints_as_ns2s_setdest_record() {
        let m =
            MovementRecord { time: Instant::ZERO, node: 5, from: (0.0, 200.0, 0.0), to: (800.0, 200.0), speed: 8.01 };
        let mut out = Vec::new();
        write_movement(&mut out, &m).unwrap();
        assert_eq!(String::from_utf8(out).unwrap(), "M 0.00000 5 (0.00, 200.00, 0.00), (800.00, 200.00), 8.01\n");
    }
}
