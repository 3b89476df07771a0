//! Authentication as an extractor: a handler that takes a [`Caller`] runs only for a request
//! whose `Authorization: Bearer` key belongs to an account (or, with auth off, as the local
//! account); any other request is refused with a 401 before the handler starts.

use axum::extract::FromRequestParts;
use axum::http::header;
use axum::http::request::Parts;

use crate::error::ApiError;
use crate::state::AppState;
use crate::store::Account;

/// The account a request runs as.
#[derive(Debug, Clone)]
pub struct Caller(pub Account);

impl FromRequestParts<AppState> for Caller {
    type Rejection = ApiError;

    async fn from_request_parts(parts: &mut Parts, state: &AppState) -> Result<Caller, ApiError> {
        if let Some(local) = state.local_account() {
            return Ok(Caller(local.clone()));
        }
        let Some(value) = parts.headers.get(header::AUTHORIZATION) else {
            return Err(ApiError::Unauthorized(
                "you didn't provide an API key; send it as 'Authorization: Bearer <key>'"
                    .to_owned(),
            ));
        };
        let key = value
            .to_str()
            .ok()
            .and_then(|v| {
                v.strip_prefix("Bearer ")
                    .or_else(|| v.strip_prefix("bearer "))
            })
            .map(str::trim)
            .unwrap_or_default();
        if key.is_empty() {
            return Err(ApiError::Unauthorized(
                "the Authorization header must be 'Bearer <key>'".to_owned(),
            ));
        }
        // An embedded store's indexed lookup takes microseconds: done in place, it saves two
        // thread hand-offs per request (what `AppState::blocking` would cost), which on a
        // loaded machine is most of the gateway's overhead. A server database is a network
        // round trip: off the runtime.
        let found = if state.store().is_embedded() {
            state.store().authenticate(key)
        } else {
            let key = key.to_owned();
            state
                .blocking(move |s| Ok(s.authenticate(&key)))
                .await
                .map_err(|e| ApiError::Internal(format!("cannot check the API key: {e}")))?
        };
        match found {
            Ok(Some(account)) => Ok(Caller(account)),
            Ok(None) => Err(ApiError::Unauthorized(
                "incorrect API key provided".to_owned(),
            )),
            Err(e) => Err(ApiError::Internal(format!("cannot check the API key: {e}"))),
        }
    }
}
