//! Peak memory of one repair, against the size of its input.
//!
//! `cargo run --release -p jsonheal-tools --bin peakmem -- [valid|llm|truncated] [MB]`
//!
//! Generates the bench's document (20 MB by default) in the chosen form, resets the kernel's
//! peak-RSS mark (`/proc/self/clear_refs`, so the generator's own peak does not count), repairs
//! it to text once and prints the process's peak RSS (`VmHWM`) as a multiple of the input
//! size. The peak includes the input itself; the requirement is < 3x for text output. Exits 1
//! when the repair fails or the requirement is missed.

use std::process::ExitCode;

#[path = "../../../jsonheal/benches/data/mod.rs"]
mod data;

/// A `kB` field of `/proc/self/status`, in bytes.
fn status_bytes(field: &str) -> Option<u64> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    let line = status.lines().find(|l| l.starts_with(field))?;
    let kb: u64 = line
        .trim_start_matches(field)
        .trim_start_matches(':')
        .trim()
        .trim_end_matches("kB")
        .trim()
        .parse()
        .ok()?;
    Some(kb * 1024)
}

fn main() -> ExitCode {
    let mut args = std::env::args().skip(1);
    let form = args.next().unwrap_or_else(|| "valid".to_owned());
    let mb: usize = match args.next().map(|a| a.parse()) {
        None => 20,
        Some(Ok(mb)) => mb,
        Some(Err(_)) => {
            eprintln!("peakmem: MB must be a whole number");
            return ExitCode::from(2);
        }
    };
    let input = match form.as_str() {
        "valid" => data::document(mb * 1_000_000, data::Style::VALID),
        "llm" => data::document(mb * 1_000_000, data::Style::LLM),
        "truncated" => {
            let doc = data::document(mb * 1_000_000, data::Style::VALID);
            data::truncated(&doc, 55).to_owned()
        }
        other => {
            eprintln!("peakmem: unknown form {other:?} (valid, llm, truncated)");
            return ExitCode::from(2);
        }
    };

    // "5" resets the peak-RSS mark to the current RSS (Linux >= 4.0).
    let reset = std::fs::write("/proc/self/clear_refs", "5").is_ok();
    let before = status_bytes("VmRSS").unwrap_or(0);
    let result = jsonheal::repair(&input);
    let peak = status_bytes("VmHWM").unwrap_or(0);
    let out_len = match &result {
        Ok(r) => r.text.len(),
        Err(e) => {
            eprintln!("peakmem: repair failed: {e}");
            return ExitCode::FAILURE;
        }
    };
    drop(result);

    let n = input.len() as f64;
    let ratio = peak as f64 / n;
    println!("form:          {form}");
    println!("input:         {:.1} MB", n / 1e6);
    println!("output text:   {:.1} MB", out_len as f64 / 1e6);
    println!(
        "RSS before:    {:.1} MB ({:.2}x input)",
        before as f64 / 1e6,
        before as f64 / n
    );
    println!(
        "peak RSS:      {:.1} MB ({ratio:.2}x input){}",
        peak as f64 / 1e6,
        if reset {
            ""
        } else {
            "  [peak not reset: includes generation]"
        }
    );
    println!(
        "repair added:  {:.1} MB ({:.2}x input)",
        peak.saturating_sub(before) as f64 / 1e6,
        peak.saturating_sub(before) as f64 / n
    );
    if ratio < 3.0 {
        println!("peak < 3x input: ok");
        ExitCode::SUCCESS
    } else {
        println!("peak < 3x input: FAILED");
        ExitCode::FAILURE
    }
}
