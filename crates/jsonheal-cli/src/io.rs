//! Input and output helpers shared by the subcommands.

use std::fs::File;
use std::io::{self, BufRead, BufReader, Read};
use std::path::{Path, PathBuf};

use anyhow::Context;

/// Read all of FILE, or stdin when it is absent or `-`.
pub fn read_all(path: Option<&Path>) -> anyhow::Result<String> {
    let mut bytes = Vec::new();
    match path {
        Some(p) if p != Path::new("-") => {
            File::open(p)
                .with_context(|| format!("cannot open {}", p.display()))?
                .read_to_end(&mut bytes)
                .with_context(|| format!("cannot read {}", p.display()))?;
        }
        _ => {
            io::stdin()
                .lock()
                .read_to_end(&mut bytes)
                .context("cannot read standard input")?;
        }
    }
    // LLM output is text; a stray invalid byte must not abort a repair.
    Ok(match String::from_utf8(bytes) {
        Ok(s) => s,
        Err(e) => String::from_utf8_lossy(e.as_bytes()).into_owned(),
    })
}

/// A buffered line reader over FILE, or stdin when it is absent or `-`.
pub fn reader(path: Option<&Path>) -> anyhow::Result<Box<dyn BufRead>> {
    Ok(match path {
        Some(p) if p != Path::new("-") => Box::new(BufReader::with_capacity(
            1 << 16,
            File::open(p).with_context(|| format!("cannot open {}", p.display()))?,
        )),
        _ => Box::new(BufReader::with_capacity(1 << 16, io::stdin())),
    })
}

/// Read a whole file (a schema, a map) to a string, naming it in the error.
pub fn read_file(path: &PathBuf) -> anyhow::Result<String> {
    std::fs::read_to_string(path).with_context(|| format!("cannot read {}", path.display()))
}

/// Whether an error is a closed stdout pipe (`jsonheal … | head`), which is not a failure.
pub fn is_broken_pipe(err: &anyhow::Error) -> bool {
    err.chain().any(|e| {
        e.downcast_ref::<io::Error>()
            .is_some_and(|e| e.kind() == io::ErrorKind::BrokenPipe)
    })
}
