//! (being written) `jsonheal repair --stream`.
use std::path::Path;
use std::process::ExitCode;

#[allow(dead_code)]
pub fn run_stream(_path: Option<&Path>) -> anyhow::Result<ExitCode> {
    anyhow::bail!("not implemented yet")
}
