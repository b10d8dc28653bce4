//! The TCP segment as a value: header fields, options and a payload length.

use crate::seq::SeqNum;

/// Header bytes without options.
pub const TCP_HEADER_BYTES: u32 = 20;
/// Bytes available for options (RFC 9293: data offset of at most 15 words).
pub const MAX_OPTION_BYTES: u32 = 40;

#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub struct TcpFlags {
    pub syn: bool,
    pub ack: bool,
    pub fin: bool,
    pub rst: bool,
    pub psh: bool,
    pub ece: bool,
    pub cwr: bool,
}

/// Up to four SACK blocks (RFC 2018), each [left, right).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub struct SackBlocks {
    blocks: [(SeqNum, SeqNum); 4],
    len: u8,
}

impl SackBlocks {
    pub fn as_slice(&self) -> &[(SeqNum, SeqNum)] {
        &self.blocks[..self.len as usize]
    }
    /// Appends a block; returns false when all four slots are used.
    pub fn push(&mut self, block: (SeqNum, SeqNum)) -> bool {
        if self.len as usize == self.blocks.len() {
            return false;
        }
        self.blocks[self.len as usize] = block;
        self.len += 1;
        true
    }
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub struct TcpOptions {
    pub mss: Option<u16>,
    pub window_scale: Option<u8>,
    pub sack_permitted: bool,
    /// (TSval, TSecr), RFC 7323.
    pub timestamps: Option<(u32, u32)>,
    pub sack: SackBlocks,
}

impl TcpOptions {
    /// Encoded length in bytes, padded to a multiple of four.
    pub fn wire_len(&self) -> u32 {
        let mut n = 0;
        if self.mss.is_some() {
            n += 4;
        }
        if self.window_scale.is_some() {
            n += 3;
        }
        if self.sack_permitted {
            n += 2;
        }
        if self.timestamps.is_some() {
            n += 10;
        }
        if !self.sack.is_empty() {
            n += 2 + 8 * self.sack.as_slice().len() as u32;
        }
        n.div_ceil(4) * 4
    }
}

/// A TCP segment. The payload is virtual: only its length travels.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub struct TcpRepr {
    pub src_port: u16,
    pub dst_port: u16,
    pub seq: SeqNum,
    pub ack: SeqNum,
    pub flags: TcpFlags,
    /// The window field as sent (before scaling).
    pub window: u16,
    pub options: TcpOptions,
    pub payload_len: u32,
}

impl TcpRepr {
    /// Sequence space the segment occupies: payload plus one each for SYN and FIN.
    pub fn seq_len(&self) -> u32 {
        self.payload_len + u32::from(self.flags.syn) + u32::from(self.flags.fin)
    }

    /// TCP header plus options plus payload.
    pub fn wire_len(&self) -> u32 {
        TCP_HEADER_BYTES + self.options.wire_len() + self.payload_len
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn option_lengths_are_padded_to_words() {
        let mut o = TcpOptions { mss: Some(1460), ..TcpOptions::default() };
        assert_eq!(o.wire_len(), 4);
        o.window_scale = Some(7);
        o.sack_permitted = true;
        assert_eq!(o.wire_len(), 12, "4 + 3 + 2 = 9, padded to 12");
        o.timestamps = Some((1, 0));
        assert_eq!(o.wire_len(), 20);
    }

    #[test]
    fn syn_and_fin_occupy_sequence_space() {
        let mut s = TcpRepr { payload_len: 100, ..TcpRepr::default() };
        assert_eq!(s.seq_len(), 100);
        s.flags.syn = true;
        s.flags.fin = true;
        assert_eq!(s.seq_len(), 102);
        assert_eq!(s.wire_len(), 120);
    }
}
