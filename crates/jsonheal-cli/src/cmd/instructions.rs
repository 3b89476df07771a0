//! `jsonheal instructions`: the system-message text that tells a model without native
//! structured output to answer in a schema's shape.

use std::path::PathBuf;
use std::process::ExitCode;

use jsonheal::schema::InstructionOptions;

use super::extract::load_schema;

#[derive(clap::Args)]
pub struct InstructionsArgs {
    /// The JSON Schema the answer must follow.
    #[arg(long, value_name = "FILE")]
    schema: PathBuf,
    /// The most tokens the text may take (estimated at 3 characters a token); a larger
    /// schema is rendered compactly (examples and long descriptions trimmed, `$defs` used
    /// once inlined), never losing a constraint.
    #[arg(long, value_name = "TOKENS", default_value_t = InstructionOptions::DEFAULT_BUDGET_TOKENS)]
    budget: usize,
}

pub fn run(args: InstructionsArgs) -> anyhow::Result<ExitCode> {
    let schema = load_schema(&args.schema)?;
    let opts = InstructionOptions {
        budget_tokens: args.budget,
    };
    let text = jsonheal::schema::instructions_with(&schema, &opts);
    use std::io::Write;
    std::io::stdout().lock().write_all(text.as_bytes())?;
    Ok(ExitCode::SUCCESS)
}
