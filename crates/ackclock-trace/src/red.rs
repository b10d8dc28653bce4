//! ns-2's trace of a RED queue's variables (`$redq trace curq_`, `trace
//! ave_`, `attach`; red.cc's `trace`): a line each time a traced variable
//! changes, as ns-2's traced variables report only changes. At an arrival
//! ns-2 sets the average first (`a TIME AVE`), then the queue the arrival
//! found (`Q TIME CURQ`); both `%g`.

use crate::ns2::write_g;
use crate::record::RedQueueRecord;
use ackclock_net::ChannelId;
use std::io::{self, Write};

#[derive(Clone, Debug, PartialEq)]
pub struct RedVars {
    pub channel: ChannelId,
    /// curq_ is traced.
    pub queue: bool,
    /// ave_ is traced.
    pub average: bool,
    /// The values last seen (ns-2 starts both at 0).
    last: (f64, f64),
}

impl RedVars {
    pub fn new(channel: ChannelId, queue: bool, average: bool) -> Self {
        RedVars { channel, queue, average, last: (0.0, 0.0) }
    }

    pub fn write(&mut self, out: &mut dyn Write, r: &RedQueueRecord) -> io::Result<()> {
        let secs = r.time.as_secs_f64();
        if self.average && r.average != self.last.1 {
            line(out, 'a', secs, r.average)?;
        }
        if self.queue && r.queue != self.last.0 {
            line(out, 'Q', secs, r.queue)?;
        }
        self.last = (r.queue, r.average);
        Ok(())
    }
}

fn line(out: &mut dyn Write, symbol: char, secs: f64, value: f64) -> io::Result<()> {
    write!(out, "{symbol} ")?;
    write_g(out, secs, 6)?;
    out.write_all(b" ")?;
    write_g(out, value, 6)?;
    out.write_all(b"\n")
}

#[cfg(test)]
mod tests {
    use super::*;
    use ackclock_core::Instant;

    fn record(secs_e4: u64, queue: f64, average: f64) -> RedQueueRecord {
        RedQueueRecord { time: Instant::from_ps(secs_e4 * 100_000_000), channel: 1, queue, average }
    }

    #[test]
    fn lines_come_only_for_traced_variables_that_changed() {
        // As ns-2 2.35 wrote for a RED queue in bytes (curq_ and ave_ traced).
        let mut vars = RedVars::new(1, true, true);
        let mut out = Vec::new();
        for r in
            [record(1014, 0.0, 0.0), record(1094, 500.0, 25.0), record(1120, 500.0, 48.75), record(1174, 1000.0, 48.75)]
        {
            vars.write(&mut out, &r).unwrap();
        }
        assert_eq!(String::from_utf8(out).unwrap(), "a 0.1094 25\nQ 0.1094 500\na 0.112 48.75\nQ 0.1174 1000\n");
    }

    #[test]
    fn an_untraced_variable_writes_nothing() {
        let mut vars = RedVars::new(1, false, true);
        let mut out = Vec::new();
        vars.write(&mut out, &record(1094, 500.0, 117.74666)).unwrap();
        assert_eq!(String::from_utf8(out).unwrap(), "a 0.1094 117.747\n");
    }
}
