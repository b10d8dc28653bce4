//! Shortest paths over the whole topology (ns-2's static routing).
//!
//! Paths minimise the sum of link costs. Ties go to the path whose first
//! hop was found first, scanning each node's interfaces in the order they
//! were created, so routes depend only on the order the topology was built
//! in. With unit costs this is exactly a breadth-first search.

use super::{Adjacency, NextHop, BROADCAST};
use crate::packet::NodeId;
use std::cmp::Reverse;
use std::collections::BinaryHeap;

/// The first hop from `src` towards every node (`None` for `src` itself
/// and for nodes it cannot reach), over the adjacencies that are up.
/// `adjacencies[n]` lists node n's neighbours in interface order.
pub fn shortest_paths(adjacencies: &[Vec<Adjacency>], src: NodeId) -> Vec<Option<NextHop>> {
    let n = adjacencies.len();
    let mut first_hop = vec![None; n];
    let mut distance = vec![u64::MAX; n];
    // (distance, discovery order, node): among equal distances, nodes are
    // settled in the order they were reached, as a breadth-first search does.
    let mut frontier = BinaryHeap::new();
    let mut discovered = 0u64;
    distance[src as usize] = 0;
    frontier.push(Reverse((0u64, discovered, src)));
    while let Some(Reverse((d, _, node))) = frontier.pop() {
        if d > distance[node as usize] {
            continue; // reached again later by a shorter path
        }
        // A radio's broadcast adjacency leads to no node in particular.
        for adj in adjacencies[node as usize].iter().filter(|a| a.up && a.neighbor != BROADCAST) {
            let to = adj.neighbor as usize;
            let through = d + u64::from(adj.cost);
            if through < distance[to] {
                distance[to] = through;
                first_hop[to] = if node == src { Some(adj.via) } else { first_hop[node as usize] };
                discovered += 1;
                frontier.push(Reverse((through, discovered, adj.neighbor)));
            }
        }
    }
    first_hop[src as usize] = None;
    first_hop
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Adjacencies of channels given as (from, to, cost), channel i = NextHop::Link(i).
    fn topology(nodes: usize, channels: &[(NodeId, NodeId, u32)]) -> Vec<Vec<Adjacency>> {
        let mut adj = vec![Vec::new(); nodes];
        for (id, &(from, to, cost)) in channels.iter().enumerate() {
            adj[from as usize].push(Adjacency {
                via: NextHop::Link(id as u32),
                neighbor: to,
                cost,
                up: true,
                peer: false,
            });
        }
        adj
    }

    fn unit(channels: &[(NodeId, NodeId)]) -> Vec<(NodeId, NodeId, u32)> {
        channels.iter().map(|&(a, b)| (a, b, 1)).collect()
    }

    fn hop(adj: &[Vec<Adjacency>], src: NodeId, dst: NodeId) -> Option<u32> {
        shortest_paths(adj, src)[dst as usize].map(|h| match h {
            NextHop::Link(c) => c,
            NextHop::Nic { .. } => unreachable!("links only"),
        })
    }

    #[test]
    fn routes_follow_fewest_hops() {
        // 0-1-2-3 chain plus a shortcut 0->3.
        let adj = topology(4, &unit(&[(0, 1), (1, 0), (1, 2), (2, 1), (2, 3), (3, 2), (0, 3)]));
        assert_eq!(hop(&adj, 0, 3), Some(6));
        assert_eq!(hop(&adj, 0, 2), Some(0));
        assert_eq!(hop(&adj, 3, 0), Some(5), "no 3->0 shortcut: back along the chain");
        // 1->0->3 and 1->2->3 both take two hops; channel 1 (to 0) came first.
        assert_eq!(hop(&adj, 1, 3), Some(1));
    }

    #[test]
    fn ties_go_to_the_first_created_channel() {
        // Two equal paths 0->1->3 and 0->2->3; channel 0 (to 1) was made first.
        let adj = topology(4, &unit(&[(0, 1), (0, 2), (1, 3), (2, 3)]));
        assert_eq!(hop(&adj, 0, 3), Some(0));
        // Two parallel links 0->1: the first one carries the traffic.
        let adj = topology(2, &unit(&[(0, 1), (0, 1)]));
        assert_eq!(hop(&adj, 0, 1), Some(0));
    }

    #[test]
    fn unreachable_and_self_have_no_route() {
        let adj = topology(3, &unit(&[(0, 1)]));
        assert_eq!(hop(&adj, 1, 0), None);
        assert_eq!(hop(&adj, 0, 2), None);
        assert_eq!(hop(&adj, 0, 0), None);
    }

    #[test]
    fn costs_make_a_longer_path_shorter() {
        // 0->3 directly at cost 5, or 0->1->2->3 at cost 3.
        let adj = topology(4, &[(0, 3, 5), (0, 1, 1), (1, 2, 1), (2, 3, 1)]);
        assert_eq!(hop(&adj, 0, 3), Some(1));
        // A later, cheaper path replaces an earlier, dearer one: 0->2 is
        // found first at cost 10 and improved through 1 (cost 2).
        let adj = topology(3, &[(0, 2, 10), (0, 1, 1), (1, 2, 1)]);
        assert_eq!(hop(&adj, 0, 2), Some(1));
    }

    #[test]
    fn links_that_are_down_carry_no_route() {
        let mut adj = topology(3, &unit(&[(0, 1), (1, 2), (0, 2)]));
        assert_eq!(hop(&adj, 0, 2), Some(2));
        adj[0][1].up = false;
        assert_eq!(hop(&adj, 0, 2), Some(0), "around through 1");
    }

    proptest::proptest! {
        /// With unit costs the search settles nodes exactly as a
        /// breadth-first search does, so its routes are BFS's.
        #[test]
        fn unit_costs_give_breadth_first_routes(
            channels in proptest::collection::vec((0u32..8, 0u32..8), 0..30),
        ) {
            let channels: Vec<_> = channels.into_iter().filter(|(a, b)| a != b).collect();
            let adj = topology(8, &unit(&channels));
            for src in 0..8 {
                proptest::prop_assert_eq!(shortest_paths(&adj, src), breadth_first(&adj, src));
            }
        }
    }

    /// The plain breadth-first search: each node inherits the first hop it
    /// was reached by.
    fn breadth_first(adj: &[Vec<Adjacency>], src: NodeId) -> Vec<Option<NextHop>> {
        let mut row = vec![None; adj.len()];
        let mut seen = vec![false; adj.len()];
        seen[src as usize] = true;
        let mut queue = std::collections::VecDeque::from([src]);
        while let Some(node) = queue.pop_front() {
            for a in &adj[node as usize] {
                if !std::mem::replace(&mut seen[a.neighbor as usize], true) {
                    row[a.neighbor as usize] = if node == src { Some(a.via) } else { row[node as usize] };
                    queue.push_back(a.neighbor);
                }
            }
        }
        row
    }
}
