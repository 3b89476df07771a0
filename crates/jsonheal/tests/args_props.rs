//! Properties of `args::normalize` over arbitrary input: never a panic; Ok is always an
//! object; normalising the output again gives the same object (`valid` or `empty`).
#![allow(clippy::unwrap_used)]

use jsonheal::args::{normalize, ArgsOptions, Strategy as Decision};
use jsonheal::ErrorKind;
use proptest::prelude::*;

const TOOLS: &[&str] = &[
    "read_file",
    "run_command",
    "bash",
    "fs",
    "web_search",
    "Write",
];

fn payload() -> impl Strategy<Value = String> {
    prop_oneof![
        ".*",
        // Pieces of the syntax the decisions look at, shuffled.
        prop::collection::vec(
            prop_oneof![
                Just("{"),
                Just("}"),
                Just("["),
                Just("]"),
                Just("'"),
                Just("\""),
                Just(":"),
                Just(","),
                Just("--"),
                Just("-n"),
                Just(" "),
                Just("file"),
                Just("cmd"),
                Just("main.go"),
                Just("\\"),
                Just("\u{201C}"),
                Just("\u{201D}"),
                Just("true"),
                Just("null"),
                Just("3"),
                Just("\n"),
                Just("```"),
                Just("="),
            ],
            0..24,
        )
        .prop_map(|parts| parts.concat()),
    ]
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(2000))]

    #[test]
    fn total_and_stable(raw in payload(), tool in prop::sample::select(TOOLS)) {
        let opts = ArgsOptions::default();
        let n = match normalize(tool, &raw, &opts) {
            Ok(n) => n,
            // Arguments that hold no JSON, or a value no object can be made of, are refused
            // with a reason; nothing else is honest for a payload this small.
            Err(e) => {
                prop_assert!(
                    matches!(e.kind(), ErrorKind::NoJson)
                        || matches!(e.kind(), ErrorKind::NotAnObject(why) if !why.is_empty()),
                    "{:?} for {:?}: {}", e.kind(), raw, e
                );
                return Ok(());
            }
        };
        let text = n.to_json_string();
        let again = normalize(tool, &text, &opts).unwrap();
        prop_assert_eq!(&again.value, &n.value, "{} -> {}", raw, text);
        prop_assert!(matches!(again.strategy, Decision::Valid | Decision::Empty));
        for r in &n.repairs {
            prop_assert!(r.span().start <= r.span().end && r.span().end <= raw.len(), "{:?}", r);
        }
    }
}
