#[path = "../benches/data/mod.rs"]
mod data;
fn main() {
    let path = "/tmp/prof/llm.json";
    let d = match std::fs::read_to_string(path) {
        Ok(d) => d,
        Err(_) => {
            let d = data::document(2_000_000, data::Style::LLM);
            std::fs::write(path, &d).unwrap();
            d
        }
    };
    let r = jsonheal::repair(&d).map(|r| r.text.len());
    println!("{r:?}");
}
