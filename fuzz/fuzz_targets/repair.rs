//! Any bytes, as lossy UTF-8, through `jsonheal::repair`: no panic; `Ok` is JSON serde_json
//! accepts, with spans inside the input on char boundaries; repairing the result changes
//! nothing; valid JSON comes back byte-identical with no repair.

#![no_main]

use libfuzzer_sys::fuzz_target;

fn is_json_ws(c: char) -> bool {
    matches!(c, ' ' | '\t' | '\n' | '\r')
}

fuzz_target!(|data: &[u8]| {
    let input = String::from_utf8_lossy(data);
    let result = jsonheal::repair(&input);

    if let Ok(r) = &result {
        // Syntax only: a `Value` would also refuse valid JSON that spells serde_json's
        // private number key (`{"$serde_json::private::Number": …}`).
        if let Err(e) = serde_json::from_str::<serde::de::IgnoredAny>(&r.text) {
            panic!("Ok but not JSON ({e}): {input:?} -> {:?}", r.text);
        }
        for rep in &r.repairs {
            assert!(
                rep.span().start <= rep.span().end && rep.span().end <= input.len(),
                "span {:?} ({}) outside the input of {} bytes",
                rep.span(),
                rep.kind(),
                input.len()
            );
            assert!(
                input.is_char_boundary(rep.span().start) && input.is_char_boundary(rep.span().end),
                "span {:?} ({}) not on char boundaries",
                rep.span(),
                rep.kind()
            );
        }
        match jsonheal::repair(&r.text) {
            Ok(again) => {
                assert_eq!(again.text, r.text, "not idempotent for {input:?}");
                assert!(
                    again.repairs.is_empty(),
                    "repaired text was repaired again: {:?}: {:?}",
                    r.text,
                    again.repairs
                );
            }
            Err(e) => panic!(
                "repaired text fails to repair ({e}): {input:?} -> {:?}",
                r.text
            ),
        }
    }

    // serde_json stops at depth 128; deeper valid documents are only held to the rules above.
    if serde_json::from_str::<serde::de::IgnoredAny>(&input).is_ok() {
        match &result {
            Ok(r) => {
                assert_eq!(r.text, input.trim_matches(is_json_ws), "valid JSON changed");
                assert!(
                    r.repairs.is_empty(),
                    "valid JSON reported repairs: {:?}",
                    r.repairs
                );
            }
            Err(e) => panic!("valid JSON refused ({e}): {input:?}"),
        }
    }
});
