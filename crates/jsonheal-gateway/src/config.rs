//! Gateway configuration: a TOML file, then `JSONHEAL_*` environment variables, then flags,
//! each overriding the one before.
//!
//! ```toml
//! listen = "127.0.0.1:8080"
//! database = "jsonheal.db"
//! default_provider = "openai"
//! body_limit = 4194304
//! x_should_retry_false = false
//! instructions_budget = 4000
//! backlog = 1024
//!
//! [timeouts]
//! connect_secs = 10
//! request_secs = 300
//!
//! [[providers]]
//! name = "openai"
//! base_url = "https://api.openai.com/v1"
//! api_key_env = "OPENAI_API_KEY"
//! native_json_schema = true
//! ```

use std::net::SocketAddr;
use std::path::Path;
use std::time::Duration;

use anyhow::{bail, Context};
use serde::Deserialize;

/// The provider name `--upstream` creates.
pub const UPSTREAM_PROVIDER: &str = "upstream";
/// The environment variable holding the key of the `--upstream` provider.
pub const UPSTREAM_KEY_ENV: &str = "JSONHEAL_UPSTREAM_API_KEY";

/// One upstream OpenAI-compatible API.
#[derive(Clone, PartialEq, Eq)]
pub struct Provider {
    /// The name used in `@name/model` routing.
    pub name: String,
    /// The base URL, up to and including `/v1` (no trailing slash).
    pub base_url: String,
    /// The environment variable the API key was read from, if any.
    pub api_key_env: Option<String>,
    /// The API key sent as `Authorization: Bearer`, if any.
    pub api_key: Option<String>,
    /// Whether the provider understands `response_format: {type: "json_schema"}`.
    pub native_json_schema: bool,
}

impl std::fmt::Debug for Provider {
    /// The API key is never printed.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Provider")
            .field("name", &self.name)
            .field("base_url", &self.base_url)
            .field("api_key_env", &self.api_key_env)
            .field("api_key", &self.api_key.as_ref().map(|_| "<redacted>"))
            .field("native_json_schema", &self.native_json_schema)
            .finish()
    }
}

/// Upstream timeouts.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Timeouts {
    /// Establishing the TCP/TLS connection.
    pub connect: Duration,
    /// A whole non-streaming upstream call; for streams, the longest silence between bytes.
    pub request: Duration,
}

/// The resolved configuration of a gateway.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Config {
    pub listen: SocketAddr,
    pub providers: Vec<Provider>,
    pub default_provider: String,
    pub timeouts: Timeouts,
    /// Largest accepted request body, in bytes.
    pub body_limit: usize,
    /// The database: a SQLite file (`sqlite://` prefix accepted), created on first start, or
    /// a `postgres://` URL.
    pub database: String,
    /// Whether requests must carry an account's API key.
    pub auth: bool,
    /// Send `x-should-retry: false` with healing failures so SDKs do not retry them.
    pub x_should_retry_false: bool,
    /// How often a streamed healing response sends an SSE comment while attempts run.
    pub keepalive: Duration,
    /// The most tokens the schema instructions for a model without native structured
    /// output may take; larger schemas are rendered compactly, never losing a constraint.
    pub instructions_budget: usize,
    /// The listen backlog: connections the OS queues before the gateway accepts them.
    pub backlog: u32,
}

/// The default listen backlog.
pub const DEFAULT_BACKLOG: u32 = 1024;

impl Config {
    /// The provider a request routes to: `@name/model` picks `name`, anything else goes to
    /// the default provider. Returns the provider and the model name to send upstream.
    pub fn route<'a>(&'a self, model: &'a str) -> Result<(&'a Provider, &'a str), String> {
        if let Some(rest) = model.strip_prefix('@') {
            let Some((name, upstream_model)) = rest.split_once('/') else {
                return Err(format!("model {model:?} must be written @provider/model"));
            };
            if upstream_model.is_empty() {
                return Err(format!("model {model:?} names no model after the provider"));
            }
            return match self.provider(name) {
                Some(p) => Ok((p, upstream_model)),
                None => Err(format!("unknown provider {name:?} in model {model:?}")),
            };
        }
        match self.provider(&self.default_provider) {
            Some(p) => Ok((p, model)),
            None => Err(format!(
                "the default provider {:?} is not configured",
                self.default_provider
            )),
        }
    }

    /// The provider called `name`.
    pub fn provider(&self, name: &str) -> Option<&Provider> {
        self.providers.iter().find(|p| p.name == name)
    }

    /// A configuration for tests and embedding: one provider at `base_url`, no auth file.
    pub fn with_upstream(base_url: &str) -> Config {
        Config {
            listen: SocketAddr::from(([127, 0, 0, 1], 0)),
            providers: vec![Provider {
                name: UPSTREAM_PROVIDER.to_owned(),
                base_url: base_url.trim_end_matches('/').to_owned(),
                api_key_env: None,
                api_key: None,
                native_json_schema: false,
            }],
            default_provider: UPSTREAM_PROVIDER.to_owned(),
            timeouts: Timeouts {
                connect: Duration::from_secs(10),
                request: Duration::from_secs(300),
            },
            body_limit: 4 << 20,
            database: "jsonheal.db".to_owned(),
            auth: true,
            x_should_retry_false: false,
            keepalive: Duration::from_secs(5),
            instructions_budget: jsonheal::schema::InstructionOptions::DEFAULT_BUDGET_TOKENS,
            backlog: DEFAULT_BACKLOG,
        }
    }
}

/// Every setting as it may appear in the file, the environment or the flags; `None` means
/// "not said here".
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Settings {
    pub listen: Option<String>,
    pub database: Option<String>,
    pub default_provider: Option<String>,
    pub body_limit: Option<usize>,
    pub no_auth: Option<bool>,
    pub x_should_retry_false: Option<bool>,
    pub keepalive_secs: Option<f64>,
    pub instructions_budget: Option<usize>,
    pub backlog: Option<u32>,
    #[serde(default)]
    pub timeouts: TimeoutSettings,
    #[serde(default)]
    pub providers: Vec<ProviderSettings>,
    /// `--upstream URL`: one provider named `upstream`, made the default.
    #[serde(skip)]
    pub upstream: Option<String>,
    /// Whether the `--upstream` provider understands `response_format` `json_schema`.
    #[serde(skip)]
    pub upstream_native_json_schema: Option<bool>,
}

/// The `[timeouts]` table.
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TimeoutSettings {
    pub connect_secs: Option<f64>,
    pub request_secs: Option<f64>,
}

/// One `[[providers]]` entry.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ProviderSettings {
    pub name: String,
    pub base_url: String,
    pub api_key_env: Option<String>,
    #[serde(default)]
    pub native_json_schema: bool,
}

impl Settings {
    /// Read a TOML configuration file.
    pub fn from_file(path: &Path) -> anyhow::Result<Settings> {
        let text = std::fs::read_to_string(path)
            .with_context(|| format!("cannot read config file {}", path.display()))?;
        toml::from_str(&text).with_context(|| format!("invalid config file {}", path.display()))
    }

    /// Read `JSONHEAL_*` variables through `env` (a lookup, so tests need not touch the
    /// process environment).
    pub fn from_env(env: &dyn Fn(&str) -> Option<String>) -> anyhow::Result<Settings> {
        let get = |name: &str| env(name).filter(|v| !v.is_empty());
        Ok(Settings {
            listen: get("JSONHEAL_LISTEN"),
            database: get("JSONHEAL_DATABASE").or_else(|| get("JSONHEAL_DB")),
            default_provider: get("JSONHEAL_DEFAULT_PROVIDER"),
            body_limit: parse_env(&get, "JSONHEAL_BODY_LIMIT")?,
            no_auth: parse_bool_env(&get, "JSONHEAL_NO_AUTH")?,
            x_should_retry_false: parse_bool_env(&get, "JSONHEAL_X_SHOULD_RETRY_FALSE")?,
            keepalive_secs: parse_env(&get, "JSONHEAL_KEEPALIVE_SECS")?,
            instructions_budget: parse_env(&get, "JSONHEAL_INSTRUCTIONS_BUDGET")?,
            backlog: parse_env(&get, "JSONHEAL_BACKLOG")?,
            timeouts: TimeoutSettings {
                connect_secs: parse_env(&get, "JSONHEAL_CONNECT_TIMEOUT_SECS")?,
                request_secs: parse_env(&get, "JSONHEAL_REQUEST_TIMEOUT_SECS")?,
            },
            providers: Vec::new(),
            upstream: get("JSONHEAL_UPSTREAM"),
            upstream_native_json_schema: parse_bool_env(
                &get,
                "JSONHEAL_UPSTREAM_NATIVE_JSON_SCHEMA",
            )?,
        })
    }

    /// `self` with every setting that `over` says replaced by its value.
    pub fn overridden_by(mut self, over: Settings) -> Settings {
        macro_rules! take {
            ($($f:ident).+) => {
                if over.$($f).+.is_some() {
                    self.$($f).+ = over.$($f).+;
                }
            };
        }
        take!(listen);
        take!(database);
        take!(default_provider);
        take!(body_limit);
        take!(no_auth);
        take!(x_should_retry_false);
        take!(keepalive_secs);
        take!(instructions_budget);
        take!(backlog);
        take!(timeouts.connect_secs);
        take!(timeouts.request_secs);
        take!(upstream);
        take!(upstream_native_json_schema);
        if !over.providers.is_empty() {
            self.providers = over.providers;
        }
        self
    }

    /// Check and resolve into a `Config`; API keys are read through `env`.
    pub fn resolve(self, env: &dyn Fn(&str) -> Option<String>) -> anyhow::Result<Config> {
        let listen_text = self.listen.as_deref().unwrap_or("127.0.0.1:8080");
        let listen: SocketAddr = listen_text
            .parse()
            .with_context(|| format!("listen address {listen_text:?} is not HOST:PORT"))?;
        let mut providers = Vec::new();
        for p in self.providers {
            if providers.iter().any(|q: &Provider| q.name == p.name) {
                bail!("provider {:?} is configured twice", p.name);
            }
            providers.push(provider(
                p.name,
                &p.base_url,
                p.api_key_env,
                p.native_json_schema,
                env,
            )?);
        }
        let mut default_provider = self.default_provider;
        if let Some(url) = self.upstream {
            providers.retain(|p| p.name != UPSTREAM_PROVIDER);
            providers.push(provider(
                UPSTREAM_PROVIDER.to_owned(),
                &url,
                Some(UPSTREAM_KEY_ENV.to_owned()),
                self.upstream_native_json_schema.unwrap_or(false),
                env,
            )?);
            default_provider = Some(UPSTREAM_PROVIDER.to_owned());
        }
        if providers.is_empty() {
            bail!("no upstream configured: pass --upstream URL or add [[providers]] to the config file");
        }
        let default_provider = match default_provider {
            Some(name) => name,
            None if providers.len() == 1 => providers[0].name.clone(),
            None => bail!("several providers are configured; set default_provider"),
        };
        if !providers.iter().any(|p| p.name == default_provider) {
            bail!("default_provider {default_provider:?} is not among the configured providers");
        }
        let secs = |v: Option<f64>, default: f64, what: &str| -> anyhow::Result<Duration> {
            let v = v.unwrap_or(default);
            if !(v.is_finite() && v > 0.0 && v < 1e9) {
                bail!("{what} must be a positive number of seconds, not {v}");
            }
            Ok(Duration::from_secs_f64(v))
        };
        let backlog = self.backlog.unwrap_or(DEFAULT_BACKLOG);
        if backlog == 0 {
            bail!("backlog must be positive");
        }
        let body_limit = self.body_limit.unwrap_or(4 << 20);
        if body_limit == 0 {
            bail!("body_limit must be positive");
        }
        let instructions_budget = self
            .instructions_budget
            .unwrap_or(jsonheal::schema::InstructionOptions::DEFAULT_BUDGET_TOKENS);
        if instructions_budget == 0 {
            bail!("instructions_budget must be a positive number of tokens");
        }
        Ok(Config {
            listen,
            providers,
            default_provider,
            timeouts: Timeouts {
                connect: secs(self.timeouts.connect_secs, 10.0, "timeouts.connect_secs")?,
                request: secs(self.timeouts.request_secs, 300.0, "timeouts.request_secs")?,
            },
            body_limit,
            database: self.database.unwrap_or_else(|| "jsonheal.db".to_owned()),
            auth: !self.no_auth.unwrap_or(false),
            x_should_retry_false: self.x_should_retry_false.unwrap_or(false),
            keepalive: secs(self.keepalive_secs, 5.0, "keepalive_secs")?,
            instructions_budget,
            backlog,
        })
    }
}

fn provider(
    name: String,
    base_url: &str,
    api_key_env: Option<String>,
    native_json_schema: bool,
    env: &dyn Fn(&str) -> Option<String>,
) -> anyhow::Result<Provider> {
    if name.is_empty() || name.contains('/') || name.contains('@') {
        bail!("provider name {name:?} must be non-empty and hold no '/' or '@'");
    }
    if !(base_url.starts_with("http://") || base_url.starts_with("https://")) {
        bail!("provider {name:?}: base_url {base_url:?} must start with http:// or https://");
    }
    let api_key = api_key_env
        .as_deref()
        .and_then(env)
        .filter(|k| !k.is_empty());
    Ok(Provider {
        name,
        base_url: base_url.trim_end_matches('/').to_owned(),
        api_key_env,
        api_key,
        native_json_schema,
    })
}

fn parse_env<T: std::str::FromStr>(
    get: &dyn Fn(&str) -> Option<String>,
    name: &str,
) -> anyhow::Result<Option<T>>
where
    T::Err: std::fmt::Display,
{
    match get(name) {
        None => Ok(None),
        Some(v) => v
            .trim()
            .parse()
            .map(Some)
            .map_err(|e| anyhow::anyhow!("{name}={v:?} is invalid: {e}")),
    }
}

fn parse_bool_env(
    get: &dyn Fn(&str) -> Option<String>,
    name: &str,
) -> anyhow::Result<Option<bool>> {
    match get(name).as_deref().map(str::trim) {
        None => Ok(None),
        Some("1" | "true" | "yes" | "on") => Ok(Some(true)),
        Some("0" | "false" | "no" | "off") => Ok(Some(false)),
        Some(other) => bail!("{name}={other:?} is not a boolean (use true or false)"),
    }
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;

    fn no_env(_: &str) -> Option<String> {
        None
    }

    #[test]
    fn file_env_and_flags_layer_in_order() {
        let file: Settings = toml::from_str(
            r#"
            listen = "127.0.0.1:9000"
            default_provider = "a"
            [[providers]]
            name = "a"
            base_url = "http://a.test/v1/"
            api_key_env = "A_KEY"
            native_json_schema = true
            [[providers]]
            name = "b"
            base_url = "http://b.test/v1"
            "#,
        )
        .expect("parses");
        let env = |k: &str| match k {
            "JSONHEAL_LISTEN" => Some("127.0.0.1:9001".to_owned()),
            "A_KEY" => Some("sk-a".to_owned()),
            _ => None,
        };
        let flags = Settings {
            database: Some("x.db".to_owned()),
            ..Settings::default()
        };
        let config = file
            .overridden_by(Settings::from_env(&env).expect("env"))
            .overridden_by(flags)
            .resolve(&env)
            .expect("resolves");
        assert_eq!(config.listen.port(), 9001);
        assert_eq!(config.database, "x.db");
        assert_eq!(config.providers[0].base_url, "http://a.test/v1");
        assert_eq!(config.providers[0].api_key.as_deref(), Some("sk-a"));
        assert!(config.providers[0].native_json_schema);
        assert!(
            !format!("{config:?}").contains("sk-a"),
            "keys are not printed"
        );
        let (p, m) = config.route("@b/llama3").expect("routes");
        assert_eq!((p.name.as_str(), m), ("b", "llama3"));
        let (p, m) = config.route("gpt-4o").expect("routes");
        assert_eq!((p.name.as_str(), m), ("a", "gpt-4o"));
        assert!(config
            .route("@c/x")
            .unwrap_err()
            .contains("unknown provider \"c\""));
        assert!(config.route("@a").is_err());
        assert!(config.route("@a/").is_err());
    }

    #[test]
    fn upstream_flag_alone_is_enough() {
        let env = |k: &str| (k == UPSTREAM_KEY_ENV).then(|| "sk-up".to_owned());
        let config = Settings {
            upstream: Some("http://localhost:11434/v1".to_owned()),
            ..Settings::default()
        }
        .resolve(&env)
        .expect("resolves");
        assert_eq!(config.listen.to_string(), "127.0.0.1:8080");
        assert_eq!(config.database, "jsonheal.db");
        assert_eq!(config.default_provider, UPSTREAM_PROVIDER);
        assert_eq!(config.providers[0].api_key.as_deref(), Some("sk-up"));
        assert!(config.auth);
        assert!(!config.providers[0].native_json_schema);
        let config = Settings {
            upstream: Some("http://localhost:8000/v1".to_owned()),
            upstream_native_json_schema: Some(true),
            ..Settings::default()
        }
        .resolve(&env)
        .expect("resolves");
        assert!(config.providers[0].native_json_schema);
    }

    #[test]
    fn instructions_budget_layers_and_must_be_positive() {
        let file: Settings = toml::from_str("instructions_budget = 800").expect("parses");
        let flags = || Settings {
            upstream: Some("http://u.test".to_owned()),
            ..Settings::default()
        };
        let config = file.clone().overridden_by(flags()).resolve(&no_env);
        assert_eq!(config.expect("resolves").instructions_budget, 800);
        let env = |k: &str| (k == "JSONHEAL_INSTRUCTIONS_BUDGET").then(|| "1200".to_owned());
        let config = file
            .overridden_by(Settings::from_env(&env).expect("env"))
            .overridden_by(flags())
            .resolve(&no_env)
            .expect("resolves");
        assert_eq!(config.instructions_budget, 1200);
        let err = Settings {
            instructions_budget: Some(0),
            ..flags()
        }
        .resolve(&no_env)
        .unwrap_err()
        .to_string();
        assert!(err.contains("instructions_budget"), "{err}");
    }

    #[test]
    fn bad_settings_are_named() {
        let err = Settings::default()
            .resolve(&no_env)
            .unwrap_err()
            .to_string();
        assert!(err.contains("no upstream configured"), "{err}");
        let err = Settings {
            upstream: Some("localhost:1".to_owned()),
            ..Settings::default()
        }
        .resolve(&no_env)
        .unwrap_err()
        .to_string();
        assert!(err.contains("must start with http"), "{err}");
        let err = Settings {
            upstream: Some("http://x".to_owned()),
            listen: Some("nowhere".to_owned()),
            ..Settings::default()
        }
        .resolve(&no_env)
        .unwrap_err()
        .to_string();
        assert!(err.contains("listen address"), "{err}");
        let env = |k: &str| (k == "JSONHEAL_NO_AUTH").then(|| "maybe".to_owned());
        let err = Settings::from_env(&env).unwrap_err().to_string();
        assert!(err.contains("JSONHEAL_NO_AUTH"), "{err}");
        assert!(toml::from_str::<Settings>("lisen = 1").is_err());
    }
}
