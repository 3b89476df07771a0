//! The documents of the stream bench, shared with `jsonheal-tools`'s `stream_ratio` and `stream_floor`.

/// The same records written LLM-style: every repair the stream applies as it goes.
pub fn llm_document(size: usize) -> String {
    document(size)
        .replace("{\"id\": ", "{id: ")
        .replace("\"name\": \"", "name: '")
        .replace(" – café 😀\", ", " – café 😀', /* who */ ")
        .replace("\"ok\": true", "ok: True")
        .replace("\"ok\": false", "ok: False")
        .replace("\"parent\": null", "parent: None")
        .replace(
            "\"tags\": [\"alpha\", \"beta\", ",
            "tags: ['alpha', 'beta', ",
        )
        .replace("]}", ",]} // end\n")
}

/// One tool call writing a big file: a few keys and one long string of escaped code, the
/// shape of a streamed `write_file` call.
pub fn code_document(size: usize) -> String {
    let mut code = String::with_capacity(size + 128);
    let mut i = 0;
    while code.len() < size {
        code.push_str(&format!(
            "fn f_{i}(x: &str) -> String {{\\n    let s = format!(\\\"{{}} {i}\\\", x);\\n    s.trim().to_owned() // café\\n}}\\n\\n"
        ));
        i += 1;
    }
    format!(
        "{{\"tool\": \"write_file\", \"arguments\": {{\"path\": \"src/big.rs\", \"content\": \"{code}\"}}}}"
    )
}

/// A deterministic document of about `size` bytes.
pub fn document(size: usize) -> String {
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
