//! The viewer's index of a trace (`ackclock view`): a nam trace, or the
//! packet events of a run, made into a file that a browser can open at any
//! instant without reading the rest: hops (a packet's passage over one
//! link) in time chunks, each with a snapshot of what is on the links at
//! its start, then whole-run series for the timeline and a JSON header.
//!
//! File layout: `ACKVIEW1`, the chunks (see `chunks`), the overview (f32
//! columns), the JSON header, then a trailer of the header's offset and
//! length (u64 each, little-endian) and `ACKVEND1`. The browser code that
//! reads it is viewer/src/format.ts.

mod build;
mod chunks;
mod nam_text;
mod overview;
mod sink;
pub mod topology;

pub use build::{Builder, PacketLine, FORMAT_VERSION};
pub use sink::ViewSink;

use std::fmt;
use std::fs::File;
use std::io::{self, BufReader, BufWriter};
use std::path::Path;

/// Hops per chunk: a chunk is then about 0.85 MB, one read per seek.
pub const ROWS_PER_CHUNK: usize = 1 << 14;
/// Bins of the whole-run series.
pub const OVERVIEW_BINS: usize = 2048;

#[derive(Debug)]
pub enum IndexError {
    Io(io::Error),
    /// A line of the trace that cannot be read, numbered from 1.
    Line {
        line: u64,
        message: String,
    },
}

impl fmt::Display for IndexError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            IndexError::Io(e) => write!(f, "{e}"),
            IndexError::Line { line, message } => write!(f, "line {line}: {message}"),
        }
    }
}

impl std::error::Error for IndexError {}

/// Reads nam text into `builder`; an error names the line.
pub fn read_nam(input: impl io::Read, builder: &mut Builder) -> Result<(), IndexError> {
    nam_text::read(input, builder)
}

/// Indexes the nam trace at `input` into `output`, written under a
/// temporary name and renamed, so that `output` is complete or absent.
/// Returns the index's JSON header.
pub fn index_nam_file(input: &Path, output: &Path) -> Result<serde_json::Value, IndexError> {
    let file = File::open(input).map_err(IndexError::Io)?;
    let partial = output.with_extension(format!("partial-{}", std::process::id()));
    let result = (|| {
        let out = BufWriter::with_capacity(1 << 20, File::create(&partial).map_err(IndexError::Io)?);
        let mut builder = Builder::new(Box::new(out), ROWS_PER_CHUNK, OVERVIEW_BINS).map_err(IndexError::Io)?;
        read_nam(BufReader::with_capacity(1 << 16, file), &mut builder)?;
        builder.finish()
    })();
    match result {
        Ok(header) => {
            std::fs::rename(&partial, output).map_err(IndexError::Io)?;
            Ok(header)
        }
        Err(e) => {
            let _ = std::fs::remove_file(&partial);
            Err(e)
        }
    }
}

#[cfg(test)]
mod tests;
