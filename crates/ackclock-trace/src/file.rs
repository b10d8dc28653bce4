//! Trace files that never show half a run.
//!
//! An [`OutputFile`] is written under a temporary name beside its
//! destination and renamed to it at its first successful flush (the end of
//! a run): a run that fails before then leaves no file, and a file already
//! at the destination stays untouched until then. A write error removes the
//! file, so an incomplete trace is never left behind. Paths that are not
//! regular files (`/dev/null`, `/dev/stdout`, a FIFO) are written in place.
//! `tempfile` is not used: its files are private (0600), and the rename here
//! happens while writing goes on.

use std::fs::{self, File, OpenOptions};
use std::io::{self, BufWriter, Write};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};

const BUFFER_BYTES: usize = 1 << 16;

/// An I/O error on a trace file, naming it.
#[derive(Debug, thiserror::Error)]
#[error("{}: {source}", path.display())]
pub struct FileError {
    pub path: PathBuf,
    pub source: io::Error,
}

impl FileError {
    /// `source` as an `io::Error` of the same kind that carries the path.
    pub fn wrap(path: &Path, source: io::Error) -> io::Error {
        io::Error::new(source.kind(), FileError { path: path.to_path_buf(), source })
    }
}

pub struct OutputFile {
    path: PathBuf,
    /// The temporary name until the file is renamed to `path`.
    temporary: Option<PathBuf>,
    /// Written in place: not a regular file, never renamed or removed.
    special: bool,
    failed: bool,
    out: BufWriter<File>,
}

impl OutputFile {
    /// Opens the temporary file beside `path` now, so that a destination
    /// that cannot be written is reported before the run. Errors are
    /// [`FileError`]s naming `path`.
    pub fn create(path: impl AsRef<Path>) -> io::Result<OutputFile> {
        let given = path.as_ref();
        Self::open(given).map_err(|e| FileError::wrap(given, e))
    }

    fn open(given: &Path) -> io::Result<OutputFile> {
        let (path, special) = match fs::metadata(given) {
            // Opening it fails with the system's own error (EISDIR), errno included.
            Ok(meta) if meta.is_dir() => (given.to_path_buf(), true),
            // A symlink is followed, so that the file it names is replaced, not the link.
            Ok(meta) if meta.is_file() => (fs::canonicalize(given)?, false),
            Ok(_) => (given.to_path_buf(), true),
            Err(e) if e.kind() == io::ErrorKind::NotFound => (given.to_path_buf(), false),
            Err(e) => return Err(e),
        };
        let (file, temporary) = if special {
            (OpenOptions::new().write(true).open(&path)?, None)
        } else {
            let (file, temporary) = create_beside(&path)?;
            (file, Some(temporary))
        };
        Ok(OutputFile { path, temporary, special, failed: false, out: BufWriter::with_capacity(BUFFER_BYTES, file) })
    }

    fn publish(&mut self) -> io::Result<()> {
        if let Some(temporary) = &self.temporary {
            fs::rename(temporary, &self.path)?;
            self.temporary = None;
        }
        Ok(())
    }

    fn checked<T>(&mut self, result: io::Result<T>) -> io::Result<T> {
        result.map_err(|e| {
            self.failed = true;
            FileError::wrap(&self.path, e)
        })
    }
}

impl Write for OutputFile {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        let result = self.out.write(buf);
        self.checked(result)
    }

    fn flush(&mut self) -> io::Result<()> {
        if self.failed {
            return Err(FileError::wrap(&self.path, io::Error::other("an earlier write failed")));
        }
        let result = self.out.flush().and_then(|()| self.publish());
        self.checked(result)
    }
}

impl Drop for OutputFile {
    fn drop(&mut self) {
        // Errors are ignored: there is no one left to tell, and the file is
        // either complete or being removed.
        let _ = self.out.flush();
        if let Some(temporary) = &self.temporary {
            let _ = fs::remove_file(temporary);
        } else if self.failed && !self.special {
            let _ = fs::remove_file(&self.path);
        }
    }
}

/// A new file `.NAME.PID-N.tmp` in `path`'s directory, created with the
/// permissions a plain `File::create` would give.
fn create_beside(path: &Path) -> io::Result<(File, PathBuf)> {
    static NEXT: AtomicU64 = AtomicU64::new(0);
    let name = path.file_name().ok_or_else(|| io::Error::from(io::ErrorKind::InvalidInput))?;
    let directory = path.parent().filter(|p| !p.as_os_str().is_empty()).unwrap_or(Path::new("."));
    loop {
        let n = NEXT.fetch_add(1, Ordering::Relaxed);
        let temporary = directory.join(format!(".{}.{}-{n}.tmp", name.to_string_lossy(), std::process::id()));
        match OpenOptions::new().write(true).create_new(true).open(&temporary) {
            Ok(file) => return Ok((file, temporary)),
            Err(e) if e.kind() == io::ErrorKind::AlreadyExists => continue,
            Err(e) => return Err(e),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A fresh directory, removed when the test ends.
    struct Scratch(PathBuf);

    impl std::ops::Deref for Scratch {
        type Target = Path;
        fn deref(&self) -> &Path {
            &self.0
        }
    }

    impl Drop for Scratch {
        fn drop(&mut self) {
            let _ = fs::remove_dir_all(&self.0);
        }
    }

    fn scratch(name: &str) -> Scratch {
        let dir = std::env::temp_dir().join(format!("ackclock-file-{name}-{}", std::process::id()));
        let _ = fs::remove_dir_all(&dir);
        fs::create_dir_all(&dir).unwrap();
        Scratch(dir)
    }

    fn entries(dir: &Path) -> Vec<String> {
        let mut names: Vec<String> =
            fs::read_dir(dir).unwrap().map(|e| e.unwrap().file_name().to_string_lossy().into_owned()).collect();
        names.sort();
        names
    }

    #[test]
    fn the_file_appears_whole_at_the_first_flush_and_an_old_one_stays_until_then() {
        let dir = scratch("publish");
        let path = dir.join("out.tr");
        fs::write(&path, "old\n").unwrap();
        let mut file = OutputFile::create(&path).unwrap();
        file.write_all(b"new\n").unwrap();
        assert_eq!(fs::read_to_string(&path).unwrap(), "old\n");
        file.flush().unwrap();
        assert_eq!(fs::read_to_string(&path).unwrap(), "new\n");
        file.write_all(b"more\n").unwrap();
        drop(file);
        assert_eq!(fs::read_to_string(&path).unwrap(), "new\nmore\n");
        assert_eq!(entries(&dir), ["out.tr"]);
    }

    #[test]
    fn a_file_never_flushed_leaves_nothing() {
        let dir = scratch("discard");
        let mut file = OutputFile::create(dir.join("out.tr")).unwrap();
        file.write_all(b"a record\n").unwrap();
        drop(file);
        assert!(entries(&dir).is_empty());
    }

    #[test]
    fn a_full_disk_is_an_error_naming_the_path() {
        let mut file = OutputFile::create("/dev/full").unwrap();
        file.write_all(b"a record\n").unwrap();
        let e = file.flush().unwrap_err();
        assert_eq!(e.to_string(), "/dev/full: No space left on device (os error 28)");
        assert!(e.get_ref().unwrap().downcast_ref::<FileError>().is_some());
        drop(file);
        assert!(Path::new("/dev/full").exists(), "a device is never removed");
    }

    #[test]
    fn a_directory_or_a_missing_parent_is_refused_before_anything_is_written() {
        let dir = scratch("refuse");
        let e = OutputFile::create(&*dir).err().unwrap();
        assert_eq!(e.to_string(), format!("{}: Is a directory (os error 21)", dir.display()));
        let missing = dir.join("no/such/out.tr");
        let e = OutputFile::create(&missing).err().unwrap();
        assert_eq!(e.kind(), io::ErrorKind::NotFound);
        assert!(e.to_string().starts_with(&format!("{}: ", missing.display())));
    }

    #[test]
    fn a_symlink_keeps_pointing_at_the_file_it_names() {
        let dir = scratch("symlink");
        fs::write(dir.join("real.tr"), "old\n").unwrap();
        std::os::unix::fs::symlink("real.tr", dir.join("link.tr")).unwrap();
        let mut file = OutputFile::create(dir.join("link.tr")).unwrap();
        file.write_all(b"new\n").unwrap();
        file.flush().unwrap();
        drop(file);
        assert!(fs::symlink_metadata(dir.join("link.tr")).unwrap().file_type().is_symlink());
        assert_eq!(fs::read_to_string(dir.join("real.tr")).unwrap(), "new\n");
    }
}
