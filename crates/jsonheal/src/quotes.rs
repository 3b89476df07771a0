//! Typographic quotes: fold them to ASCII, and tell code files from prose.
//!
//! Models trained on prose like to "curl" quotes: `print(“hi”)` is a syntax error in every
//! language. [`normalize`] folds them back:
//!
//! | from | to |
//! |---|---|
//! | `‘` U+2018, `’` U+2019, `′` U+2032 | `'` |
//! | `“` U+201C, `”` U+201D, `″` U+2033 | `"` |
//! | `«` U+00AB, `»` U+00BB | `<<`, `>>` |
//!
//! Prose (Markdown, plain text) keeps its typographic quotes: they are correct there. Whether a
//! path names a code file is [`is_code_path`]; [`QuoteMode`] says when tool arguments are folded.

use std::borrow::Cow;
use std::fmt;
use std::str::FromStr;

/// When the string values of tool-call arguments get their typographic quotes folded.
/// Quotes used as JSON delimiters are repaired in every mode.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Hash)]
pub enum QuoteMode {
    /// Only when the arguments target a code file (a path-like argument such as `file`,
    /// `path` or `file_path` names one, see [`is_code_path`]). The default.
    #[default]
    Code,
    /// In every string argument, whatever the target (as some agent CLIs do).
    Always,
    /// Never: string values are left exactly as sent.
    Never,
}

impl QuoteMode {
    /// The lowercase name used on the command line and in logs (`code`, `always`, `never`).
    pub fn name(self) -> &'static str {
        match self {
            QuoteMode::Code => "code",
            QuoteMode::Always => "always",
            QuoteMode::Never => "never",
        }
    }
}

impl fmt::Display for QuoteMode {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for QuoteMode {
    type Err = String;

    fn from_str(s: &str) -> Result<QuoteMode, String> {
        match s {
            "code" => Ok(QuoteMode::Code),
            "always" => Ok(QuoteMode::Always),
            "never" => Ok(QuoteMode::Never),
            other => Err(format!(
                "unknown quote mode {other:?} (expected code, always or never)"
            )),
        }
    }
}

/// Whether `text` holds any character [`normalize`] would change. Cheap: a byte scan for the
/// lead bytes `0xC2`/`0xE2`, then a check of the two bytes after.
pub fn has_typographic_quotes(text: &str) -> bool {
    let bytes = text.as_bytes();
    memchr::memchr2_iter(0xC2, 0xE2, bytes).any(|i| replacement_at(bytes, i).is_some())
}

/// Whether a typographic quote [`normalize`] folds starts at byte `i` of `bytes`.
pub(crate) fn is_quote_at(bytes: &[u8], i: usize) -> bool {
    replacement_at(bytes, i).is_some()
}

/// The ASCII replacement for the typographic quote starting at byte `i`, with its length.
fn replacement_at(bytes: &[u8], i: usize) -> Option<(&'static str, usize)> {
    match bytes.get(i..) {
        Some([0xC2, 0xAB, ..]) => Some(("<<", 2)),
        Some([0xC2, 0xBB, ..]) => Some((">>", 2)),
        Some([0xE2, 0x80, 0x98 | 0x99 | 0xB2, ..]) => Some(("'", 3)),
        Some([0xE2, 0x80, 0x9C | 0x9D | 0xB3, ..]) => Some(("\"", 3)),
        _ => None,
    }
}

/// Fold typographic quotes to ASCII (table in the module docs). Borrows when there is
/// nothing to change. Usable on a whole file's text.
pub fn normalize(text: &str) -> Cow<'_, str> {
    let bytes = text.as_bytes();
    let mut out: Option<String> = None;
    let mut copied = 0;
    for i in memchr::memchr2_iter(0xC2, 0xE2, bytes) {
        if i < copied {
            continue;
        }
        if let Some((ascii, len)) = replacement_at(bytes, i) {
            let buf = out.get_or_insert_with(|| String::with_capacity(text.len()));
            // `i` and `copied` sit on char boundaries: both are starts of the multi-byte
            // sequences matched above (or 0).
            buf.push_str(text.get(copied..i).unwrap_or_default());
            buf.push_str(ascii);
            copied = i + len;
        }
    }
    match out {
        None => Cow::Borrowed(text),
        Some(mut buf) => {
            buf.push_str(text.get(copied..).unwrap_or_default());
            Cow::Owned(buf)
        }
    }
}

/// File extensions (lowercase, without the dot) of source code, configuration and data files
/// where a typographic quote is a bug. Prose (`md`, `txt`, `rst`, `adoc`) is deliberately
/// absent.
pub const CODE_EXTENSIONS: &[&str] = &[
    // systems and compiled
    "c",
    "h",
    "cc",
    "cpp",
    "cxx",
    "hpp",
    "hh",
    "hxx",
    "ino",
    "rs",
    "go",
    "zig",
    "nim",
    "d",
    "swift",
    "m",
    "mm",
    "java",
    "kt",
    "kts",
    "scala",
    "sc",
    "groovy",
    "gradle",
    "cs",
    "fs",
    "fsx",
    "vb",
    "dart",
    "v",
    "sv",
    "vhd",
    "asm",
    "s",
    // scripting
    "py",
    "pyi",
    "pyx",
    "ipynb",
    "rb",
    "php",
    "pl",
    "pm",
    "lua",
    "r",
    "jl",
    "ex",
    "exs",
    "erl",
    "hrl",
    "hs",
    "elm",
    "clj",
    "cljs",
    "cljc",
    "edn",
    "ml",
    "mli",
    "lisp",
    "el",
    "scm",
    "rkt",
    "tcl",
    "awk",
    "sed",
    // web
    "js",
    "jsx",
    "mjs",
    "cjs",
    "ts",
    "tsx",
    "mts",
    "cts",
    "vue",
    "svelte",
    "astro",
    "html",
    "htm",
    "css",
    "scss",
    "sass",
    "less",
    "graphql",
    "gql",
    // shells
    "sh",
    "bash",
    "zsh",
    "fish",
    "ksh",
    "ps1",
    "psm1",
    "bat",
    "cmd",
    // data and configuration
    "json",
    "jsonc",
    "json5",
    "jsonl",
    "ndjson",
    "yaml",
    "yml",
    "toml",
    "ini",
    "cfg",
    "conf",
    "properties",
    "env",
    "xml",
    "xsd",
    "xsl",
    "plist",
    "csv",
    "tsv",
    "sql",
    "proto",
    "thrift",
    "avsc",
    "prisma",
    // build and infrastructure
    "tf",
    "tfvars",
    "hcl",
    "nix",
    "cmake",
    "mk",
    "make",
    "bzl",
    "bazel",
    "dockerfile",
    "containerfile",
    "lock",
    "sol",
    "cue",
    "rego",
    "j2",
    "jinja",
    "tmpl",
    "tpl",
    "mustache",
    "hbs",
    "ejs",
    "erb",
    "liquid",
];

/// File names without a telling extension that are code (matched case-insensitively).
pub const CODE_FILE_NAMES: &[&str] = &[
    "makefile",
    "gnumakefile",
    "dockerfile",
    "containerfile",
    "jenkinsfile",
    "vagrantfile",
    "rakefile",
    "gemfile",
    "podfile",
    "fastfile",
    "brewfile",
    "procfile",
    "justfile",
    "tiltfile",
    "cmakelists.txt",
    "build",
    "workspace",
    "meson.build",
    ".gitignore",
    ".gitattributes",
    ".dockerignore",
    ".editorconfig",
    ".bashrc",
    ".zshrc",
    ".profile",
    ".npmrc",
    ".babelrc",
    ".eslintrc",
    ".prettierrc",
    ".env",
];

/// Whether `path` names a code file: its extension is in [`CODE_EXTENSIONS`] or its file name
/// in [`CODE_FILE_NAMES`] (also `Dockerfile.dev`-style variants). Both `/` and `\` separate
/// directories; case does not matter.
pub fn is_code_path(path: &str) -> bool {
    let path = path.trim();
    let name = path.rsplit(['/', '\\']).next().unwrap_or(path);
    if name.is_empty() || name.len() > 255 {
        return false;
    }
    let mut lower_buf = [0u8; 255];
    let lower = &mut lower_buf[..name.len()];
    lower.copy_from_slice(name.as_bytes());
    lower.make_ascii_lowercase();
    let lower = match std::str::from_utf8(lower) {
        Ok(s) => s,
        Err(_) => return false,
    };
    if CODE_FILE_NAMES.contains(&lower) {
        return true;
    }
    // `Dockerfile.prod`, `Makefile.am`, `.env.local`
    for stem in ["dockerfile.", "containerfile.", "makefile.", ".env."] {
        if lower.starts_with(stem) && lower.len() > stem.len() {
            return true;
        }
    }
    match lower.rsplit_once('.') {
        Some((stem, ext)) if !stem.is_empty() || lower.starts_with('.') => {
            CODE_EXTENSIONS.contains(&ext)
        }
        _ => false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn folds_every_quote_of_the_table() {
        let cases = [
            ("\u{2018}a\u{2019}", "'a'"),
            ("\u{201C}a\u{201D}", "\"a\""),
            ("5\u{2032} 3\u{2033}", "5' 3\""),
            ("\u{AB}x\u{BB}", "<<x>>"),
            ("plain", "plain"),
            ("caf\u{E9} \u{2014} \u{20AC}", "caf\u{E9} \u{2014} \u{20AC}"),
            ("", ""),
        ];
        for (input, want) in cases {
            assert_eq!(normalize(input), want, "{input:?}");
        }
        assert!(matches!(normalize("no quotes"), Cow::Borrowed(_)));
    }

    #[test]
    fn code_paths() {
        for p in [
            "main.go",
            "src/lib.rs",
            "a\\b\\c.py",
            "Makefile",
            "docker/Dockerfile",
            "Dockerfile.dev",
            "CMakeLists.txt",
            "x.YAML",
            ".env",
            ".env.local",
        ] {
            assert!(is_code_path(p), "{p}");
        }
        for p in [
            "README.md",
            "notes.txt",
            "",
            "main",
            "dir/",
            "go",
            "x.docx",
            "rs",
        ] {
            assert!(!is_code_path(p), "{p}");
        }
        assert!(CODE_EXTENSIONS.len() >= 60);
    }
}
