//! Deterministic data for the repair bench and the peak-memory example: a realistic JSON
//! document in a valid and an LLM-style spelling of the same data, small tool-call payloads
//! with a mix of faults, and adversarial inputs. Everything comes from a seeded xorshift, so
//! every run (and every machine) measures the same bytes.

// The bench and the example each use a part of this module.
#![allow(dead_code)]

/// xorshift64*: tiny, fast, deterministic; good enough to vary test data.
#[derive(Debug, Clone)]
pub struct Rng(u64);

impl Rng {
    pub fn new(seed: u64) -> Rng {
        // Never zero: xorshift stays at zero forever.
        Rng(seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1)
    }

    pub fn next_u64(&mut self) -> u64 {
        let mut x = self.0;
        x ^= x >> 12;
        x ^= x << 25;
        x ^= x >> 27;
        self.0 = x;
        x.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }

    /// A number in `0..n` (`n > 0`).
    pub fn below(&mut self, n: usize) -> usize {
        (self.next_u64() % n.max(1) as u64) as usize
    }

    /// A number in `lo..=hi`.
    pub fn range(&mut self, lo: usize, hi: usize) -> usize {
        lo + self.below(hi - lo + 1)
    }

    /// True with probability `percent`/100.
    pub fn chance(&mut self, percent: usize) -> bool {
        self.below(100) < percent
    }

    pub fn pick<T: Copy>(&mut self, items: &[T]) -> T {
        items[self.below(items.len())]
    }
}

/// How a writer spells the data. Every field is a probability in percent, decided per
/// occurrence by the writer's own style generator, so the content (drawn from a separate
/// generator) is the same whatever the style.
#[derive(Debug, Clone, Copy, Default)]
pub struct Style {
    /// Strings in `'…'` instead of `"…"`.
    pub single_quotes: usize,
    /// Identifier-like keys written bare.
    pub unquoted_keys: usize,
    /// Identifier-like string values written bare (`{cmd: read}`).
    pub unquoted_values: usize,
    /// `True`/`False`/`None` instead of `true`/`false`/`null`.
    pub python_literals: usize,
    /// A `,` before a closing bracket.
    pub trailing_commas: usize,
    /// A `//`, `#` or `/* */` comment after a separator.
    pub comments: usize,
    /// A separator without its comma.
    pub missing_commas: usize,
}

impl Style {
    /// Valid JSON.
    pub const VALID: Style = Style {
        single_quotes: 0,
        unquoted_keys: 0,
        unquoted_values: 0,
        python_literals: 0,
        trailing_commas: 0,
        comments: 0,
        missing_commas: 0,
    };

    /// How a model writes JSON when it slips into JavaScript/Python habits.
    pub const LLM: Style = Style {
        single_quotes: 85,
        unquoted_keys: 90,
        unquoted_values: 0,
        python_literals: 100,
        trailing_commas: 50,
        comments: 4,
        missing_commas: 0,
    };
}

/// A piece of string content, spelled per quote style.
#[derive(Debug, Clone, Copy)]
enum Seg {
    /// Text without quotes, backslashes or control characters.
    Text(&'static str),
    /// An escape sequence valid in both quote styles (`\n`, `\u00e9`, …).
    Esc(&'static str),
    /// A `"` in the content.
    Quote,
    /// A `'` in the content.
    Apos,
}

const WORDS: &[&str] = &[
    "the",
    "quick",
    "brown",
    "fox",
    "jumps",
    "over",
    "lazy",
    "dog",
    "lorem",
    "ipsum",
    "dolor",
    "sit",
    "amet",
    "order",
    "shipped",
    "pending",
    "customer",
    "invoice",
    "total",
    "payment",
    "café",
    "naïve",
    "Zürich",
    "São Paulo",
    "日本語",
    "中文",
    "привет",
    "Ελληνικά",
    "emoji 🎉",
    "✓ done",
    "€100",
    "x²",
    "résumé",
    "Łódź",
    "cost:",
    "(see below)",
    "[draft]",
    "a/b",
    "50%",
];

const ESCAPES: &[&str] = &[
    "\\n",
    "\\t",
    "\\\\",
    "\\/",
    "\\u00e9",
    "\\u4e2d",
    "\\ud83d\\ude00",
    "\\r\\n",
    "\\u0041",
];

const CITIES: &[&str] = &[
    "Berlin",
    "Paris",
    "New York",
    "Tokyo",
    "Zürich",
    "São Paulo",
    "Kraków",
    "Lagos",
    "Sydney",
];

const EVENTS: &[&str] = &[
    "login", "logout", "purchase", "refund", "view", "search", "error",
];

const IDENTS: &[&str] = &[
    "read",
    "write",
    "list",
    "search",
    "main.go",
    "lib.rs",
    "README.md",
    "metric",
    "en-US",
    "v2",
];

fn words(rng: &mut Rng, min: usize, max: usize) -> Vec<Seg> {
    let n = rng.range(min, max);
    let mut segs = Vec::with_capacity(n * 2);
    for i in 0..n {
        if i > 0 {
            segs.push(Seg::Text(" "));
        }
        match rng.below(40) {
            0 => segs.push(Seg::Esc(rng.pick(ESCAPES))),
            1 => {
                segs.push(Seg::Quote);
                segs.push(Seg::Text(rng.pick(WORDS)));
                segs.push(Seg::Quote);
            }
            2 => {
                segs.push(Seg::Text("it"));
                segs.push(Seg::Apos);
                segs.push(Seg::Text("s"));
            }
            _ => segs.push(Seg::Text(rng.pick(WORDS))),
        }
    }
    segs
}

fn is_ident(s: &str) -> bool {
    let mut chars = s.chars();
    matches!(chars.next(), Some(c) if c.is_ascii_alphabetic() || c == '_')
        && chars.all(|c| c.is_ascii_alphanumeric() || c == '_')
}

/// A bare value the contract reads back as the same string: starts with a letter, no
/// separators or quotes, not a literal.
fn is_bare_string(s: &str) -> bool {
    let mut chars = s.chars();
    matches!(chars.next(), Some(c) if c.is_ascii_alphabetic())
        && chars.all(|c| c.is_ascii_alphanumeric() || matches!(c, '_' | '.' | '-'))
        && !matches!(
            s.to_ascii_lowercase().as_str(),
            "true" | "false" | "null" | "none" | "nan" | "infinity" | "undefined"
        )
}

#[derive(Debug, Clone, Copy, PartialEq)]
enum Ctx {
    Object,
    Array,
}

/// Writes JSON (or something like it) token by token in a `Style`.
pub struct Writer {
    pub out: String,
    style: Style,
    srng: Rng,
    /// Open containers, each with "no element written yet".
    stack: Vec<(Ctx, bool)>,
    /// Containers up to this depth put each element on its own line.
    pretty_depth: usize,
}

impl Writer {
    pub fn new(style: Style, style_seed: u64, capacity: usize, pretty_depth: usize) -> Writer {
        Writer {
            out: String::with_capacity(capacity),
            style,
            srng: Rng::new(style_seed),
            stack: Vec::new(),
            pretty_depth,
        }
    }

    fn newline(&mut self) {
        self.out.push('\n');
        for _ in 0..self.stack.len() {
            self.out.push_str("  ");
        }
    }

    /// Before a key (in an object) or an element (in an array): the separator.
    fn separate(&mut self) {
        let depth = self.stack.len();
        let pretty = depth <= self.pretty_depth;
        let Some(top) = self.stack.last_mut() else {
            return;
        };
        if top.1 {
            top.1 = false;
            if pretty {
                self.newline();
            }
            return;
        }
        if self.style.missing_commas > 0 && self.srng.chance(self.style.missing_commas) {
            // Without the comma the elements still need something between them.
            self.out.push(if pretty { ' ' } else { '\n' });
        } else {
            self.out.push(',');
        }
        if self.style.comments > 0 && self.srng.chance(self.style.comments) {
            match self.srng.below(3) {
                0 => self.out.push_str(" // checked by the model\n"),
                1 => self.out.push_str(" # TODO verify\n"),
                _ => self.out.push_str(" /* note */"),
            }
        }
        if pretty {
            self.newline();
        } else {
            self.out.push(' ');
        }
    }

    fn before_value(&mut self) {
        if matches!(self.stack.last(), Some((Ctx::Array, _))) {
            self.separate();
        }
    }

    pub fn begin_object(&mut self) {
        self.before_value();
        self.out.push('{');
        self.stack.push((Ctx::Object, true));
    }

    pub fn begin_array(&mut self) {
        self.before_value();
        self.out.push('[');
        self.stack.push((Ctx::Array, true));
    }

    fn end(&mut self, closer: char) {
        let empty = self.stack.last().is_none_or(|t| t.1);
        let pretty = self.stack.len() <= self.pretty_depth;
        if !empty && self.style.trailing_commas > 0 && self.srng.chance(self.style.trailing_commas)
        {
            self.out.push(',');
        }
        self.stack.pop();
        if pretty && !empty {
            self.newline();
        }
        self.out.push(closer);
    }

    pub fn end_object(&mut self) {
        self.end('}');
    }

    pub fn end_array(&mut self) {
        self.end(']');
    }

    pub fn key(&mut self, key: &str) {
        self.separate();
        if is_ident(key)
            && self.style.unquoted_keys > 0
            && self.srng.chance(self.style.unquoted_keys)
        {
            self.out.push_str(key);
        } else if self.style.single_quotes > 0 && self.srng.chance(self.style.single_quotes) {
            self.out.push('\'');
            self.out.push_str(key);
            self.out.push('\'');
        } else {
            self.out.push('"');
            self.out.push_str(key);
            self.out.push('"');
        }
        self.out.push_str(": ");
    }

    fn segs(&mut self, segs: &[Seg]) {
        self.before_value();
        let single = self.style.single_quotes > 0 && self.srng.chance(self.style.single_quotes);
        let q = if single { '\'' } else { '"' };
        self.out.push(q);
        for seg in segs {
            match (seg, single) {
                (Seg::Text(t), _) | (Seg::Esc(t), _) => self.out.push_str(t),
                (Seg::Quote, false) => self.out.push_str("\\\""),
                (Seg::Quote, true) => self.out.push('"'),
                (Seg::Apos, false) => self.out.push('\''),
                (Seg::Apos, true) => self.out.push_str("\\'"),
            }
        }
        self.out.push(q);
    }

    /// A string of plain text (no quotes, backslashes or control characters).
    pub fn plain(&mut self, text: &'static str) {
        if is_bare_string(text)
            && self.style.unquoted_values > 0
            && self.srng.chance(self.style.unquoted_values)
        {
            self.before_value();
            self.out.push_str(text);
        } else {
            self.segs(&[Seg::Text(text)]);
        }
    }

    pub fn number(&mut self, text: &str) {
        self.before_value();
        self.out.push_str(text);
    }

    pub fn int(&mut self, n: i64) {
        self.number(&n.to_string());
    }

    pub fn bool(&mut self, b: bool) {
        self.before_value();
        let py = self.style.python_literals > 0 && self.srng.chance(self.style.python_literals);
        self.out.push_str(match (b, py) {
            (true, false) => "true",
            (false, false) => "false",
            (true, true) => "True",
            (false, true) => "False",
        });
    }

    pub fn null(&mut self) {
        self.before_value();
        let py = self.style.python_literals > 0 && self.srng.chance(self.style.python_literals);
        self.out.push_str(if py { "None" } else { "null" });
    }
}

fn float(rng: &mut Rng) -> String {
    match rng.below(6) {
        0 => format!("{}.{:02}", rng.below(100_000), rng.below(100)),
        1 => format!("-{}.{:03}", rng.below(10_000), rng.below(1000)),
        2 => format!(
            "{}.{}e-{}",
            rng.range(1, 9),
            rng.below(1000),
            rng.range(1, 12)
        ),
        3 => format!(
            "{}.{}E+{}",
            rng.range(1, 9),
            rng.below(100),
            rng.range(1, 30)
        ),
        4 => format!("0.{:06}", rng.below(1_000_000)),
        _ => format!("{}e{}", rng.range(1, 9), rng.below(10)),
    }
}

/// One record of the big document: a customer with an address, a history, a matrix.
fn record(w: &mut Writer, rng: &mut Rng, id: usize) {
    w.begin_object();
    w.key("id");
    w.int(id as i64);
    w.key("name");
    let name = words(rng, 2, 3);
    w.segs(&name);
    w.key("email");
    w.plain("someone@example.com");
    w.key("active");
    w.bool(rng.chance(70));
    w.key("score");
    w.number(&float(rng));
    w.key("balance");
    w.number(&float(rng));
    w.key("display-name");
    let display = words(rng, 1, 2);
    w.segs(&display);
    w.key("tags");
    w.begin_array();
    for _ in 0..rng.below(5) {
        w.plain(rng.pick(EVENTS));
    }
    w.end_array();
    w.key("address");
    w.begin_object();
    w.key("street");
    let street = words(rng, 2, 4);
    w.segs(&street);
    w.key("city");
    w.plain(rng.pick(CITIES));
    w.key("zip");
    w.plain("10115");
    w.key("geo");
    w.begin_object();
    w.key("lat");
    w.number(&float(rng));
    w.key("lng");
    w.number(&float(rng));
    w.end_object();
    w.end_object();
    w.key("notes");
    let notes = words(rng, 5, 40);
    w.segs(&notes);
    w.key("parent");
    if rng.chance(60) {
        w.null();
    } else {
        w.int(rng.below(id.max(1)) as i64);
    }
    w.key("history");
    w.begin_array();
    for _ in 0..rng.below(6) {
        w.begin_object();
        w.key("ts");
        w.int(1_700_000_000 + rng.below(10_000_000) as i64);
        w.key("event");
        w.plain(rng.pick(EVENTS));
        w.key("ok");
        w.bool(rng.chance(90));
        w.key("amount");
        if rng.chance(30) {
            w.null();
        } else {
            w.number(&float(rng));
        }
        w.end_object();
    }
    w.end_array();
    w.key("matrix");
    w.begin_array();
    for _ in 0..rng.range(1, 3) {
        w.begin_array();
        for _ in 0..rng.range(1, 4) {
            w.int(rng.below(2000) as i64 - 1000);
        }
        w.end_array();
    }
    w.end_array();
    if rng.chance(10) {
        w.key("big");
        w.number("123456789012345678901234567890");
    }
    w.end_object();
}

const CONTENT_SEED: u64 = 0x5EED_0001;
const STYLE_SEED: u64 = 0x5EED_0002;

fn document_records(records: usize, style: Style, capacity: usize) -> String {
    let mut rng = Rng::new(CONTENT_SEED);
    let mut w = Writer::new(style, STYLE_SEED, capacity, 2);
    w.begin_object();
    w.key("generator");
    w.plain("jsonheal bench");
    w.key("records");
    w.begin_array();
    for id in 0..records {
        record(&mut w, &mut rng, id);
    }
    w.end_array();
    w.end_object();
    w.out.push('\n');
    w.out
}

/// How many records make a valid document of at least `bytes` bytes.
fn records_for(bytes: usize) -> usize {
    let mut rng = Rng::new(CONTENT_SEED);
    let mut w = Writer::new(Style::VALID, STYLE_SEED, 4096, 2);
    w.begin_object();
    w.begin_array();
    let mut n = 0;
    let mut len = 0;
    while len < bytes {
        w.out.clear();
        record(&mut w, &mut rng, n);
        len += w.out.len();
        n += 1;
    }
    n
}

/// A document whose valid spelling has about `bytes` bytes, in `style`.
pub fn document(bytes: usize, style: Style) -> String {
    let n = records_for(bytes);
    let mut doc = document_records(n, style, bytes + bytes / 4);
    doc.shrink_to_fit();
    doc
}

/// `doc` cut at `percent`% of its bytes (moved back to a char boundary).
pub fn truncated(doc: &str, percent: usize) -> &str {
    let mut at = doc.len() * percent / 100;
    while !doc.is_char_boundary(at) {
        at -= 1;
    }
    &doc[..at]
}

/// What was done to a broken tool-call payload.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Fault {
    None,
    /// Spelled in a broken style; repairs back to the valid value.
    Style,
    /// Wrapped in prose and a code fence; repairs back to the valid value.
    Fenced,
    /// Cut short; repairs to a prefix of the value.
    Truncated,
}

/// A tool-call payload: its valid text, and what the model sent.
pub struct Payload {
    pub valid: String,
    pub input: String,
    pub fault: Fault,
}

fn payload_body(w: &mut Writer, rng: &mut Rng) {
    w.begin_object();
    match rng.below(6) {
        0 => {
            w.key("cmd");
            w.plain(rng.pick(IDENTS));
            w.key("file");
            w.plain(rng.pick(IDENTS));
            w.key("line");
            w.int(rng.below(5000) as i64);
        }
        1 => {
            w.key("command");
            let cmd = words(rng, 1, 8);
            w.segs(&cmd);
            w.key("timeout");
            w.int(rng.range(1, 600) as i64);
            w.key("background");
            w.bool(rng.chance(20));
        }
        2 => {
            w.key("query");
            let q = words(rng, 1, 12);
            w.segs(&q);
            w.key("units");
            w.plain("metric");
            w.key("limit");
            w.int(rng.range(1, 50) as i64);
            w.key("filter");
            w.null();
        }
        3 => {
            w.key("path");
            w.plain("src/main.rs");
            w.key("content");
            let c = words(rng, 3, 25);
            w.segs(&c);
            w.key("overwrite");
            w.bool(rng.chance(50));
        }
        4 => {
            w.key("name");
            w.plain("get_weather");
            w.key("arguments");
            w.begin_object();
            w.key("location");
            w.plain(rng.pick(CITIES));
            w.key("days");
            w.int(rng.range(1, 14) as i64);
            w.key("threshold");
            w.number(&float(rng));
            w.end_object();
        }
        _ => {
            w.key("todos");
            w.begin_array();
            for i in 0..rng.range(1, 4) {
                w.begin_object();
                w.key("id");
                w.int(i as i64 + 1);
                w.key("text");
                let t = words(rng, 1, 5);
                w.segs(&t);
                w.key("done");
                w.bool(rng.chance(30));
                w.end_object();
            }
            w.end_array();
        }
    }
    w.end_object();
}

/// A broken spelling for a payload: one or two faults of the usual kinds.
fn broken_style(rng: &mut Rng) -> Style {
    let mut s = Style::VALID;
    for _ in 0..rng.range(1, 2) {
        match rng.below(6) {
            0 => s.single_quotes = 100,
            1 => s.unquoted_keys = 100,
            2 => {
                s.unquoted_keys = 100;
                s.unquoted_values = 100;
            }
            3 => {
                s.python_literals = 100;
                s.single_quotes = 100;
            }
            4 => s.trailing_commas = 100,
            _ => {
                s.missing_commas = 50;
                s.comments = 30;
            }
        }
    }
    s
}

/// `count` tool-call payloads of 40–300 bytes, `broken_percent`% of them broken (a mix of
/// styles, fences with prose, and truncation).
pub fn payloads(count: usize, broken_percent: usize) -> Vec<Payload> {
    let mut rng = Rng::new(0x5EED_0003);
    let mut out = Vec::with_capacity(count);
    while out.len() < count {
        let seed = rng.next_u64();
        let mut content = Rng::new(seed);
        let mut w = Writer::new(Style::VALID, seed, 128, 0);
        payload_body(&mut w, &mut content);
        let valid = w.out;
        if !(40..=300).contains(&valid.len()) {
            continue;
        }
        let (input, fault) = if rng.chance(broken_percent) {
            match rng.below(10) {
                0..=5 => {
                    let mut content = Rng::new(seed);
                    let mut w = Writer::new(broken_style(&mut rng), seed ^ 1, 128, 0);
                    payload_body(&mut w, &mut content);
                    (w.out, Fault::Style)
                }
                6 | 7 => (
                    format!("Sure, here is the call:\n```json\n{valid}\n```\nLet me know."),
                    Fault::Fenced,
                ),
                _ => {
                    let at = rng.range(valid.len() / 2, valid.len() - 1);
                    (
                        truncated(&valid, at * 100 / valid.len()).to_owned(),
                        Fault::Truncated,
                    )
                }
            }
        } else {
            (valid.clone(), Fault::None)
        };
        out.push(Payload {
            valid,
            input,
            fault,
        });
    }
    out
}

/// An adversarial input family: its name and how to build it at size `n`.
pub struct Adversarial {
    pub name: &'static str,
    /// The base size `n` (the bench also runs `2n` and `4n`).
    pub n: usize,
    pub make: fn(usize) -> String,
}

/// `{"a": "x` followed by `n` × `, y`: a string that never closes, full of would-be separators.
fn unclosed_string_commas(n: usize) -> String {
    let mut s = String::with_capacity(8 + 3 * n);
    s.push_str("{\"a\": \"x");
    for _ in 0..n {
        s.push_str(", y");
    }
    s
}

fn double_quotes(n: usize) -> String {
    "\"".repeat(n)
}

fn single_quotes(n: usize) -> String {
    "'".repeat(n)
}

fn open_runs(n: usize) -> String {
    "{[".repeat(n)
}

fn close_runs(n: usize) -> String {
    "]}".repeat(n)
}

fn open_brackets(n: usize) -> String {
    "[".repeat(n)
}

/// `{"a":"` + `n` bytes of text + `"}`: one huge, valid string.
fn long_string(n: usize) -> String {
    let mut s = String::with_capacity(n + 16);
    s.push_str("{\"a\":\"");
    let mut rng = Rng::new(7);
    while s.len() < n + 6 {
        s.push_str(rng.pick(&WORDS[..20]));
        s.push(' ');
    }
    s.push_str("\"}");
    s
}

/// The adversarial families, at the sizes the issue names (`4n` reaches them where they are
/// large).
pub fn adversarial() -> Vec<Adversarial> {
    vec![
        Adversarial {
            name: "unclosed_string_commas",
            n: 100_000,
            make: unclosed_string_commas,
        },
        Adversarial {
            name: "double_quotes",
            n: 100_000,
            make: double_quotes,
        },
        Adversarial {
            name: "single_quotes",
            n: 100_000,
            make: single_quotes,
        },
        Adversarial {
            name: "open_runs",
            n: 100_000,
            make: open_runs,
        },
        Adversarial {
            name: "close_runs",
            n: 100_000,
            make: close_runs,
        },
        Adversarial {
            name: "open_brackets",
            n: 1_000_000,
            make: open_brackets,
        },
        Adversarial {
            name: "long_string",
            n: 12_500_000,
            make: long_string,
        },
    ]
}
