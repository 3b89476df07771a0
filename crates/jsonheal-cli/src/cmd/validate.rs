//! (being written)
use std::process::ExitCode;

#[derive(clap::Args)]
pub struct ValidateArgs {}

pub fn run(_args: ValidateArgs) -> anyhow::Result<ExitCode> {
    anyhow::bail!("not implemented yet")
}
