//! (being written)
use std::process::ExitCode;

#[derive(clap::Args)]
pub struct ToolInputArgs {}

pub fn run(_args: ToolInputArgs) -> anyhow::Result<ExitCode> {
    anyhow::bail!("not implemented yet")
}
