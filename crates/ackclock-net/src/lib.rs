//! The network model: nodes and their interfaces, packets with real header
//! fields, one-direction link channels with their queue discipline, loss
//! and delay models, and routing.
//!
//! Everything here is sans-I/O: a channel is told `now` and answers when its
//! next packet reaches the far end; `ackclock-sim` owns the clock.
#![forbid(unsafe_code)]

pub mod channel;
pub mod codel;
pub mod delay_buffer;
pub mod discipline;
pub mod drr;
pub mod fq;
pub mod fq_codel;
pub mod held;
pub mod jitter;
pub mod link_layer;
pub mod loss;
pub mod mac80211;
pub mod mac8023;
pub mod medium;
pub mod mobility;
pub mod node;
pub mod ns2_link;
pub mod packet;
pub mod pie;
pub mod pool;
pub mod processor;
pub mod propagation;
pub mod radio;
pub mod routing;
pub mod sfq;

pub use channel::{
    Arrival, Channel, ChannelConfig, ChannelId, ChannelStats, DropReason, Flushed, QueueEvent, Retimed, SendOutcome,
};
pub use codel::{CoDel, CoDelParams};
pub use delay_buffer::{DelayBuffer, DelayBufferParams};
pub use discipline::{
    Admission, Backlog, Discipline, DropTail, HeldRed, HoldingQueue, QueueLimit, Red, RedParams, StepMark, Victim,
};
pub use drr::{Drr, DrrParams};
pub use fq::{Fq, FqParams};
pub use fq_codel::{FqCoDel, FqCoDelParams};
pub use jitter::{Jitter, JitterDistribution};
pub use link_layer::{ArpTable, LinkLayer, LinkLayerConfig, Resolution, ARP_DELAY, ARP_PACKET_BYTES, NS2_LL_DELAY};
pub use loss::{FlowFilter, Length, LossModel, LossPosition, LossProcess, Periodic, TwoState};
pub use mac80211::{Dcf, DcfConfig, DcfStats};
pub use mac8023::Ns2Ethernet;
pub use medium::{
    ContentionFree, Frame, FrameKind, InterfaceQueue, Lan, LanMac, LinkAddress, Mac, MacDrop, MacEvent, MacHeader,
    MacModel, Medium, MediumId, MediumModel, Nic, NicId, NicStats, Queued, Reception,
};
pub use mobility::{Motion, Position, Track};
pub use node::{Interface, Node, NodeStats};
pub use ns2_link::{Ns2Link, Ns2Offer};
pub use packet::{
    Ecn, FlowId, Ipv4Header, NodeId, Packet, Transport, UdpHeader, ARP_FLOW, ARP_REPLY, ARP_REQUEST, CONTROL_FLOW,
};
pub use pie::{Pie, PieParams};
pub use pool::{PacketId, PacketPool};
pub use processor::{Processor, ProcessorConfig, ProcessorStats, ServiceTime};
pub use propagation::{PhyConfig, Propagation, ShadowingParams};
pub use radio::Radio;
pub use routing::{aodv, dsdv, dv};
pub use routing::{
    shortest_paths, Adjacency, AfterFailure, ControlKind, ControlMessage, Fib, NextHop, Protocol, RouteQueue, Router,
    RouterOutput, RoutingProtocol, BROADCAST,
};
pub use sfq::{Sfq, SfqParams};
