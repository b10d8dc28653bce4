//! Errors a user can cause while building or starting a simulation.

use thiserror::Error;

#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum ConfigError {
    #[error("{field}: unknown node id {id} (there are {count} nodes)")]
    UnknownNode { field: &'static str, id: u32, count: usize },
    #[error("{field}: unknown {what} id {id}")]
    UnknownId { field: &'static str, what: &'static str, id: u64 },
    #[error("a link from node '{node}' to itself is not allowed")]
    SelfLoop { node: String },
    #[error("flow '{flow}': node '{dst}' is unreachable from node '{src}'")]
    Unreachable { flow: String, src: String, dst: String },
    #[error("flow '{flow}': the routes towards node '{dst}' go round in a loop through node '{node}'")]
    RoutingLoop { flow: String, dst: String, node: String },
    #[error("{field}: {value} is invalid: {why}")]
    Invalid { field: String, value: String, why: String },
}

impl ConfigError {
    pub fn invalid(field: impl Into<String>, value: impl std::fmt::Display, why: impl Into<String>) -> Self {
        ConfigError::Invalid { field: field.into(), value: value.to_string(), why: why.into() }
    }
}
