//! `jsonheal serve`: run the OpenAI-compatible healing gateway.

use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::Context;
use jsonheal_gateway::config::Settings;

#[derive(clap::Args)]
pub struct ServeArgs {
    /// TOML configuration file (also `JSONHEAL_CONFIG`); environment and flags override it.
    #[arg(long)]
    config: Option<PathBuf>,
    /// One OpenAI-compatible upstream (e.g. http://localhost:11434/v1), made the default
    /// provider; its key, if any, comes from `JSONHEAL_UPSTREAM_API_KEY`.
    #[arg(long)]
    upstream: Option<String>,
    /// The `--upstream` provider understands `response_format` `json_schema` (OpenAI, vLLM):
    /// forward it natively on the first attempt.
    #[arg(long, requires = "upstream")]
    native_json_schema: bool,
    /// Address to listen on (default 127.0.0.1:8080).
    #[arg(long)]
    listen: Option<String>,
    /// The database: a SQLite file, created on first start (default jsonheal.db), or a
    /// `postgres://user:password@host:port/db` URL shared by several gateways.
    #[arg(long)]
    db: Option<String>,
    /// Accept requests without an API key. For local development only.
    #[arg(long)]
    no_auth: bool,
    /// The provider that plain model names go to.
    #[arg(long)]
    default_provider: Option<String>,
    /// Send `x-should-retry: false` with healing failures so OpenAI SDKs do not retry them.
    #[arg(long)]
    x_should_retry_false: bool,
    /// Connections the OS queues before the gateway accepts them (default 1024; capped by
    /// the kernel's net.core.somaxconn).
    #[arg(long, value_name = "N")]
    backlog: Option<u32>,
}

pub fn run(args: ServeArgs) -> anyhow::Result<ExitCode> {
    jsonheal_gateway::init_logging();
    let env = |k: &str| std::env::var(k).ok();
    let config_path = args
        .config
        .clone()
        .or_else(|| std::env::var_os("JSONHEAL_CONFIG").map(PathBuf::from));
    let file = match &config_path {
        Some(path) => Settings::from_file(path)?,
        None => Settings::default(),
    };
    let flags = Settings {
        upstream: args.upstream,
        upstream_native_json_schema: args.native_json_schema.then_some(true),
        listen: args.listen,
        database: args.db,
        no_auth: args.no_auth.then_some(true),
        default_provider: args.default_provider,
        x_should_retry_false: args.x_should_retry_false.then_some(true),
        backlog: args.backlog,
        ..Settings::default()
    };
    let config = file
        .overridden_by(Settings::from_env(&env)?)
        .overridden_by(flags)
        .resolve(&env)?;
    if !config.auth {
        eprintln!(
            "jsonheal: WARNING: --no-auth: the gateway accepts requests without an API key. \
             Use this for local development only."
        );
    }
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .context("cannot start the async runtime")?;
    runtime.block_on(jsonheal_gateway::serve(
        config,
        jsonheal_gateway::shutdown_signal(),
    ))?;
    Ok(ExitCode::SUCCESS)
}
