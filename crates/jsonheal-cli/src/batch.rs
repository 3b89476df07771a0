//! The JSON Lines batch runner that every `--jsonl` subcommand shares: read the input in
//! chunks of lines, split each chunk between two worker threads, and write the results in
//! input order before reading the next chunk, so memory stays bounded by one chunk whatever
//! the input's length. A worker's panic is a bug in jsonheal: the batch stops with an error
//! naming the lines, rather than silently dropping them.

use std::io::{self, BufRead, Write};
use std::path::Path;

use anyhow::{bail, Context};

use crate::io::reader;

/// Lines read and handed to the workers at a time.
const CHUNK_LINES: usize = 4096;

/// What a batch did.
#[derive(Debug, Default, Clone, Copy)]
pub struct Summary {
    /// Records written (blank input lines are skipped).
    pub records: usize,
    /// Records whose work reported a failure.
    pub failed: usize,
}

/// Runs `work` on every non-blank line of FILE (stdin when absent or `-`) and writes what it
/// appends to its buffer, one record a line, to stdout. `work` gets a per-worker state made
/// by `state` (a cache, say), the line without its line break (invalid UTF-8 replaced: one
/// stray byte must not abort a batch), its 1-based number and the output buffer, and returns
/// whether the record succeeded.
pub fn run<S: Send, W>(
    path: Option<&Path>,
    state: impl Fn() -> S + Sync,
    work: W,
) -> anyhow::Result<Summary>
where
    W: Fn(&mut S, &str, usize, &mut Vec<u8>) -> bool + Sync,
{
    let mut input = reader(path)?;
    let stdout = io::stdout();
    let mut out = io::BufWriter::with_capacity(1 << 16, stdout.lock());
    let mut lines: Vec<Vec<u8>> = Vec::with_capacity(CHUNK_LINES);
    let mut spare: Vec<Vec<u8>> = Vec::new();
    let mut halves = [Half::default(), Half::default()];
    let mut states = [state(), state()];
    let mut summary = Summary::default();
    let mut line_no = 0usize;
    loop {
        lines.clear();
        while lines.len() < CHUNK_LINES {
            let mut buf = spare.pop().unwrap_or_default();
            buf.clear();
            if input
                .read_until(b'\n', &mut buf)
                .context("cannot read input")?
                == 0
            {
                break;
            }
            lines.push(buf);
        }
        if lines.is_empty() {
            break;
        }
        let first_no = line_no + 1;
        line_no += lines.len();
        let mid = lines.len().div_ceil(2);
        let (a, b) = lines.split_at(mid);
        let [left, right] = &mut halves;
        let [left_state, right_state] = &mut states;
        let work = &work;
        let both_ok = std::thread::scope(|s| {
            let worker = s.spawn(|| left.fill(left_state, a, first_no, work));
            let here = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
                right.fill(right_state, b, first_no + mid, work)
            }));
            worker.join().is_ok() && here.is_ok()
        });
        if !both_ok {
            bail!("internal error: a worker failed on lines {first_no}..{line_no} (a bug in jsonheal; please report it with those lines)");
        }
        for half in &halves {
            out.write_all(&half.out)?;
            summary.records += half.records;
            summary.failed += half.failed;
        }
        spare.append(&mut lines);
    }
    out.flush()?;
    Ok(summary)
}

/// One worker's share of a chunk.
#[derive(Default)]
struct Half {
    out: Vec<u8>,
    records: usize,
    failed: usize,
}

impl Half {
    fn fill<S, W>(&mut self, state: &mut S, lines: &[Vec<u8>], first_no: usize, work: &W)
    where
        W: Fn(&mut S, &str, usize, &mut Vec<u8>) -> bool,
    {
        self.out.clear();
        self.records = 0;
        self.failed = 0;
        for (i, bytes) in lines.iter().enumerate() {
            let text = String::from_utf8_lossy(bytes);
            let line = text.trim_end_matches(['\n', '\r']);
            if line.trim().is_empty() {
                continue;
            }
            let ok = work(state, line, first_no + i, &mut self.out);
            self.out.push(b'\n');
            self.records += 1;
            self.failed += usize::from(!ok);
        }
    }
}
