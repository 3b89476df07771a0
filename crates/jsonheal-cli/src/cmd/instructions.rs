//! (being written)
use std::process::ExitCode;

#[derive(clap::Args)]
pub struct InstructionsArgs {}

pub fn run(_args: InstructionsArgs) -> anyhow::Result<ExitCode> {
    anyhow::bail!("not implemented yet")
}
