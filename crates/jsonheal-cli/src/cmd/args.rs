//! (being written)
use std::process::ExitCode;

#[derive(clap::Args)]
pub struct ArgsArgs {}

pub fn run(_args: ArgsArgs) -> anyhow::Result<ExitCode> {
    anyhow::bail!("not implemented yet")
}
