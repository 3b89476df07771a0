//! `jsonheal instructions`: the system-message text that tells a model without native
//! structured output to answer in a schema's shape.

use std::path::PathBuf;
use std::process::ExitCode;

use super::extract::load_schema;

#[derive(clap::Args)]
pub struct InstructionsArgs {
    /// The JSON Schema the answer must follow.
    #[arg(long, value_name = "FILE")]
    schema: PathBuf,
}

pub fn run(args: InstructionsArgs) -> anyhow::Result<ExitCode> {
    let schema = load_schema(&args.schema)?;
    let text = jsonheal::schema::instructions(&schema);
    use std::io::Write;
    std::io::stdout().lock().write_all(text.as_bytes())?;
    Ok(ExitCode::SUCCESS)
}
