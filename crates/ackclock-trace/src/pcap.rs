//! pcap files (nanosecond timestamps) with the exact bytes of each
//! packet's headers; virtual payloads are zero bytes. A capture on links
//! holds raw IPv4 packets; one on a radio NIC holds 802.11 frames: a data
//! frame's 24-byte header, LLC/SNAP and the IPv4 packet, and RTS, CTS and
//! ACK control frames (without frame check sequences).

use crate::address::ipv4_of;
use crate::record::FrameRecord;
use ackclock_core::Instant;
use ackclock_net::{FrameKind, LinkAddress, NodeId, Packet, Transport, ARP_FLOW, ARP_REQUEST};
use ackclock_wire::ip::{emit_tcp, emit_udp, Ipv4Repr, PROTO_TCP, PROTO_UDP};
use std::io::{self, Write};

/// pcap's magic for nanosecond-resolution timestamps.
const MAGIC_NANOS: u32 = 0xa1b2_3c4d;

/// What a pcap file's records start with.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LinkType {
    /// LINKTYPE_RAW: an IP header.
    Raw = 101,
    /// LINKTYPE_IEEE802_11: an 802.11 MAC header.
    Ieee80211 = 105,
}

pub struct PcapWriter<W: Write> {
    out: W,
    snaplen: u32,
    scratch: Vec<u8>,
}

impl<W: Write> PcapWriter<W> {
    /// Writes the file header. `snaplen` caps the bytes kept per packet.
    pub fn new(mut out: W, snaplen: u32, link_type: LinkType) -> io::Result<Self> {
        let mut header = Vec::with_capacity(24);
        header.extend_from_slice(&MAGIC_NANOS.to_le_bytes());
        header.extend_from_slice(&2u16.to_le_bytes());
        header.extend_from_slice(&4u16.to_le_bytes());
        header.extend_from_slice(&[0; 8]); // time zone, accuracy
        header.extend_from_slice(&snaplen.to_le_bytes());
        header.extend_from_slice(&(link_type as u32).to_le_bytes());
        out.write_all(&header)?;
        Ok(PcapWriter { out, snaplen, scratch: Vec::new() })
    }

    pub fn write_packet(&mut self, time: Instant, p: &Packet) -> io::Result<()> {
        self.scratch.clear();
        packet_bytes(p, &mut self.scratch);
        self.write_record(time)
    }

    pub fn write_frame(&mut self, f: &FrameRecord) -> io::Result<()> {
        self.scratch.clear();
        frame_bytes(f, &mut self.scratch);
        self.write_record(f.time)
    }

    /// Writes the bytes in `scratch` as one record.
    fn write_record(&mut self, time: Instant) -> io::Result<()> {
        let caplen = (self.scratch.len() as u32).min(self.snaplen);
        let ns = time.as_ps() / 1_000;
        let mut rec = Vec::with_capacity(16);
        rec.extend_from_slice(&((ns / 1_000_000_000) as u32).to_le_bytes());
        rec.extend_from_slice(&((ns % 1_000_000_000) as u32).to_le_bytes());
        rec.extend_from_slice(&caplen.to_le_bytes());
        rec.extend_from_slice(&(self.scratch.len() as u32).to_le_bytes());
        self.out.write_all(&rec)?;
        self.out.write_all(&self.scratch[..caplen as usize])
    }

    pub fn flush(&mut self) -> io::Result<()> {
        self.out.flush()
    }
}

/// The packet as it would be on the wire: IPv4 header, transport header,
/// zero payload.
pub fn packet_bytes(p: &Packet, out: &mut Vec<u8>) {
    let protocol = match p.transport {
        Transport::Tcp(_) => PROTO_TCP,
        Transport::Udp(_) => PROTO_UDP,
    };
    let ip = Ipv4Repr {
        src: ipv4_of(p.ip.src),
        dst: ipv4_of(p.ip.dst),
        protocol,
        total_len: p.size.min(u32::from(u16::MAX)) as u16,
        ident: p.uid as u16,
        ttl: p.ip.ttl,
        ecn: p.ip.ecn as u8,
    };
    ip.emit(out);
    match p.transport {
        Transport::Tcp(seg) => {
            // Options that cannot be encoded are dropped rather than writing
            // a malformed header (the TCP never builds such a segment).
            if emit_tcp(out, &ip, &seg).is_none() {
                let mut bare = seg;
                bare.options = Default::default();
                emit_tcp(out, &ip, &bare).expect("no options always fit");
            }
        }
        Transport::Udp(h) => emit_udp(out, &ip, h.src_port, h.dst_port, p.size.saturating_sub(28)),
    }
}

/// 802.11's frame control bytes (type and subtype; no To/From DS bits, as
/// in an ad hoc network) and the retry flag.
fn frame_control(kind: FrameKind, retry: bool) -> [u8; 2] {
    let first = match kind {
        FrameKind::Data => 0x08,
        FrameKind::Rts => 0xb4,
        FrameKind::Cts => 0xc4,
        FrameKind::Ack => 0xd4,
    };
    [first, if retry { 0x08 } else { 0 }]
}

/// A node's MAC address: locally administered, the node id in the low
/// four bytes.
fn mac_of(node: NodeId) -> [u8; 6] {
    let [a, b, c, d] = node.to_be_bytes();
    [0x02, 0, a, b, c, d]
}

fn address(to: LinkAddress) -> [u8; 6] {
    match to {
        LinkAddress::Node(n) => mac_of(n),
        LinkAddress::Broadcast => [0xff; 6],
    }
}

/// LLC/SNAP with the ether type of IPv4 (or ARP), before a data frame's
/// packet.
const LLC_SNAP_IPV4: [u8; 8] = [0xaa, 0xaa, 0x03, 0, 0, 0, 0x08, 0x00];
const LLC_SNAP_ARP: [u8; 8] = [0xaa, 0xaa, 0x03, 0, 0, 0, 0x08, 0x06];

/// An ARP packet (RFC 826, Ethernet and IPv4 addresses): a request asks
/// for the target's hardware address, so it leaves it zero.
fn arp_bytes(p: &Packet, out: &mut Vec<u8>) {
    let op: u16 = if p.seq == ARP_REQUEST { 1 } else { 2 };
    out.extend_from_slice(&[0, 1, 0x08, 0x00, 6, 4]);
    out.extend_from_slice(&op.to_be_bytes());
    out.extend_from_slice(&mac_of(p.ip.src));
    out.extend_from_slice(&ipv4_of(p.ip.src));
    out.extend_from_slice(&if p.seq == ARP_REQUEST { [0; 6] } else { mac_of(p.ip.dst) });
    out.extend_from_slice(&ipv4_of(p.ip.dst));
}

/// The frame as 802.11 puts it on the air, less the PLCP preamble and the
/// FCS: control frames with their receiver (and, for RTS, transmitter)
/// address; data frames with addresses 1 to 3 (receiver, transmitter and a
/// BSSID of zeros), the sequence number, LLC/SNAP and the IPv4 packet.
pub fn frame_bytes(f: &FrameRecord, out: &mut Vec<u8>) {
    out.extend_from_slice(&frame_control(f.header.kind, f.header.retry));
    let duration_us = (f.header.nav.as_ps() / 1_000_000).min(0x7fff) as u16;
    out.extend_from_slice(&duration_us.to_le_bytes());
    out.extend_from_slice(&address(f.to));
    match f.header.kind {
        FrameKind::Cts | FrameKind::Ack => {}
        FrameKind::Rts => out.extend_from_slice(&mac_of(f.from)),
        FrameKind::Data => {
            out.extend_from_slice(&mac_of(f.from));
            out.extend_from_slice(&[0; 6]);
            out.extend_from_slice(&((f.header.seq & 0x0fff) << 4).to_le_bytes());
            match &f.packet {
                Some(p) if p.flow == ARP_FLOW => {
                    out.extend_from_slice(&LLC_SNAP_ARP);
                    arp_bytes(p, out);
                }
                Some(p) => {
                    out.extend_from_slice(&LLC_SNAP_IPV4);
                    packet_bytes(p, out);
                }
                None => {}
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use ackclock_core::Duration;
    use ackclock_net::MacHeader;

    fn frame(kind: FrameKind, to: LinkAddress, nav_us: u64) -> FrameRecord {
        let header = MacHeader { kind, nav: Duration::from_micros(nav_us), seq: 0x123, retry: false };
        FrameRecord { time: Instant::ZERO, nic: 0, from: 1, to, header, packet: None }
    }

    #[test]
    fn control_frames_have_802_11_layouts() {
        let mut out = Vec::new();
        frame_bytes(&frame(FrameKind::Rts, LinkAddress::Node(2), 1554), &mut out);
        assert_eq!(out, [0xb4, 0, 0x12, 0x06, 2, 0, 0, 0, 0, 2, 2, 0, 0, 0, 0, 1], "RTS: 16 bytes, RA then TA");
        out.clear();
        frame_bytes(&frame(FrameKind::Ack, LinkAddress::Node(1), 0), &mut out);
        assert_eq!(out, [0xd4, 0, 0, 0, 2, 0, 0, 0, 0, 1], "ACK: 10 bytes");
    }

    #[test]
    fn a_data_frame_is_a_24_byte_header_then_llc_snap_then_the_packet() {
        let mut f = frame(FrameKind::Data, LinkAddress::Broadcast, 0);
        f.header.retry = true;
        let mut out = Vec::new();
        frame_bytes(&f, &mut out);
        assert_eq!(&out[..2], &[0x08, 0x08], "data, retry");
        assert_eq!(&out[4..10], &[0xff; 6]);
        assert_eq!(&out[22..24], &[0x30, 0x12], "sequence number 0x123 above the fragment number");
        assert_eq!(out.len(), 24, "no packet, no LLC");
    }

    #[test]
    fn an_arp_reply_is_llc_snap_0806_then_rfc_826() {
        use ackclock_net::{Ecn, Ipv4Header, Transport, UdpHeader, ARP_REPLY};
        let ip = Ipv4Header { src: 1, dst: 0, ttl: 64, ecn: Ecn::NotEct };
        let transport = Transport::Udp(UdpHeader { src_port: 0, dst_port: 0 });
        let created = Instant::ZERO;
        let reply = Packet { uid: 7, ip, transport, size: 28, flow: ARP_FLOW, seq: ARP_REPLY, created };
        let mut f = frame(FrameKind::Data, LinkAddress::Node(0), 314);
        f.packet = Some(reply);
        let mut out = Vec::new();
        frame_bytes(&f, &mut out);
        assert_eq!(&out[24..32], &[0xaa, 0xaa, 3, 0, 0, 0, 0x08, 0x06]);
        let arp = &out[32..];
        assert_eq!(arp.len(), 28);
        assert_eq!(&arp[..8], &[0, 1, 0x08, 0, 6, 4, 0, 2], "Ethernet, IPv4, reply");
        assert_eq!(&arp[8..14], &[2, 0, 0, 0, 0, 1], "the sender's MAC");
        assert_eq!(&arp[14..18], &[10, 0, 0, 2], "and IP address");
        assert_eq!(&arp[18..28], &[2, 0, 0, 0, 0, 0, 10, 0, 0, 1], "the target's");
    }
}
