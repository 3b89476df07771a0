//! `jsonheal accounts`: create, list, change (settings and limits), re-key and delete gateway
//! accounts, and show their usage.

use std::io::Write;
use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::Context;
use clap::Subcommand;
use jsonheal_gateway::config::Settings;
use jsonheal_gateway::store::{self, Account, AccountPatch, UsageRow, DEFAULT_MAX_ATTEMPTS};

#[derive(clap::Args)]
pub struct AccountsArgs {
    /// The database: a SQLite file or a `postgres://` URL (default: the config's `database`,
    /// `JSONHEAL_DATABASE`, or jsonheal.db).
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
    /// Change an account's settings and limits.
    Set {
        name: String,
        /// Automatic healing on or off.
        #[arg(long)]
        auto_heal: Option<bool>,
        /// Default attempts (1 to 10).
        #[arg(long)]
        max_attempts: Option<u32>,
        /// Requests per minute, enforced across every gateway on the database, or `off`.
        #[arg(long, value_name = "N|off", value_parser = limit)]
        rpm: Option<Limit>,
        /// Tokens (prompt + completion) per UTC day, or `off`.
        #[arg(long, value_name = "N|off", value_parser = limit)]
        tokens_per_day: Option<Limit>,
    },
    /// Show an account's usage by model: requests, errors, repairs, attempts, tokens.
    Usage {
        name: String,
        /// Only requests since then: a duration back from now (`24h`, `7d`, `30m`) or a
        /// UTC date or time (`2026-12-01`, `2026-12-01T09:00:00Z`). Default: all.
        #[arg(long, value_parser = since)]
        since: Option<i64>,
        /// One JSON object per line.
        #[arg(long)]
        json: bool,
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

/// A limit as given on the command line: a positive number, or `off` (`None`).
#[derive(Clone, Copy, Debug)]
struct Limit(Option<u64>);

fn limit(text: &str) -> Result<Limit, String> {
    if text.eq_ignore_ascii_case("off") {
        return Ok(Limit(None));
    }
    match text.parse::<u64>() {
        Ok(n) if n > 0 => Ok(Limit(Some(n))),
        _ => Err(format!(
            "expected a positive integer or \"off\", not {text:?}"
        )),
    }
}

/// `--since`: seconds since the epoch.
fn since(text: &str) -> Result<i64, String> {
    let now = std::time::SystemTime::now();
    let at = if let Ok(back) = humantime::parse_duration(text) {
        now.checked_sub(back)
            .ok_or_else(|| format!("{text:?} reaches back before 1970"))?
    } else {
        // A bare date is its midnight, UTC.
        let full = if text.len() == 10 {
            format!("{text}T00:00:00Z")
        } else {
            text.to_owned()
        };
        humantime::parse_rfc3339_weak(&full).map_err(|_| {
            format!(
                "expected a duration (24h, 7d) or a UTC date or time (2026-12-01, \
                 2026-12-01T09:00:00Z), not {text:?}"
            )
        })?
    };
    Ok(since_epoch(at))
}

fn since_epoch(t: std::time::SystemTime) -> i64 {
    t.duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| i64::try_from(d.as_secs()).unwrap_or(i64::MAX))
}

fn describe(a: &Account) -> String {
    let or_off = |n: Option<u64>| n.map_or_else(|| "off".to_owned(), |n| n.to_string());
    format!(
        "{}\tauto-heal: {}\tmax_attempts: {}\trpm: {}\ttokens/day: {}\tkey: {}…",
        a.name,
        if a.auto_heal { "on" } else { "off" },
        a.max_attempts,
        or_off(a.rpm.map(u64::from)),
        or_off(a.tokens_per_day),
        a.key_prefix.as_deref().unwrap_or("(none)")
    )
}

fn usage_table(out: &mut impl Write, rows: &[UsageRow]) -> std::io::Result<()> {
    writeln!(
        out,
        "{:<32} {:>9} {:>7} {:>9} {:>9} {:>12} {:>12} {:>12}",
        "model", "requests", "errors", "repaired", "attempts", "prompt", "completion", "total"
    )?;
    let mut sum = UsageRow {
        model: "(all)".to_owned(),
        requests: 0,
        errors: 0,
        repaired: 0,
        attempts: 0,
        prompt_tokens: 0,
        completion_tokens: 0,
        total_tokens: 0,
    };
    for r in rows {
        sum.requests = sum.requests.saturating_add(r.requests);
        sum.errors = sum.errors.saturating_add(r.errors);
        sum.repaired = sum.repaired.saturating_add(r.repaired);
        sum.attempts = sum.attempts.saturating_add(r.attempts);
        sum.prompt_tokens = sum.prompt_tokens.saturating_add(r.prompt_tokens);
        sum.completion_tokens = sum.completion_tokens.saturating_add(r.completion_tokens);
        sum.total_tokens = sum.total_tokens.saturating_add(r.total_tokens);
    }
    for r in rows.iter().chain(std::iter::once(&sum)) {
        writeln!(
            out,
            "{:<32} {:>9} {:>7} {:>9} {:>9} {:>12} {:>12} {:>12}",
            r.model,
            r.requests,
            r.errors,
            r.repaired,
            r.attempts,
            r.prompt_tokens,
            r.completion_tokens,
            r.total_tokens
        )?;
    }
    Ok(())
}

pub fn run(args: AccountsArgs) -> anyhow::Result<ExitCode> {
    let db = database(&args)?;
    let store = store::open(&db)
        .with_context(|| format!("cannot open the database {}", store::redact_url(&db)))?;
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
            rpm,
            tokens_per_day,
        } => {
            let rpm = rpm
                .map(|Limit(n)| {
                    n.map(u32::try_from)
                        .transpose()
                        .map_err(|_| anyhow::anyhow!("--rpm must be at most {}", u32::MAX))
                })
                .transpose()?;
            let patch = AccountPatch {
                auto_heal,
                max_attempts,
                rpm,
                tokens_per_day: tokens_per_day.map(|Limit(n)| n),
            };
            if patch.is_empty() {
                anyhow::bail!(
                    "nothing to change: give --auto-heal, --max-attempts, --rpm or \
                     --tokens-per-day"
                );
            }
            let a = store.update_account(&name, &patch)?;
            writeln!(out, "{}", describe(&a))?;
        }
        AccountsCommand::Usage { name, since, json } => {
            let account = store.account(&name)?;
            let rows = store.usage(account.id, since.unwrap_or(0))?;
            if json {
                for r in &rows {
                    writeln!(out, "{}", serde_json::to_string(r)?)?;
                }
            } else {
                let today = store::day_of(since_epoch(std::time::SystemTime::now()));
                writeln!(
                    out,
                    "{}\ttokens today (UTC): {}",
                    describe(&account),
                    store.tokens_on_day(account.id, today)?
                )?;
                usage_table(&mut out, &rows)?;
            }
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
