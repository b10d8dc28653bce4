//! tcpdump-style text (seed 000, figure 4-2):
//!
//! `0.100000 10.0.0.1.20000 > 10.0.0.3.40000: S 1234:1234(0) win 65535 <mss 1460>`
//!
//! Flags S, F, P, R or `.`; the sequence range and payload length; `ack`;
//! `win`; options in angle brackets. Sequence numbers are absolute in SYN
//! segments and relative to each side's initial sequence number after it,
//! as tcpdump prints them.

use crate::address::dotted;
use crate::record::{FlowView, PacketRecord};
use ackclock_net::Transport;
use ackclock_wire::{TcpOptions, TcpRepr};
use std::io::{self, Write};

fn flags(seg: &TcpRepr) -> String {
    let f = seg.flags;
    let s: String = [(f.syn, 'S'), (f.fin, 'F'), (f.psh, 'P'), (f.rst, 'R')]
        .iter()
        .filter(|(on, _)| *on)
        .map(|&(_, c)| c)
        .collect();
    if s.is_empty() {
        ".".into()
    } else {
        s
    }
}

fn options(o: &TcpOptions) -> String {
    let mut parts = Vec::new();
    if let Some(mss) = o.mss {
        parts.push(format!("mss {mss}"));
    }
    if o.sack_permitted {
        parts.push("sackOK".into());
    }
    if let Some((val, ecr)) = o.timestamps {
        parts.push(format!("timestamp {val} {ecr}"));
    }
    if let Some(ws) = o.window_scale {
        parts.push(format!("wscale {ws}"));
    }
    if !o.sack.is_empty() {
        let blocks: Vec<String> = o.sack.as_slice().iter().map(|(l, r)| format!("{{{l}:{r}}}")).collect();
        parts.push(format!("sack {} {}", blocks.len(), blocks.join("")));
    }
    if parts.is_empty() {
        String::new()
    } else {
        format!(" <{}>", parts.join(","))
    }
}

pub fn write_packet(out: &mut dyn Write, r: &PacketRecord, view: Option<&FlowView>) -> io::Result<()> {
    let p = &r.packet;
    let time = format!("{:.6}", r.time.as_secs_f64());
    let (src, dst) = (dotted(p.ip.src), dotted(p.ip.dst));
    match p.transport {
        Transport::Udp(h) => {
            let len = p.size.saturating_sub(28); // ns-2-sized routing messages are smaller
            writeln!(out, "{time} {src}.{} > {dst}.{}: udp {len}", h.src_port, h.dst_port)
        }
        Transport::Tcp(seg) => {
            let (own_iss, peer_iss) = match view {
                Some(&FlowView::Tcp { client, client_iss, server_iss, .. }) if p.ip.src == client => {
                    (client_iss, server_iss)
                }
                Some(&FlowView::Tcp { client_iss, server_iss, .. }) => (server_iss, client_iss),
                _ => (0, 0),
            };
            let mut line = format!("{time} {src}.{} > {dst}.{}: {}", seg.src_port, seg.dst_port, flags(&seg));
            if seg.payload_len > 0 || seg.flags.syn || seg.flags.fin {
                let start = if seg.flags.syn { seg.seq.0 } else { seg.seq.0.wrapping_sub(own_iss) };
                let end = start.wrapping_add(seg.payload_len);
                line += &format!(" {start}:{end}({})", seg.payload_len);
            }
            if seg.flags.ack {
                let ack = if seg.flags.syn { seg.ack.0 } else { seg.ack.0.wrapping_sub(peer_iss) };
                line += &format!(" ack {ack}");
            }
            writeln!(out, "{line} win {}{}", seg.window, options(&seg.options))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::record::PacketEvent;
    use ackclock_core::Instant;
    use ackclock_net::{Ecn, Ipv4Header, Packet};
    use ackclock_wire::{SeqNum, TcpFlags};

    fn record(seg: TcpRepr, src: u32, dst: u32) -> PacketRecord {
        let packet = Packet {
            uid: 0,
            ip: Ipv4Header { src, dst, ttl: 64, ecn: Ecn::NotEct },
            transport: Transport::Tcp(seg),
            size: 40 + seg.wire_len(),
            flow: 0,
            seq: 0,
            created: Instant::ZERO,
        };
        PacketRecord {
            time: Instant::from_ps(100_000_000_000),
            event: PacketEvent::Dequeue,
            channel: 0,
            from: src,
            to: dst,
            packet,
            congestion_action: false,
            early_drop: false,
        }
    }

    fn text(r: &PacketRecord) -> String {
        let view =
            FlowView::Tcp { client: 1, client_iss: 0, server_iss: 5000, mss: 1460, syn: true, fid: 0, full_tcp: false };
        let mut out = Vec::new();
        write_packet(&mut out, r, Some(&view)).unwrap();
        String::from_utf8(out).unwrap()
    }

    #[test]
    fn syn_shows_absolute_sequence_and_options() {
        let mut seg = TcpRepr { src_port: 1025, dst_port: 80, seq: SeqNum(0), window: 65535, ..TcpRepr::default() };
        seg.flags = TcpFlags { syn: true, ..TcpFlags::default() };
        seg.options.mss = Some(1460);
        assert_eq!(text(&record(seg, 1, 0)), "0.100000 10.0.0.2.1025 > 10.0.0.1.80: S 0:0(0) win 65535 <mss 1460>\n");
    }

    #[test]
    fn data_shows_relative_sequence_push_and_ack() {
        let mut seg = TcpRepr {
            src_port: 80,
            dst_port: 1025,
            seq: SeqNum(5001),
            ack: SeqNum(1),
            window: 8760,
            payload_len: 1460,
            ..TcpRepr::default()
        };
        seg.flags = TcpFlags { ack: true, psh: true, ..TcpFlags::default() };
        assert_eq!(text(&record(seg, 0, 1)), "0.100000 10.0.0.1.80 > 10.0.0.2.1025: P 1:1461(1460) ack 1 win 8760\n");
    }

    #[test]
    fn a_pure_ack_shows_a_dot() {
        let mut seg = TcpRepr {
            src_port: 1025,
            dst_port: 80,
            seq: SeqNum(1),
            ack: SeqNum(6461),
            window: 65535,
            ..TcpRepr::default()
        };
        seg.flags = TcpFlags { ack: true, ..TcpFlags::default() };
        assert_eq!(text(&record(seg, 1, 0)), "0.100000 10.0.0.2.1025 > 10.0.0.1.80: . ack 1461 win 65535\n");
    }
}
