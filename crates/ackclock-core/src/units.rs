//! Exact parsing of the unit strings users write: "10ms", "1.5s", "10Mb",
//! "28.8kb", "1500B".
//!
//! Numbers are read as decimals, never through floating point, so "0.1s" is
//! exactly 100_000_000_000 ps, and a value that is not a whole number of the
//! base unit (picoseconds, bit/s, bytes) is refused rather than rounded.
//! Bandwidth prefixes are decimal, as in ns-2 (1Mb = 1e6 bit/s); a capital
//! `B` means bytes.

use crate::time::{Bandwidth, Duration};
use thiserror::Error;

#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum UnitError {
    #[error("'{text}' is not a {what}: {why}")]
    Malformed { text: String, what: &'static str, why: String },
}

fn malformed(text: &str, what: &'static str, why: impl Into<String>) -> UnitError {
    UnitError::Malformed { text: text.to_string(), what, why: why.into() }
}

/// A non-negative decimal `digits * 10^exp10`.
struct Decimal {
    digits: u128,
    exp10: i64,
}

/// Splits "12.5e-3ms" into the decimal 12.5e-3 and the suffix "ms".
fn split_number<'a>(text: &'a str, what: &'static str) -> Result<(Decimal, &'a str), UnitError> {
    let s = text.trim();
    let bytes = s.as_bytes();
    let mut i = 0;
    let mut digits: u128 = 0;
    let mut exp10: i64 = 0;
    let mut seen_digit = false;
    let mut seen_point = false;
    if bytes.first() == Some(&b'-') {
        return Err(malformed(text, what, "it must not be negative"));
    }
    if bytes.first() == Some(&b'+') {
        i += 1;
    }
    while i < bytes.len() {
        match bytes[i] {
            c @ b'0'..=b'9' => {
                seen_digit = true;
                digits = digits
                    .checked_mul(10)
                    .and_then(|d| d.checked_add(u128::from(c - b'0')))
                    .ok_or_else(|| malformed(text, what, "too many digits"))?;
                if seen_point {
                    exp10 -= 1;
                }
            }
            b'.' if !seen_point => seen_point = true,
            b'_' => {}
            _ => break,
        }
        i += 1;
    }
    if !seen_digit {
        return Err(malformed(text, what, "it does not start with a number"));
    }
    // Optional exponent: e or E followed by an optionally signed integer.
    if i < bytes.len() && (bytes[i] == b'e' || bytes[i] == b'E') {
        let mut j = i + 1;
        let negative = bytes.get(j) == Some(&b'-');
        if matches!(bytes.get(j), Some(b'-') | Some(b'+')) {
            j += 1;
        }
        let start = j;
        while j < bytes.len() && bytes[j].is_ascii_digit() {
            j += 1;
        }
        if j > start {
            let e: i32 = s[start..j].parse().map_err(|_| malformed(text, what, "exponent too large"))?;
            exp10 += if negative { -i64::from(e) } else { i64::from(e) };
            i = j;
        }
    }
    Ok((Decimal { digits, exp10 }, s[i..].trim()))
}

/// The base unit a parser returns: its name and its suffix.
type BaseUnit = (&'static str, &'static str);

/// `d * 10^shift * factor` as a whole number of the base unit, or an error
/// naming the two nearest whole numbers when it is not one.
fn scale(
    d: Decimal,
    shift: i64,
    factor: u128,
    unit: BaseUnit,
    text: &str,
    what: &'static str,
) -> Result<u64, UnitError> {
    let too_large = || malformed(text, what, "too large");
    let e = d.exp10 + shift;
    let value = d.digits.checked_mul(factor).ok_or_else(too_large)?;
    if value == 0 {
        return Ok(0);
    }
    let exact = if e >= 0 {
        let p = u32::try_from(e).ok().and_then(|e| 10u128.checked_pow(e)).ok_or_else(too_large)?;
        value.checked_mul(p).ok_or_else(too_large)?
    } else {
        let (below, rest) = match u32::try_from(-e).ok().and_then(|e| 10u128.checked_pow(e)) {
            Some(p) => (value / p, value % p),
            None => (0, value), // more than 38 decimals below the unit
        };
        if rest != 0 {
            let (name, suffix) = unit;
            let above = below + 1;
            let why =
                format!("it is not a whole number of {name} (the nearest are {below}{suffix} and {above}{suffix})");
            return Err(malformed(text, what, why));
        }
        below
    };
    u64::try_from(exact).map_err(|_| too_large())
}

/// Parses a duration. A bare number is seconds. Units: ps, ns, us, ms, s, min.
pub fn parse_duration(text: &str) -> Result<Duration, UnitError> {
    const WHAT: &str = "duration";
    let (d, suffix) = split_number(text, WHAT)?;
    let (shift, factor) = match suffix {
        "ps" => (0, 1),
        "ns" => (3, 1),
        "us" | "µs" => (6, 1),
        "ms" => (9, 1),
        "" | "s" | "sec" => (12, 1),
        "min" => (12, 60),
        other => return Err(malformed(text, WHAT, format!("unknown unit '{other}' (use ps, ns, us, ms, s or min)"))),
    };
    scale(d, shift, factor, ("picoseconds", "ps"), text, WHAT).map(Duration::from_ps)
}

/// Parses a bit rate. A bare number is bit/s. A prefix k, M, G or T
/// (either case) is decimal; then `b`, `bps`, `bit`, `bit/s` for bits or
/// `B`, `Bps`, `B/s` for bytes.
pub fn parse_bandwidth(text: &str) -> Result<Bandwidth, UnitError> {
    const WHAT: &str = "bandwidth";
    let (d, suffix) = split_number(text, WHAT)?;
    let (prefix, unit) = match suffix.chars().next() {
        Some(c @ ('k' | 'K' | 'm' | 'M' | 'g' | 'G' | 't' | 'T')) => (Some(c), &suffix[1..]),
        _ => (None, suffix),
    };
    let shift = match prefix.map(|c| c.to_ascii_lowercase()) {
        None => 0,
        Some('k') => 3,
        Some('m') => 6,
        Some('g') => 9,
        _ => 12,
    };
    let factor = match unit {
        "" if prefix.is_none() => 1,
        "b" | "bps" | "bit" | "bit/s" | "bits/s" => 1,
        "B" | "Bps" | "B/s" => 8,
        other => {
            return Err(malformed(text, WHAT, format!("unknown unit '{other}' (use e.g. 10Mb, 800Kb, 28.8kb or 1GB)")))
        }
    };
    let bps = scale(d, shift, factor, ("bit/s", "b"), text, WHAT)?;
    Bandwidth::from_bps(bps).ok_or_else(|| malformed(text, WHAT, "it must be greater than zero"))
}

/// Parses a size in bytes. A bare number is bytes. Units: B, KB, MB, GB
/// (decimal) and KiB, MiB, GiB (binary).
pub fn parse_size(text: &str) -> Result<u64, UnitError> {
    const WHAT: &str = "size";
    let (d, suffix) = split_number(text, WHAT)?;
    let (shift, factor) = match suffix {
        "" | "B" | "bytes" => (0, 1),
        "KB" | "kB" => (3, 1),
        "MB" => (6, 1),
        "GB" => (9, 1),
        "KiB" => (0, 1 << 10),
        "MiB" => (0, 1 << 20),
        "GiB" => (0, 1 << 30),
        other => {
            return Err(malformed(text, WHAT, format!("unknown unit '{other}' (use B, KB, MB, GB, KiB, MiB or GiB)")))
        }
    };
    scale(d, shift, factor, ("bytes", "B"), text, WHAT)
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    #[test]
    fn durations_parse_exactly() {
        assert_eq!(parse_duration("50ms").unwrap(), Duration::from_millis(50));
        assert_eq!(parse_duration("1.5s").unwrap(), Duration::from_ps(1_500_000_000_000));
        assert_eq!(parse_duration("0.1").unwrap(), Duration::from_ps(100_000_000_000));
        assert_eq!(parse_duration("2min").unwrap(), Duration::from_secs(120));
        assert_eq!(parse_duration("1e-3s").unwrap(), Duration::from_millis(1));
        assert_eq!(parse_duration(" 10 us ").unwrap(), Duration::from_micros(10));
    }

    #[test]
    fn bandwidths_use_decimal_prefixes_and_bytes_with_capital_b() {
        assert_eq!(parse_bandwidth("10Mb").unwrap().bps(), 10_000_000);
        assert_eq!(parse_bandwidth("800Kb").unwrap().bps(), 800_000);
        assert_eq!(parse_bandwidth("28.8kb").unwrap().bps(), 28_800);
        assert_eq!(parse_bandwidth("1Gbps").unwrap().bps(), 1_000_000_000);
        assert_eq!(parse_bandwidth("1MB").unwrap().bps(), 8_000_000);
        assert_eq!(parse_bandwidth("64000").unwrap().bps(), 64_000);
    }

    #[test]
    fn sizes_parse_decimal_and_binary() {
        assert_eq!(parse_size("1500").unwrap(), 1500);
        assert_eq!(parse_size("100MB").unwrap(), 100_000_000);
        assert_eq!(parse_size("8MiB").unwrap(), 8 << 20);
    }

    #[test]
    fn values_between_two_whole_units_are_refused_with_both_neighbours() {
        let why = |e: UnitError| e.to_string();
        assert_eq!(
            why(parse_size("1.5B").unwrap_err()),
            "'1.5B' is not a size: it is not a whole number of bytes (the nearest are 1B and 2B)"
        );
        assert!(why(parse_size("1.0001KB").unwrap_err()).ends_with("(the nearest are 1000B and 1001B)"));
        assert!(why(parse_duration("1e-15s").unwrap_err()).ends_with("picoseconds (the nearest are 0ps and 1ps)"));
        assert!(why(parse_duration("1e-99s").unwrap_err()).ends_with("(the nearest are 0ps and 1ps)"));
        assert!(why(parse_bandwidth("0.5b").unwrap_err()).ends_with("bit/s (the nearest are 0b and 1b)"));
        assert_eq!(parse_size("1.5KB").unwrap(), 1500);
        assert_eq!(parse_size("0.5KiB").unwrap(), 512);
        assert_eq!(parse_bandwidth("1.5B").unwrap().bps(), 12);
        assert_eq!(parse_duration("0e-99s").unwrap(), Duration::ZERO);
        assert_eq!(parse_duration("1.000000000000s").unwrap(), Duration::from_secs(1));
    }

    #[test]
    fn huge_exponents_are_too_large_not_a_crash() {
        assert!(parse_duration("5e2147483647s").unwrap_err().to_string().ends_with("too large"));
        assert!(parse_size("1e40B").unwrap_err().to_string().ends_with("too large"));
        assert!(parse_bandwidth("9e30Tb").unwrap_err().to_string().ends_with("too large"));
        assert!(parse_duration("1e99999999999s").unwrap_err().to_string().ends_with("exponent too large"));
    }

    #[test]
    fn malformed_strings_name_themselves() {
        let e = parse_bandwidth("10 furlongs").unwrap_err().to_string();
        assert!(e.contains("'10 furlongs'") && e.contains("furlongs"), "{e}");
        assert!(parse_bandwidth("0Mb").unwrap_err().to_string().contains("greater than zero"));
        assert!(parse_duration("-5ms").unwrap_err().to_string().contains("negative"));
        assert!(parse_duration("fast").unwrap_err().to_string().contains("does not start with a number"));
        assert!(parse_duration("5 parsecs").is_err());
    }

    /// `n` with a decimal point `places` digits from the right: (1500, 3) is
    /// "1.500", (15, 0) is "15.".
    fn with_point(n: u64, places: usize) -> String {
        let digits = format!("{n:0>width$}", width = places + 1);
        let (whole, fraction) = digits.split_at(digits.len() - places);
        format!("{whole}.{fraction}")
    }

    #[derive(Clone, Copy, Debug)]
    enum Quantity {
        Duration,
        Bandwidth,
        Size,
    }

    impl Quantity {
        fn parse(self, text: &str) -> Result<u64, UnitError> {
            match self {
                Quantity::Duration => parse_duration(text).map(Duration::as_ps),
                Quantity::Bandwidth => parse_bandwidth(text).map(Bandwidth::bps),
                Quantity::Size => parse_size(text),
            }
        }

        /// Its units with their size in base units as a power of ten.
        fn units(self) -> Vec<(&'static str, usize)> {
            match self {
                Quantity::Duration => vec![("ps", 0), ("ns", 3), ("us", 6), ("ms", 9), ("s", 12), ("", 12)],
                Quantity::Bandwidth => vec![("b", 0), ("", 0), ("kb", 3), ("Mb", 6), ("Gbps", 9), ("Tb", 12)],
                Quantity::Size => vec![("B", 0), ("", 0), ("KB", 3), ("MB", 6), ("GB", 9)],
            }
        }
    }

    fn quantity() -> impl Strategy<Value = Quantity> {
        prop::sample::select(vec![Quantity::Duration, Quantity::Bandwidth, Quantity::Size])
    }

    fn quantity_and_unit() -> impl Strategy<Value = (Quantity, (&'static str, usize))> {
        quantity().prop_flat_map(|q| (Just(q), prop::sample::select(q.units())))
    }

    proptest! {
        /// Whatever the text, every parser answers with a value or an error
        /// that quotes it; it never panics.
        #[test]
        fn any_text_is_parsed_or_refused_quoting_it(
            text in "[ +\\-]?[0-9_]{0,40}(\\.[0-9_]{0,40})?([eE][+\\-]?[0-9]{0,12})?[ a-zA-Zµ/]{0,6}|\\PC{0,30}",
            q in quantity(),
        ) {
            if let Err(e) = q.parse(&text) {
                prop_assert!(e.to_string().starts_with(&format!("'{text}' is not a ")), "{}", e);
            }
        }

        /// A whole number of base units written in any unit, as a decimal
        /// or with an exponent, parses back to exactly that number.
        #[test]
        fn a_whole_number_of_base_units_in_any_unit_parses_back_exactly(
            (q, (unit, places)) in quantity_and_unit(),
            n in 1u64..,
            scientific in any::<bool>(),
        ) {
            let text = if scientific { format!("{n}e-{places}{unit}") } else { format!("{}{unit}", with_point(n, places)) };
            prop_assert_eq!(q.parse(&text), Ok(n), "{}", text);
        }

        /// A value between two whole base units is refused, naming both.
        #[test]
        fn a_value_between_two_base_units_is_refused_naming_both(
            (q, (unit, places)) in quantity_and_unit(),
            n in 0u64..u64::MAX,
            extra in "[0-9]{0,8}[1-9]",
        ) {
            let text = format!("{}{extra}{unit}", with_point(n, places));
            let e = q.parse(&text).unwrap_err().to_string();
            let nearest = format!("(the nearest are {n}");
            prop_assert!(e.contains(&nearest) && e.contains(&format!(" and {}", u128::from(n) + 1)), "{}: {}", text, e);
        }
    }
}
