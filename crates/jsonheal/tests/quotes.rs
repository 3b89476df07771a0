//! `jsonheal::quotes`: the folding table, code-file detection, and properties.
#![allow(clippy::unwrap_used)]

use jsonheal::quotes::{has_typographic_quotes, is_code_path, normalize, QuoteMode};
use proptest::prelude::*;

#[test]
fn folding_table() {
    let cases = [
        ("\u{2018}", "'"),
        ("\u{2019}", "'"),
        ("\u{2032}", "'"),
        ("\u{201C}", "\""),
        ("\u{201D}", "\""),
        ("\u{2033}", "\""),
        ("\u{AB}", "<<"),
        ("\u{BB}", ">>"),
        ("print(\u{201C}hi\u{201D})", "print(\"hi\")"),
        ("it\u{2019}s", "it's"),
        // Look-alikes that are not in the table stay.
        ("\u{201E}x\u{201A}", "\u{201E}x\u{201A}"),
        (
            "\u{2014}\u{2026}\u{A0}\u{C2}",
            "\u{2014}\u{2026}\u{A0}\u{C2}",
        ),
    ];
    for (input, want) in cases {
        assert_eq!(normalize(input), want, "{input:?}");
        assert_eq!(has_typographic_quotes(input), input != want, "{input:?}");
    }
}

#[test]
fn code_and_prose_files() {
    let code = [
        "main.go",
        "lib.rs",
        "app.py",
        "index.ts",
        "App.tsx",
        "x.json",
        "c.yaml",
        "d.yml",
        "Makefile",
        "Dockerfile",
        "src/build.gradle",
        "a/b/CMakeLists.txt",
        "run.sh",
        "q.sql",
        "Cargo.toml",
        "C:\\proj\\main.cpp",
        "./.github/workflows/ci.yml",
        "Jenkinsfile",
        "justfile",
        "x.PY",
    ];
    for p in code {
        assert!(is_code_path(p), "{p}");
    }
    let prose = [
        "README.md",
        "notes.txt",
        "essay.rst",
        "doc.adoc",
        "letter",
        "",
        "  ",
    ];
    for p in prose {
        assert!(!is_code_path(p), "{p}");
    }
}

#[test]
fn modes_parse() {
    for m in [QuoteMode::Code, QuoteMode::Always, QuoteMode::Never] {
        assert_eq!(m.name().parse::<QuoteMode>().unwrap(), m);
    }
    assert_eq!(QuoteMode::default(), QuoteMode::Code);
    let err = "sometimes".parse::<QuoteMode>().unwrap_err();
    assert!(err.contains("code, always or never"), "{err}");
}

proptest! {
    #[test]
    fn idempotent_and_quote_free(s in "\\PC*") {
        let once = normalize(&s).into_owned();
        let twice = normalize(&once).into_owned();
        prop_assert_eq!(&twice, &once);
        prop_assert!(!has_typographic_quotes(&once));
    }

    #[test]
    fn only_quotes_change(s in "[a-z\u{2018}\u{2019}\u{201C}\u{201D}\u{AB}\u{BB}é ]*") {
        let out = normalize(&s);
        let strip = |t: &str| t.chars().filter(|c| c.is_alphabetic() || *c == ' ').collect::<String>();
        prop_assert_eq!(strip(&out), strip(&s));
    }
}
