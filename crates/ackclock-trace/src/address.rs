//! Node ids as IPv4 addresses: node n is 10.0.0.0 + n + 1; a broadcast
//! (routing messages to every neighbour) is 255.255.255.255.

use ackclock_net::{NodeId, BROADCAST};

pub fn ipv4_of(node: NodeId) -> [u8; 4] {
    if node == BROADCAST {
        return [255; 4];
    }
    let host = 0x0a00_0000u32.wrapping_add(node).wrapping_add(1);
    host.to_be_bytes()
}

pub fn dotted(node: NodeId) -> String {
    let [a, b, c, d] = ipv4_of(node);
    format!("{a}.{b}.{c}.{d}")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn nodes_map_to_ten_slash_eight() {
        assert_eq!(dotted(0), "10.0.0.1");
        assert_eq!(dotted(255), "10.0.1.0");
        assert_eq!(dotted(BROADCAST), "255.255.255.255");
    }
}
