//! jsonheal for Python: the native module `jsonheal._jsonheal` behind the `jsonheal`
//! package. Everything here is glue over the library's public API: reading Python input,
//! building Python values, mapping errors.

mod convert;
mod dropin;
mod errors;
mod heal;
mod native;
mod stream;
mod text;

use pyo3::prelude::*;

#[pymodule]
fn _jsonheal(m: &Bound<'_, PyModule>) -> PyResult<()> {
    let py = m.py();
    m.add("JSONHealError", py.get_type::<errors::JSONHealError>())?;
    m.add("HealError", py.get_type::<errors::HealError>())?;
    m.add_class::<native::PyRepair>()?;
    m.add_class::<native::Repaired>()?;
    m.add_class::<native::Extracted>()?;
    m.add_class::<heal::PySchema>()?;
    m.add_class::<heal::Healed>()?;
    m.add_class::<heal::Normalized>()?;
    m.add_class::<stream::StreamRepairer>()?;
    m.add_function(wrap_pyfunction!(native::repair, m)?)?;
    m.add_function(wrap_pyfunction!(native::extract, m)?)?;
    m.add_function(wrap_pyfunction!(heal::heal, m)?)?;
    m.add_function(wrap_pyfunction!(heal::normalize, m)?)?;
    m.add_function(wrap_pyfunction!(dropin::repair_json, m)?)?;
    m.add_function(wrap_pyfunction!(dropin::loads, m)?)?;
    m.add_function(wrap_pyfunction!(native::_pretty, m)?)?;
    m.add_function(wrap_pyfunction!(native::_compact, m)?)?;
    m.add("__version__", env!("CARGO_PKG_VERSION"))?;
    Ok(())
}
