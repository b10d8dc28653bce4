//! pcap files (nanosecond timestamps, raw IPv4 link type) with the exact
//! bytes of each packet's headers; virtual payloads are zero bytes.

use crate::address::ipv4_of;
use ackclock_core::Instant;
use ackclock_net::{Packet, Transport};
use ackclock_wire::ip::{emit_tcp, emit_udp, Ipv4Repr, PROTO_TCP, PROTO_UDP};
use std::io::{self, Write};

/// pcap's magic for nanosecond-resolution timestamps.
const MAGIC_NANOS: u32 = 0xa1b2_3c4d;
/// LINKTYPE_RAW: each record starts with an IP header.
const LINKTYPE_RAW: u32 = 101;

pub struct PcapWriter<W: Write> {
    out: W,
    snaplen: u32,
    scratch: Vec<u8>,
}

impl<W: Write> PcapWriter<W> {
    /// Writes the file header. `snaplen` caps the bytes kept per packet.
    pub fn new(mut out: W, snaplen: u32) -> io::Result<Self> {
        let mut header = Vec::with_capacity(24);
        header.extend_from_slice(&MAGIC_NANOS.to_le_bytes());
        header.extend_from_slice(&2u16.to_le_bytes());
        header.extend_from_slice(&4u16.to_le_bytes());
        header.extend_from_slice(&[0; 8]); // time zone, accuracy
        header.extend_from_slice(&snaplen.to_le_bytes());
        header.extend_from_slice(&LINKTYPE_RAW.to_le_bytes());
        out.write_all(&header)?;
        Ok(PcapWriter { out, snaplen, scratch: Vec::new() })
    }

    pub fn write_packet(&mut self, time: Instant, p: &Packet) -> io::Result<()> {
        self.scratch.clear();
        packet_bytes(p, &mut self.scratch);
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
