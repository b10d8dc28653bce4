//! Radio NICs: a radio channel that nodes join with one NIC each, where
//! they are, and where they move (ns-2's `setdest`).

use super::{Event, Simulation};
use crate::error::ConfigError;
use ackclock_core::Instant;
use ackclock_net::mac80211::{Dcf, DcfConfig};
use ackclock_net::{
    Interface, LinkLayer, LinkLayerConfig, MacModel, MediumId, MediumModel, NicId, NodeId, PhyConfig, Position,
    Propagation, Radio,
};

/// How NICs on a radio channel are made.
#[derive(Clone, Copy, Debug)]
pub(super) struct RadioSetup {
    pub medium: MediumId,
    /// Every NIC's 802.11 MAC, with the PHY's thresholds.
    pub mac: DcfConfig,
    pub queue_limit: usize,
    pub link_layer: LinkLayerConfig,
}

/// A scheduled `setdest`.
#[derive(Clone, Copy, Debug)]
pub(super) struct Move {
    nic: NicId,
    x: f64,
    y: f64,
    speed: f64,
}

impl Simulation {
    /// A radio channel: frames reach the NICs on it with the power
    /// `propagation` gives for the distance, after distance / c, unless
    /// below the carrier-sense threshold. Its NICs run the 802.11 MAC `mac`
    /// (with the PHY's receive and capture thresholds) and queue at most
    /// `queue_limit` packets; between each node and its NIC is the link
    /// layer `link_layer` (ns-2's LL: a delay each way, ARP).
    pub fn add_radio(
        &mut self,
        propagation: Propagation,
        phy: PhyConfig,
        mac: DcfConfig,
        queue_limit: usize,
        link_layer: LinkLayerConfig,
    ) -> Result<MediumId, ConfigError> {
        check_phy(&phy)?;
        check_propagation(&propagation)?;
        if queue_limit == 0 {
            return Err(ConfigError::invalid("queue_limit", 0, "must be at least 1"));
        }
        let medium = self.media.len() as MediumId;
        let rng = self.streams.stream(&format!("radio/{medium}"));
        self.media.push(MediumModel::Radio(Radio::new(propagation, phy, rng)));
        let mac = DcfConfig { rx_threshold_w: phy.rx_threshold_w, capture_ratio: phy.capture_threshold, ..mac };
        self.radios.push(RadioSetup { medium, mac, queue_limit, link_layer });
        Ok(medium)
    }

    /// Gives `node` a NIC on the radio channel `medium`, at `at`.
    pub fn attach_radio(&mut self, medium: MediumId, node: NodeId, at: Position) -> Result<NicId, ConfigError> {
        self.check_node("node", node)?;
        let setup = *self.radios.iter().find(|r| r.medium == medium).ok_or(ConfigError::UnknownId {
            field: "radio",
            what: "radio channel",
            id: u64::from(medium),
        })?;
        check_position(at)?;
        if self.radio_nic(node).is_some() {
            let name = self.nodes[node as usize].name.clone();
            return Err(ConfigError::invalid("node", name, "already has a radio NIC"));
        }
        let rng = self.streams.stream(&format!("802.11/{}", self.nodes[node as usize].name));
        let mac = MacModel::Dcf(Box::new(Dcf::new(node, setup.mac, rng)));
        let nic = self.add_nic(node, medium, mac, setup.queue_limit);
        self.nics[nic as usize].link_layer = LinkLayer::new(setup.link_layer);
        let now = self.now();
        self.radio_of(nic).set_position(nic, now, at);
        Ok(nic)
    }

    /// From `at` on, `node` heads in a straight line for (x, y) at `speed`
    /// m/s and stops there (ns-2's `$node setdest x y speed`).
    pub fn schedule_move(&mut self, node: NodeId, at: Instant, x: f64, y: f64, speed: f64) -> Result<(), ConfigError> {
        let nic = self.radio_nic_of("node", node)?;
        if at < self.now() {
            return Err(ConfigError::invalid("at", at, format!("is in the past (now is {})", self.now())));
        }
        check_position(Position { x, y, z: 0.0 })?;
        if !(speed.is_finite() && speed >= 0.0) {
            return Err(ConfigError::invalid("speed", speed, "must be a speed in m/s, zero or more"));
        }
        let id = self.moves.len() as u32;
        self.moves.push(Move { nic, x, y, speed });
        self.queue.schedule(at, Event::Move(id));
        Ok(())
    }

    pub(super) fn on_move(&mut self, now: Instant, id: u32) {
        let m = self.moves[id as usize];
        self.trace_move(now, m.nic, (m.x, m.y), m.speed);
        self.radio_of(m.nic).set_destination(m.nic, now, m.x, m.y, m.speed);
    }

    /// Where `node`'s radio NIC is now.
    pub fn position(&mut self, node: NodeId) -> Result<Position, ConfigError> {
        let nic = self.radio_nic_of("node", node)?;
        let now = self.now();
        Ok(self.radio_of(nic).position(nic, now))
    }

    /// `node`'s waypoints: (time, position) at every start and end of a
    /// move and every placement, the end of the move under way included
    /// (it may lie after now). Between two, the node moves in a straight
    /// line at constant speed.
    pub fn position_series(&mut self, node: NodeId) -> Result<&[(Instant, Position)], ConfigError> {
        let nic = self.radio_nic_of("node", node)?;
        Ok(self.radio_of(nic).track(nic).points())
    }

    /// `node`'s NIC on a radio channel, if it has one.
    pub(super) fn radio_nic(&self, node: NodeId) -> Option<NicId> {
        self.nodes[node as usize].interfaces.iter().find_map(|&i| match i {
            Interface::Nic(nic) if self.is_radio(nic) => Some(nic),
            _ => None,
        })
    }

    fn radio_nic_of(&self, field: &'static str, node: NodeId) -> Result<NicId, ConfigError> {
        self.check_node(field, node)?;
        self.radio_nic(node)
            .ok_or_else(|| ConfigError::invalid(field, self.nodes[node as usize].name.clone(), "has no radio NIC"))
    }

    pub(super) fn is_radio(&self, nic: NicId) -> bool {
        matches!(self.media[self.nics[nic as usize].medium as usize], MediumModel::Radio(_))
    }

    pub(super) fn radio_of(&mut self, nic: NicId) -> &mut Radio {
        match &mut self.media[self.nics[nic as usize].medium as usize] {
            MediumModel::Radio(r) => r,
            MediumModel::Lan(_) => unreachable!("a radio NIC"),
        }
    }
}

fn check_position(at: Position) -> Result<(), ConfigError> {
    for (field, v) in [("x", at.x), ("y", at.y), ("z", at.z)] {
        if !v.is_finite() {
            return Err(ConfigError::invalid(field, v, "must be a finite coordinate in metres"));
        }
    }
    Ok(())
}

fn check_propagation(p: &Propagation) -> Result<(), ConfigError> {
    let Propagation::Shadowing(s) = p else { return Ok(()) };
    if !s.path_loss_exponent.is_finite() {
        return Err(ConfigError::invalid("path_loss_exponent", s.path_loss_exponent, "must be a finite number"));
    }
    if !(s.deviation_db.is_finite() && s.deviation_db >= 0.0) {
        return Err(ConfigError::invalid("deviation_db", s.deviation_db, "must be zero or more dB"));
    }
    if !(s.reference_distance_m.is_finite() && s.reference_distance_m > 0.0) {
        return Err(ConfigError::invalid("reference_distance", s.reference_distance_m, "must be greater than zero"));
    }
    Ok(())
}

fn check_phy(phy: &PhyConfig) -> Result<(), ConfigError> {
    let positive = [
        ("tx_power", phy.tx_power_w),
        ("frequency", phy.frequency_hz),
        ("rx_threshold", phy.rx_threshold_w),
        ("cs_threshold", phy.cs_threshold_w),
        ("capture_threshold", phy.capture_threshold),
        ("system_loss", phy.system_loss),
    ];
    for (field, v) in positive {
        if !(v.is_finite() && v > 0.0) {
            return Err(ConfigError::invalid(field, v, "must be greater than zero"));
        }
    }
    if !(phy.antenna_height_m.is_finite() && phy.antenna_height_m >= 0.0) {
        return Err(ConfigError::invalid("antenna_height", phy.antenna_height_m, "must be zero or more metres"));
    }
    Ok(())
}
