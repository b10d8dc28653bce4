//! IPv4, TCP and UDP headers as exact wire bytes, with valid checksums.
//!
//! Payloads are virtual: they are written as zero bytes (zeros leave the
//! checksum unchanged, so the sum covers only the headers).

use crate::checksum;
use crate::tcp::{TcpRepr, MAX_OPTION_BYTES, TCP_HEADER_BYTES};

pub const PROTO_TCP: u8 = 6;
pub const PROTO_UDP: u8 = 17;
pub const IPV4_HEADER_BYTES: usize = 20;
pub const UDP_HEADER_BYTES: usize = 8;

/// The two ECN bits of the IP header (RFC 3168 §5).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum Ecn {
    #[default]
    NotEct = 0b00,
    Ect1 = 0b01,
    Ect0 = 0b10,
    Ce = 0b11,
}

impl Ecn {
    pub fn is_capable(self) -> bool {
        self != Ecn::NotEct
    }
}

/// The IPv4 header fields a simulated packet carries.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Ipv4Repr {
    pub src: [u8; 4],
    pub dst: [u8; 4],
    pub protocol: u8,
    /// Total length, header included.
    pub total_len: u16,
    pub ident: u16,
    pub ttl: u8,
    /// The two ECN bits.
    pub ecn: u8,
}

impl Ipv4Repr {
    /// Appends the 20-byte header (no options, don't-fragment set).
    pub fn emit(&self, out: &mut Vec<u8>) {
        let start = out.len();
        out.extend_from_slice(&[0x45, self.ecn & 0b11]);
        out.extend_from_slice(&self.total_len.to_be_bytes());
        out.extend_from_slice(&self.ident.to_be_bytes());
        out.extend_from_slice(&[0x40, 0x00, self.ttl, self.protocol, 0, 0]);
        out.extend_from_slice(&self.src);
        out.extend_from_slice(&self.dst);
        let sum = checksum::finish(checksum::sum(&out[start..], 0));
        out[start + 10..start + 12].copy_from_slice(&sum.to_be_bytes());
    }
}

/// Appends a TCP header with options and `payload_len` zero bytes.
/// `None` when the options do not fit in 40 bytes.
pub fn emit_tcp(out: &mut Vec<u8>, ip: &Ipv4Repr, seg: &TcpRepr) -> Option<()> {
    let mut options = [0u8; MAX_OPTION_BYTES as usize];
    let opt_len = seg.options.emit(&mut options)?;
    let header_len = TCP_HEADER_BYTES as usize + opt_len;
    let start = out.len();
    out.extend_from_slice(&seg.src_port.to_be_bytes());
    out.extend_from_slice(&seg.dst_port.to_be_bytes());
    out.extend_from_slice(&seg.seq.0.to_be_bytes());
    out.extend_from_slice(&seg.ack.0.to_be_bytes());
    let f = seg.flags;
    let flags = u8::from(f.fin)
        | u8::from(f.syn) << 1
        | u8::from(f.rst) << 2
        | u8::from(f.psh) << 3
        | u8::from(f.ack) << 4
        | u8::from(f.ece) << 6
        | u8::from(f.cwr) << 7;
    out.extend_from_slice(&[((header_len / 4) as u8) << 4, flags]);
    out.extend_from_slice(&seg.window.to_be_bytes());
    out.extend_from_slice(&[0, 0, 0, 0]); // checksum, urgent pointer
    out.extend_from_slice(&options[..opt_len]);
    let length = (header_len as u32) + seg.payload_len;
    let acc = checksum::pseudo_header(ip.src, ip.dst, PROTO_TCP, length);
    let sum = checksum::finish(checksum::sum(&out[start..], acc));
    out[start + 16..start + 18].copy_from_slice(&sum.to_be_bytes());
    out.resize(out.len() + seg.payload_len as usize, 0);
    Some(())
}

/// Appends a UDP header and `payload_len` zero bytes.
pub fn emit_udp(out: &mut Vec<u8>, ip: &Ipv4Repr, src_port: u16, dst_port: u16, payload_len: u32) {
    let length = UDP_HEADER_BYTES as u32 + payload_len;
    let start = out.len();
    out.extend_from_slice(&src_port.to_be_bytes());
    out.extend_from_slice(&dst_port.to_be_bytes());
    out.extend_from_slice(&(length as u16).to_be_bytes());
    out.extend_from_slice(&[0, 0]);
    let acc = checksum::pseudo_header(ip.src, ip.dst, PROTO_UDP, length);
    // RFC 768: a computed zero is sent as all ones.
    let sum = match checksum::finish(checksum::sum(&out[start..], acc)) {
        0 => 0xffff,
        s => s,
    };
    out[start + 6..start + 8].copy_from_slice(&sum.to_be_bytes());
    out.resize(out.len() + payload_len as usize, 0);
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::seq::SeqNum;
    use crate::tcp::TcpFlags;

    fn ip(protocol: u8, total_len: u16) -> Ipv4Repr {
        Ipv4Repr { src: [10, 0, 0, 1], dst: [10, 0, 0, 2], protocol, total_len, ident: 7, ttl: 64, ecn: 0 }
    }

    #[test]
    fn ipv4_header_checksum_verifies() {
        let mut out = Vec::new();
        ip(PROTO_TCP, 40).emit(&mut out);
        assert_eq!(out.len(), 20);
        assert_eq!(checksum::sum(&out, 0), 0xffff);
        assert_eq!(&out[..4], &[0x45, 0, 0, 40]);
    }

    #[test]
    fn tcp_checksum_verifies_over_the_pseudo_header() {
        let mut seg =
            TcpRepr { src_port: 1025, dst_port: 80, seq: SeqNum(1), ack: SeqNum(2), window: 100, ..TcpRepr::default() };
        seg.flags = TcpFlags { ack: true, psh: true, ..TcpFlags::default() };
        seg.options.timestamps = Some((3, 4));
        seg.payload_len = 5;
        let ip = ip(PROTO_TCP, (20 + seg.wire_len()) as u16);
        let mut out = Vec::new();
        emit_tcp(&mut out, &ip, &seg).unwrap();
        assert_eq!(out.len() as u32, seg.wire_len());
        assert_eq!(out[12] >> 4, 8, "data offset: 32 header bytes");
        assert_eq!(out[13], 0x18, "PSH and ACK");
        let acc = checksum::pseudo_header(ip.src, ip.dst, PROTO_TCP, out.len() as u32);
        assert_eq!(checksum::sum(&out, acc), 0xffff);
    }

    #[test]
    fn udp_checksum_verifies() {
        let ip = ip(PROTO_UDP, 20 + 8 + 3);
        let mut out = Vec::new();
        emit_udp(&mut out, &ip, 10, 20, 3);
        assert_eq!(out.len(), 11);
        let acc = checksum::pseudo_header(ip.src, ip.dst, PROTO_UDP, 11);
        assert_eq!(checksum::sum(&out, acc), 0xffff);
    }
}
