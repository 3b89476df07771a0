//! (being written)
use std::process::ExitCode;

#[derive(clap::Args)]
pub struct RepairArgs {}

pub fn run(_args: RepairArgs) -> anyhow::Result<ExitCode> {
    anyhow::bail!("not implemented yet")
}
