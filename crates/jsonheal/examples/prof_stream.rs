use jsonheal::stream::Repairer;
/// A deterministic document of about `size` bytes.
fn document(size: usize) -> String {
    let mut seed: u64 = 0x9E37_79B9_7F4A_7C15;
    let mut next = move || {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        seed
    };
    let mut out = String::with_capacity(size + 1024);
    out.push_str("{\"model\": \"bench\", \"records\": [\n");
    let mut i = 0u64;
    while out.len() < size {
        if i > 0 {
            out.push_str(",\n");
        }
        let n = next();
        out.push_str(&format!(
            concat!(
                "  {{\"id\": {id}, \"name\": \"record {id} – café 😀\", \"score\": {score}.{frac}e-3, ",
                "\"ok\": {ok}, \"parent\": null, \"tags\": [\"alpha\", \"beta\", {tag}],\n",
                "   \"call\": {{\"tool\": \"write_file\", \"arguments\": {{\"path\": \"src/mod_{id}.rs\", ",
                "\"content\": \"fn f_{id}() -> Vec<u32> {{\\n    let v = vec![1, 2, 3];\\n    ",
                "println!(\\\"{{:?}} {{}}\\\", v, \\\"}}]\\\");\\n    v\\n}}\\n\\t// \\u00e9\\ud83d\\ude00\\n\"}}}},\n",
                "   \"matrix\": [[{a}, {b}], [-{b}, {a}]]}}"
            ),
            id = i,
            score = n % 1000,
            frac = (n >> 10) % 100,
            ok = n % 2 == 0,
            tag = (n >> 20) % 7,
            a = (n >> 30) % 1000,
            b = (n >> 40) % 1000,
        ));
        i += 1;
    }
    out.push_str("\n]}\n");
    out
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let chunk: usize = args.get(1).and_then(|s| s.parse().ok()).unwrap_or(1024);
    let iters: usize = args.get(2).and_then(|s| s.parse().ok()).unwrap_or(50);
    let doc = document(1 << 20);
    let t = std::time::Instant::now();
    let mut total = 0;
    let sit = if std::env::var("NOSTREAM").is_ok() {
        0
    } else {
        iters
    };
    for _ in 0..sit {
        let mut r = if std::env::var("NOEV").is_ok() {
            Repairer::new().without_events()
        } else {
            Repairer::new()
        };
        for piece in doc.as_bytes().chunks(chunk) {
            r.push_bytes(piece);
            total += r.events().len();
        }
    }
    let el = t.elapsed() / iters as u32;
    let t2 = std::time::Instant::now();
    let one = if args.get(3).is_some() { 0 } else { iters };
    for _ in 0..one {
        std::hint::black_box(jsonheal::repair(&doc).ok());
    }
    let el2 = t2.elapsed() / iters as u32;
    println!(
        "stream {:?} oneshot {:?} ratio {:.2} events {}",
        el,
        el2,
        el.as_secs_f64() / el2.as_secs_f64(),
        total / iters
    );
}
