//! Static shortest-path routing, computed once before a run.
//!
//! Paths minimise hop count. Ties go to the channel created first, so
//! routes depend only on the order the topology was built in.

use crate::packet::NodeId;
use std::collections::VecDeque;

pub type ChannelId = u32;

const NO_ROUTE: ChannelId = ChannelId::MAX;

/// next_hop[src * n + dst]: the channel `src` sends on to reach `dst`.
#[derive(Clone, Debug, Default)]
pub struct RoutingTable {
    nodes: usize,
    next_hop: Vec<ChannelId>,
}

impl RoutingTable {
    /// `channels[i] = (from, to)` of channel i.
    pub fn shortest_paths(nodes: usize, channels: &[(NodeId, NodeId)]) -> Self {
        let mut out: Vec<Vec<(ChannelId, NodeId)>> = vec![Vec::new(); nodes];
        for (id, &(from, to)) in channels.iter().enumerate() {
            out[from as usize].push((id as ChannelId, to));
        }
        let mut next_hop = vec![NO_ROUTE; nodes * nodes];
        let mut queue = VecDeque::new();
        for src in 0..nodes {
            // BFS from src; each node inherits the first hop it was reached by.
            let row = &mut next_hop[src * nodes..(src + 1) * nodes];
            let mut seen = vec![false; nodes];
            seen[src] = true;
            for &(ch, to) in &out[src] {
                if !seen[to as usize] {
                    seen[to as usize] = true;
                    row[to as usize] = ch;
                    queue.push_back(to);
                }
            }
            while let Some(node) = queue.pop_front() {
                let first_hop = row[node as usize];
                for &(_, to) in &out[node as usize] {
                    if !seen[to as usize] {
                        seen[to as usize] = true;
                        row[to as usize] = first_hop;
                        queue.push_back(to);
                    }
                }
            }
        }
        RoutingTable { nodes, next_hop }
    }

    /// The channel to forward on from `at` towards `dst`; `None` when `dst`
    /// is unreachable or is `at` itself.
    pub fn next_hop(&self, at: NodeId, dst: NodeId) -> Option<ChannelId> {
        let (at, dst) = (at as usize, dst as usize);
        if at >= self.nodes || dst >= self.nodes {
            return None;
        }
        Some(self.next_hop[at * self.nodes + dst]).filter(|&c| c != NO_ROUTE)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn routes_follow_fewest_hops() {
        // 0-1-2-3 chain plus a shortcut 0->3.
        let ch = [(0, 1), (1, 0), (1, 2), (2, 1), (2, 3), (3, 2), (0, 3)];
        let r = RoutingTable::shortest_paths(4, &ch);
        assert_eq!(r.next_hop(0, 3), Some(6));
        assert_eq!(r.next_hop(0, 2), Some(0));
        assert_eq!(r.next_hop(3, 0), Some(5), "no 3->0 shortcut: back along the chain");
        // 1->0->3 and 1->2->3 both take two hops; channel 1 (to 0) came first.
        assert_eq!(r.next_hop(1, 3), Some(1));
    }

    #[test]
    fn ties_go_to_the_first_created_channel() {
        // Two equal paths 0->1->3 and 0->2->3; channel 0 (to 1) was made first.
        let ch = [(0, 1), (0, 2), (1, 3), (2, 3)];
        let r = RoutingTable::shortest_paths(4, &ch);
        assert_eq!(r.next_hop(0, 3), Some(0));
    }

    #[test]
    fn unreachable_and_self_have_no_route() {
        let r = RoutingTable::shortest_paths(3, &[(0, 1)]);
        assert_eq!(r.next_hop(1, 0), None);
        assert_eq!(r.next_hop(0, 2), None);
        assert_eq!(r.next_hop(0, 0), None);
    }
}
