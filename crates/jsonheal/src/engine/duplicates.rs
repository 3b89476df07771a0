//! Duplicate keys, when `DuplicateKeys` asks for more than keeping them: a second pass over
//! the repaired text that rebuilds it with one occurrence per key.

use std::fmt;

use serde::de::{DeserializeSeed, Deserializer, MapAccess, SeqAccess, Visitor};
use serde_json::{Map, Number, Value};

use super::{DuplicateKeys, Options, Repair, RepairKind, Repaired};
use crate::error::{Error, ErrorKind};

/// serde_json's private key for a number under `arbitrary_precision`.
const NUMBER_TOKEN: &str = "$serde_json::private::Number";

pub(super) fn apply(repaired: Repaired, input: &str, options: &Options) -> Result<Repaired, Error> {
    let policy = options.duplicate_keys;
    if policy == DuplicateKeys::Keep {
        return Ok(repaired);
    }
    let mut dups = Vec::new();
    let mut de = serde_json::Deserializer::from_str(&repaired.text);
    let value = Dedup {
        policy,
        dups: &mut dups,
    }
    .deserialize(&mut de)
    .map_err(|e| {
        Error::new(ErrorKind::Internal(format!(
            "re-reading repaired text: {e}"
        )))
    })?;
    if dups.is_empty() {
        return Ok(repaired);
    }
    if policy == DuplicateKeys::Error {
        return Err(Error::new(ErrorKind::DuplicateKey(dups.swap_remove(0))));
    }
    let text = serde_json::to_string(&value).map_err(|e| {
        Error::new(ErrorKind::Internal(format!(
            "writing deduplicated text: {e}"
        )))
    })?;
    let mut repairs = repaired.repairs;
    // The second pass has no input positions; the span is the whole input.
    repairs.extend(
        dups.iter()
            .map(|_| Repair::new(RepairKind::DuplicateKey, 0..input.len())),
    );
    Ok(Repaired { text, repairs })
}

struct Dedup<'a> {
    policy: DuplicateKeys,
    dups: &'a mut Vec<String>,
}

impl<'de> DeserializeSeed<'de> for Dedup<'_> {
    type Value = Value;

    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<Value, D::Error> {
        d.deserialize_any(self)
    }
}

impl<'de> Visitor<'de> for Dedup<'_> {
    type Value = Value;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a JSON value")
    }

    fn visit_bool<E>(self, v: bool) -> Result<Value, E> {
        Ok(Value::Bool(v))
    }

    fn visit_i64<E>(self, v: i64) -> Result<Value, E> {
        Ok(Value::from(v))
    }

    fn visit_u64<E>(self, v: u64) -> Result<Value, E> {
        Ok(Value::from(v))
    }

    fn visit_f64<E>(self, v: f64) -> Result<Value, E> {
        Ok(Number::from_f64(v).map_or(Value::Null, Value::Number))
    }

    fn visit_str<E>(self, v: &str) -> Result<Value, E> {
        Ok(Value::String(v.to_owned()))
    }

    fn visit_string<E>(self, v: String) -> Result<Value, E> {
        Ok(Value::String(v))
    }

    fn visit_unit<E>(self) -> Result<Value, E> {
        Ok(Value::Null)
    }

    fn visit_none<E>(self) -> Result<Value, E> {
        Ok(Value::Null)
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Value, A::Error> {
        let mut items = Vec::new();
        while let Some(v) = seq.next_element_seed(Dedup {
            policy: self.policy,
            dups: &mut *self.dups,
        })? {
            items.push(v);
        }
        Ok(Value::Array(items))
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Value, A::Error> {
        let mut out = Map::new();
        while let Some(key) = map.next_key::<String>()? {
            if key == NUMBER_TOKEN {
                let text: String = map.next_value()?;
                let n: Number = text.parse().map_err(serde::de::Error::custom)?;
                return Ok(Value::Number(n));
            }
            let value = map.next_value_seed(Dedup {
                policy: self.policy,
                dups: &mut *self.dups,
            })?;
            if out.contains_key(&key) {
                self.dups.push(key.clone());
                if self.policy == DuplicateKeys::First {
                    continue;
                }
                // Last: the later value wins, at the later position.
                out.shift_remove(&key);
            }
            out.insert(key, value);
        }
        Ok(Value::Object(out))
    }
}
