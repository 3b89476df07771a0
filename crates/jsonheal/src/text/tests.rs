//! Tests of the byte facts that have a naive or grammatical twin to check them against.

use super::number::{is_json_number, json_number_end};
use super::quote::{has_string_special, plain_run_end, STRING_SPECIAL};

/// The byte-at-a-time answer `plain_run_end` must match.
fn plain_run_end_naive(b: &[u8], start: usize, end: usize) -> usize {
    (start..end)
        .find(|&i| STRING_SPECIAL[b[i] as usize])
        .unwrap_or(end)
}

#[test]
fn word_check_finds_every_special_byte_at_every_position() {
    for byte in 0..=255u8 {
        for at in 0..8 {
            let mut w = *b"abcdefgh";
            w[at] = byte;
            assert_eq!(
                has_string_special(u64::from_le_bytes(w)),
                STRING_SPECIAL[byte as usize],
                "byte {byte:#04x} at {at}"
            );
        }
    }
}

#[test]
fn json_number_end_agrees_with_the_grammar() {
    // Every string over a small alphabet up to length 5: a whole number by one is a
    // whole number by the other.
    let alphabet = b"-+.eE0120";
    let mut words: Vec<Vec<u8>> = vec![Vec::new()];
    for _ in 0..5 {
        let longer: Vec<Vec<u8>> = words
            .iter()
            .filter(|w| w.len() == words.last().map_or(0, Vec::len))
            .flat_map(|w| {
                alphabet.iter().map(move |&c| {
                    let mut w = w.clone();
                    w.push(c);
                    w
                })
            })
            .collect();
        words.extend(longer);
    }
    for w in &words {
        assert_eq!(
            json_number_end(w, 0, w.len()) == Some(w.len()),
            is_json_number(w),
            "{:?}",
            String::from_utf8_lossy(w)
        );
    }
}

#[test]
fn plain_run_end_matches_the_byte_loop() {
    // Random bytes weighted towards the ones near the special values, every offset.
    let mut state = 0x2545_f491_4f6c_dd1du64;
    let alphabet = b"a \x1f\x20\"'`\\\xe2\xe1\xe3\x80\x7f!#_z\x00\x21\x5b\x5d";
    for len in 0..40 {
        for _ in 0..50 {
            let b: Vec<u8> = (0..len)
                .map(|_| {
                    state ^= state << 13;
                    state ^= state >> 7;
                    state ^= state << 17;
                    alphabet[(state % alphabet.len() as u64) as usize]
                })
                .collect();
            for start in 0..=len {
                for end in start..=len {
                    assert_eq!(
                        plain_run_end(&b, start, end),
                        plain_run_end_naive(&b, start, end),
                        "{b:?} {start}..{end}"
                    );
                }
            }
        }
    }
}
