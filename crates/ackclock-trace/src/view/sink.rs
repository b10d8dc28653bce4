//! The index written straight from a run, without nam text in between:
//! the same records a nam sink would print, handed to the builder.

use super::{nam_text, Builder, IndexError, PacketLine, OVERVIEW_BINS, ROWS_PER_CHUNK};
use crate::ns2::Ns2Packet;
use crate::record::{FlowView, PacketEvent, PacketRecord, VarRecord, VarValue};
use std::fmt::Write as _;
use std::fs::File;
use std::io::{self, BufWriter};
use std::path::{Path, PathBuf};

/// The variables a run's index keeps: what the side panels plot.
const VARIABLES: [&str; 2] = ["cwnd_", "ssthresh_"];

pub struct ViewSink {
    builder: Builder,
    partial: PathBuf,
    output: PathBuf,
    src: String,
    dst: String,
}

impl ViewSink {
    /// An index at `output` (complete once `finish` returns), with the
    /// topology of the nam header lines in `preamble`.
    pub fn create(output: &Path, preamble: &str) -> Result<Self, IndexError> {
        let partial = output.with_extension(format!("partial-{}", std::process::id()));
        let out = BufWriter::with_capacity(1 << 20, File::create(&partial).map_err(IndexError::Io)?);
        let mut builder = Builder::new(Box::new(out), ROWS_PER_CHUNK, OVERVIEW_BINS).map_err(IndexError::Io)?;
        if let Err(e) = nam_text::read(preamble.as_bytes(), &mut builder) {
            let _ = std::fs::remove_file(&partial);
            return Err(e);
        }
        Ok(ViewSink { builder, partial, output: output.to_path_buf(), src: String::new(), dst: String::new() })
    }

    pub fn packet(&mut self, r: &PacketRecord, view: Option<&FlowView>) -> io::Result<()> {
        let p = Ns2Packet::new(r, view);
        self.src.clear();
        self.dst.clear();
        let _ = write!(self.src, "{}.{}", p.src.0, p.src.1);
        let _ = write!(self.dst, "{}.{}", p.dst.0, p.dst.1);
        let kind = match r.event {
            PacketEvent::Hop => b'h',
            PacketEvent::Enqueue => b'+',
            PacketEvent::Dequeue => b'-',
            PacketEvent::Receive => b'r',
            PacketEvent::Drop => b'd',
        };
        self.builder
            .packet(&PacketLine {
                kind,
                time: r.time.as_secs_f64(),
                from: i64::from(r.from),
                to: i64::from(r.to),
                ptype: p.kind.as_bytes(),
                size: i64::from(p.size),
                fid: i64::from(p.fid),
                uid: p.uid as i64,
                attr: i64::from(p.fid),
                src: self.src.as_bytes(),
                dst: self.dst.as_bytes(),
                seq: p.seq,
                flags: p.flags.as_bytes(),
                layer: None,
            })
            .map_err(io::Error::other)
    }

    pub fn variable(&mut self, v: &VarRecord) {
        if !VARIABLES.contains(&v.name) {
            return;
        }
        let value = match v.value {
            VarValue::Real(x) => x,
            VarValue::Int(n) => n as f64,
            VarValue::Ticks { secs, .. } => secs,
        };
        let (node, port) = (v.agent.0.to_string(), v.agent.1.to_string());
        let peer = v.peer.map_or(("-1".to_string(), "-1".to_string()), |(n, p)| (n.to_string(), p.to_string()));
        self.builder.variable(v.time.as_secs_f64(), (&node, &port), (&peer.0, &peer.1), v.name, value);
    }

    /// Writes the rest of the index and gives it its name.
    pub fn finish(self) -> Result<(), IndexError> {
        match self.builder.finish() {
            Ok(_) => std::fs::rename(&self.partial, &self.output).map_err(IndexError::Io),
            Err(e) => {
                let _ = std::fs::remove_file(&self.partial);
                Err(e)
            }
        }
    }
}
