//! Linux's `reno` (net/ipv4/tcp_cong.c), the window arithmetic the `linux`
//! profile runs for `reno`. It counts whole packets:
//!
//! * ssthresh = max(cwnd / 2, 2) packets (`tcp_reno_ssthresh`): half the
//!   window, not half the flight as RFC 5681 says;
//! * only while cwnd-limited (`tcp_is_cwnd_limited`): in slow start cwnd
//!   grows by the packets an ACK delivered (acknowledged or SACKed) up to
//!   ssthresh, the rest carried into congestion avoidance (`tcp_slow_start`),
//!   where one packet is added per cwnd packets delivered (`tcp_cong_avoid_ai`);
//! * undo restores the larger of cwnd and the cwnd before the reduction
//!   (`tcp_reno_undo_cwnd`).
//!
//! Loss recovery is the endpoint's: with SACK RACK-TLP and PRR in the
//! `linux` profile, without it NewReno's partial ACKs, as Linux does.

use super::{CongestionOps, Conn, RateSample, Window};

#[derive(Clone, Debug, Default, PartialEq)]
pub struct LinuxReno {
    /// `snd_cwnd_cnt`: packets delivered since cwnd last grew in avoidance.
    cwnd_cnt: u64,
    /// Delivered bytes not yet a whole packet.
    partial: u64,
}

impl CongestionOps for LinuxReno {
    fn name(&self) -> &'static str {
        "linux-reno"
    }

    fn ssthresh(&mut self, w: &Window, c: &Conn) -> u32 {
        (w.cwnd / c.mss / 2).max(2) * c.mss
    }

    fn cong_avoid(&mut self, w: &mut Window, c: &Conn, rs: &RateSample) {
        if !c.cwnd_limited {
            return;
        }
        let mss = u64::from(c.mss);
        let bytes = self.partial + u64::from(rs.acked_sacked);
        let (mut acked, mut cwnd) = (bytes / mss, u64::from(w.cwnd) / mss);
        self.partial = bytes % mss;
        let ssthresh = u64::from(w.ssthresh) / mss;
        if cwnd < ssthresh {
            let grown = (cwnd + acked).min(ssthresh);
            acked -= grown - cwnd;
            cwnd = grown;
        }
        if acked > 0 {
            if self.cwnd_cnt >= cwnd {
                self.cwnd_cnt = 0;
                cwnd += 1;
            }
            self.cwnd_cnt += acked;
            if self.cwnd_cnt >= cwnd {
                let delta = self.cwnd_cnt / cwnd;
                self.cwnd_cnt -= delta * cwnd;
                cwnd += delta;
            }
        }
        w.cwnd = (cwnd * mss).min(u64::from(u32::MAX / 2)) as u32;
    }
}

#[cfg(test)]
mod tests {
    use super::super::tests::{conn, window};
    use super::*;

    fn delivered(bytes: u32) -> RateSample {
        RateSample { acked_sacked: bytes, ..RateSample::default() }
    }

    #[test]
    fn ssthresh_is_half_the_window_in_whole_packets() {
        let mut cc = LinuxReno::default();
        assert_eq!(cc.ssthresh(&window(67_000, 0), &conn(1000, 10_000)), 33_000, "not half the flight");
        assert_eq!(cc.ssthresh(&window(3_000, 0), &conn(1000, 3_000)), 2_000);
    }

    #[test]
    fn slow_start_stops_at_ssthresh_and_carries_the_rest_into_avoidance() {
        let mut cc = LinuxReno::default();
        let mut w = window(8_000, 10_000);
        cc.cong_avoid(&mut w, &conn(1000, 8_000), &delivered(4_000));
        // 2 packets reach ssthresh, the other 2 count towards avoidance.
        assert_eq!((w.cwnd, cc.cwnd_cnt), (10_000, 2));
    }

    #[test]
    fn avoidance_adds_one_packet_per_window_delivered() {
        let mut cc = LinuxReno::default();
        let mut w = window(10_000, 5_000);
        for _ in 0..9 {
            cc.cong_avoid(&mut w, &conn(1000, 10_000), &delivered(1000));
        }
        assert_eq!(w.cwnd, 10_000);
        cc.cong_avoid(&mut w, &conn(1000, 10_000), &delivered(1000));
        assert_eq!(w.cwnd, 11_000);
    }

    #[test]
    fn the_window_grows_only_when_it_limits_sending() {
        let mut cc = LinuxReno::default();
        let mut w = window(10_000, 50_000);
        let app_limited = Conn { cwnd_limited: false, ..conn(1000, 2_000) };
        cc.cong_avoid(&mut w, &app_limited, &delivered(2_000));
        assert_eq!(w.cwnd, 10_000);
    }
}
