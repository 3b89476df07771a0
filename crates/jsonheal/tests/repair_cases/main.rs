//! Table-driven cases for every row of the repair contract and every fault class of the
//! issue, grouped by repair kind (a module per group): each input with the value it must
//! repair to (or `ERR`: no honest repair exists); each table names the repair kinds it is
//! about, and each case that needs a repair must report one of them.
//!
//! Every case runs through both paths (`common::both`): the one-shot engine and the stream,
//! fed whole and in 1-, 3- and 16-byte pieces, whose `finish` must equal the engine's result
//! and whose snapshots must never contradict it. A new table row is checked on both.
#![allow(clippy::unwrap_used)]

#[path = "../common/mod.rs"]
mod common;

mod bare_values;
mod brackets;
mod comments;
mod contract;
mod document;
mod inner_quotes;
mod keys;
mod missing_quote;
mod probe;
mod quote_kinds;
mod separators;
mod strings;
mod truncation;
mod wrappers;

use common::both::{outcome, repair};
use jsonheal::RepairKind;
use serde_json::Value;

/// What every table module uses.
mod prelude {
    pub use crate::common::both::{repair, repair_with};
    pub use crate::{kinds, run, ERR};
    pub use jsonheal::RepairKind;
    pub use serde_json::Value;
}

/// Expected `ERR` means "no JSON found"-style error.
pub const ERR: &str = "ERR";

/// The failures of one table: a case whose one-shot value is not the expected one, whose
/// repairs' spans leave the input or name none of the table's repair kinds (valid JSON
/// apart, which needs no repair), or on which the stream diverges from the engine.
fn check(class: &str, table_kinds: &[RepairKind], cases: &[(&str, &str)]) -> Vec<String> {
    let mut failures = Vec::new();
    for (input, expected) in cases {
        let (got, stream) = outcome(input);
        let ok = match (&got, *expected) {
            (Err(_), ERR) => true,
            (Ok(_), ERR) | (Err(_), _) => false,
            (Ok(r), exp) => {
                let exp: Value = serde_json::from_str(exp).unwrap();
                // Ok means JSON: serde_json must accept the text. And every repair's span
                // lies in the input, on char boundaries.
                r.value().map(|v| v == exp).unwrap_or(false)
                    && r.repairs.iter().all(|x| {
                        x.span().end <= input.len()
                            && input.is_char_boundary(x.span().start)
                            && input.is_char_boundary(x.span().end)
                    })
            }
        };
        if !ok {
            failures.push(format!(
                "[{class}] {input:?}: expected {expected}, got {:?}",
                got.as_ref()
                    .map(|r| r.text.as_str())
                    .map_err(|e| e.to_string())
            ));
        }
        if let (Ok(r), false) = (&got, *expected == ERR || is_json(input)) {
            let reported: Vec<RepairKind> = r.repairs.iter().map(|x| x.kind()).collect();
            if !reported.iter().any(|k| table_kinds.contains(k)) {
                failures.push(format!(
                    "[{class}] {input:?}: reports {reported:?}, none of the table's \
                     {table_kinds:?}"
                ));
            }
        }
        if let Err(m) = stream {
            failures.push(format!("[{class}] {m}"));
        }
    }
    failures
}

/// Run one table. `kinds` are the repairs the table is about: each case that needs a repair
/// must report at least one of them.
pub fn run(class: &str, kinds: &[RepairKind], cases: &[(&str, &str)]) {
    let failures = check(class, kinds, cases);
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

fn is_json(input: &str) -> bool {
    serde_json::from_str::<serde::de::IgnoredAny>(input).is_ok()
}

/// The kinds of the repairs of `input` (checked on both paths).
pub fn kinds(input: &str) -> Vec<RepairKind> {
    repair(input)
        .unwrap()
        .repairs
        .iter()
        .map(|r| r.kind())
        .collect()
}
