//! Reading the configuration dicts of `_native.pyi` into core types.
//!
//! Every key is checked: an unknown key, a missing one or a value of the
//! wrong type or range becomes a ConfigError naming `context.key` and the
//! value, so a user's mistake reads as one sentence.

use ackclock_core::{Bandwidth, Duration, Instant};
use ackclock_net::{
    aodv::AodvConfig, dsdv::DsdvConfig, dv::DvConfig, mac80211::DcfConfig, CoDel, CoDelParams, DelayBuffer,
    DelayBufferParams, Discipline, DropTail, Drr, DrrParams, Fq, FqCoDel, FqCoDelParams, FqParams, HeldRed,
    HoldingQueue, Jitter, JitterDistribution, Length, LossModel, LossPosition, LossProcess, Periodic, PhyConfig, Pie,
    PieParams, ProcessorConfig, Propagation, QueueLimit, Red, RedParams, Router, ServiceTime, Sfq, SfqParams,
    ShadowingParams, StepMark, TwoState, Victim,
};
use ackclock_sim::{
    ConfigError, FailureModel, FailureTiming, LinkChange, SizeModel, TcpApp, TokenBucketParams, Traffic,
};
use ackclock_tcp::cc::Flavour;
use ackclock_tcp::{AckPolicy, CcKind, TcpConfig};
use pyo3::prelude::*;
use pyo3::types::PyDict;

/// A config dict being read, with the name it is reported under.
pub struct Spec<'a, 'py> {
    dict: &'a Bound<'py, PyDict>,
    context: &'static str,
}

fn describe(value: &Bound<'_, PyAny>) -> String {
    value.repr().map(|r| r.to_string()).unwrap_or_else(|_| "<unprintable>".into())
}

impl<'a, 'py> Spec<'a, 'py> {
    /// Checks that the dict has only `allowed` keys (plus "type").
    pub fn new(dict: &'a Bound<'py, PyDict>, context: &'static str, allowed: &[&str]) -> Result<Self, ConfigError> {
        for key in dict.keys() {
            let name = key.extract::<String>().unwrap_or_else(|_| describe(&key));
            if name != "type" && !allowed.contains(&name.as_str()) {
                let expected = [&["type"], allowed].concat().join(", ");
                return Err(ConfigError::invalid(
                    format!("{context}.{name}"),
                    describe(&key),
                    format!("unknown key (expected one of: {expected})"),
                ));
            }
        }
        Ok(Spec { dict, context })
    }

    fn field(&self, key: &str) -> String {
        format!("{}.{}", self.context, key)
    }

    /// Whether `key` is present: `Some(true)` with a value, `Some(false)`
    /// when it is None, `None` when absent.
    pub fn given(&self, key: &str) -> Option<bool> {
        self.dict.get_item(key).ok().flatten().map(|v| !v.is_none())
    }

    fn raw(&self, key: &str) -> Option<Bound<'py, PyAny>> {
        self.dict.get_item(key).ok().flatten().filter(|v| !v.is_none())
    }

    pub fn kind(&self) -> Result<String, ConfigError> {
        self.required::<String>("type", "a string")
    }

    /// Reads only the "type" key, to choose which other keys are allowed.
    pub fn kind_of(dict: &'a Bound<'py, PyDict>, context: &'static str) -> Result<String, ConfigError> {
        Spec { dict, context }.kind()
    }

    fn convert<T: for<'b> FromPyObject<'b, 'py>>(
        &self,
        key: &str,
        v: &Bound<'py, PyAny>,
        what: &str,
    ) -> Result<T, ConfigError> {
        if v.is_instance_of::<pyo3::types::PyBool>() && what != "a boolean" {
            return Err(ConfigError::invalid(self.field(key), describe(v), format!("expected {what}")));
        }
        v.extract::<T>().map_err(|_| ConfigError::invalid(self.field(key), describe(v), format!("expected {what}")))
    }

    pub fn required<T: for<'b> FromPyObject<'b, 'py>>(&self, key: &str, what: &str) -> Result<T, ConfigError> {
        match self.raw(key) {
            Some(v) => self.convert(key, &v, what),
            None => Err(ConfigError::invalid(self.field(key), "nothing", format!("is required ({what})"))),
        }
    }

    pub fn optional<T: for<'b> FromPyObject<'b, 'py>>(&self, key: &str, what: &str) -> Result<Option<T>, ConfigError> {
        self.raw(key).map(|v| self.convert(key, &v, what)).transpose()
    }

    pub fn probability(&self, key: &str, default: Option<f64>) -> Result<f64, ConfigError> {
        let p = match default {
            Some(d) => self.optional::<f64>(key, "a number")?.unwrap_or(d),
            None => self.required::<f64>(key, "a number")?,
        };
        if !(0.0..=1.0).contains(&p) {
            return Err(ConfigError::invalid(self.field(key), p, "must be between 0 and 1"));
        }
        Ok(p)
    }

    pub fn positive_f64(&self, key: &str, default: Option<f64>) -> Result<f64, ConfigError> {
        let x = match default {
            Some(d) => self.optional::<f64>(key, "a number")?.unwrap_or(d),
            None => self.required::<f64>(key, "a number")?,
        };
        if !(x.is_finite() && x > 0.0) {
            return Err(ConfigError::invalid(self.field(key), x, "must be a positive number"));
        }
        Ok(x)
    }

    pub fn duration(&self, key: &str) -> Result<Duration, ConfigError> {
        self.required::<u64>(key, "a whole number of picoseconds").map(Duration::from_ps)
    }

    pub fn bandwidth(&self, key: &str) -> Result<Bandwidth, ConfigError> {
        let bps = self.required::<u64>(key, "a whole number of bit/s")?;
        Bandwidth::from_bps(bps).ok_or_else(|| ConfigError::invalid(self.field(key), bps, "must be greater than zero"))
    }

    pub fn unknown_type(&self, kind: &str, expected: &str) -> ConfigError {
        unknown_type(self.context, kind, expected)
    }
}

fn unknown_type(context: &str, kind: &str, expected: &str) -> ConfigError {
    ConfigError::invalid(
        format!("{context}.type"),
        format!("'{kind}'"),
        format!("unknown {context} type (use {expected})"),
    )
}

fn queue_limit(s: &Spec) -> Result<(QueueLimit, bool), ConfigError> {
    let ns2 = s.optional::<bool>("ns2_limit", "a boolean")?.unwrap_or(false);
    let unit = s.optional::<String>("unit", "a string")?.unwrap_or_else(|| "packets".into());
    let limit = s.optional::<u64>("limit", "a non-negative whole number")?;
    let limit = match (limit, unit.as_str()) {
        (None, "packets" | "bytes") => QueueLimit::Unlimited,
        (Some(n), "packets") => QueueLimit::Packets(
            u32::try_from(n).map_err(|_| ConfigError::invalid(s.field("limit"), n, "is too large"))?,
        ),
        (Some(n), "bytes") => QueueLimit::Bytes(n),
        (_, other) => {
            return Err(ConfigError::invalid(s.field("unit"), format!("'{other}'"), "must be 'packets' or 'bytes'"))
        }
    };
    Ok((limit, ns2))
}

pub fn discipline(dict: &Bound<'_, PyDict>) -> Result<Discipline, ConfigError> {
    const LIMIT_KEYS: &[&str] = &["limit", "unit", "ns2_limit"];
    const RED_KEYS: &[&str] = &[
        "limit",
        "unit",
        "ns2_limit",
        "min_th",
        "max_th",
        "max_p",
        "weight",
        "gentle",
        "ecn",
        "mean_packet_size",
        "wait",
        "byte_mode",
        "mark_p",
        "ns2",
        "ns1_compat",
        "victim",
    ];
    match Spec::kind_of(dict, "queue")?.as_str() {
        "droptail" => {
            let (limit, ns2_limit) = queue_limit(&Spec::new(dict, "queue", LIMIT_KEYS)?)?;
            Ok(Discipline::DropTail(DropTail { limit, ns2_limit }))
        }
        "red" => {
            let s = Spec::new(dict, "queue", RED_KEYS)?;
            let (limit, ns2_limit) = queue_limit(&s)?;
            let d = RedParams::default();
            let params = RedParams {
                min_th: s.positive_f64("min_th", Some(d.min_th))?,
                max_th: s.positive_f64("max_th", Some(d.max_th))?,
                max_p: s.probability("max_p", Some(d.max_p))?,
                weight: s.probability("weight", Some(d.weight))?,
                gentle: s.optional::<bool>("gentle", "a boolean")?.unwrap_or(d.gentle),
                ecn: s.optional::<bool>("ecn", "a boolean")?.unwrap_or(d.ecn),
                mean_packet_size: s
                    .optional::<u32>("mean_packet_size", "a whole number of bytes")?
                    .unwrap_or(d.mean_packet_size),
                wait: s.optional::<bool>("wait", "a boolean")?.unwrap_or(d.wait),
                byte_mode: s.optional::<bool>("byte_mode", "a boolean")?.unwrap_or(d.byte_mode),
                mark_p: match s.given("mark_p") {
                    Some(true) => Some(s.probability("mark_p", None)?),
                    _ => None,
                },
                ns2: s.optional::<bool>("ns2", "a boolean")?.unwrap_or(d.ns2),
                ns1_compat: s.optional::<bool>("ns1_compat", "a boolean")?.unwrap_or(d.ns1_compat),
                victim: match s.optional::<String>("victim", "a string")?.as_deref() {
                    None | Some("arrival") => Victim::Arrival,
                    Some("front") => Victim::Front,
                    Some("random") => Victim::Random,
                    Some(other) => {
                        let why = "must be 'arrival', 'front' or 'random'";
                        return Err(ConfigError::invalid(s.field("victim"), format!("'{other}'"), why));
                    }
                },
            };
            if params.min_th >= params.max_th {
                let why = format!("must be below queue.max_th ({})", params.max_th);
                return Err(ConfigError::invalid("queue.min_th", params.min_th, why));
            }
            if params.victim != Victim::Arrival && !params.ns2 {
                let victim = format!("{:?}", params.victim).to_lowercase();
                return Err(ConfigError::invalid("queue.victim", victim, "needs queue.ns2 (ns-2's RED)"));
            }
            let red = Red::new(params, DropTail { limit, ns2_limit });
            if params.victim == Victim::Arrival {
                return Ok(Discipline::Red(red));
            }
            // A forced drop may take a waiting packet: the queue holds them.
            Ok(Discipline::Holding(Box::new(HoldingQueue::Red(HeldRed::new(red)))))
        }
        "step_mark" => {
            let s = Spec::new(dict, "queue", &[LIMIT_KEYS, &["k"]].concat())?;
            let (limit, ns2_limit) = queue_limit(&s)?;
            let k = s.required::<u32>("k", "a whole number of packets")?;
            Ok(Discipline::StepMark(StepMark { k, hard: DropTail { limit, ns2_limit } }))
        }
        "codel" => {
            let s = Spec::new(dict, "queue", &[LIMIT_KEYS, CODEL_KEYS].concat())?;
            let (limit, ns2_limit) = queue_limit(&s)?;
            let codel = CoDel::new(codel_params(&s)?, DropTail { limit, ns2_limit });
            Ok(Discipline::Holding(Box::new(HoldingQueue::CoDel(codel))))
        }
        "fq_codel" => {
            let s = Spec::new(dict, "queue", &[CODEL_KEYS, &["limit", "quantum", "flows"]].concat())?;
            let params = FqCoDelParams {
                codel: codel_params(&s)?,
                quantum: positive_u32(&s, "quantum", "a whole number of bytes")?,
                flows: positive_u32(&s, "flows", "a whole number of queues")?,
                limit: positive_u32(&s, "limit", "a whole number of packets")?,
            };
            Ok(Discipline::Holding(Box::new(HoldingQueue::FqCoDel(FqCoDel::new(params)))))
        }
        "pie" => {
            const PIE_KEYS: &[&str] = &[
                "target_ps",
                "t_update_ps",
                "alpha",
                "beta",
                "max_burst_ps",
                "ecn",
                "mark_threshold",
                "mean_packet_size",
            ];
            let s = Spec::new(dict, "queue", &[LIMIT_KEYS, PIE_KEYS].concat())?;
            let (limit, ns2_limit) = queue_limit(&s)?;
            let params = PieParams {
                target: s.duration("target_ps")?,
                t_update: positive_duration(&s, "t_update_ps")?,
                alpha: s.required::<f64>("alpha", "a number")?,
                beta: s.required::<f64>("beta", "a number")?,
                max_burst: s.duration("max_burst_ps")?,
                ecn: s.required::<bool>("ecn", "a boolean")?,
                mark_threshold: s.probability("mark_threshold", None)?,
                mean_packet_size: positive_u32(&s, "mean_packet_size", "a whole number of bytes")?,
            };
            Ok(Discipline::Holding(Box::new(HoldingQueue::Pie(Pie::new(params, DropTail { limit, ns2_limit })))))
        }
        "delay_buffer" => {
            let s = Spec::new(dict, "queue", &[LIMIT_KEYS, &["mean_ps", "cap_ps"]].concat())?;
            let (limit, ns2_limit) = queue_limit(&s)?;
            let cap = match s.given("cap_ps") {
                Some(true) => Some(positive_duration(&s, "cap_ps")?),
                _ => None,
            };
            let params = DelayBufferParams { mean: s.duration("mean_ps")?, cap };
            let buffer = DelayBuffer::new(params, DropTail { limit, ns2_limit });
            Ok(Discipline::Holding(Box::new(HoldingQueue::DelayBuffer(buffer))))
        }
        "drr" => {
            let s = Spec::new(dict, "queue", &["buckets", "blimit", "quantum", "mask"])?;
            let params = DrrParams {
                buckets: positive_u32(&s, "buckets", "a whole number of buckets")?,
                blimit: s.required::<u64>("blimit", "a whole number of bytes")?,
                quantum: positive_u32(&s, "quantum", "a whole number of bytes")?,
                mask: s.required::<bool>("mask", "a boolean")?,
            };
            Ok(Discipline::Holding(Box::new(HoldingQueue::Drr(Drr::new(params)))))
        }
        "sfq" => {
            let s = Spec::new(dict, "queue", &["maxqueue", "buckets"])?;
            let params = SfqParams {
                maxqueue: positive_u32(&s, "maxqueue", "a whole number of packets")?,
                buckets: positive_u32(&s, "buckets", "a whole number of buckets")?,
            };
            Ok(Discipline::Holding(Box::new(HoldingQueue::Sfq(Sfq::new(params)))))
        }
        "fq" => {
            let s = Spec::new(dict, "queue", &["limit", "secs_per_byte"])?;
            let secs_per_byte = match s.given("secs_per_byte") {
                Some(true) => Some(s.positive_f64("secs_per_byte", None)?),
                _ => None,
            };
            let params = FqParams { limit: positive_u32(&s, "limit", "a whole number of packets")?, secs_per_byte };
            Ok(Discipline::Holding(Box::new(HoldingQueue::Fq(Fq::new(params)))))
        }
        other => Err(unknown_type(
            "queue",
            other,
            "droptail, red, step_mark, codel, fq_codel, pie, drr, sfq, fq or delay_buffer",
        )),
    }
}

/// A token bucket shaper (ns-2's TBF).
pub fn token_bucket(dict: &Bound<'_, PyDict>) -> Result<TokenBucketParams, ConfigError> {
    let s = Spec::new(dict, "shaper", &["rate_bps", "bucket_bits", "limit"])?;
    Ok(TokenBucketParams {
        rate: s.positive_f64("rate_bps", None)?,
        bucket_bits: s.required::<u64>("bucket_bits", "a whole number of bits")?,
        limit: s.required::<u32>("limit", "a whole number of packets")?,
    })
}

const CODEL_KEYS: &[&str] = &["target_ps", "interval_ps", "mtu", "ecn"];

fn codel_params(s: &Spec) -> Result<CoDelParams, ConfigError> {
    Ok(CoDelParams {
        target: s.duration("target_ps")?,
        interval: positive_duration(s, "interval_ps")?,
        mtu: positive_u32(s, "mtu", "a whole number of bytes")?,
        ecn: s.required::<bool>("ecn", "a boolean")?,
    })
}

fn positive_u32(s: &Spec, key: &str, what: &str) -> Result<u32, ConfigError> {
    match s.required::<u32>(key, what)? {
        0 => Err(ConfigError::invalid(s.field(key), 0, "must be at least 1")),
        n => Ok(n),
    }
}

fn positive_duration(s: &Spec, key: &str) -> Result<Duration, ConfigError> {
    match s.duration(key)? {
        Duration::ZERO => Err(ConfigError::invalid(s.field(key), 0, "must be longer than zero")),
        d => Ok(d),
    }
}

pub fn loss(dict: &Bound<'_, PyDict>) -> Result<LossModel, ConfigError> {
    let with_position = |keys: &[&'static str]| Spec::new(dict, "loss", &[keys, &["position", "delay_ps"]].concat());
    let kind = Spec::kind_of(dict, "loss")?;
    let (process, s) = match kind.as_str() {
        "uniform" => {
            let s = with_position(&["p"])?;
            (LossProcess::Uniform { p: s.probability("p", None)? }, s)
        }
        "ber" => {
            let s = with_position(&["ber"])?;
            (LossProcess::BitError { ber: s.probability("ber", None)? }, s)
        }
        "gilbert_elliott" => {
            let s = with_position(&["p_good_to_bad", "p_bad_to_good", "loss_good", "loss_bad"])?;
            let process = LossProcess::gilbert_elliott(
                s.probability("p_good_to_bad", None)?,
                s.probability("p_bad_to_good", None)?,
                s.probability("loss_good", Some(0.0))?,
                s.probability("loss_bad", Some(1.0))?,
            );
            (process, s)
        }
        "list" => {
            let s = with_position(&["drops"])?;
            (LossProcess::drop_list(s.required::<Vec<u64>>("drops", "a list of packet numbers (1, 2, ...)")?), s)
        }
        "periodic" => {
            let s = with_position(&["period", "offset", "burst", "bytes", "inverted"])?;
            let count = |name| s.optional::<u64>(name, "a whole number");
            let period = count("period")?.unwrap_or(1).max(1);
            let flag = |name| s.optional::<bool>(name, "a boolean");
            let process = LossProcess::Periodic(Periodic::new(
                period,
                count("offset")?.unwrap_or(0),
                count("burst")?.unwrap_or(0),
                flag("bytes")?.unwrap_or(false),
                flag("inverted")?.unwrap_or(false),
            ));
            (process, s)
        }
        "two_state" => {
            let s = with_position(&["good", "bad", "bytes"])?;
            let length = |name: &'static str| -> Result<Length, ConfigError> {
                let (kind, a, b): (String, f64, Option<f64>) =
                    s.required(name, "a (kind, value) or (\"uniform\", low, high) tuple")?;
                let bad = |why: &str| ConfigError::invalid(s.field(name), format!("({kind}, {a}, {b:?})"), why);
                if !(a.is_finite() && a >= 0.0) {
                    return Err(bad("lengths must be finite and not negative"));
                }
                match (kind.as_str(), b) {
                    ("constant", None) => Ok(Length::Constant(a)),
                    ("exponential", None) => Ok(Length::Exponential { mean: a }),
                    ("uniform", Some(high)) if high >= a && high.is_finite() => Ok(Length::Uniform { low: a, high }),
                    _ => Err(bad("use (\"constant\", v), (\"exponential\", mean) or (\"uniform\", low, high)")),
                }
            };
            let bytes = s.optional::<bool>("bytes", "a boolean")?.unwrap_or(false);
            (LossProcess::TwoState(TwoState::new(length("good")?, length("bad")?, bytes)), s)
        }
        "segments" => {
            let s = with_position(&["drops"])?;
            let what = "a list of [sequence offset, transmission] pairs";
            (LossProcess::segments(s.required::<Vec<(u64, u32)>>("drops", what)?), s)
        }
        other => {
            return Err(unknown_type(
                "loss",
                other,
                "uniform, ber, gilbert_elliott, list, periodic, two_state or segments",
            ))
        }
    };
    let position = match s.optional::<String>("position", "a string")?.as_deref() {
        None | Some("wire") => LossPosition::OnWire,
        Some("queue") => LossPosition::BeforeQueue,
        Some(other) => {
            return Err(ConfigError::invalid("loss.position", format!("'{other}'"), "must be 'queue' or 'wire'"))
        }
    };
    let delay = s.optional::<u64>("delay_ps", "a whole number of picoseconds")?.map(Duration::from_ps);
    if delay.is_some() && position != LossPosition::BeforeQueue {
        return Err(ConfigError::invalid(
            "loss.delay_ps",
            "a delay",
            "holds packets at the link head: needs position 'queue'",
        ));
    }
    Ok(LossModel { process, position, delay })
}

pub fn jitter(dict: &Bound<'_, PyDict>) -> Result<Jitter, ConfigError> {
    let s = Spec::new(dict, "jitter", &["mean_ps", "low_ps", "high_ps", "reorder"])?;
    let distribution = match s.kind()?.as_str() {
        "exponential" => JitterDistribution::Exponential { mean: s.duration("mean_ps")? },
        "uniform" => {
            let (low, high) = (s.duration("low_ps")?, s.duration("high_ps")?);
            if high < low {
                return Err(ConfigError::invalid(
                    "jitter.high_ps",
                    high.as_ps(),
                    format!("must not be below jitter.low_ps ({})", low.as_ps()),
                ));
            }
            JitterDistribution::Uniform { low, high }
        }
        other => return Err(s.unknown_type(other, "exponential or uniform")),
    };
    let reorder = s.optional::<bool>("reorder", "a boolean")?.unwrap_or(false);
    Ok(Jitter { distribution, reorder })
}

pub fn traffic(dict: &Bound<'_, PyDict>) -> Result<Traffic, ConfigError> {
    let s = Spec::new(dict, "traffic", &["rate_bps", "jitter", "mean_interval_ps", "on_mean_ps", "off_mean_ps"])?;
    match s.kind()?.as_str() {
        "cbr" => Ok(Traffic::Cbr { rate: s.bandwidth("rate_bps")?, jitter: s.flag_or("jitter", false)? }),
        "poisson" => {
            let mean_interval = s.duration("mean_interval_ps")?;
            if mean_interval == Duration::ZERO {
                return Err(ConfigError::invalid("traffic.mean_interval_ps", 0, "must be greater than zero"));
            }
            Ok(Traffic::Poisson { mean_interval })
        }
        "on_off" => {
            let on_mean = s.duration("on_mean_ps")?;
            if on_mean == Duration::ZERO {
                return Err(ConfigError::invalid("traffic.on_mean_ps", 0, "must be greater than zero"));
            }
            Ok(Traffic::OnOff { rate: s.bandwidth("rate_bps")?, on_mean, off_mean: s.duration("off_mean_ps")? })
        }
        other => Err(s.unknown_type(other, "cbr, poisson or on_off")),
    }
}

pub fn size(dict: &Bound<'_, PyDict>) -> Result<SizeModel, ConfigError> {
    use ackclock_net::packet::{MAX_DATAGRAM_BYTES, UDP_HEADER_BYTES};
    let s = Spec::new(dict, "size", &["bytes", "mean_bytes"])?;
    match s.kind()?.as_str() {
        "fixed" => {
            let b = s.required::<u64>("bytes", "a whole number of bytes")?;
            if !(u64::from(UDP_HEADER_BYTES)..=u64::from(MAX_DATAGRAM_BYTES)).contains(&b) {
                let why =
                    format!("must be between {UDP_HEADER_BYTES} (IPv4 + UDP headers) and {MAX_DATAGRAM_BYTES} bytes");
                return Err(ConfigError::invalid("size.bytes", b, why));
            }
            Ok(SizeModel::Fixed(b as u32))
        }
        "exponential" => Ok(SizeModel::Exponential { mean: s.positive_f64("mean_bytes", None)? }),
        other => Err(s.unknown_type(other, "fixed or exponential")),
    }
}

/// A TCP configuration: a named profile ("rfc", "linux" or "ns2") with any
/// parameter overridden; times in picoseconds, sizes in bytes.
pub fn tcp_config(dict: &Bound<'_, PyDict>, context: &'static str) -> Result<TcpConfig, ConfigError> {
    const KEYS: &[&str] = &[
        "profile",
        "cc",
        "cc_params",
        "sack",
        "rack",
        "prr",
        "frto",
        "undo",
        "ecn",
        "ecn_per_packet_echo",
        "quickacks",
        "dsack",
        "timestamps",
        "timestamp_granularity_ps",
        "window_scale",
        "mss",
        "mss_option",
        "initial_window",
        "syn_loss_window",
        "handshake",
        "first_fast_retransmit",
        "ns2_bare_packet0",
        "initial_ssthresh",
        "max_window",
        "abc",
        "ns2_arithmetic",
        "dupack_threshold",
        "limited_transmit",
        "initial_rto_ps",
        "min_rto_ps",
        "max_rto_ps",
        "min_rto_before_backoff",
        "clock_granularity_ps",
        "clock_phase_ps",
        "delayed_ack",
        "delayed_ack_timeout_ps",
        "immediate_gap_ack",
        "ns2_full_tcp",
        "restart_rto_before_sample",
        "ns2_qoption",
        "ns2_rtt_counter",
        "iss",
        "receive_buffer",
        "flow_control",
        "nagle",
        "send_overhead_ps",
        "max_burst",
        "persist_min_ps",
        "persist_max_ps",
        "time_wait_ps",
        "syn_retries",
        "max_retransmits",
    ];
    let s = Spec::new(dict, context, KEYS)?;
    let mss = s.optional::<u32>("mss", "a whole number of bytes")?;
    if mss == Some(0) {
        return Err(ConfigError::invalid(s.field("mss"), 0, "must be greater than zero"));
    }
    let profile = s.optional::<String>("profile", "a string")?;
    let mut c = match profile.as_deref() {
        None | Some("rfc") => TcpConfig::default(),
        Some("linux") => TcpConfig::linux(),
        Some("ns2") => TcpConfig::ns2(mss.unwrap_or(1000)),
        Some(other) => {
            return Err(ConfigError::invalid(
                s.field("profile"),
                format!("'{other}'"),
                "unknown profile (use rfc, linux or ns2)",
            ))
        }
    };
    congestion_control(&s, &mut c, profile.as_deref())?;
    let ps = |key: &str| -> Result<Option<Duration>, ConfigError> {
        Ok(s.optional::<u64>(key, "a whole number of picoseconds")?.map(Duration::from_ps))
    };
    let count = |key: &str| s.optional::<u32>(key, "a whole number");
    let flag = |key: &str| s.optional::<bool>(key, "a boolean");
    c.mss = mss.unwrap_or(c.mss);
    c.mss_option = flag("mss_option")?.unwrap_or(c.mss_option);
    c.initial_window = count("initial_window")?.unwrap_or(c.initial_window);
    // For these two an explicit None lifts the profile's value.
    let bound = |key: &str, default: Option<u32>| -> Result<Option<u32>, ConfigError> {
        match s.given(key) {
            Some(true) => count(key),
            Some(false) => Ok(None),
            None => Ok(default),
        }
    };
    c.initial_ssthresh = bound("initial_ssthresh", c.initial_ssthresh)?;
    c.syn_loss_window = bound("syn_loss_window", c.syn_loss_window)?;
    c.handshake = flag("handshake")?.unwrap_or(c.handshake);
    c.first_fast_retransmit = flag("first_fast_retransmit")?.unwrap_or(c.first_fast_retransmit);
    c.ns2_bare_packet0 = flag("ns2_bare_packet0")?.unwrap_or(c.ns2_bare_packet0);
    c.max_window = bound("max_window", c.max_window)?;
    c.abc = flag("abc")?.unwrap_or(c.abc);
    c.dupack_threshold = count("dupack_threshold")?.unwrap_or(c.dupack_threshold).max(1);
    c.limited_transmit = flag("limited_transmit")?.unwrap_or(c.limited_transmit);
    c.initial_rto = ps("initial_rto_ps")?.unwrap_or(c.initial_rto);
    c.min_rto = ps("min_rto_ps")?.unwrap_or(c.min_rto);
    c.max_rto = ps("max_rto_ps")?.unwrap_or(c.max_rto);
    c.min_rto_before_backoff = flag("min_rto_before_backoff")?.unwrap_or(c.min_rto_before_backoff);
    c.immediate_gap_ack = flag("immediate_gap_ack")?.unwrap_or(c.immediate_gap_ack);
    c.clock_granularity = ps("clock_granularity_ps")?.unwrap_or(c.clock_granularity);
    c.clock_phase = ps("clock_phase_ps")?.or(c.clock_phase);
    if c.clock_phase.is_some_and(|p| p >= c.clock_granularity) {
        let phase = c.clock_phase.map_or(0, Duration::as_ps);
        return Err(ConfigError::invalid(s.field("clock_phase_ps"), phase, "must be below clock_granularity_ps"));
    }
    let timeout = match c.ack_policy {
        AckPolicy::Delayed { timeout, .. } | AckPolicy::Ns2Clock { tick: timeout, .. } => timeout,
        AckPolicy::EverySegment => Duration::from_millis(200),
    };
    let timeout = ps("delayed_ack_timeout_ps")?.unwrap_or(timeout);
    let delayed = flag("delayed_ack")?.unwrap_or(matches!(c.ack_policy, AckPolicy::Delayed { .. }));
    c.ns2_full_tcp = flag("ns2_full_tcp")?.unwrap_or(c.ns2_full_tcp);
    c.restart_rto_before_sample = flag("restart_rto_before_sample")?.unwrap_or(c.restart_rto_before_sample);
    c.ns2_qoption = flag("ns2_qoption")?.unwrap_or(c.ns2_qoption);
    c.ns2_rtt_counter = flag("ns2_rtt_counter")?.unwrap_or(c.ns2_rtt_counter);
    if c.ns2_rtt_counter && !c.ns2_qoption {
        return Err(ConfigError::invalid(s.field("ns2_rtt_counter"), true, "needs ns2_qoption"));
    }
    c.iss = s.optional::<u32>("iss", "a whole number below 2^32")?.or(c.iss);
    c.ack_policy = match (c.ns2_full_tcp, delayed) {
        // FullTcp's clock: every segment (segsperack_ 1) or every second one.
        (true, _) => AckPolicy::Ns2Clock { tick: timeout, segments: if delayed { 2 } else { 1 } },
        // ns-2's DelAck sink delays a repeat of its latest segment too.
        (false, true) => AckPolicy::Delayed { timeout, delay_repeat: profile.as_deref() == Some("ns2") },
        (false, false) => AckPolicy::EverySegment,
    };
    c.receive_buffer = count("receive_buffer")?.unwrap_or(c.receive_buffer);
    c.flow_control = flag("flow_control")?.unwrap_or(c.flow_control);
    c.nagle = flag("nagle")?.unwrap_or(c.nagle);
    c.send_overhead = ps("send_overhead_ps")?.unwrap_or(c.send_overhead);
    c.max_burst = bound("max_burst", c.max_burst)?;
    if c.max_burst == Some(0) {
        return Err(ConfigError::invalid(s.field("max_burst"), 0, "must be at least 1 (None: no limit)"));
    }
    c.persist_min = ps("persist_min_ps")?.unwrap_or(c.persist_min);
    c.persist_max = ps("persist_max_ps")?.unwrap_or(c.persist_max);
    c.time_wait = ps("time_wait_ps")?.unwrap_or(c.time_wait);
    c.syn_retries = count("syn_retries")?.unwrap_or(c.syn_retries);
    c.max_retransmits = count("max_retransmits")?.unwrap_or(c.max_retransmits);
    c.sack = flag("sack")?.unwrap_or(c.sack);
    c.rack = flag("rack")?.unwrap_or(c.rack);
    // An algorithm that reacts to the extent of marks (DCTCP) turns ECN and
    // the per-packet echo on unless told otherwise, as Linux does.
    let needs_ecn = c.cc.info().needs_ecn;
    c.ecn = flag("ecn")?.unwrap_or(c.ecn || needs_ecn);
    c.ecn_per_packet_echo = flag("ecn_per_packet_echo")?.unwrap_or(c.ecn_per_packet_echo || needs_ecn);
    c.prr = flag("prr")?.unwrap_or(c.prr);
    c.frto = flag("frto")?.unwrap_or(c.frto);
    c.undo = flag("undo")?.unwrap_or(c.undo);
    c.quickacks = count("quickacks")?.unwrap_or(c.quickacks);
    c.dsack = flag("dsack")?.unwrap_or(c.dsack);
    c.timestamps = flag("timestamps")?.unwrap_or(c.timestamps);
    c.timestamp_granularity =
        ps("timestamp_granularity_ps")?.unwrap_or(c.timestamp_granularity).max(Duration::from_ps(1));
    c.window_scale = flag("window_scale")?.unwrap_or(c.window_scale);
    if c.min_rto > c.max_rto {
        return Err(ConfigError::invalid(s.field("min_rto_ps"), c.min_rto.as_ps(), "must not exceed max_rto_ps"));
    }
    Ok(c)
}

/// The algorithm, its parameters and ns-2's arithmetic. A plain name (and
/// the profile's own algorithm) runs the profile's module of it where the
/// registry has one (`reno` -> `linux-reno` or `ns2-reno`); a module's name
/// runs that module. `ns2_arithmetic` (by default on in the ns2 profile)
/// picks ns-2's modules and ns-2's tick clock for RTTs.
fn congestion_control(s: &Spec, c: &mut TcpConfig, profile: Option<&str>) -> Result<(), ConfigError> {
    let named = s.optional::<String>("cc", "a string")?;
    if let Some(name) = &named {
        c.cc = CcKind::from_name(name).ok_or_else(|| {
            let names: Vec<&str> = CcKind::all().map(|a| a.name).collect();
            ConfigError::invalid(
                s.field("cc"),
                format!("'{name}'"),
                format!("unknown congestion control (use {})", names.join(", ")),
            )
        })?;
    }
    let ns2_arithmetic = s.optional::<bool>("ns2_arithmetic", "a boolean")?;
    let flavour = match (ns2_arithmetic, profile) {
        (Some(true), _) | (None, Some("ns2")) => Flavour::Ns2,
        (_, Some("linux")) => Flavour::Linux,
        _ => Flavour::Rfc,
    };
    if named.is_none() || c.cc.flavour() == Flavour::Rfc || ns2_arithmetic.is_some() {
        c.cc = c.cc.in_flavour(flavour);
    }
    c.ns2_clock = flavour == Flavour::Ns2;
    let Some(params) = s.optional::<Bound<'_, PyDict>>("cc_params", "a dict of parameter values")? else {
        return Ok(());
    };
    for (key, value) in params.iter() {
        let name = key.extract::<String>().unwrap_or_else(|_| describe(&key));
        let field = format!("{}.cc_params.{name}", s.context);
        let number = match value.extract::<bool>() {
            Ok(flag) => Ok(f64::from(u8::from(flag))),
            Err(_) => value.extract::<f64>(),
        };
        let number = number.map_err(|_| ConfigError::invalid(&field, describe(&value), "expected a number"))?;
        c.cc_params
            .set(c.cc, &name, number)
            .map_err(|e| ConfigError::invalid(&field, describe(&value), e.to_string()))?;
    }
    Ok(())
}

/// The application on a TCP connection.
pub fn tcp_app(dict: &Bound<'_, PyDict>) -> Result<TcpApp, ConfigError> {
    let s = Spec::new(
        dict,
        "app",
        &["bytes", "mean_interval_ps", "packet_size", "request", "response", "count", "think_ps"],
    )?;
    match s.kind()?.as_str() {
        "bulk" => Ok(TcpApp::Bulk { bytes: s.optional::<u64>("bytes", "a whole number of bytes")? }),
        "telnet" => Ok(TcpApp::Telnet {
            mean_interval: s.duration("mean_interval_ps")?,
            packet_size: s.required::<u32>("packet_size", "a whole number of bytes")?,
        }),
        "request_response" => Ok(TcpApp::RequestResponse {
            request: s.required::<u64>("request", "a whole number of bytes")?.max(1),
            response: s.required::<u64>("response", "a whole number of bytes")?.max(1),
            count: s.optional::<u32>("count", "a whole number")?.unwrap_or(1),
            think: s
                .optional::<u64>("think_ps", "a whole number of picoseconds")?
                .map_or(Duration::ZERO, Duration::from_ps),
        }),
        "manual" => Ok(TcpApp::Manual),
        other => Err(s.unknown_type(other, "bulk, telnet, request_response or manual")),
    }
}

/// How a node makes its routes: {"type": "static" | "session" | "dv" |
/// "aodv" | "dsdv", ...}.
pub fn router(dict: &Bound<'_, PyDict>) -> Result<Router, ConfigError> {
    match Spec::kind_of(dict, "routing")?.as_str() {
        "static" => Spec::new(dict, "routing", &[]).map(|_| Router::Static),
        "session" => Spec::new(dict, "routing", &[]).map(|_| Router::Session),
        "dv" => dv_router(dict),
        "aodv" => aodv_router(dict),
        "dsdv" => dsdv_router(dict),
        other => Err(unknown_type("routing", other, "static, session, dv, aodv or dsdv")),
    }
}

fn dv_router(dict: &Bound<'_, PyDict>) -> Result<Router, ConfigError> {
    let s = Spec::new(dict, "routing", &["advert_interval_ps", "infinity", "header_bytes", "entry_bytes"])?;
    let d = DvConfig::default();
    let interval = s.optional::<u64>("advert_interval_ps", "a whole number of picoseconds")?;
    let infinity = s.optional::<u32>("infinity", "a whole number")?.unwrap_or(d.infinity);
    if infinity < 2 {
        return Err(ConfigError::invalid(s.field("infinity"), infinity, "must be at least 2"));
    }
    let config = DvConfig {
        advert_interval: interval.map_or(d.advert_interval, Duration::from_ps),
        infinity,
        header_bytes: s.optional::<u32>("header_bytes", "a whole number of bytes")?.unwrap_or(d.header_bytes),
        entry_bytes: s.optional::<u32>("entry_bytes", "a whole number of bytes")?.unwrap_or(d.entry_bytes),
    };
    if config.advert_interval == Duration::ZERO {
        return Err(ConfigError::invalid(s.field("advert_interval_ps"), 0, "must be greater than zero"));
    }
    Ok(Router::Dv(config))
}

impl Spec<'_, '_> {
    /// A duration in picoseconds, `default` when absent; `positive` refuses zero.
    fn duration_or(&self, key: &str, default: Duration, positive: bool) -> Result<Duration, ConfigError> {
        let d = self.optional::<u64>(key, "a whole number of picoseconds")?.map_or(default, Duration::from_ps);
        if positive && d == Duration::ZERO {
            return Err(ConfigError::invalid(self.field(key), 0, "must be greater than zero"));
        }
        Ok(d)
    }

    /// A whole number at least `least`, `default` when absent.
    fn count_or<T>(&self, key: &str, default: T, least: T) -> Result<T, ConfigError>
    where
        T: for<'b, 'py> FromPyObject<'b, 'py> + PartialOrd + Copy + std::fmt::Display,
    {
        let n = self.optional::<T>(key, "a whole number")?.unwrap_or(default);
        if n < least {
            return Err(ConfigError::invalid(self.field(key), n, format!("must be at least {least}")));
        }
        Ok(n)
    }

    fn flag_or(&self, key: &str, default: bool) -> Result<bool, ConfigError> {
        Ok(self.optional::<bool>(key, "a boolean")?.unwrap_or(default))
    }
}

const AODV_KEYS: &[&str] = &[
    "active_route_timeout_ps",
    "my_route_timeout_ps",
    "rev_route_life_ps",
    "bcast_id_save_ps",
    "rreq_retries",
    "max_rreq_timeout_ps",
    "ttl_start",
    "ttl_increment",
    "ttl_threshold",
    "network_diameter",
    "node_traversal_time_ps",
    "purge_interval_ps",
    "broadcast_jitter_ps",
    "local_repair",
    "queue_len",
    "queue_timeout_ps",
];

fn aodv_router(dict: &Bound<'_, PyDict>) -> Result<Router, ConfigError> {
    let s = Spec::new(dict, "routing", AODV_KEYS)?;
    let d = AodvConfig::default();
    Ok(Router::Aodv(AodvConfig {
        active_route_timeout: s.duration_or("active_route_timeout_ps", d.active_route_timeout, true)?,
        my_route_timeout: s.duration_or("my_route_timeout_ps", d.my_route_timeout, true)?,
        rev_route_life: s.duration_or("rev_route_life_ps", d.rev_route_life, true)?,
        bcast_id_save: s.duration_or("bcast_id_save_ps", d.bcast_id_save, true)?,
        rreq_retries: s.count_or("rreq_retries", d.rreq_retries, 0)?,
        max_rreq_timeout: s.duration_or("max_rreq_timeout_ps", d.max_rreq_timeout, true)?,
        ttl_start: s.count_or("ttl_start", d.ttl_start, 1)?,
        ttl_increment: s.count_or("ttl_increment", d.ttl_increment, 1)?,
        ttl_threshold: s.count_or("ttl_threshold", d.ttl_threshold, 1)?,
        network_diameter: s.count_or("network_diameter", d.network_diameter, 1)?,
        node_traversal_time: s.duration_or("node_traversal_time_ps", d.node_traversal_time, true)?,
        purge_interval: s.duration_or("purge_interval_ps", d.purge_interval, true)?,
        broadcast_jitter: s.duration_or("broadcast_jitter_ps", d.broadcast_jitter, false)?,
        local_repair: s.flag_or("local_repair", d.local_repair)?,
        queue_len: s.count_or("queue_len", d.queue_len, 0)?,
        queue_timeout: s.duration_or("queue_timeout_ps", d.queue_timeout, true)?,
    }))
}

const DSDV_KEYS: &[&str] = &[
    "periodic_update_interval_ps",
    "min_update_periods",
    "wst0_ps",
    "alpha",
    "use_mac",
    "be_random",
    "min_triggered_interval_ps",
    "broadcast_jitter_ps",
    "startup_jitter_ps",
    "queue_len",
];

fn dsdv_router(dict: &Bound<'_, PyDict>) -> Result<Router, ConfigError> {
    let s = Spec::new(dict, "routing", DSDV_KEYS)?;
    let d = DsdvConfig::default();
    Ok(Router::Dsdv(DsdvConfig {
        periodic_update_interval: s.duration_or("periodic_update_interval_ps", d.periodic_update_interval, true)?,
        min_update_periods: s.count_or("min_update_periods", d.min_update_periods, 1)?,
        wst0: s.duration_or("wst0_ps", d.wst0, false)?,
        alpha: s.probability("alpha", Some(d.alpha))?,
        use_mac: s.flag_or("use_mac", d.use_mac)?,
        be_random: s.flag_or("be_random", d.be_random)?,
        min_triggered_interval: s.duration_or("min_triggered_interval_ps", d.min_triggered_interval, false)?,
        broadcast_jitter: s.duration_or("broadcast_jitter_ps", d.broadcast_jitter, false)?,
        startup_jitter: s.duration_or("startup_jitter_ps", d.startup_jitter, false)?,
        queue_len: s.count_or("queue_len", d.queue_len, 0)?,
    }))
}

/// A change of links: {"type": "down" | "up" | "bandwidth", "bandwidth_bps"}.
pub fn link_change(dict: &Bound<'_, PyDict>) -> Result<LinkChange, ConfigError> {
    let s = Spec::new(dict, "change", &["bandwidth_bps"])?;
    match s.kind()?.as_str() {
        "down" => Spec::new(dict, "change", &[]).map(|_| LinkChange::Down),
        "up" => Spec::new(dict, "change", &[]).map(|_| LinkChange::Up),
        "bandwidth" => Ok(LinkChange::Bandwidth(s.bandwidth("bandwidth_bps")?)),
        other => Err(s.unknown_type(other, "down, up or bandwidth")),
    }
}

/// ns-2's rtmodel: {"type": "deterministic" | "exponential", "up_ps",
/// "down_ps", "start_ps", "finish_ps"}, up and down the periods (or their
/// means).
pub fn failure_model(dict: &Bound<'_, PyDict>) -> Result<FailureModel, ConfigError> {
    let s = Spec::new(dict, "failures", &["up_ps", "down_ps", "start_ps", "finish_ps"])?;
    let exponential = match s.kind()?.as_str() {
        "deterministic" => false,
        "exponential" => true,
        other => return Err(s.unknown_type(other, "deterministic or exponential")),
    };
    let d = FailureModel::ns2(exponential);
    let ps = |key: &str| s.optional::<u64>(key, "a whole number of picoseconds");
    let (default_up, default_down) = match d.timing {
        FailureTiming::Deterministic { up, down } | FailureTiming::Exponential { up_mean: up, down_mean: down } => {
            (up, down)
        }
    };
    let up = ps("up_ps")?.map_or(default_up, Duration::from_ps);
    let down = ps("down_ps")?.map_or(default_down, Duration::from_ps);
    for (key, value) in [("up_ps", up), ("down_ps", down)] {
        if value == Duration::ZERO {
            return Err(ConfigError::invalid(s.field(key), 0, "must be greater than zero"));
        }
    }
    let timing = if exponential {
        FailureTiming::Exponential { up_mean: up, down_mean: down }
    } else {
        FailureTiming::Deterministic { up, down }
    };
    Ok(FailureModel {
        timing,
        start: ps("start_ps")?.map_or(d.start, Instant::from_ps),
        finish: ps("finish_ps")?.map(Instant::from_ps),
    })
}

/// A node's processor: {"service_ps", "distribution": "constant" |
/// "exponential", "queue_limit"}.
pub fn propagation(dict: &Bound<'_, PyDict>) -> Result<Propagation, ConfigError> {
    let kind = Spec::kind_of(dict, "propagation")?;
    match kind.as_str() {
        "free_space" => Spec::new(dict, "propagation", &[]).map(|_| Propagation::FreeSpace),
        "two_ray_ground" => Spec::new(dict, "propagation", &[]).map(|_| Propagation::TwoRayGround),
        "shadowing" => {
            let s = Spec::new(dict, "propagation", &["path_loss_exponent", "deviation_db", "reference_distance"])?;
            let d = ShadowingParams::default();
            let number =
                |key, default: f64| Ok::<_, ConfigError>(s.optional::<f64>(key, "a number")?.unwrap_or(default));
            Ok(Propagation::Shadowing(ShadowingParams {
                path_loss_exponent: number("path_loss_exponent", d.path_loss_exponent)?,
                deviation_db: number("deviation_db", d.deviation_db)?,
                reference_distance_m: number("reference_distance", d.reference_distance_m)?,
            }))
        }
        other => Err(unknown_type("propagation", other, "'free_space', 'two_ray_ground' or 'shadowing'")),
    }
}

/// A radio's physical layer; absent keys take ns-2's defaults (checked
/// by the simulation).
pub fn phy(dict: &Bound<'_, PyDict>) -> Result<PhyConfig, ConfigError> {
    const KEYS: [&str; 7] =
        ["tx_power", "frequency", "rx_threshold", "cs_threshold", "capture_threshold", "system_loss", "antenna_height"];
    let s = Spec::new(dict, "phy", &KEYS)?;
    let d = PhyConfig::default();
    let number = |key, default: f64| Ok::<_, ConfigError>(s.optional::<f64>(key, "a number")?.unwrap_or(default));
    Ok(PhyConfig {
        tx_power_w: number("tx_power", d.tx_power_w)?,
        frequency_hz: number("frequency", d.frequency_hz)?,
        rx_threshold_w: number("rx_threshold", d.rx_threshold_w)?,
        cs_threshold_w: number("cs_threshold", d.cs_threshold_w)?,
        capture_threshold: number("capture_threshold", d.capture_threshold)?,
        system_loss: number("system_loss", d.system_loss)?,
        antenna_height_m: number("antenna_height", d.antenna_height_m)?,
        ..d
    })
}

/// A radio's 802.11 MAC: Mac80211.to_native()'s dict.
pub fn dcf(dict: &Bound<'_, PyDict>) -> Result<DcfConfig, ConfigError> {
    const KEYS: [&str; 7] = [
        "data_rate_bps",
        "basic_rate_bps",
        "rts_threshold",
        "short_retry_limit",
        "long_retry_limit",
        "cw_min",
        "cw_max",
    ];
    let s = Spec::new(dict, "mac", &KEYS)?;
    let d = DcfConfig::default();
    let rate = |key: &str, default: Bandwidth| -> Result<Bandwidth, ConfigError> {
        match s.optional::<u64>(key, "a whole number of bits per second")? {
            None => Ok(default),
            Some(bps) => Bandwidth::from_bps(bps)
                .ok_or_else(|| ConfigError::invalid(s.field(key), bps, "must be greater than zero")),
        }
    };
    let cw_min = s.count_or("cw_min", d.cw_min, 1)?;
    Ok(DcfConfig {
        data_rate: rate("data_rate_bps", d.data_rate)?,
        basic_rate: rate("basic_rate_bps", d.basic_rate)?,
        rts_threshold: s.count_or("rts_threshold", d.rts_threshold, 0)?,
        short_retry_limit: s.count_or("short_retry_limit", d.short_retry_limit, 1)?,
        long_retry_limit: s.count_or("long_retry_limit", d.long_retry_limit, 1)?,
        cw_min,
        cw_max: s.count_or("cw_max", d.cw_max, cw_min)?,
        ..d
    })
}

pub fn processor(dict: &Bound<'_, PyDict>) -> Result<ProcessorConfig, ConfigError> {
    let s = Spec::new(dict, "processing", &["service_ps", "distribution", "queue_limit"])?;
    let service = s.duration("service_ps")?;
    let service = match s.optional::<String>("distribution", "a string")?.as_deref() {
        None | Some("constant") => ServiceTime::Constant(service),
        Some("exponential") => ServiceTime::Exponential { mean: service },
        Some(other) => {
            return Err(ConfigError::invalid(
                s.field("distribution"),
                format!("'{other}'"),
                "must be 'constant' or 'exponential'",
            ))
        }
    };
    Ok(ProcessorConfig { service, queue_limit: s.optional::<u32>("queue_limit", "a non-negative whole number")? })
}
