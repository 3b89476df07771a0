//! `jsonheal extract`: pick the JSON answer out of an LLM reply, optionally healed against a
//! JSON Schema. Also the helpers `validate` shares: schema loading, error printing, JSON
//! Lines batches.

use std::io::Write;
use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::{bail, Context};
use jsonheal::schema::{CoerceOptions, HealErrorKind, SchemaCache, Violation};
use jsonheal::{HealOptions, Schema};
use serde_json::{json, Value};

use crate::io;

#[derive(clap::Args)]
pub struct ExtractArgs {
    /// Heal against this JSON Schema: the first candidate that validates after coercion wins.
    #[arg(long, value_name = "FILE")]
    schema: Option<PathBuf>,
    /// Batch: each input line is {"id", "text", "schema"?}; each output line is
    /// {"id", "ok", "value" | "errors", "feedback"?}.
    #[arg(long)]
    jsonl: bool,
    /// On failure, print the message a model would receive (to stdout).
    #[arg(long)]
    feedback: bool,
    /// Accept a reply that was cut off (it is completed) instead of refusing it.
    #[arg(long)]
    allow_truncated: bool,
    /// Validate the value as extracted, without schema-guided coercion.
    #[arg(long)]
    no_coerce: bool,
    /// Print {"value", "candidate", "repairs", "coercions"} instead of the bare value.
    #[arg(long)]
    report: bool,
    /// Pretty-print the output.
    #[arg(long)]
    pretty: bool,
    /// The reply to read (default: standard input).
    file: Option<PathBuf>,
}

pub fn run(args: ExtractArgs) -> anyhow::Result<ExitCode> {
    if args.jsonl && args.report {
        bail!("--report does not apply to --jsonl (each line already reports)");
    }
    let schema = args.schema.as_ref().map(load_schema).transpose()?;
    let opts = HealOptions {
        coerce: if args.no_coerce {
            CoerceOptions::none()
        } else {
            CoerceOptions::default()
        },
        allow_truncated: args.allow_truncated,
    };
    if args.jsonl {
        return run_jsonl(&args, schema.as_ref(), |text, schema| {
            heal_one(text, schema, &opts)
        });
    }
    let text = io::read_all(args.file.as_deref())?;
    let outcome = heal_one(&text, schema.as_ref(), &opts);
    let stdout = std::io::stdout();
    let mut out = stdout.lock();
    match outcome {
        Outcome::Ok { value, report } => {
            let shown = if args.report { &report } else { &value };
            write_json(&mut out, shown, args.pretty)?;
            Ok(ExitCode::SUCCESS)
        }
        Outcome::Failed {
            errors, feedback, ..
        } => {
            print_errors(&errors);
            if args.feedback {
                writeln!(out, "{feedback}")?;
            }
            Ok(ExitCode::from(1))
        }
    }
}

/// What became of one reply.
pub(crate) enum Outcome {
    Ok {
        value: Value,
        /// {"value", "candidate", "repairs", "coercions"}.
        report: Value,
    },
    Failed {
        /// One entry per error, each with `path` and `message` (`path` may be absent for an
        /// error about the reply as a whole).
        errors: Vec<Value>,
        feedback: String,
        /// The error kind: `no_json`, `truncated`, `invalid`.
        kind: &'static str,
    },
}

fn heal_one(text: &str, schema: Option<&Schema>, opts: &HealOptions) -> Outcome {
    match schema {
        Some(schema) => match jsonheal::heal(text, schema, opts) {
            Ok(healed) => Outcome::Ok {
                report: json!({
                    "value": healed.value,
                    "candidate": healed.candidate,
                    "repairs": healed.repairs,
                    "coercions": healed.coercions,
                }),
                value: healed.value,
            },
            Err(e) => failed(e.kind, &e.violations, e.feedback),
        },
        None => match jsonheal::extract::extract(text) {
            Ok(found) if found.is_truncated() && !opts.allow_truncated => failed(
                HealErrorKind::Truncated,
                &[],
                jsonheal::schema::feedback(HealErrorKind::Truncated, &[]),
            ),
            Ok(found) => {
                let repairs: Vec<jsonheal::schema::RepairNote> =
                    found.repairs.iter().map(Into::into).collect();
                Outcome::Ok {
                    report: json!({
                        "value": found.value,
                        "candidate": found.source,
                        "repairs": repairs,
                        "coercions": [],
                    }),
                    value: found.value,
                }
            }
            Err(_) => failed(
                HealErrorKind::NoJson,
                &[],
                jsonheal::schema::feedback(HealErrorKind::NoJson, &[]),
            ),
        },
    }
}

pub(crate) fn failed(kind: HealErrorKind, violations: &[Violation], feedback: String) -> Outcome {
    let errors = match kind {
        HealErrorKind::NoJson => vec![json!({"message": "no JSON found"})],
        HealErrorKind::Truncated => {
            vec![json!({"message": "the JSON in the reply was cut off (see --allow-truncated)"})]
        }
        HealErrorKind::Invalid => violations.iter().map(violation_json).collect(),
    };
    Outcome::Failed {
        errors,
        feedback,
        kind: kind.name(),
    }
}

pub(crate) fn violation_json(v: &Violation) -> Value {
    serde_json::to_value(v).unwrap_or_else(|_| json!({"path": v.path, "message": v.message}))
}

/// Errors on stderr, one a line: `/path: message`, or the bare message for the whole reply.
pub(crate) fn print_errors(errors: &[Value]) {
    for e in errors {
        let message = e.get("message").and_then(Value::as_str).unwrap_or("error");
        // One error a line, whatever the keys hold.
        let message = one_line(message);
        match e.get("path").and_then(Value::as_str) {
            Some("") => eprintln!("/: {message}"),
            Some(path) => eprintln!("{}: {message}", one_line(path)),
            None => eprintln!("jsonheal: {message}"),
        }
    }
}

/// Control characters escaped (`\n` → `\\n`), everything else as it is.
fn one_line(text: &str) -> String {
    text.chars()
        .map(|c| {
            if c.is_control() {
                c.escape_default().to_string()
            } else {
                c.to_string()
            }
        })
        .collect()
}

pub(crate) fn write_json(out: &mut impl Write, value: &Value, pretty: bool) -> anyhow::Result<()> {
    if pretty {
        serde_json::to_writer_pretty(&mut *out, value)?;
    } else {
        serde_json::to_writer(&mut *out, value)?;
    }
    writeln!(out)?;
    Ok(())
}

/// Read and compile a schema file; any problem is a usage error (exit 2).
pub(crate) fn load_schema(path: &PathBuf) -> anyhow::Result<Schema> {
    let text = io::read_file(path)?;
    let value: Value =
        serde_json::from_str(&text).with_context(|| format!("{} is not JSON", path.display()))?;
    Schema::new(&value).with_context(|| format!("cannot use the schema {}", path.display()))
}

/// The batch loop shared by `extract --jsonl` and `validate --jsonl`: one output line per
/// input line, in order; exit 1 if any line failed.
fn run_jsonl(
    args: &ExtractArgs,
    default_schema: Option<&Schema>,
    work: impl Fn(&str, Option<&Schema>) -> Outcome + Sync,
) -> anyhow::Result<ExitCode> {
    jsonl_loop(
        args.file.as_ref(),
        default_schema,
        args.feedback,
        false,
        work,
    )
}

pub(crate) fn jsonl_loop(
    file: Option<&PathBuf>,
    default_schema: Option<&Schema>,
    with_feedback: bool,
    accept_value: bool,
    work: impl Fn(&str, Option<&Schema>) -> Outcome + Sync,
) -> anyhow::Result<ExitCode> {
    // Schemas given inline in a batch, compiled once each (a batch usually repeats one).
    let cache = SchemaCache::new(64);
    let summary = crate::batch::run(
        file.map(PathBuf::as_path),
        || (),
        |(), line, number, out| {
            let result = match jsonl_record(line, number, accept_value, default_schema, &cache) {
                Ok((id, text, schema)) => {
                    outcome_json(id, work(&text, schema.as_ref()), with_feedback)
                }
                Err((id, message)) => {
                    json!({"id": id, "ok": false, "errors": [{"message": message}]})
                }
            };
            // Writing a Value into a Vec cannot fail.
            let _ = serde_json::to_writer(&mut *out, &result);
            result.get("ok") == Some(&Value::Bool(true))
        },
    )?;
    Ok(if summary.failed == 0 {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(1)
    })
}

type Record = (Value, String, Option<Schema>);

fn jsonl_record(
    line: &str,
    number: usize,
    accept_value: bool,
    default_schema: Option<&Schema>,
    cache: &SchemaCache,
) -> Result<Record, (Value, String)> {
    let record: Value = serde_json::from_str(line).map_err(|e| {
        (
            Value::Null,
            format!("line {number}: not a JSON object ({e})"),
        )
    })?;
    let Value::Object(fields) = record else {
        return Err((Value::Null, format!("line {number}: not a JSON object")));
    };
    let id = fields.get("id").cloned().unwrap_or(Value::Null);
    let text = match (fields.get("text"), fields.get("value")) {
        (Some(Value::String(s)), _) => s.clone(),
        // `validate` also takes the value itself.
        (None, Some(v)) if accept_value => v.to_string(),
        _ if accept_value => {
            return Err((
                id,
                format!("line {number}: needs a string field \"text\" or a field \"value\""),
            ))
        }
        _ => return Err((id, format!("line {number}: needs a string field \"text\""))),
    };
    let schema = match fields.get("schema") {
        Some(s) => Some(
            cache
                .get(s)
                .map_err(|e| (id.clone(), format!("line {number}: {e}")))?,
        ),
        None => default_schema.cloned(),
    };
    Ok((id, text, schema))
}

fn outcome_json(id: Value, outcome: Outcome, with_feedback: bool) -> Value {
    match outcome {
        Outcome::Ok { value, .. } => json!({"id": id, "ok": true, "value": value}),
        Outcome::Failed {
            errors,
            feedback,
            kind,
        } => {
            let mut result = json!({"id": id, "ok": false, "error": kind, "errors": errors});
            if with_feedback {
                result["feedback"] = Value::String(feedback);
            }
            result
        }
    }
}
