#[path = "../benches/data/mod.rs"]
mod data;
fn main() {
    let d = data::document(2_000_000, data::Style::LLM);
    let r = jsonheal::repair(&d).map(|r| r.text.len());
    println!("{r:?}");
}
