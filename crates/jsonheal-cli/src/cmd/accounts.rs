//! (being written)
use std::process::ExitCode;

#[derive(clap::Args)]
pub struct AccountsArgs {}

pub fn run(_args: AccountsArgs) -> anyhow::Result<ExitCode> {
    anyhow::bail!("not implemented yet")
}
