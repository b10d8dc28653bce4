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

// Option kinds (RFC 9293, RFC 7323, RFC 2018).
const EOL: u8 = 0;
const NOP: u8 = 1;
const KIND_MSS: u8 = 2;
const KIND_WINDOW_SCALE: u8 = 3;
const KIND_SACK_PERMITTED: u8 = 4;
const KIND_SACK: u8 = 5;
const KIND_TIMESTAMPS: u8 = 8;

impl TcpOptions {
    /// Encoded length in bytes. The layout (Linux's) keeps every option
    /// word-aligned with NOPs, so the length is always a multiple of four:
    /// MSS 4; SACK-permitted with timestamps 12, either alone 4 or 12;
    /// NOP + window scale 4; NOP NOP + SACK 4 + 8 per block.
    pub fn wire_len(&self) -> u32 {
        let mss = if self.mss.is_some() { 4 } else { 0 };
        let sack_ts = match (self.sack_permitted, self.timestamps.is_some()) {
            (true, true) | (false, true) => 12,
            (true, false) => 4,
            (false, false) => 0,
        };
        let ws = if self.window_scale.is_some() { 4 } else { 0 };
        let blocks = self.sack.as_slice().len() as u32;
        let sack = if blocks > 0 { 4 + 8 * blocks } else { 0 };
        mss + sack_ts + ws + sack
    }

    /// Writes the options into `out` and returns their length, which equals
    /// `wire_len()`; `None` when they exceed the 40 bytes TCP allows.
    pub fn emit(&self, out: &mut [u8; MAX_OPTION_BYTES as usize]) -> Option<usize> {
        if self.wire_len() > MAX_OPTION_BYTES {
            return None;
        }
        let mut n = 0;
        let mut put = |bytes: &[u8]| {
            out[n..n + bytes.len()].copy_from_slice(bytes);
            n += bytes.len();
        };
        if let Some(mss) = self.mss {
            put(&[KIND_MSS, 4]);
            put(&mss.to_be_bytes());
        }
        match (self.sack_permitted, self.timestamps) {
            (true, Some(_)) => put(&[KIND_SACK_PERMITTED, 2]),
            (true, None) => put(&[NOP, NOP, KIND_SACK_PERMITTED, 2]),
            (false, Some(_)) => put(&[NOP, NOP]),
            (false, None) => {}
        }
        if let Some((tsval, tsecr)) = self.timestamps {
            put(&[KIND_TIMESTAMPS, 10]);
            put(&tsval.to_be_bytes());
            put(&tsecr.to_be_bytes());
        }
        if let Some(shift) = self.window_scale {
            put(&[NOP, KIND_WINDOW_SCALE, 3, shift]);
        }
        let blocks = self.sack.as_slice();
        if !blocks.is_empty() {
            put(&[NOP, NOP, KIND_SACK, 2 + 8 * blocks.len() as u8]);
            for (left, right) in blocks {
                put(&left.0.to_be_bytes());
                put(&right.0.to_be_bytes());
            }
        }
        Some(n)
    }

    /// Parses an options field (ignoring unknown options, stopping at EOL).
    pub fn parse(mut bytes: &[u8]) -> Result<TcpOptions, &'static str> {
        let mut o = TcpOptions::default();
        while let Some(&kind) = bytes.first() {
            match kind {
                EOL => break,
                NOP => {
                    bytes = &bytes[1..];
                    continue;
                }
                _ => {}
            }
            let len = *bytes.get(1).ok_or("option without length")? as usize;
            if len < 2 || len > bytes.len() {
                return Err("option length out of range");
            }
            let body = &bytes[2..len];
            match (kind, body.len()) {
                (KIND_MSS, 2) => o.mss = Some(u16::from_be_bytes([body[0], body[1]])),
                (KIND_WINDOW_SCALE, 1) => o.window_scale = Some(body[0]),
                (KIND_SACK_PERMITTED, 0) => o.sack_permitted = true,
                (KIND_TIMESTAMPS, 8) => {
                    let word = |i: usize| u32::from_be_bytes([body[i], body[i + 1], body[i + 2], body[i + 3]]);
                    o.timestamps = Some((word(0), word(4)));
                }
                (KIND_SACK, n) if n % 8 == 0 => {
                    for b in body.chunks_exact(8) {
                        let word = |i: usize| SeqNum(u32::from_be_bytes([b[i], b[i + 1], b[i + 2], b[i + 3]]));
                        o.sack.push((word(0), word(4)));
                    }
                }
                (KIND_MSS | KIND_WINDOW_SCALE | KIND_SACK_PERMITTED | KIND_TIMESTAMPS | KIND_SACK, _) => {
                    return Err("option with the wrong length")
                }
                _ => {}
            }
            bytes = &bytes[len..];
        }
        Ok(o)
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
    use proptest::prelude::*;

    fn emitted(o: &TcpOptions) -> Vec<u8> {
        let mut buf = [0u8; 40];
        let n = o.emit(&mut buf).expect("fits");
        buf[..n].to_vec()
    }

    #[test]
    fn syn_options_are_encoded_byte_for_byte() {
        let o = TcpOptions {
            mss: Some(1460),
            window_scale: Some(7),
            sack_permitted: true,
            timestamps: Some((0x01020304, 0)),
            ..TcpOptions::default()
        };
        #[rustfmt::skip]
        let expected = vec![
            2, 4, 0x05, 0xb4,                   // MSS 1460
            4, 2,                               // SACK permitted
            8, 10, 1, 2, 3, 4, 0, 0, 0, 0,      // timestamps
            1, 3, 3, 7,                         // NOP, window scale 7
        ];
        assert_eq!(emitted(&o), expected);
        assert_eq!(o.wire_len(), 20);
    }

    #[test]
    fn lone_options_are_padded_with_nops() {
        let sack_ok = TcpOptions { sack_permitted: true, ..TcpOptions::default() };
        assert_eq!(emitted(&sack_ok), vec![1, 1, 4, 2]);
        let ws = TcpOptions { window_scale: Some(2), ..TcpOptions::default() };
        assert_eq!(emitted(&ws), vec![1, 3, 3, 2]);
        let ts = TcpOptions { timestamps: Some((5, 6)), ..TcpOptions::default() };
        assert_eq!(emitted(&ts), vec![1, 1, 8, 10, 0, 0, 0, 5, 0, 0, 0, 6]);
    }

    #[test]
    fn sack_blocks_follow_two_nops() {
        let mut o = TcpOptions::default();
        o.sack.push((SeqNum(1000), SeqNum(2000)));
        assert_eq!(emitted(&o), vec![1, 1, 5, 10, 0, 0, 3, 0xe8, 0, 0, 7, 0xd0]);
    }

    #[test]
    fn the_forty_byte_limit_allows_three_blocks_with_timestamps_and_four_without() {
        let mut o = TcpOptions { timestamps: Some((1, 2)), ..TcpOptions::default() };
        for i in 0..3 {
            o.sack.push((SeqNum(i * 100), SeqNum(i * 100 + 50)));
        }
        assert_eq!(o.wire_len(), 40);
        assert!(o.emit(&mut [0; 40]).is_some());
        o.sack.push((SeqNum(900), SeqNum(950)));
        assert_eq!(o.emit(&mut [0; 40]), None, "four blocks and timestamps exceed 40 bytes");
        o.timestamps = None;
        assert_eq!(o.wire_len(), 36);
    }

    #[test]
    fn every_combination_emits_its_wire_len_and_parses_back() {
        for bits in 0..32u32 {
            let mut o = TcpOptions {
                mss: (bits & 1 != 0).then_some(536),
                window_scale: (bits & 2 != 0).then_some(14),
                sack_permitted: bits & 4 != 0,
                timestamps: (bits & 8 != 0).then_some((7, 9)),
                ..TcpOptions::default()
            };
            if bits & 16 != 0 {
                o.sack.push((SeqNum(10), SeqNum(20)));
                o.sack.push((SeqNum(30), SeqNum(40)));
            }
            let bytes = emitted(&o);
            assert_eq!(bytes.len() as u32, o.wire_len(), "combination {bits:05b}");
            assert_eq!(bytes.len() % 4, 0);
            assert_eq!(TcpOptions::parse(&bytes), Ok(o), "combination {bits:05b}");
        }
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

    fn options() -> impl Strategy<Value = TcpOptions> {
        let blocks = prop::collection::vec((any::<u32>(), any::<u32>()), 0..=4);
        (any::<Option<u16>>(), any::<Option<u8>>(), any::<bool>(), any::<Option<(u32, u32)>>(), blocks).prop_map(
            |(mss, window_scale, sack_permitted, timestamps, blocks)| {
                let mut o = TcpOptions { mss, window_scale, sack_permitted, timestamps, ..TcpOptions::default() };
                for (left, right) in blocks {
                    o.sack.push((SeqNum(left), SeqNum(right)));
                }
                o
            },
        )
    }

    proptest! {
        /// Whatever bytes arrive as options, parsing returns options or an
        /// error; it never panics or reads past the field.
        #[test]
        fn any_option_bytes_parse_or_are_refused(bytes in prop::collection::vec(any::<u8>(), 0..=60)) {
            let _ = TcpOptions::parse(&bytes);
        }

        /// Options built from well-formed pieces in any order, with NOPs
        /// between them, parse to what they say.
        #[test]
        fn options_in_any_order_with_nops_parse_to_their_values(
            o in options(),
            order in Just((0..5).collect::<Vec<usize>>()).prop_shuffle(),
            nops in prop::collection::vec(0usize..3, 5),
        ) {
            let mut pieces: Vec<Vec<u8>> = vec![Vec::new(); 5];
            if let Some(mss) = o.mss {
                pieces[0] = [&[KIND_MSS, 4][..], &mss.to_be_bytes()].concat();
            }
            if let Some(shift) = o.window_scale {
                pieces[1] = vec![KIND_WINDOW_SCALE, 3, shift];
            }
            if o.sack_permitted {
                pieces[2] = vec![KIND_SACK_PERMITTED, 2];
            }
            if let Some((tsval, tsecr)) = o.timestamps {
                pieces[3] = [&[KIND_TIMESTAMPS, 10][..], &tsval.to_be_bytes(), &tsecr.to_be_bytes()].concat();
            }
            if !o.sack.is_empty() {
                pieces[4] = vec![KIND_SACK, 2 + 8 * o.sack.as_slice().len() as u8];
                for (left, right) in o.sack.as_slice() {
                    pieces[4].extend(left.0.to_be_bytes());
                    pieces[4].extend(right.0.to_be_bytes());
                }
            }
            let mut bytes = Vec::new();
            for (&i, &n) in order.iter().zip(&nops) {
                bytes.extend(std::iter::repeat_n(NOP, n));
                bytes.extend(&pieces[i]);
            }
            prop_assert_eq!(TcpOptions::parse(&bytes), Ok(o));
        }

        /// What `emit` writes (when it fits in 40 bytes) is `wire_len` bytes
        /// that parse back to the same options, and anything after an EOL
        /// is ignored.
        #[test]
        fn emitted_options_parse_back_and_stop_at_eol(o in options(), junk in prop::collection::vec(any::<u8>(), 0..20)) {
            let mut buf = [0u8; 40];
            match o.emit(&mut buf) {
                None => prop_assert!(o.wire_len() > MAX_OPTION_BYTES),
                Some(n) => {
                    prop_assert_eq!(n as u32, o.wire_len());
                    prop_assert_eq!(TcpOptions::parse(&buf[..n]), Ok(o));
                    let with_tail = [&buf[..n], &[EOL], &junk].concat();
                    prop_assert_eq!(TcpOptions::parse(&with_tail), Ok(o));
                }
            }
        }
    }
}
