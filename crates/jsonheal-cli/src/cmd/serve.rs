//! (being written)
use std::process::ExitCode;

#[derive(clap::Args)]
pub struct ServeArgs {}

pub fn run(_args: ServeArgs) -> anyhow::Result<ExitCode> {
    anyhow::bail!("not implemented yet")
}
