//! One module a subcommand: its flags (`…Args`) and its `run`.

pub mod accounts;
pub mod args;
pub mod extract;
pub mod instructions;
pub mod quotes;
pub mod repair;
pub mod repair_stream;
pub mod serve;
pub mod tool_input;
pub mod validate;
