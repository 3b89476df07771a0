//! `jsonheal quotes`: fold a file's typographic quotes to ASCII (for code files).

use std::io::{self, Write};
use std::path::PathBuf;
use std::process::ExitCode;

use crate::io::read_all;

#[derive(clap::Args)]
pub struct QuotesArgs {
    /// Input file (stdin when absent or `-`); the folded text goes to stdout.
    file: Option<PathBuf>,
}

pub fn run(args: QuotesArgs) -> anyhow::Result<ExitCode> {
    let text = read_all(args.file.as_deref())?;
    let folded = jsonheal::quotes::normalize(&text);
    let mut out = io::stdout().lock();
    out.write_all(folded.as_bytes())?;
    out.flush()?;
    Ok(ExitCode::SUCCESS)
}
