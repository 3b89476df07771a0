//! Prints what jsonheal makes of every input — the one-shot repair (text and repair log, or
//! the error) under two sets of options, and the stream fed in two chunk sizes (every event
//! of every push, then `finish`) — one block per input, so that two builds of the library can
//! be compared byte for byte. `scripts/differential.sh` builds this file against a base
//! revision and against the working tree and compares the two outputs.
//!
//! `cargo run --release -p jsonheal-tools --bin differential -- [--soup N] FILE…`
//!
//! A `.jsonl` file is one input per line (its `input` field); any other file is one input,
//! read as bytes. `--soup N` adds N generated inputs (fixed seed: both builds see the same).
//! Uses only the public API, which both builds share.

use std::fmt::Write as _;
use std::io::{self, Write};
use std::process::ExitCode;

use jsonheal::stream::Repairer;
use jsonheal::{repair_with, DuplicateKeys, Multiple, NonFinite, Options};

/// Pieces the soup is made of: valid JSON, the faults models make, and text around them.
const SOUP: &[&str] = &[
    "{",
    "{",
    "}",
    "}",
    "[",
    "[",
    "]",
    "]",
    ",",
    ",",
    ",",
    ":",
    ":",
    " ",
    " ",
    "\n",
    "\t",
    "\"name\"",
    "\"a\"",
    "'b'",
    "`c`",
    "key",
    "k_2",
    "\"x, \"",
    "\"k: \"v",
    "\"",
    "'",
    "\\",
    "\\\"",
    "\\n",
    "\\u00e9",
    "\\ud83d",
    "1",
    "-2.5",
    "1e3",
    "007",
    "1.2.3",
    "12.",
    "0x1F",
    "true",
    "False",
    "None",
    "null",
    "NaN",
    "-Infinity",
    "undefined",
    "nil",
    "// note\n",
    "/* c */",
    "# c\n",
    "...",
    "+",
    "=",
    "=>",
    "：",
    "“q”",
    "‘s’",
    "«g»",
    "é",
    "日本",
    "😀",
    "```json\n",
    "```\n",
    "<think>",
    "</think>",
    "Sure! ",
    "Here is the JSON:\n",
    "[1]",
    "ObjectId(\"a1\")",
    "NumberLong(\"42\")",
    "r'\\d'",
    "u'x'",
    "C:\\Users\\me",
    "host = ",
    "2024-01-15",
    "{\\\"a\\\": 1}",
    "\"{\\\"a\\\": 1}\"",
    "<reflection>",
    "</reflection>",
    "[^1]",
    "- [x] ",
    "{{name}}",
    "${v}",
    "\r\n",
    "\u{a0}",
    "\u{feff}",
    "\u{0}",
];

/// A fixed-seed generator (xorshift64*), so both builds draw the same soup.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_f491_4f6c_dd1d)
    }

    fn below(&mut self, n: usize) -> usize {
        // n is small: the modulo bias does not matter for a test soup.
        (self.next() % n as u64) as usize
    }
}

fn soup(count: usize) -> Vec<Vec<u8>> {
    let mut rng = Rng(0x9e37_79b9_7f4a_7c15);
    (0..count)
        .map(|_| {
            let len = 1 + rng.below(40);
            let mut text = String::new();
            for _ in 0..len {
                text.push_str(SOUP[rng.below(SOUP.len())]);
            }
            text.into_bytes()
        })
        .collect()
}

fn inputs_of(path: &str) -> io::Result<Vec<Vec<u8>>> {
    let bytes = std::fs::read(path)?;
    if !path.ends_with(".jsonl") {
        return Ok(vec![bytes]);
    }
    let text = String::from_utf8_lossy(&bytes);
    let mut inputs = Vec::new();
    for line in text.lines().filter(|l| !l.trim().is_empty()) {
        let case: serde_json::Value = serde_json::from_str(line)
            .map_err(|e| io::Error::new(io::ErrorKind::InvalidData, format!("{path}: {e}")))?;
        match &case["input"] {
            serde_json::Value::String(s) => inputs.push(s.clone().into_bytes()),
            // Some corpora hold the input as a value: its JSON text is the input.
            serde_json::Value::Null => {}
            other => inputs.push(other.to_string().into_bytes()),
        }
    }
    Ok(inputs)
}

fn describe(input: &[u8], out: &mut String) {
    let text = String::from_utf8_lossy(input);
    let odd = Options {
        multiple: Multiple::First,
        duplicate_keys: DuplicateKeys::Last,
        non_finite: NonFinite::String,
        max_depth: 16,
        strict: false,
    };
    for options in [Options::default(), odd, Options::strict()] {
        match repair_with(&text, &options) {
            Ok(r) => {
                let _ = writeln!(out, "ok {}", r.text);
                for x in &r.repairs {
                    let _ = writeln!(out, "  {:?} {:?}", x.kind(), x.span());
                }
            }
            Err(e) => {
                let _ = writeln!(out, "err {e} {:?}", e.kind());
            }
        }
    }
    for chunk in [1usize, 7, 64] {
        if chunk == 1 && input.len() > 4096 {
            continue;
        }
        let mut r = Repairer::new();
        for piece in input.chunks(chunk) {
            r.push_bytes(piece);
            for event in r.events() {
                let _ = writeln!(out, "  e {} {:?}", event.path, event.op);
            }
        }
        let _ = writeln!(out, "  frozen {}", r.is_frozen());
        match r.finish() {
            Ok(f) => {
                let _ = writeln!(out, " fin {}", f.text);
                for x in &f.repairs {
                    let _ = writeln!(out, "  {:?} {:?}", x.kind(), x.span());
                }
            }
            Err(e) => {
                let _ = writeln!(out, " fin err {e}");
            }
        }
    }
}

fn main() -> ExitCode {
    let mut args = std::env::args().skip(1).peekable();
    let mut inputs = Vec::new();
    while let Some(arg) = args.next() {
        if arg == "--soup" {
            let Some(n) = args.next().and_then(|n| n.parse().ok()) else {
                eprintln!("differential: --soup takes a count");
                return ExitCode::from(2);
            };
            inputs.extend(soup(n));
            continue;
        }
        match inputs_of(&arg) {
            Ok(found) => inputs.extend(found),
            Err(e) => {
                eprintln!("differential: {arg}: {e}");
                return ExitCode::from(2);
            }
        }
    }
    let stdout = io::stdout();
    let mut stdout = io::BufWriter::new(stdout.lock());
    let mut block = String::new();
    for (n, input) in inputs.iter().enumerate() {
        block.clear();
        let _ = writeln!(block, "# {n} {:?}", String::from_utf8_lossy(input));
        describe(input, &mut block);
        if stdout.write_all(block.as_bytes()).is_err() {
            return ExitCode::from(1);
        }
    }
    eprintln!("differential: {} inputs", inputs.len());
    if stdout.flush().is_err() {
        return ExitCode::from(1);
    }
    ExitCode::SUCCESS
}
