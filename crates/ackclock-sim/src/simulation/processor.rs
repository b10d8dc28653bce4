//! Nodes whose packet handling takes time: each packet waits for the
//! node's processor before it is forwarded or delivered.

use super::{Event, Simulation};
use crate::error::ConfigError;
use crate::report::ProcessorReport;
use ackclock_core::Instant;
use ackclock_net::{NodeId, PacketId, Processor, ProcessorConfig};

impl Simulation {
    /// Gives `node` a processor that handles every packet it receives or
    /// sends for a service time, one at a time (`None` removes it: packets
    /// then take no time at the node).
    pub fn set_processor(&mut self, node: NodeId, config: Option<ProcessorConfig>) -> Result<(), ConfigError> {
        self.check_node("node", node)?;
        let n = &mut self.nodes[node as usize];
        if n.processor.as_ref().is_some_and(|p| !p.is_empty()) {
            return Err(ConfigError::invalid("node", n.name.clone(), "its processor is handling packets"));
        }
        n.processor = config.map(|c| Processor::new(c, self.streams.stream(&format!("node/{node}/processor"))));
        self.processors = self.nodes.iter().any(|n| n.processor.is_some());
        Ok(())
    }

    pub(super) fn processor_report(&self, node: NodeId) -> Option<ProcessorReport> {
        let now = self.now();
        let p = self.nodes[node as usize].processor.as_ref()?;
        let s = p.stats();
        let elapsed = now.as_secs_f64();
        Some(ProcessorReport {
            packets: s.packets,
            drops: s.drops,
            utilization: if elapsed > 0.0 { p.busy_time(now).as_secs_f64() / elapsed } else { 0.0 },
            mean_wait_s: (s.accepted > 0).then(|| s.waited.as_secs_f64() / s.accepted as f64),
            max_waiting: s.max_waiting,
            waiting: p.waiting(now),
        })
    }

    /// Hands a packet to `node`'s processor, if it has one; it goes on when
    /// handled.
    #[cold]
    #[inline(never)]
    pub(super) fn process(&mut self, now: Instant, node: NodeId, id: PacketId) {
        let Some(cpu) = self.nodes[node as usize].processor.as_mut() else {
            self.forward(now, node, id);
            return;
        };
        match cpu.accept(now, id) {
            Ok(Some(t)) => {
                self.queue.schedule(t, Event::Processed(node));
            }
            Ok(None) => {}
            Err(refused) => self.drop_packet(refused),
        }
    }

    pub(super) fn on_processed(&mut self, now: Instant, node: NodeId) {
        while let Some(id) = self.nodes[node as usize].processor.as_mut().and_then(|p| p.pop_done(now)) {
            self.forward(now, node, id);
        }
        if let Some(t) = self.nodes[node as usize].processor.as_mut().and_then(|p| p.rearm(now)) {
            self.queue.schedule(t, Event::Processed(node));
        }
    }
}
