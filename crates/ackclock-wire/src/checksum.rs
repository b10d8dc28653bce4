//! The Internet checksum (RFC 1071).

/// Ones'-complement sum of 16-bit big-endian words, folded to 16 bits but
/// not complemented, so partial sums can be combined.
pub fn sum(data: &[u8], mut acc: u32) -> u32 {
    let mut chunks = data.chunks_exact(2);
    for c in &mut chunks {
        acc += u32::from(u16::from_be_bytes([c[0], c[1]]));
    }
    if let [last] = chunks.remainder() {
        acc += u32::from(*last) << 8;
    }
    fold(acc)
}

pub fn fold(mut acc: u32) -> u32 {
    while acc > 0xffff {
        acc = (acc & 0xffff) + (acc >> 16);
    }
    acc
}

/// The checksum field value for data whose partial sum is `acc`.
pub fn finish(acc: u32) -> u16 {
    !(fold(acc) as u16)
}

/// The IPv4 pseudo-header's partial sum (RFC 9293 §3.1, RFC 768).
pub fn pseudo_header(src: [u8; 4], dst: [u8; 4], protocol: u8, length: u32) -> u32 {
    let mut acc = sum(&src, 0);
    acc = sum(&dst, acc);
    fold(acc + u32::from(protocol) + (length & 0xffff) + (length >> 16))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rfc1071_example_sums_correctly() {
        // RFC 1071 §3: 00 01 f2 03 f4 f5 f6 f7 sums to ddf2.
        let data = [0x00, 0x01, 0xf2, 0x03, 0xf4, 0xf5, 0xf6, 0xf7];
        assert_eq!(sum(&data, 0), 0xddf2);
        assert_eq!(finish(sum(&data, 0)), !0xddf2);
    }

    #[test]
    fn data_with_its_checksum_sums_to_all_ones() {
        let mut data = vec![0x45, 0x00, 0x00, 0x3c, 0x1c, 0x46, 0x40, 0x00, 0x40, 0x06, 0, 0, 0xac, 0x10, 0x0a, 0x63];
        let c = finish(sum(&data, 0));
        data[10..12].copy_from_slice(&c.to_be_bytes());
        assert_eq!(sum(&data, 0), 0xffff);
    }
}
