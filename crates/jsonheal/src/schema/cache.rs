//! Compiled schemas by their JSON text, shared across threads: a server or a batch sees the
//! same schema again and again, and compiling one costs far more than healing a reply.

use std::collections::HashMap;
use std::sync::{Mutex, PoisonError};

use serde_json::Value;

use super::Schema;
use crate::error::Error;

/// A bounded map from a schema's JSON text to its compiled [`Schema`]. A cached schema keeps
/// everything compiled for it since (the subschema validators coercion needed, the last
/// instructions), so later requests with the same schema pay for none of it.
///
/// ```
/// use serde_json::json;
/// let cache = jsonheal::schema::SchemaCache::new(64);
/// let a = cache.get(&json!({"type": "integer"}))?;
/// let b = cache.get(&json!({"type": "integer"}))?;
/// assert!(a.same_as(&b));
/// # Ok::<(), jsonheal::Error>(())
/// ```
#[derive(Debug)]
pub struct SchemaCache {
    map: Mutex<HashMap<String, Schema>>,
    capacity: usize,
}

impl SchemaCache {
    /// Entries kept by [`SchemaCache::default`].
    pub const DEFAULT_CAPACITY: usize = 256;

    /// A cache of at most `capacity` schemas (at least one); when full it starts over, which
    /// keeps it simple and bounded.
    pub fn new(capacity: usize) -> SchemaCache {
        SchemaCache {
            map: Mutex::new(HashMap::new()),
            capacity: capacity.max(1),
        }
    }

    /// The compiled `schema`, compiled on first sight. A schema that does not compile is
    /// not kept: the error comes back each time.
    pub fn get(&self, schema: &Value) -> Result<Schema, Error> {
        let key = schema.to_string();
        if let Some(hit) = self.lock().get(&key) {
            return Ok(hit.clone());
        }
        // Compiled outside the lock: other schemas need not wait for this one.
        let compiled = Schema::new(schema)?;
        let mut map = self.lock();
        if map.len() >= self.capacity {
            map.clear();
        }
        Ok(map.entry(key).or_insert(compiled).clone())
    }

    /// How many schemas are kept now.
    pub fn len(&self) -> usize {
        self.lock().len()
    }

    /// Whether no schema is kept.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, HashMap<String, Schema>> {
        self.map.lock().unwrap_or_else(PoisonError::into_inner)
    }
}

impl Default for SchemaCache {
    fn default() -> SchemaCache {
        SchemaCache::new(SchemaCache::DEFAULT_CAPACITY)
    }
}
