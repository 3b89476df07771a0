//! `jsonheal repair --stream`: repair text as it arrives, printing the value as it grows.
//!
//! Each read from the input (at most 4 KB, whatever the pipe delivered) is pushed into a
//! [`Repairer`]; when the partial value changed, one compact JSON line shows it (or, with
//! `--events`, one line per change: `{"path":"/a","set":1}`, `{"path":"/a","append":"xy"}`).
//! At the end of the input the final repaired value follows on its own line (with
//! `--events`, as `{"final": value}`), exactly what `jsonheal repair` makes of the whole text
//! with the same options.

use std::fs::File;
use std::io::{self, Read, Write};
use std::path::Path;
use std::process::ExitCode;

use anyhow::Context;
use jsonheal::stream::{OpRef, Repairer};
use jsonheal::Options;
use serde_json::{json, Value};

/// How much one read asks for: small enough to show progress on a slow stream.
const READ_SIZE: usize = 4096;

/// What a change of the partial value prints.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Output {
    /// The whole value, a line each time it changed: simple to consume, but a long document
    /// prints its beginning again with every line.
    Snapshots,
    /// A line per path event: the output grows with the input, not with its square.
    Events,
}

/// Stream FILE (or stdin when it is absent or `-`) to stdout. Exit 1 when the text holds no
/// JSON (or the options refuse it).
pub fn run_stream(
    path: Option<&Path>,
    options: &Options,
    output: Output,
    explain: bool,
) -> anyhow::Result<ExitCode> {
    let stdout = io::stdout();
    let mut out = stdout.lock();
    let config = Config {
        options,
        output,
        explain,
    };
    match path {
        Some(p) if p != Path::new("-") => {
            let file = File::open(p).with_context(|| format!("cannot open {}", p.display()))?;
            stream(file, &mut out, &p.display().to_string(), &config)
        }
        _ => stream(io::stdin().lock(), &mut out, "standard input", &config),
    }
}

/// How `stream` reads and prints.
pub struct Config<'a> {
    pub options: &'a Options,
    pub output: Output,
    /// Print the repair log (`line:col kind: what`) on stderr at the end.
    pub explain: bool,
}

/// The loop of `run_stream`, over any reader and writer (`name` is for messages).
pub fn stream(
    mut input: impl Read,
    out: &mut impl Write,
    name: &str,
    config: &Config,
) -> anyhow::Result<ExitCode> {
    let mut repairer = Repairer::with_options(config.options.clone());
    if config.output == Output::Snapshots {
        repairer = repairer.without_events();
    }
    let mut buf = vec![0u8; READ_SIZE];
    let mut shown = repairer.revision();
    let mut frozen_told = false;
    loop {
        let n = match input.read(&mut buf) {
            Ok(0) => break,
            Ok(n) => n,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
            Err(e) => return Err(e).with_context(|| format!("cannot read {name}")),
        };
        repairer.push_bytes(&buf[..n]);
        match config.output {
            Output::Snapshots => {
                if repairer.revision() != shown {
                    shown = repairer.revision();
                    if let Some(value) = repairer.snapshot() {
                        write_line(out, &value)?;
                    }
                }
            }
            Output::Events => {
                let mut wrote = false;
                for event in repairer.events() {
                    let line = match event.op {
                        OpRef::Set(value) => json!({"path": event.path, "set": value.to_value()}),
                        OpRef::Append(text) => json!({"path": event.path, "append": text}),
                    };
                    write_value(out, &line)?;
                    wrote = true;
                }
                if repairer.is_frozen() && !frozen_told {
                    // Nothing changes until the end now: the final line decides.
                    frozen_told = true;
                    write_value(out, &json!({"frozen": true}))?;
                    wrote = true;
                }
                if wrote {
                    out.flush().context("cannot write the output")?;
                }
            }
        }
    }
    let text = config.explain.then(|| repairer.text().to_owned());
    match repairer.finish() {
        Ok(fixed) => {
            if let Some(text) = &text {
                super::repair::explain(text, &fixed)?;
            }
            let value = fixed.value().context("the repaired text did not parse")?;
            match config.output {
                Output::Snapshots => write_line(out, &value)?,
                Output::Events => write_line(out, &json!({ "final": value }))?,
            }
            Ok(ExitCode::SUCCESS)
        }
        Err(e) => {
            out.flush().context("cannot write the output")?;
            eprintln!("jsonheal: {e}");
            Ok(ExitCode::from(1))
        }
    }
}

/// One compact JSON line, not flushed.
fn write_value(out: &mut impl Write, value: &Value) -> anyhow::Result<()> {
    serde_json::to_writer(&mut *out, value).context("cannot write the output")?;
    out.write_all(b"\n").context("cannot write the output")?;
    Ok(())
}

/// One compact JSON line, flushed at once so a reader downstream sees it while the input is
/// still arriving.
fn write_line(out: &mut impl Write, value: &Value) -> anyhow::Result<()> {
    write_value(out, value)?;
    out.flush().context("cannot write the output")?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A reader that hands out its pieces one `read` at a time, like a pipe.
    struct Pieces(Vec<&'static [u8]>);

    impl Read for Pieces {
        fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
            if self.0.is_empty() {
                return Ok(0);
            }
            let piece = self.0.remove(0);
            let n = piece.len().min(buf.len());
            buf[..n].copy_from_slice(&piece[..n]);
            if n < piece.len() {
                self.0.insert(0, &piece[n..]);
            }
            Ok(n)
        }
    }

    fn run_with(
        pieces: Vec<&'static [u8]>,
        options: &Options,
        output: Output,
    ) -> (ExitCode, String) {
        let mut out = Vec::new();
        let config = Config {
            options,
            output,
            explain: false,
        };
        let code = stream(Pieces(pieces), &mut out, "test input", &config).expect("no I/O error");
        (code, String::from_utf8(out).expect("utf-8 output"))
    }

    fn run(pieces: Vec<&'static [u8]>) -> (ExitCode, String) {
        run_with(pieces, &Options::default(), Output::Snapshots)
    }

    #[test]
    fn prints_a_line_per_changing_read_then_the_final_value() {
        let (code, out) = run(vec![
            b"{\"name\": \"Ad",
            b"a\", \"n\": 1",
            b"2",
            b"3, \"tags\": [\"x\"",
            b"]}",
        ]);
        assert_eq!(code, ExitCode::SUCCESS);
        assert_eq!(
            out,
            concat!(
                // A short string waits for what follows its quote (it may be a key).
                "{}\n",
                "{\"name\":\"Ada\"}\n",
                // `123` is withheld until the comma and the next key: the third read
                // changes nothing.
                "{\"name\":\"Ada\",\"n\":123,\"tags\":[]}\n",
                "{\"name\":\"Ada\",\"n\":123,\"tags\":[\"x\"]}\n",
                // Closing brackets change nothing either; then the final value.
                "{\"name\":\"Ada\",\"n\":123,\"tags\":[\"x\"]}\n",
            )
        );
    }

    #[test]
    fn a_character_split_between_reads_is_joined() {
        let (code, out) = run(vec![b"{\"a\": \"caf\xC3", b"\xA9\"}"]);
        assert_eq!(code, ExitCode::SUCCESS);
        assert_eq!(out, "{}\n{\"a\":\"café\"}\n{\"a\":\"café\"}\n");
    }

    #[test]
    fn no_json_is_exit_1_with_nothing_printed() {
        let (code, out) = run(vec![b"I'm sorry, ", b"I can't do that."]);
        assert_eq!(code, ExitCode::from(1));
        assert_eq!(out, "");
    }

    #[test]
    fn events_print_each_change_then_the_final_value() {
        let (code, out) = run_with(
            vec![
                b"{\"name\": \"Ad",
                b"a\", \"n\": 1",
                b"2",
                b"3, \"tags\": [\"x\"",
                b"]}",
            ],
            &Options::default(),
            Output::Events,
        );
        assert_eq!(code, ExitCode::SUCCESS);
        assert_eq!(
            out,
            concat!(
                "{\"path\":\"\",\"set\":{}}\n",
                "{\"path\":\"/name\",\"set\":\"Ada\"}\n",
                "{\"path\":\"/n\",\"set\":123}\n",
                "{\"path\":\"/tags\",\"set\":[]}\n",
                "{\"path\":\"/tags/0\",\"set\":\"x\"}\n",
                "{\"final\":{\"name\":\"Ada\",\"n\":123,\"tags\":[\"x\"]}}\n",
            )
        );
    }

    #[test]
    fn events_of_a_long_string_append_to_it() {
        let long: &'static str =
            "a long string value that is well over sixty-four bytes, so it shows as it comes";
        let first: &'static [u8] = Box::leak(
            format!("{{\"text\": \"{}", &long[..70])
                .into_bytes()
                .into_boxed_slice(),
        );
        let second: &'static [u8] = Box::leak(
            format!("{}\"}}", &long[70..])
                .into_bytes()
                .into_boxed_slice(),
        );
        let (code, out) = run_with(vec![first, second], &Options::default(), Output::Events);
        assert_eq!(code, ExitCode::SUCCESS);
        let lines: Vec<Value> = out
            .lines()
            .map(|l| serde_json::from_str(l).expect("each line is JSON"))
            .collect();
        // Replaying the events gives the final value.
        let mut text = String::new();
        for line in &lines[..lines.len() - 1] {
            if line["path"] == "/text" {
                match (&line["set"], &line["append"]) {
                    (Value::String(s), _) => text = s.clone(),
                    (_, Value::String(s)) => text.push_str(s),
                    _ => panic!("unexpected event {line}"),
                }
            }
        }
        assert!(lines.iter().any(|l| l.get("append").is_some()), "{out}");
        assert_eq!(text, long);
        assert_eq!(lines.last(), Some(&json!({"final": {"text": long}})));
    }

    #[test]
    fn a_frozen_stream_says_so_once() {
        // A key in an array inside an object: the closers to the text's end decide.
        let (code, out) = run_with(
            vec![b"{\"tags\": [\"ai\", \"count\": 2", b", \"more\": 3", b"}"],
            &Options::default(),
            Output::Events,
        );
        assert_eq!(code, ExitCode::SUCCESS);
        assert_eq!(out.matches("{\"frozen\":true}").count(), 1, "{out}");
        assert!(
            out.ends_with("{\"final\":{\"tags\":[\"ai\"],\"count\":2,\"more\":3}}\n"),
            "{out}"
        );
    }

    #[test]
    fn the_options_decide_the_final_value_as_without_stream() {
        let options = Options {
            duplicate_keys: jsonheal::DuplicateKeys::First,
            ..Options::default()
        };
        let (code, out) = run_with(vec![b"{\"a\": 1, \"a\": 2}"], &options, Output::Snapshots);
        assert_eq!(code, ExitCode::SUCCESS);
        assert_eq!(out.lines().last(), Some("{\"a\":1}"));
        let (_, default_out) = run(vec![b"{\"a\": 1, \"a\": 2}"]);
        assert_eq!(default_out.lines().last(), Some("{\"a\":2}"));
    }
}
