//! The `jsonheal` command: a thin shell over the library that owns I/O, messages and exit
//! codes (0 success, 1 no honest result, 2 usage or I/O error).

mod batch;
mod cmd;
mod io;

use std::process::ExitCode;

use clap::{Parser, Subcommand};

#[derive(Parser)]
#[command(
    name = "jsonheal",
    version,
    about = "Repair, normalise and heal the JSON that LLMs emit"
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Repair broken JSON (stdin or FILE) and print valid JSON.
    Repair(cmd::repair::RepairArgs),
    /// Normalise a tool call's arguments into a JSON object.
    Args(cmd::args::ArgsArgs),
    /// Replace typographic quotes in a file's text.
    Quotes(cmd::quotes::QuotesArgs),
    /// Encode or decode tool inputs for storage.
    #[command(name = "tool-input")]
    ToolInput(cmd::tool_input::ToolInputArgs),
    /// Pick the JSON answer out of an LLM reply, optionally healed against a schema.
    Extract(cmd::extract::ExtractArgs),
    /// Validate JSON against a JSON Schema.
    Validate(cmd::validate::ValidateArgs),
    /// Print the instructions that tell a model to answer in a schema's shape.
    Instructions(cmd::instructions::InstructionsArgs),
    /// Run the OpenAI-compatible healing gateway.
    Serve(cmd::serve::ServeArgs),
    /// Manage the gateway's accounts and API keys.
    Accounts(cmd::accounts::AccountsArgs),
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    let result = match cli.command {
        Command::Repair(a) => cmd::repair::run(a),
        Command::Args(a) => cmd::args::run(a),
        Command::Quotes(a) => cmd::quotes::run(a),
        Command::ToolInput(a) => cmd::tool_input::run(a),
        Command::Extract(a) => cmd::extract::run(a),
        Command::Validate(a) => cmd::validate::run(a),
        Command::Instructions(a) => cmd::instructions::run(a),
        Command::Serve(a) => cmd::serve::run(a),
        Command::Accounts(a) => cmd::accounts::run(a),
    };
    match result {
        Ok(code) => code,
        Err(err) if io::is_broken_pipe(&err) => ExitCode::SUCCESS,
        Err(err) => {
            eprintln!("jsonheal: {err:#}");
            ExitCode::from(2)
        }
    }
}
