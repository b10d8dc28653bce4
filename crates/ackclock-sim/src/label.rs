//! How a flow names itself in packet headers and traces.

/// Ports and trace flow id chosen by a front end, e.g. ns-2's agent ports
/// (0, 1, ... per node) and `fid_`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct FlowLabel {
    pub src_port: u16,
    pub dst_port: u16,
    pub fid: u32,
}
