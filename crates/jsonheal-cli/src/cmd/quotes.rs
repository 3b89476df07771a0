//! (being written)
use std::process::ExitCode;

#[derive(clap::Args)]
pub struct QuotesArgs {}

pub fn run(_args: QuotesArgs) -> anyhow::Result<ExitCode> {
    anyhow::bail!("not implemented yet")
}
