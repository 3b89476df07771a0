//! The healing loop: call the upstream, heal the reply against the schema (or check its tool
//! calls), re-ask with the errors, until an answer is valid or the attempts run out.

use axum::http::{HeaderValue, StatusCode};
use axum::response::{IntoResponse, Response};
use serde_json::json;

use super::Ctx;
use crate::error::ApiError;
use crate::healing::{self, FailureKind};
use crate::request::ChatRequest;
use crate::request_id::RequestId;
use crate::state::AppState;
use crate::store::NewToolCall;
use crate::tools;
use crate::wire::{ChatCompletion, Choice, Content, Message, Report, Usage};

/// How the healing loop ended.
pub(super) enum Outcome {
    /// A valid answer.
    Healed(Box<Healed>),
    /// `max_attempts` attempts, none valid.
    Failed,
    /// The upstream failed.
    Error(ApiError),
}

/// A valid answer: the message to return and what was done to get it.
pub(super) struct Healed {
    pub message: Message,
    pub finish_reason: Option<String>,
    pub report: Report,
    pub tool_calls: Vec<NewToolCall>,
}

impl Healed {
    /// The request-log outcome.
    pub fn label(&self, attempts: u32) -> &'static str {
        if self.report.repaired() || attempts > 1 {
            "healed"
        } else {
            "valid"
        }
    }
}

pub(super) struct Run {
    pub outcome: Outcome,
    pub attempts: u32,
    pub usage: Option<Usage>,
    /// The last upstream response (its id, created, model are reused in the answer).
    pub last: Option<ChatCompletion>,
}

/// The report's `candidate` for an answer made of tool calls.
pub(super) const TOOL_CALLS_CANDIDATE: &str = "tool_calls";

/// What one attempt's reply is worth.
type Verdict = Result<Option<healing::HealSuccess>, (FailureKind, String)>;

/// The loop: call upstream, heal, re-ask with the feedback, until valid or out of attempts.
pub(super) async fn run(state: &AppState, req: &ChatRequest, request_id: &RequestId) -> Run {
    let mut run = Run {
        outcome: Outcome::Failed,
        attempts: 0,
        usage: None,
        last: None,
    };
    let Some(healing) = &req.healing else {
        run.outcome = Outcome::Error(ApiError::Internal("healing without a schema".to_owned()));
        return run;
    };
    let mut body = req.upstream_body.clone();
    for attempt in 1..=healing.max_attempts {
        run.attempts = attempt;
        let sent = serde_json::Value::Object(body.clone());
        let mut resp = match state
            .upstream()
            .complete(&req.provider, &sent, state.metrics())
            .await
        {
            Ok(r) => r,
            Err(e) => {
                run.outcome = Outcome::Error(e);
                return run;
            }
        };
        Usage::accumulate(&mut run.usage, resp.usage.as_ref());
        if resp.choices.is_empty() {
            run.outcome = Outcome::Error(ApiError::bad_gateway(
                format!(
                    "the upstream provider {:?} returned no choices",
                    req.provider.name
                ),
                "a completion without choices",
            ));
            return run;
        }
        let choice = resp.choices.swap_remove(0);
        let finish_reason = choice.finish_reason;
        let mut message = choice.message;
        let raw_content = message.text();
        let has_tool_calls = !message.calls().is_empty();
        let calls = tools::normalize_message(&mut message, &req.tools, true);
        let problems = &calls.problems;

        let verdict: Verdict = if finish_reason.as_deref() == Some("length") {
            Err((FailureKind::Truncated, healing::truncated_feedback()))
        } else if has_tool_calls {
            if problems.is_empty() {
                Ok(None)
            } else {
                Err((
                    FailureKind::Invalid,
                    format!(
                        "{}\nCall the tool again with arguments that match its parameters.",
                        problems.join("\n")
                    ),
                ))
            }
        } else {
            match raw_content.as_deref() {
                Some(text) => healing::heal(text, &healing.schema)
                    .map(Some)
                    .map_err(|f| (f.kind, f.feedback)),
                None => Err((
                    FailureKind::NoJson,
                    "Your previous answer was empty. Answer with only a JSON value that \
                     conforms to the schema."
                        .to_owned(),
                )),
            }
        };
        let label = match &verdict {
            Ok(Some(s)) if !s.repairs.is_empty() || !s.coercions.is_empty() => "repaired",
            Ok(_) => "valid",
            Err((kind, _)) => kind.name(),
        };
        state.metrics().attempt(label);
        tracing::info!(
            request_id = %request_id,
            attempt,
            max_attempts = healing.max_attempts,
            result = label,
            prompt_tokens = resp.usage.map(|u| u.prompt_tokens),
            completion_tokens = resp.usage.map(|u| u.completion_tokens),
            "healing attempt"
        );
        match verdict {
            Ok(success) => {
                let report = match success {
                    Some(s) => {
                        let text = serde_json::to_string(&s.value).unwrap_or_default();
                        message.content = Some(Content::Text(text));
                        Report {
                            attempts: attempt,
                            candidate: s.candidate.to_owned(),
                            repairs: s.repairs,
                            coercions: s.coercions,
                            tool_calls: calls.reports,
                        }
                    }
                    None => Report {
                        attempts: attempt,
                        candidate: TOOL_CALLS_CANDIDATE.to_owned(),
                        repairs: Vec::new(),
                        coercions: Vec::new(),
                        tool_calls: calls.reports,
                    },
                };
                run.outcome = Outcome::Healed(Box::new(Healed {
                    message,
                    finish_reason,
                    report,
                    tool_calls: calls.records,
                }));
                run.last = Some(resp);
                return run;
            }
            Err((_, feedback)) => {
                if let Some(serde_json::Value::Array(messages)) = body.get_mut("messages") {
                    messages.push(json!({"role": "assistant",
                        "content": assistant_echo(raw_content.as_deref(), &message)}));
                    messages.push(json!({"role": "user", "content": feedback}));
                }
                run.last = Some(resp);
            }
        }
    }
    run
}

/// The model's reply as the assistant turn of a re-ask (tool calls described in text, since
/// a real `tool_calls` turn would need tool results the gateway does not have).
fn assistant_echo(content: Option<&str>, message: &Message) -> String {
    let mut text = content.unwrap_or_default().to_owned();
    for c in message.calls() {
        if !text.is_empty() {
            text.push('\n');
        }
        let name = if c.function.name.is_empty() {
            "?"
        } else {
            &c.function.name
        };
        text.push_str(&format!(
            "[tool call {name} with arguments {}]",
            c.function.arguments
        ));
    }
    text
}

/// Healing, non-streaming.
pub(super) async fn respond(ctx: &Ctx, req: &ChatRequest) -> Result<Response, ApiError> {
    let run = run(&ctx.state, req, &ctx.request_id).await;
    match run.outcome {
        Outcome::Healed(healed) => {
            let outcome = healed.label(run.attempts);
            let mut resp = run.last.unwrap_or_default();
            resp.choices = vec![Choice {
                index: 0,
                message: healed.message,
                logprobs: serde_json::Value::Null,
                finish_reason: healed.finish_reason,
                rest: serde_json::Map::new(),
            }];
            if run.usage.is_some() {
                resp.usage = run.usage;
            }
            resp.jsonheal = Some(healed.report.clone());
            ctx.record_tool_calls(healed.tool_calls).await;
            ctx.finish(
                outcome,
                StatusCode::OK,
                run.attempts,
                healed.report.repaired(),
                run.usage,
            );
            let mut response = axum::Json(resp).into_response();
            super::mark(response.headers_mut(), &healed.report);
            Ok(response)
        }
        Outcome::Failed => {
            tracing::warn!(request_id = %ctx.request_id, attempts = run.attempts, "healing failed");
            ctx.finish(
                "failed",
                StatusCode::SERVICE_UNAVAILABLE,
                run.attempts,
                false,
                run.usage,
            );
            let mut response = ApiError::HealingFailed {
                no_retry: ctx.no_retry(),
            }
            .into_response();
            response
                .headers_mut()
                .insert("x-jsonheal-attempts", HeaderValue::from(run.attempts));
            Ok(response)
        }
        Outcome::Error(e) => Err(e),
    }
}
