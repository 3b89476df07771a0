//! (being written)
use std::process::ExitCode;

#[derive(clap::Args)]
pub struct ExtractArgs {}

pub fn run(_args: ExtractArgs) -> anyhow::Result<ExitCode> {
    anyhow::bail!("not implemented yet")
}
