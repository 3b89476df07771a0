//! `jsonheal repair --stream`: repair text as it arrives, printing the value as it grows.
//!
//! Each read from the input (at most 4 KB, whatever the pipe delivered) is pushed into a
//! [`Repairer`]; when the partial value changed, one compact JSON line shows it. At the end of
//! the input the final repaired value follows on its own line, exactly what `jsonheal repair`
//! makes of the whole text.

use std::fs::File;
use std::io::{self, Read, Write};
use std::path::Path;
use std::process::ExitCode;

use anyhow::Context;
use jsonheal::stream::Repairer;

/// How much one read asks for: small enough to show progress on a slow stream.
const READ_SIZE: usize = 4096;

/// Stream FILE (or stdin when it is absent or `-`) to stdout: a snapshot line per read that
/// changed the value, then the final value. Exit 1 when the text holds no JSON.
pub fn run_stream(path: Option<&Path>) -> anyhow::Result<ExitCode> {
    let stdout = io::stdout();
    let mut out = stdout.lock();
    match path {
        Some(p) if p != Path::new("-") => {
            let file = File::open(p).with_context(|| format!("cannot open {}", p.display()))?;
            stream(file, &mut out, &p.display().to_string())
        }
        _ => stream(io::stdin().lock(), &mut out, "standard input"),
    }
}

/// The loop of `run_stream`, over any reader and writer (`name` is for messages).
pub fn stream(mut input: impl Read, out: &mut impl Write, name: &str) -> anyhow::Result<ExitCode> {
    let mut repairer = Repairer::new().without_events();
    let mut buf = vec![0u8; READ_SIZE];
    let mut shown = repairer.revision();
    loop {
        let n = match input.read(&mut buf) {
            Ok(0) => break,
            Ok(n) => n,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
            Err(e) => return Err(e).with_context(|| format!("cannot read {name}")),
        };
        repairer.push_bytes(&buf[..n]);
        if repairer.revision() != shown {
            shown = repairer.revision();
            if let Some(value) = repairer.snapshot() {
                write_line(out, &value)?;
            }
        }
    }
    match repairer.finish() {
        Ok(fixed) => {
            let value = fixed.value().context("the repaired text did not parse")?;
            write_line(out, &value)?;
            Ok(ExitCode::SUCCESS)
        }
        Err(e) => {
            out.flush().context("cannot write the output")?;
            eprintln!("jsonheal: {e}");
            Ok(ExitCode::from(1))
        }
    }
}

/// One compact JSON line, flushed at once so a reader downstream sees it while the input is
/// still arriving.
fn write_line(out: &mut impl Write, value: &serde_json::Value) -> anyhow::Result<()> {
    serde_json::to_writer(&mut *out, value).context("cannot write the output")?;
    out.write_all(b"\n").context("cannot write the output")?;
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

    fn run(pieces: Vec<&'static [u8]>) -> (ExitCode, String) {
        let mut out = Vec::new();
        let code = stream(Pieces(pieces), &mut out, "test input").expect("no I/O error");
        (code, String::from_utf8(out).expect("utf-8 output"))
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
}
