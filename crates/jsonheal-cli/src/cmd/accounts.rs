//! `jsonheal accounts`: create, list, change, re-key and delete gateway accounts.

use std::io::Write;
use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::Context;
use clap::Subcommand;
use jsonheal_gateway::config::Settings;
use jsonheal_gateway::store::{Account, AccountPatch, SqliteStore, Store, DEFAULT_MAX_ATTEMPTS};

#[derive(clap::Args)]
pub struct AccountsArgs {
    /// SQLite database file (default: the config's `database`, `JSONHEAL_DATABASE`, or
    /// jsonheal.db).
    #[arg(long, global = true)]
    db: Option<String>,
    /// TOML configuration file to read the database from (also `JSONHEAL_CONFIG`).
    #[arg(long, global = true)]
    config: Option<PathBuf>,
    #[command(subcommand)]
    command: AccountsCommand,
}

#[derive(Subcommand)]
enum AccountsCommand {
    /// Create an account and print its API key (shown once; only its hash is stored).
    Create {
        name: String,
        /// Heal every request that asks for `response_format` `json_schema`.
        #[arg(long)]
        auto_heal: bool,
        /// Attempts per healed request when the request does not say (1 to 10).
        #[arg(long, default_value_t = DEFAULT_MAX_ATTEMPTS)]
        max_attempts: u32,
    },
    /// List accounts.
    List {
        /// One JSON object per line.
        #[arg(long)]
        json: bool,
    },
    /// Change an account's settings.
    Set {
        name: String,
        /// Automatic healing on or off.
        #[arg(long)]
        auto_heal: Option<bool>,
        /// Default attempts (1 to 10).
        #[arg(long)]
        max_attempts: Option<u32>,
    },
    /// Replace an account's API key; the old key stops working at once.
    RotateKey { name: String },
    /// Delete an account with its keys and tool-call records.
    Delete { name: String },
}

fn database(args: &AccountsArgs) -> anyhow::Result<String> {
    if let Some(db) = &args.db {
        return Ok(db.clone());
    }
    let env = |k: &str| std::env::var(k).ok();
    let config_path = args
        .config
        .clone()
        .or_else(|| std::env::var_os("JSONHEAL_CONFIG").map(PathBuf::from));
    let file = match &config_path {
        Some(path) => Settings::from_file(path)?,
        None => Settings::default(),
    };
    let settings = file.overridden_by(Settings::from_env(&env)?);
    Ok(settings
        .database
        .unwrap_or_else(|| "jsonheal.db".to_owned()))
}

fn describe(a: &Account) -> String {
    format!(
        "{}\tauto-heal: {}\tmax_attempts: {}\tkey: {}…",
        a.name,
        if a.auto_heal { "on" } else { "off" },
        a.max_attempts,
        a.key_prefix.as_deref().unwrap_or("(none)")
    )
}

pub fn run(args: AccountsArgs) -> anyhow::Result<ExitCode> {
    let db = database(&args)?;
    let store = SqliteStore::open(&db).with_context(|| format!("cannot open the database {db}"))?;
    let mut out = std::io::stdout().lock();
    match args.command {
        AccountsCommand::Create {
            name,
            auto_heal,
            max_attempts,
        } => {
            let (account, key) = store.create_account(&name, auto_heal, max_attempts)?;
            eprintln!(
                "created account {:?} (auto-heal {}, max_attempts {}); its API key follows — \
                 it is shown only once:",
                account.name,
                if account.auto_heal { "on" } else { "off" },
                account.max_attempts
            );
            writeln!(out, "{}", key.0)?;
        }
        AccountsCommand::List { json } => {
            for a in store.list_accounts()? {
                if json {
                    writeln!(out, "{}", serde_json::to_string(&a)?)?;
                } else {
                    writeln!(out, "{}", describe(&a))?;
                }
            }
        }
        AccountsCommand::Set {
            name,
            auto_heal,
            max_attempts,
        } => {
            if auto_heal.is_none() && max_attempts.is_none() {
                anyhow::bail!("nothing to change: give --auto-heal or --max-attempts");
            }
            let a = store.update_account(
                &name,
                &AccountPatch {
                    auto_heal,
                    max_attempts,
                },
            )?;
            writeln!(out, "{}", describe(&a))?;
        }
        AccountsCommand::RotateKey { name } => {
            let key = store.rotate_key(&name)?;
            eprintln!("new API key for {name:?} (the old one no longer works; shown only once):");
            writeln!(out, "{}", key.0)?;
        }
        AccountsCommand::Delete { name } => {
            store.delete_account(&name)?;
            eprintln!("deleted account {name:?}");
        }
    }
    Ok(ExitCode::SUCCESS)
}
