//! (being written)
pub struct Schema;
pub struct HealOptions;
pub struct Healed;
pub struct HealError;
pub fn heal() {}
