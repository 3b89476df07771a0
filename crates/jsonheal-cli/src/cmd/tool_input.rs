//! `jsonheal tool-input encode|decode`: the storage codec for tool inputs.
//!
//! The codec's answer always goes to stdout (`{}` when the input is not an object); when the
//! input was replaced by `{}`, the reason goes to stderr and the exit code is 1.

use std::io::{self, Write};
use std::path::PathBuf;
use std::process::ExitCode;

use clap::ValueEnum;
use jsonheal::tool_input::{self, Replaced};
use serde_json::Value;

use crate::io::read_all;

#[derive(clap::Args)]
pub struct ToolInputArgs {
    /// `encode` (strict: for storage) or `decode` (tolerant: for replay).
    #[arg(value_enum)]
    direction: Direction,
    /// Input file (stdin when absent or `-`).
    file: Option<PathBuf>,
}

#[derive(Clone, Copy, ValueEnum)]
enum Direction {
    Encode,
    Decode,
}

pub fn run(args: ToolInputArgs) -> anyhow::Result<ExitCode> {
    let text = read_all(args.file.as_deref())?;
    let (output, replaced) = match args.direction {
        Direction::Encode => {
            if text.trim().is_empty() {
                (String::from("{}"), Some(Replaced::Empty))
            } else {
                match serde_json::from_str::<Value>(text.trim()) {
                    Ok(value) => tool_input::encode_report(&value),
                    Err(_) => (String::from("{}"), Some(Replaced::Invalid)),
                }
            }
        }
        Direction::Decode => {
            let (map, replaced) = tool_input::decode_report(Some(&text));
            (serde_json::to_string(&map)?, replaced)
        }
    };
    let mut out = io::stdout().lock();
    writeln!(out, "{output}")?;
    out.flush()?;
    match replaced {
        None => Ok(ExitCode::SUCCESS),
        Some(why) => {
            eprintln!("jsonheal: replaced by {{}}: {why}");
            Ok(ExitCode::from(1))
        }
    }
}
