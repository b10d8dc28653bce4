//! Tracing: components hand typed records to a [`Tracer`], which keeps
//! them in time order and passes them to the sinks that asked for them:
//! ns-2's trace and nam formats, tcpdump-style text and pcap files.
//!
//! When no tracer is installed the simulation never builds a record, so
//! tracing costs nothing when off.
#![forbid(unsafe_code)]

pub mod address;
pub mod file;
pub mod monitor;
pub mod nam;
pub mod ns2;
pub mod ns2_wireless;
pub mod ordering;
pub mod pcap;
pub mod record;
pub mod red;
pub mod tcpdump;
pub mod tracer;
pub mod view;

pub use monitor::{Counts, FlowKey, Monitor};
pub use record::{
    AodvFields, ControlFrameRecord, ControlKind, FlowView, FrameRecord, LanRecord, LinkRecord, MacFields,
    MovementRecord, PacketEvent, PacketRecord, RedQueueRecord, TcpEventRecord, TraceRecord, VarRecord, VarValue,
    WirelessEvent, WirelessLayer, WirelessRecord,
};
pub use red::RedVars;
pub use tracer::{Sink, SinkId, TracedVars, Tracer};
