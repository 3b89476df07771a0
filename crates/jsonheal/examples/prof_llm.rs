#[path = "../benches/data/mod.rs"]
mod data;
fn main() {
    let mb: usize = std::env::args()
        .nth(1)
        .and_then(|s| s.parse().ok())
        .unwrap_or(2);
    let iters: usize = std::env::args()
        .nth(2)
        .and_then(|s| s.parse().ok())
        .unwrap_or(1);
    let path = format!("/tmp/prof/llm{mb}.json");
    let d = match std::fs::read_to_string(&path) {
        Ok(d) => d,
        Err(_) => {
            let d = data::document(mb * 1_000_000, data::Style::LLM);
            std::fs::write(&path, &d).unwrap();
            d
        }
    };
    let t = std::time::Instant::now();
    let mut n = 0;
    for _ in 0..iters {
        n += jsonheal::repair(&d)
            .map(|r| r.text.len() + r.repairs.len())
            .unwrap_or(0);
    }
    eprintln!("{:?} per repair, {n}", t.elapsed() / iters as u32);
}
