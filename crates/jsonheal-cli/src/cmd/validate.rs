//! `jsonheal validate`: check JSON against a JSON Schema (no coercion; exit 0 valid, 1 not).

use std::path::PathBuf;
use std::process::ExitCode;

use jsonheal::schema::{feedback, HealErrorKind};
use jsonheal::Schema;
use serde_json::{json, Value};

use super::extract::{failed, jsonl_loop, load_schema, print_errors, Outcome};
use crate::io;

#[derive(clap::Args)]
pub struct ValidateArgs {
    /// The JSON Schema to validate against.
    #[arg(long, value_name = "FILE")]
    schema: PathBuf,
    /// Repair the input's syntax first (otherwise it must be valid JSON).
    #[arg(long)]
    repair: bool,
    /// Batch: each input line is {"id", "text" | "value", "schema"?}; each output line is
    /// {"id", "ok", "errors"?, "feedback"?}.
    #[arg(long)]
    jsonl: bool,
    /// On failure, print the message a model would receive (to stdout).
    #[arg(long)]
    feedback: bool,
    /// The JSON to validate (default: standard input).
    file: Option<PathBuf>,
}

pub fn run(args: ValidateArgs) -> anyhow::Result<ExitCode> {
    let schema = load_schema(&args.schema)?;
    let repair = args.repair;
    if args.jsonl {
        return jsonl_loop(
            args.file.as_ref(),
            Some(&schema),
            args.feedback,
            true,
            |text, schema| match schema {
                Some(schema) => validate_one(text, schema, repair),
                None => failed(HealErrorKind::NoJson, &[], String::new()),
            },
        );
    }
    let text = io::read_all(args.file.as_deref())?;
    match validate_one(&text, &schema, repair) {
        Outcome::Ok { .. } => Ok(ExitCode::SUCCESS),
        Outcome::Failed {
            errors, feedback, ..
        } => {
            print_errors(&errors);
            if args.feedback {
                println!("{feedback}");
            }
            Ok(ExitCode::from(1))
        }
    }
}

fn validate_one(text: &str, schema: &Schema, repair: bool) -> Outcome {
    let parsed = if repair {
        jsonheal::repair(text)
            .and_then(|r| r.value())
            .map_err(|e| e.to_string())
    } else {
        serde_json::from_str::<Value>(text.trim()).map_err(|e| format!("not valid JSON: {e}"))
    };
    let value = match parsed {
        Ok(value) => value,
        Err(message) => {
            // Unparseable input is, for a model, a reply without JSON.
            return Outcome::Failed {
                errors: vec![json!({ "message": message })],
                feedback: feedback(HealErrorKind::NoJson, &[]),
                kind: "not_json",
            };
        }
    };
    let violations = schema.validate(&value);
    if violations.is_empty() {
        Outcome::Ok {
            report: json!({ "value": value }),
            value,
        }
    } else {
        let message = feedback(HealErrorKind::Invalid, &violations);
        failed(HealErrorKind::Invalid, &violations, message)
    }
}
