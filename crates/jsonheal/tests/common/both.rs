//! One input through both paths: the one-shot engine (`repair`) and the stream (`Repairer`),
//! fed whole and in 1-, 3- and 16-byte pieces (`push_bytes`, so the pieces split multi-byte
//! UTF-8 characters). For every feed, `finish()` must equal the one-shot result exactly (the
//! same text and repair log, or the same error), every snapshot must be rebuilt by the
//! events, never go back on the one before, and (outside the stream's documented limits,
//! [`final_within_limits`]) never show what the final value contradicts.
//!
//! The table tests call [`repair`] and [`repair_with`] in place of the library's, so every
//! table case, and every new one, is checked against both paths by default.
#![allow(dead_code)]

use jsonheal::stream::Repairer;
use jsonheal::{Error, Options, Repaired};

use super::{feed, final_within_limits};

/// Inputs on which the stream and the engine disagree today, each with why. The harness
/// expects the divergence: a listed input that runs clean through both paths fails (take it
/// off the list), as does one no table runs any more (see `known_divergences_still_diverge`).
pub const KNOWN_STREAM_DIVERGENCES: &[(&str, &str)] = &[];

/// The piece sizes, besides the whole text, every input is fed in.
const PIECES: [usize; 3] = [1, 3, 16];

/// Longer inputs are fed whole and in 16-byte pieces only: each check takes a snapshot, which
/// costs the size of the value, so 1-byte pieces would be quadratic.
const LONG: usize = 4096;

/// What the stream does differently from `repair_with(input, options)`, for each feed; empty
/// when it agrees. `options` other than the default skip the check against the final value
/// (the documented limits are those of the default options), not the rest.
pub fn stream_problems(input: &str, options: &Options, defaults: bool) -> Vec<String> {
    let want = jsonheal::repair_with(input, options);
    let fin = if defaults {
        final_within_limits(input)
    } else {
        None
    };
    let mut problems = Vec::new();
    let mut feeds: Vec<(String, Vec<usize>)> = vec![("whole".into(), Vec::new())];
    for size in PIECES {
        if size < 16 && input.len() > LONG {
            continue;
        }
        let cuts = (size..input.len()).step_by(size).collect();
        feeds.push((format!("{size}-byte pieces"), cuts));
    }
    for (how, cuts) in feeds {
        let mut r = Repairer::with_options(options.clone());
        let name = format!("{input:?} fed in {how}");
        if let Err(m) = feed(&mut r, &name, input, &cuts, fin.as_ref()) {
            problems.push(m);
        }
        let got = r.finish();
        if got != want {
            problems.push(format!(
                "{name}: finish gave {}, repair gave {}",
                show(&got),
                show(&want)
            ));
        }
    }
    problems
}

/// `Ok` when the stream agrees with the engine on `input`, or disagrees as
/// [`KNOWN_STREAM_DIVERGENCES`] says it does; else what is wrong.
pub fn verdict(input: &str, problems: &[String]) -> Result<(), String> {
    let known = KNOWN_STREAM_DIVERGENCES.iter().find(|(k, _)| *k == input);
    match (known, problems.is_empty()) {
        (None, true) | (Some(_), false) => Ok(()),
        (None, false) => Err(format!(
            "the stream diverges from repair:\n  {}",
            problems.join("\n  ")
        )),
        (Some((_, why)), true) => Err(format!(
            "{input:?} is listed in KNOWN_STREAM_DIVERGENCES ({why}) but the stream now agrees \
             with repair: take it off the list"
        )),
    }
}

/// `jsonheal::repair`, and the same input through the stream: the one-shot result, and what
/// the stream got wrong (none when it agrees or diverges as listed).
pub fn outcome(input: &str) -> (Result<Repaired, Error>, Result<(), String>) {
    let problems = stream_problems(input, &Options::default(), true);
    (jsonheal::repair(input), verdict(input, &problems))
}

/// `jsonheal::repair` after checking the stream against it; panics where the stream
/// diverges (outside the known list).
pub fn repair(input: &str) -> Result<Repaired, Error> {
    let (got, stream) = outcome(input);
    if let Err(m) = stream {
        panic!("{m}");
    }
    got
}

/// `jsonheal::repair_with` after checking the stream with the same options against it.
pub fn repair_with(input: &str, options: &Options) -> Result<Repaired, Error> {
    let problems = stream_problems(input, options, false);
    if let Err(m) = verdict(input, &problems) {
        panic!("{m}");
    }
    jsonheal::repair_with(input, options)
}

fn show(r: &Result<Repaired, Error>) -> String {
    match r {
        Ok(r) => format!("{:?} with {:?}", r.text, r.repairs),
        Err(e) => format!("error {e} ({:?})", e.kind()),
    }
}
