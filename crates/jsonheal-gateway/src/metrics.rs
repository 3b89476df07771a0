//! Counters and a latency histogram, rendered as Prometheus text at `GET /metrics`.

use std::collections::BTreeMap;
use std::fmt::Write;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Mutex;
use std::time::Duration;

/// Upper bounds of the upstream latency buckets, in seconds.
const BUCKETS: [f64; 12] = [
    0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0, 30.0,
];

/// The gateway's metrics. Cheap to update from any task.
#[derive(Default)]
pub struct Metrics {
    /// Requests by outcome (`valid`, `healed`, `failed`, `passthrough`, error labels).
    requests: Mutex<BTreeMap<String, u64>>,
    /// Upstream calls made for healing attempts.
    attempts: AtomicU64,
    /// Healing attempt results (`valid`, `repaired`, `no_json`, `truncated`, `invalid`).
    healing: Mutex<BTreeMap<String, u64>>,
    /// Tool calls by normalisation strategy.
    tool_calls: Mutex<BTreeMap<String, u64>>,
    latency_buckets: [AtomicU64; BUCKETS.len()],
    latency_count: AtomicU64,
    latency_sum_micros: AtomicU64,
}

fn bump(map: &Mutex<BTreeMap<String, u64>>, label: &str) {
    let mut m = map.lock().unwrap_or_else(|p| p.into_inner());
    match m.get_mut(label) {
        Some(n) => *n += 1,
        None => {
            m.insert(label.to_owned(), 1);
        }
    }
}

impl Metrics {
    /// Count a finished request.
    pub fn request(&self, outcome: &str) {
        bump(&self.requests, outcome);
    }

    /// Count one healing attempt and its result.
    pub fn attempt(&self, result: &str) {
        self.attempts.fetch_add(1, Ordering::Relaxed);
        bump(&self.healing, result);
    }

    /// Count one normalised tool call.
    pub fn tool_call(&self, strategy: &str) {
        bump(&self.tool_calls, strategy);
    }

    /// Observe one upstream call's latency (to its response headers).
    pub fn upstream_latency(&self, d: Duration) {
        let secs = d.as_secs_f64();
        for (i, bound) in BUCKETS.iter().enumerate() {
            if secs <= *bound {
                self.latency_buckets[i].fetch_add(1, Ordering::Relaxed);
            }
        }
        self.latency_count.fetch_add(1, Ordering::Relaxed);
        self.latency_sum_micros.fetch_add(
            d.as_micros().min(u128::from(u64::MAX)) as u64,
            Ordering::Relaxed,
        );
    }

    /// The Prometheus text exposition.
    pub fn render(&self) -> String {
        let mut out = String::new();
        let labeled = |out: &mut String,
                       name: &str,
                       help: &str,
                       label: &str,
                       map: &Mutex<BTreeMap<String, u64>>| {
            let _ = writeln!(out, "# HELP {name} {help}\n# TYPE {name} counter");
            let m = map.lock().unwrap_or_else(|p| p.into_inner());
            for (k, v) in m.iter() {
                let _ = writeln!(out, "{name}{{{label}=\"{k}\"}} {v}");
            }
        };
        labeled(
            &mut out,
            "jsonheal_requests_total",
            "Chat completion requests by outcome.",
            "outcome",
            &self.requests,
        );
        let _ = writeln!(
            out,
            "# HELP jsonheal_attempts_total Upstream calls made by healing attempts.\n\
             # TYPE jsonheal_attempts_total counter\njsonheal_attempts_total {}",
            self.attempts.load(Ordering::Relaxed)
        );
        labeled(
            &mut out,
            "jsonheal_healing_attempts_total",
            "Healing attempts by result.",
            "result",
            &self.healing,
        );
        labeled(
            &mut out,
            "jsonheal_tool_calls_total",
            "Tool calls normalised, by strategy.",
            "strategy",
            &self.tool_calls,
        );
        let name = "jsonheal_upstream_latency_seconds";
        let _ = writeln!(
            out,
            "# HELP {name} Time to the upstream's response headers.\n# TYPE {name} histogram"
        );
        for (i, bound) in BUCKETS.iter().enumerate() {
            let _ = writeln!(
                out,
                "{name}_bucket{{le=\"{bound}\"}} {}",
                self.latency_buckets[i].load(Ordering::Relaxed)
            );
        }
        let count = self.latency_count.load(Ordering::Relaxed);
        let _ = writeln!(out, "{name}_bucket{{le=\"+Inf\"}} {count}");
        let _ = writeln!(
            out,
            "{name}_sum {}",
            self.latency_sum_micros.load(Ordering::Relaxed) as f64 / 1e6
        );
        let _ = writeln!(out, "{name}_count {count}");
        out
    }
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;

    #[test]
    fn renders_counters_and_histogram() {
        let m = Metrics::default();
        m.request("healed");
        m.request("healed");
        m.attempt("invalid");
        m.attempt("valid");
        m.upstream_latency(Duration::from_millis(20));
        let text = m.render();
        assert!(
            text.contains("jsonheal_requests_total{outcome=\"healed\"} 2"),
            "{text}"
        );
        assert!(text.contains("jsonheal_attempts_total 2"), "{text}");
        assert!(text.contains("jsonheal_healing_attempts_total{result=\"invalid\"} 1"));
        assert!(text.contains("jsonheal_upstream_latency_seconds_bucket{le=\"0.01\"} 0"));
        assert!(text.contains("jsonheal_upstream_latency_seconds_bucket{le=\"0.025\"} 1"));
        assert!(text.contains("jsonheal_upstream_latency_seconds_count 1"));
    }
}
