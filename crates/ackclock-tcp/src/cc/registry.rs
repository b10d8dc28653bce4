//! The one registry of congestion-control algorithms: names, summaries,
//! parameters (with defaults and ranges) and the ns-2 agent classes each
//! implements. The Python API, scenario files, the CLI and the Tcl front
//! end all read it through the bindings; nothing else lists the names.

use super::{Bbr, Cc, CcContext, Compound, Cubic, Dctcp, HighSpeed, LinuxReno, Ns2Vegas, RecoveryStyle, Reno, Vegas};
use std::fmt;

/// The algorithms, by name.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum CcKind {
    Tahoe,
    Reno,
    NewReno,
    LinuxReno,
    Ns2Tahoe,
    Ns2Reno,
    Ns2NewReno,
    Ns2Sack1,
    Cubic,
    HighSpeed,
    Vegas,
    Ns2Vegas,
    Compound,
    Dctcp,
    Bbr,
}

/// How a parameter's value is read.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ParamKind {
    Real,
    Integer,
    /// 0 or 1.
    Flag,
}

/// One tunable parameter of an algorithm. `min` and `max` are inclusive.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ParamInfo {
    pub name: &'static str,
    pub kind: ParamKind,
    pub default: f64,
    pub min: f64,
    pub max: f64,
    pub help: &'static str,
}

impl ParamInfo {
    /// Whether `value` is of the parameter's kind and in its range.
    pub fn check(&self, value: f64) -> Result<(), ParamError> {
        let whole = value.fract() == 0.0;
        let fits = match self.kind {
            ParamKind::Real => true,
            ParamKind::Integer | ParamKind::Flag => whole,
        };
        if fits && value >= self.min && value <= self.max {
            Ok(())
        } else {
            Err(ParamError::OutOfRange { info: *self, value })
        }
    }
}

/// An entry of the registry.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Algorithm {
    pub kind: CcKind,
    pub name: &'static str,
    pub summary: &'static str,
    pub params: &'static [ParamInfo],
    /// The ns-2 agent classes (`Agent/TCP/Reno`) this module stands for in
    /// the Tcl front end.
    pub ns2_agents: &'static [&'static str],
    /// It reacts to the extent of ECN marks, so a connection running it
    /// negotiates ECN and echoes every mark unless told otherwise (Linux's
    /// `TCP_CONG_NEEDS_ECN`).
    pub needs_ecn: bool,
}

const ALGORITHMS: [Algorithm; 15] = [
    Algorithm {
        kind: CcKind::Tahoe,
        name: "tahoe",
        summary: "Jacobson 1988: slow start, congestion avoidance, fast retransmit and slow start from one segment",
        params: super::reno::PARAMS,
        needs_ecn: false,
        ns2_agents: &[],
    },
    Algorithm {
        kind: CcKind::Reno,
        name: "reno",
        summary: "RFC 5681: Tahoe plus fast recovery, left on the first new ACK",
        params: super::reno::PARAMS,
        needs_ecn: false,
        ns2_agents: &[],
    },
    Algorithm {
        kind: CcKind::NewReno,
        name: "newreno",
        summary: "RFC 6582: Reno whose fast recovery survives partial ACKs",
        params: super::reno::PARAMS,
        needs_ecn: false,
        ns2_agents: &[],
    },
    Algorithm {
        kind: CcKind::LinuxReno,
        name: "linux-reno",
        summary:
            "Linux's reno (tcp_cong.c): ssthresh half of cwnd, growth by packets delivered, only when cwnd-limited",
        params: &[],
        needs_ecn: false,
        ns2_agents: &[],
    },
    Algorithm {
        kind: CcKind::Ns2Tahoe,
        name: "ns2-tahoe",
        summary: "ns-2 2.35's Agent/TCP window arithmetic (cwnd_ as a double count of packets)",
        params: super::ns2::PARAMS,
        needs_ecn: false,
        ns2_agents: &["Agent/TCP"],
    },
    Algorithm {
        kind: CcKind::Ns2Reno,
        name: "ns2-reno",
        summary: "ns-2 2.35's Agent/TCP/Reno window arithmetic",
        params: super::ns2::PARAMS,
        needs_ecn: false,
        ns2_agents: &["Agent/TCP/Reno"],
    },
    Algorithm {
        kind: CcKind::Ns2NewReno,
        name: "ns2-newreno",
        summary: "ns-2 2.35's Agent/TCP/Newreno window arithmetic",
        params: super::ns2::PARAMS,
        needs_ecn: false,
        ns2_agents: &["Agent/TCP/Newreno"],
    },
    Algorithm {
        kind: CcKind::Ns2Sack1,
        name: "ns2-sack1",
        summary: "ns-2 2.35's Agent/TCP/Sack1: Reno's arithmetic; a duplicate ACK counts only with new SACK blocks",
        params: super::ns2::PARAMS,
        needs_ecn: false,
        ns2_agents: &["Agent/TCP/Sack1"],
    },
    Algorithm {
        kind: CcKind::Cubic,
        name: "cubic",
        summary: "RFC 9438 CUBIC with HyStart++ (RFC 9406): a cubic function of the time since the last loss",
        params: super::cubic::PARAMS,
        needs_ecn: false,
        ns2_agents: &[],
    },
    Algorithm {
        kind: CcKind::HighSpeed,
        name: "highspeed",
        summary: "RFC 3649 HighSpeed TCP: AIMD whose increase and decrease depend on the window",
        params: super::highspeed::PARAMS,
        needs_ecn: false,
        ns2_agents: &[],
    },
    Algorithm {
        kind: CcKind::Vegas,
        name: "vegas",
        summary: "Brakmo & Peterson 1995: keeps alpha to beta segments queued, by delay",
        params: super::vegas::PARAMS,
        needs_ecn: false,
        ns2_agents: &[],
    },
    Algorithm {
        kind: CcKind::Ns2Vegas,
        name: "ns2-vegas",
        summary: "ns-2 2.35's Agent/TCP/Vegas: Vegas in packets, with its fine-grained retransmissions",
        params: super::vegas::PARAMS,
        needs_ecn: false,
        ns2_agents: &["Agent/TCP/Vegas"],
    },
    Algorithm {
        kind: CcKind::Compound,
        name: "compound",
        summary: "Compound TCP (Tan et al. 2006): a loss window plus a delay window",
        params: super::compound::PARAMS,
        needs_ecn: false,
        ns2_agents: &[],
    },
    Algorithm {
        kind: CcKind::Dctcp,
        name: "dctcp",
        summary: "RFC 8257 DCTCP: cuts cwnd by half the estimated fraction of CE-marked bytes",
        params: super::dctcp::PARAMS,
        needs_ecn: true,
        ns2_agents: &[],
    },
    Algorithm {
        kind: CcKind::Bbr,
        name: "bbr",
        summary: "BBR v1 as Linux tcp_bbr.c: paces at the bottleneck bandwidth, cwnd twice the BDP",
        params: super::bbr::PARAMS,
        needs_ecn: false,
        ns2_agents: &[],
    },
];

/// Which implementation of an algorithm runs: the RFCs' (plain names),
/// Linux's (`linux-` names) or ns-2's window arithmetic (`ns2-` names).
/// The `linux` and `ns2` profiles pick their own where the registry has it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Flavour {
    Rfc,
    Linux,
    Ns2,
}

impl Flavour {
    const ALL: [Flavour; 3] = [Flavour::Rfc, Flavour::Linux, Flavour::Ns2];

    const fn prefix(self) -> &'static str {
        match self {
            Flavour::Rfc => "",
            Flavour::Linux => "linux-",
            Flavour::Ns2 => "ns2-",
        }
    }
}

impl CcKind {
    /// Every algorithm in the registry.
    pub fn all() -> impl Iterator<Item = &'static Algorithm> {
        ALGORITHMS.iter()
    }

    pub fn info(self) -> &'static Algorithm {
        ALGORITHMS.iter().find(|a| a.kind == self).expect("every kind is registered")
    }

    pub fn name(self) -> &'static str {
        self.info().name
    }

    /// The algorithm called `name` (any case).
    pub fn from_name(name: &str) -> Option<CcKind> {
        ALGORITHMS.iter().find(|a| a.name.eq_ignore_ascii_case(name)).map(|a| a.kind)
    }

    pub fn flavour(self) -> Flavour {
        let name = self.name();
        Flavour::ALL.into_iter().rev().find(|f| name.starts_with(f.prefix())).unwrap_or(Flavour::Rfc)
    }

    /// The same algorithm in `flavour` where the registry has that module
    /// (`reno` -> `linux-reno`, `ns2-reno` -> `reno`), else the RFCs'.
    pub fn in_flavour(self, flavour: Flavour) -> CcKind {
        let base = &self.name()[self.flavour().prefix().len()..];
        let rfc = CcKind::from_name(base).unwrap_or(self);
        CcKind::from_name(&format!("{}{base}", flavour.prefix())).unwrap_or(rfc)
    }

    /// Starts the algorithm.
    pub fn build(self, ctx: &CcContext, params: &CcParams) -> Cc {
        use RecoveryStyle::{NewReno, Reno as Classic, Tahoe};
        match self {
            CcKind::Tahoe => Cc::Reno(Reno::new(Tahoe, ctx, params)),
            CcKind::Reno => Cc::Reno(Reno::new(Classic, ctx, params)),
            CcKind::NewReno => Cc::Reno(Reno::new(NewReno, ctx, params)),
            CcKind::LinuxReno => Cc::LinuxReno(LinuxReno::default()),
            CcKind::Ns2Tahoe => super::ns2::build(Tahoe, false, ctx, params),
            CcKind::Ns2Reno => super::ns2::build(Classic, false, ctx, params),
            CcKind::Ns2NewReno => super::ns2::build(NewReno, false, ctx, params),
            CcKind::Ns2Sack1 => super::ns2::build(Classic, true, ctx, params),
            CcKind::Cubic => Cc::Cubic(Box::new(Cubic::new(ctx, params))),
            CcKind::HighSpeed => Cc::HighSpeed(Box::new(HighSpeed::new(ctx, params))),
            CcKind::Vegas => Cc::Vegas(Box::new(Vegas::new(ctx, params))),
            CcKind::Ns2Vegas => Cc::Ns2Vegas(Box::new(Ns2Vegas::new(ctx, params))),
            CcKind::Compound => Cc::Compound(Box::new(Compound::new(ctx, params))),
            CcKind::Dctcp => Cc::Dctcp(Box::new(Dctcp::new(ctx, params))),
            CcKind::Bbr => Cc::Bbr(Box::new(Bbr::new(ctx, params))),
        }
    }
}

/// A parameter value that does not fit the algorithm.
#[derive(Clone, Debug, PartialEq)]
pub enum ParamError {
    Unknown { algorithm: &'static str, name: String, known: Vec<&'static str> },
    OutOfRange { info: ParamInfo, value: f64 },
}

impl ParamError {
    /// The parameter's name, for the field a message names.
    pub fn param(&self) -> &str {
        match self {
            ParamError::Unknown { name, .. } => name,
            ParamError::OutOfRange { info, .. } => info.name,
        }
    }
}

impl fmt::Display for ParamError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ParamError::Unknown { algorithm, known, .. } if known.is_empty() => {
                write!(f, "unknown parameter ({algorithm} has none)")
            }
            ParamError::Unknown { algorithm, known, .. } => {
                write!(f, "unknown parameter (use one of {algorithm}'s: {})", known.join(", "))
            }
            ParamError::OutOfRange { info, .. } => match info.kind {
                ParamKind::Flag => write!(f, "must be 0 or 1 (false or true)"),
                ParamKind::Integer => write!(f, "must be a whole number from {} to {}", info.min, info.max),
                ParamKind::Real => write!(f, "must be from {} to {}", info.min, info.max),
            },
        }
    }
}

/// Parameter values set by name; the rest keep their defaults.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct CcParams {
    values: Vec<(&'static str, f64)>,
}

impl CcParams {
    /// Sets `name` to `value` after checking both against `kind`'s table.
    pub fn set(&mut self, kind: CcKind, name: &str, value: f64) -> Result<(), ParamError> {
        let info = kind.info();
        let param = info.params.iter().find(|p| p.name == name).ok_or_else(|| ParamError::Unknown {
            algorithm: info.name,
            name: name.to_string(),
            known: info.params.iter().map(|p| p.name).collect(),
        })?;
        param.check(value)?;
        self.values.retain(|&(n, _)| n != param.name);
        self.values.push((param.name, value));
        Ok(())
    }

    /// Checks that every value set also fits `kind` (after the algorithm was
    /// swapped, e.g. for its ns-2 module).
    pub fn check(&self, kind: CcKind) -> Result<(), ParamError> {
        let mut probe = CcParams::default();
        self.values.iter().try_for_each(|&(name, value)| probe.set(kind, name, value))
    }

    /// The value of `param`: as set, or its default.
    pub fn value(&self, param: &ParamInfo) -> f64 {
        self.values.iter().find(|&&(n, _)| n == param.name).map_or(param.default, |&(_, v)| v)
    }

    pub fn is_empty(&self) -> bool {
        self.values.is_empty()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_map_to_kinds_and_back_in_any_case() {
        for a in CcKind::all() {
            assert_eq!(CcKind::from_name(a.name), Some(a.kind));
            assert_eq!(a.kind.name(), a.name);
        }
        assert_eq!(CcKind::from_name("NewReno"), Some(CcKind::NewReno));
        assert_eq!(CcKind::from_name("CUBIC"), Some(CcKind::Cubic));
        assert_eq!(CcKind::from_name("westwood"), None);
    }

    #[test]
    fn built_algorithms_answer_to_their_registry_name() {
        let ctx = super::super::tests::context(2);
        for a in CcKind::all() {
            use super::super::CongestionOps;
            assert_eq!(a.kind.build(&ctx, &CcParams::default()).name(), a.name);
        }
    }

    #[test]
    fn a_flavour_swaps_an_algorithm_for_its_module_where_one_exists() {
        assert_eq!(CcKind::Reno.in_flavour(Flavour::Ns2), CcKind::Ns2Reno);
        assert_eq!(CcKind::Reno.in_flavour(Flavour::Linux), CcKind::LinuxReno);
        assert_eq!(CcKind::Ns2Reno.in_flavour(Flavour::Ns2), CcKind::Ns2Reno);
        assert_eq!(CcKind::Ns2NewReno.in_flavour(Flavour::Rfc), CcKind::NewReno);
        assert_eq!(CcKind::Ns2Tahoe.in_flavour(Flavour::Linux), CcKind::Tahoe, "no linux-tahoe");
        assert_eq!(CcKind::LinuxReno.flavour(), Flavour::Linux);
    }

    #[test]
    fn each_ns2_agent_class_names_one_module() {
        let agents: Vec<&str> = CcKind::all().flat_map(|a| a.ns2_agents.iter().copied()).collect();
        let mut unique = agents.clone();
        unique.sort_unstable();
        unique.dedup();
        assert_eq!(agents.len(), unique.len());
        assert!(agents.contains(&"Agent/TCP"));
    }

    #[test]
    fn parameters_are_checked_against_the_algorithms_table() {
        let mut p = CcParams::default();
        assert_eq!(p.set(CcKind::Reno, "beta", 0.7), Ok(()));
        assert_eq!(p.value(&super::super::reno::PARAMS[1]), 0.7);
        let unknown = p.set(CcKind::Reno, "gamma", 1.0).unwrap_err();
        assert_eq!(unknown.to_string(), "unknown parameter (use one of reno's: alpha, beta)");
        let range = p.set(CcKind::Reno, "beta", 1.5).unwrap_err();
        assert_eq!((range.param(), range.to_string().as_str()), ("beta", "must be from 0.05 to 1"));
        let none = p.check(CcKind::LinuxReno).unwrap_err();
        assert_eq!(none.to_string(), "unknown parameter (linux-reno has none)");
    }

    #[test]
    fn integer_and_flag_parameters_take_only_whole_values_in_range() {
        let count = ParamInfo { name: "n", kind: ParamKind::Integer, default: 2.0, min: 1.0, max: 8.0, help: "" };
        assert!(count.check(8.0).is_ok() && count.check(2.5).is_err() && count.check(0.0).is_err());
        assert_eq!(count.check(2.5).unwrap_err().to_string(), "must be a whole number from 1 to 8");
        let flag = ParamInfo { name: "f", kind: ParamKind::Flag, default: 1.0, min: 0.0, max: 1.0, help: "" };
        assert!(flag.check(0.0).is_ok() && flag.check(1.0).is_ok() && flag.check(0.5).is_err());
        assert_eq!(flag.check(2.0).unwrap_err().to_string(), "must be 0 or 1 (false or true)");
    }

    #[test]
    fn setting_a_parameter_again_replaces_its_value() {
        let mut p = CcParams::default();
        p.set(CcKind::Reno, "alpha", 2.0).unwrap();
        p.set(CcKind::Reno, "alpha", 3.0).unwrap();
        assert_eq!(p.value(&super::super::reno::PARAMS[0]), 3.0);
    }
}
