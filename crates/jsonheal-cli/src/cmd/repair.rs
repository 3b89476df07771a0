//! `jsonheal repair`: repair one document, or a JSON Lines batch.

use std::io::{self, Write};
use std::path::PathBuf;
use std::process::ExitCode;

use clap::ValueEnum;
use jsonheal::{DuplicateKeys, Multiple, NonFinite, Options, Repaired};
use serde_json::Value;

use crate::io::read_all;

#[derive(clap::Args)]
pub struct RepairArgs {
    /// Input file (stdin when absent or `-`).
    file: Option<PathBuf>,
    /// Indent the output.
    #[arg(long, conflicts_with = "compact")]
    pretty: bool,
    /// Minify the output (default: the repaired text as it is, which for valid input is the
    /// input itself).
    #[arg(long)]
    compact: bool,
    /// Print every repair to stderr as `line:col kind: what`.
    #[arg(long)]
    explain: bool,
    /// Repair nothing: exit 1 with the line and column of the first fault.
    #[arg(long)]
    strict: bool,
    /// Batch mode: each input line is `{"id": …, "input": "<raw text>"}`, each output line
    /// `{"id", "ok", "value", "repairs"}` or `{"id", "ok": false, "error"}`.
    #[arg(long, conflicts_with_all = ["pretty", "explain", "stream"])]
    jsonl: bool,
    /// Read stdin as it arrives and print a snapshot line each time the value changes.
    #[arg(long, conflicts_with_all = ["pretty", "compact", "strict"])]
    stream: bool,
    /// With `--stream`: print each change as a path event line instead of the whole value
    /// (`{"path":"/a","set":1}`, `{"path":"/a","append":"xy"}`), so the output stays as
    /// long as the input; then `{"final": value}`.
    #[arg(long, requires = "stream")]
    events: bool,
    /// What to do with several top-level values.
    #[arg(long, value_enum, default_value_t = MultipleArg::Array)]
    multiple: MultipleArg,
    /// What to do with a key that appears twice in an object.
    #[arg(long, value_enum, default_value_t = DuplicateArg::Keep)]
    duplicate_keys: DuplicateArg,
    /// What `NaN` and `Infinity` become.
    #[arg(long, value_enum, default_value_t = NonFiniteArg::Null)]
    non_finite: NonFiniteArg,
    /// Deepest nesting accepted.
    #[arg(long, default_value_t = Options::default().max_depth)]
    max_depth: usize,
}

#[derive(Clone, Copy, ValueEnum)]
enum MultipleArg {
    Array,
    First,
    Last,
    Error,
}

#[derive(Clone, Copy, ValueEnum)]
enum DuplicateArg {
    Keep,
    First,
    Last,
    Error,
}

#[derive(Clone, Copy, ValueEnum)]
enum NonFiniteArg {
    Null,
    String,
    Error,
}

impl RepairArgs {
    fn options(&self) -> Options {
        Options {
            multiple: match self.multiple {
                MultipleArg::Array => Multiple::Array,
                MultipleArg::First => Multiple::First,
                MultipleArg::Last => Multiple::Last,
                MultipleArg::Error => Multiple::Error,
            },
            duplicate_keys: match self.duplicate_keys {
                DuplicateArg::Keep => DuplicateKeys::Keep,
                DuplicateArg::First => DuplicateKeys::First,
                DuplicateArg::Last => DuplicateKeys::Last,
                DuplicateArg::Error => DuplicateKeys::Error,
            },
            non_finite: match self.non_finite {
                NonFiniteArg::Null => NonFinite::Null,
                NonFiniteArg::String => NonFinite::String,
                NonFiniteArg::Error => NonFinite::Error,
            },
            max_depth: self.max_depth,
            strict: self.strict,
        }
    }
}

pub fn run(args: RepairArgs) -> anyhow::Result<ExitCode> {
    let options = args.options();
    if args.stream {
        let output = if args.events {
            super::repair_stream::Output::Events
        } else {
            super::repair_stream::Output::Snapshots
        };
        return super::repair_stream::run_stream(
            args.file.as_deref(),
            &options,
            output,
            args.explain,
        );
    }
    if args.jsonl {
        return run_jsonl(&args, &options);
    }
    let input = read_all(args.file.as_deref())?;
    let repaired = match jsonheal::repair_with(&input, &options) {
        Ok(r) => r,
        Err(e) => {
            eprintln!("jsonheal: {e}");
            return Ok(ExitCode::from(1));
        }
    };
    if args.explain {
        explain(&input, &repaired)?;
    }
    // Re-spaced as text: numbers and strings stay as written (`1e2` is not `1e+2`).
    let text = if args.pretty {
        jsonheal::format::pretty(&repaired.text)
    } else if args.compact {
        jsonheal::format::compact(&repaired.text)
    } else {
        repaired.text
    };
    let mut out = io::stdout().lock();
    out.write_all(text.as_bytes())?;
    out.write_all(b"\n")?;
    out.flush()?;
    Ok(ExitCode::SUCCESS)
}

/// `line:col kind: what` for every repair, on stderr.
pub(super) fn explain(input: &str, repaired: &Repaired) -> anyhow::Result<()> {
    let mut err = io::stderr().lock();
    if repaired.repairs.is_empty() {
        writeln!(err, "no repairs: the input is valid JSON")?;
    }
    for r in &repaired.repairs {
        let p = jsonheal::Position::of(input, r.span().start);
        writeln!(
            err,
            "{}:{} {}: {}",
            p.line,
            p.column,
            r.kind(),
            r.kind().describe()
        )?;
    }
    Ok(())
}

/// `--jsonl`: each line `{"id", "input"}` becomes `{"id", "ok", "value", "repairs"}` or
/// `{"id", "ok": false, "error"}`; a line that fails does not fail the batch (exit 0).
fn run_jsonl(args: &RepairArgs, options: &Options) -> anyhow::Result<ExitCode> {
    crate::batch::run(
        args.file.as_deref(),
        || (),
        |(), line, _, out| process_line(line, options, out),
    )?;
    Ok(ExitCode::SUCCESS)
}

#[derive(serde::Deserialize)]
struct BatchLine {
    #[serde(default)]
    id: Value,
    input: Option<String>,
}

fn process_line(line: &str, options: &Options, out: &mut Vec<u8>) -> bool {
    let parsed: BatchLine = match serde_json::from_str(line) {
        Ok(p) => p,
        Err(e) => {
            write_error(out, &Value::Null, &format!("malformed input line: {e}"));
            return false;
        }
    };
    let Some(input) = parsed.input else {
        write_error(out, &parsed.id, "malformed input line: missing `input`");
        return false;
    };
    match jsonheal::repair_with(&input, options) {
        Ok(r) => {
            out.extend_from_slice(b"{\"id\":");
            write_value(out, &parsed.id);
            out.extend_from_slice(b",\"ok\":true,\"value\":");
            if has_line_break(&r.text) {
                // Valid input keeps its layout; a JSON Lines record must stay on one line.
                out.extend_from_slice(jsonheal::format::compact(&r.text).as_bytes());
            } else {
                out.extend_from_slice(r.text.as_bytes());
            }
            out.extend_from_slice(b",\"repairs\":[");
            for (i, rep) in r.repairs.iter().enumerate() {
                if i > 0 {
                    out.push(b',');
                }
                out.extend_from_slice(b"{\"kind\":\"");
                out.extend_from_slice(rep.kind().name().as_bytes());
                out.extend_from_slice(b"\",\"start\":");
                out.extend_from_slice(rep.span().start.to_string().as_bytes());
                out.extend_from_slice(b",\"end\":");
                out.extend_from_slice(rep.span().end.to_string().as_bytes());
                out.push(b'}');
            }
            out.extend_from_slice(b"]}");
            true
        }
        Err(e) => {
            write_error(out, &parsed.id, &e.to_string());
            false
        }
    }
}

fn has_line_break(s: &str) -> bool {
    s.bytes().any(|b| b == b'\n' || b == b'\r')
}

fn write_value(out: &mut Vec<u8>, v: &Value) {
    // Serialising a Value into a Vec cannot fail.
    let _ = serde_json::to_writer(&mut *out, v);
}

fn write_error(out: &mut Vec<u8>, id: &Value, message: &str) {
    out.extend_from_slice(b"{\"id\":");
    write_value(out, id);
    out.extend_from_slice(b",\"ok\":false,\"error\":");
    write_value(out, &Value::String(message.to_owned()));
    out.push(b'}');
}
