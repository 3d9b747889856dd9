//! The one error type of the core. The Python layer maps each variant onto the exception of the
//! same name (`InvalidCardError`, `IllegalMoveError`, `RulesError`, `SnapshotError`,
//! `InternalError`).

use std::fmt;

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Error {
    /// Text or an index that is not a card (or a duplicate where a set is required).
    InvalidCard {
        token: String,
        position: usize,
        message: String,
    },
    /// A move the rules forbid now; `reason` is a short snake_case code.
    IllegalMove {
        reason: &'static str,
        message: String,
    },
    /// An inconsistent or unknown rules option.
    Rules(String),
    /// A snapshot that does not describe a valid state.
    Snapshot(String),
    /// A bug caught at the binding boundary (a Rust panic): never a consequence of input, which
    /// the other variants describe. The Python layer raises `InternalError`.
    Internal(String),
}

impl Error {
    pub fn invalid_card(token: impl Into<String>, position: usize, message: &str) -> Error {
        Error::InvalidCard {
            token: token.into(),
            position,
            message: message.to_string(),
        }
    }
    pub fn illegal(reason: &'static str, message: impl Into<String>) -> Error {
        Error::IllegalMove {
            reason,
            message: message.into(),
        }
    }
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Error::InvalidCard {
                token,
                position,
                message,
            } => {
                write!(f, "{message}: {token:?} at position {position}")
            }
            Error::IllegalMove { message, .. } => f.write_str(message),
            Error::Rules(m) | Error::Snapshot(m) => f.write_str(m),
            Error::Internal(m) => write!(f, "internal error: {m}"),
        }
    }
}

impl std::error::Error for Error {}

pub type Result<T> = std::result::Result<T, Error>;
