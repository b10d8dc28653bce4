//! Whole-run series at a coarse, fixed number of bins: the timeline's and
//! the side panels' view of a long trace. Bins start at t = 0 and double in
//! width whenever the trace outgrows them, merging neighbours, so one pass
//! suffices whatever the trace's length.

/// How two neighbouring bins of a column merge when bins double.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Merge {
    Sum,
    Max,
    Min,
    /// The right bin's value unless it has none (NaN).
    Last,
}

pub struct Column {
    pub name: String,
    pub merge: Merge,
    pub values: Vec<f64>,
}

pub struct Overview {
    pub bin_s: f64,
    pub columns: Vec<Column>,
    max_bins: usize,
    /// Bins in use: those up to the latest time seen.
    pub bins: usize,
    /// [start, end) and number of the bin found last.
    last_bin: (f64, f64, usize),
}

impl Overview {
    pub fn new(max_bins: usize) -> Self {
        Overview { bin_s: 1e-6, columns: Vec::new(), max_bins, bins: 0, last_bin: (0.0, 0.0, 0) }
    }

    pub fn add_column(&mut self, name: String, merge: Merge) -> usize {
        let empty = if merge == Merge::Sum { 0.0 } else { f64::NAN };
        self.columns.push(Column { name, merge, values: vec![empty; self.max_bins] });
        self.columns.len() - 1
    }

    /// The bin of time `t`, widening the bins until it fits.
    fn bin(&mut self, t: f64) -> usize {
        // Times mostly repeat or advance a little: the last bin is the likely one.
        let (start, end, b) = self.last_bin;
        if t >= start && t < end {
            return b;
        }
        let t = t.max(0.0);
        while t >= self.bin_s * self.max_bins as f64 {
            self.double();
        }
        let b = ((t / self.bin_s) as usize).min(self.max_bins - 1);
        self.bins = self.bins.max(b + 1);
        self.last_bin = (b as f64 * self.bin_s, (b + 1) as f64 * self.bin_s, b);
        b
    }

    fn double(&mut self) {
        let half = self.max_bins / 2;
        for c in &mut self.columns {
            for i in 0..half {
                let (a, b) = (c.values[2 * i], c.values[2 * i + 1]);
                c.values[i] = match c.merge {
                    Merge::Sum => a + b,
                    Merge::Max => nan_max(a, b),
                    Merge::Min => -nan_max(-a, -b),
                    Merge::Last if b.is_nan() => a,
                    Merge::Last => b,
                };
            }
            let empty = if c.merge == Merge::Sum { 0.0 } else { f64::NAN };
            c.values[half..].fill(empty);
        }
        self.bin_s *= 2.0;
        self.bins = self.bins.div_ceil(2);
        self.last_bin = (0.0, 0.0, 0);
    }

    /// Adds `x` to column `c` at time `t` (by its merge rule).
    pub fn add(&mut self, c: usize, t: f64, x: f64) {
        let b = self.bin(t);
        let col = &mut self.columns[c];
        let v = &mut col.values[b];
        *v = match col.merge {
            Merge::Sum => *v + x,
            Merge::Max => nan_max(*v, x),
            Merge::Min => -nan_max(-*v, -x),
            Merge::Last => x,
        };
    }

    /// Adds `level * duration` to the Sum column `c` over [from, to), split
    /// across the bins it covers.
    pub fn integrate(&mut self, c: usize, from: f64, to: f64, level: f64) {
        if level == 0.0 || to <= from {
            return;
        }
        self.bin(to);
        let mut t = from.max(0.0);
        while t < to {
            let b = self.bin(t);
            let end = ((b + 1) as f64 * self.bin_s).min(to);
            self.columns[c].values[b] += level * (end - t);
            if end <= t {
                break;
            }
            t = end;
        }
    }
}

fn nan_max(a: f64, b: f64) -> f64 {
    if a.is_nan() {
        b
    } else if b.is_nan() {
        a
    } else {
        a.max(b)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bins_double_and_merge_by_each_columns_rule() {
        let mut o = Overview::new(4);
        let sum = o.add_column("sum".into(), Merge::Sum);
        let max = o.add_column("max".into(), Merge::Max);
        let last = o.add_column("last".into(), Merge::Last);
        for (t, x) in [(0.0, 1.0), (1.5e-6, 5.0), (2.5e-6, 2.0)] {
            o.add(sum, t, x);
            o.add(max, t, x);
            o.add(last, t, x);
        }
        assert_eq!(o.bin_s, 1e-6);
        // 9 us needs bins of 4 us: [0, 4) holds all three.
        o.add(sum, 9e-6, 10.0);
        o.add(max, 9e-6, 10.0);
        assert_eq!(o.bin_s, 4e-6);
        assert_eq!(o.bins, 3);
        assert_eq!(&o.columns[sum].values[..3], &[8.0, 0.0, 10.0]);
        assert_eq!((o.columns[max].values[0], o.columns[max].values[2]), (5.0, 10.0));
        assert!(o.columns[max].values[1].is_nan());
        assert_eq!(o.columns[last].values[0], 2.0);
    }

    #[test]
    fn integrals_split_across_bins() {
        let mut o = Overview::new(8);
        let q = o.add_column("q".into(), Merge::Sum);
        o.integrate(q, 0.5e-6, 3e-6, 2.0);
        assert_eq!(o.bin_s, 1e-6);
        let v = &o.columns[q].values;
        assert!((v[0] - 1e-6).abs() < 1e-18 && (v[1] - 2e-6).abs() < 1e-18 && (v[2] - 2e-6).abs() < 1e-18);
        assert_eq!(v[3], 0.0);
    }
}
