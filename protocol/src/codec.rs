//! The two encodings: JSON in text frames, postcard in binary frames.

use serde::Serialize;
use serde::de::DeserializeOwned;

use crate::client::ClientEnvelope;
use crate::error::DecodeError;
use crate::limits::{MAX_CLIENT_FRAME_BYTES, MAX_SERVER_FRAME_BYTES};
use crate::server::ServerMessage;
use crate::validate::Validate;

/// The encoding of one connection, fixed by the WebSocket subprotocol at the handshake.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Encoding {
    /// `boardcast.v1.json`: UTF-8 JSON in text frames.
    Json,
    /// `boardcast.v1.postcard`: postcard 1.x in binary frames.
    Postcard,
}

/// An encoded message, ready to become one WebSocket frame.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Frame {
    Text(String),
    Binary(Vec<u8>),
}

/// A received frame's payload, not yet trusted.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum FrameRef<'a> {
    Text(&'a [u8]),
    Binary(&'a [u8]),
}

impl Encoding {
    pub const JSON_SUBPROTOCOL: &'static str = "boardcast.v1.json";
    pub const POSTCARD_SUBPROTOCOL: &'static str = "boardcast.v1.postcard";
    pub const ALL: [Encoding; 2] = [Encoding::Postcard, Encoding::Json];

    pub fn subprotocol(self) -> &'static str {
        match self {
            Encoding::Json => Self::JSON_SUBPROTOCOL,
            Encoding::Postcard => Self::POSTCARD_SUBPROTOCOL,
        }
    }

    pub fn from_subprotocol(name: &str) -> Option<Encoding> {
        Self::ALL
            .into_iter()
            .find(|encoding| encoding.subprotocol() == name.trim())
    }

    /// The first subprotocol the client offered that this crate speaks.
    pub fn negotiate<'a>(offered: impl IntoIterator<Item = &'a str>) -> Option<Encoding> {
        offered.into_iter().find_map(Encoding::from_subprotocol)
    }

    /// Encodes any message of the protocol.
    pub fn encode<T: Serialize>(self, message: &T) -> Frame {
        match self {
            // Serialising these types cannot fail: no maps with non-string keys, no
            // unsupported serde features. A failure would be a bug in this crate's types.
            Encoding::Json => Frame::Text(
                serde_json::to_string(message).expect("protocol types always serialise to JSON"),
            ),
            Encoding::Postcard => Frame::Binary(
                postcard::to_stdvec(message).expect("protocol types always serialise to postcard"),
            ),
        }
    }

    /// Decodes and validates a frame a client sent, within [`MAX_CLIENT_FRAME_BYTES`].
    pub fn decode_client(self, frame: FrameRef<'_>) -> Result<ClientEnvelope, DecodeError> {
        let envelope: ClientEnvelope = self.decode(frame, MAX_CLIENT_FRAME_BYTES)?;
        envelope.validate()?;
        Ok(envelope)
    }

    /// Decodes a frame the server sent, within [`MAX_SERVER_FRAME_BYTES`].
    pub fn decode_server(self, frame: FrameRef<'_>) -> Result<ServerMessage, DecodeError> {
        self.decode(frame, MAX_SERVER_FRAME_BYTES)
    }

    /// Decodes any message type from an untrusted frame, refusing frames over `limit` bytes
    /// before parsing.
    pub fn decode<T: DeserializeOwned>(
        self,
        frame: FrameRef<'_>,
        limit: usize,
    ) -> Result<T, DecodeError> {
        let (bytes, is_text) = match frame {
            FrameRef::Text(bytes) => (bytes, true),
            FrameRef::Binary(bytes) => (bytes, false),
        };
        if bytes.len() > limit {
            return Err(DecodeError::TooLarge {
                size: bytes.len(),
                limit,
            });
        }
        match (self, is_text) {
            (Encoding::Json, true) => {
                let text = std::str::from_utf8(bytes).map_err(|_| DecodeError::InvalidUtf8)?;
                serde_json::from_str(text).map_err(|err| DecodeError::Malformed(err.to_string()))
            }
            (Encoding::Postcard, false) => {
                let (message, rest) = postcard::take_from_bytes(bytes)
                    .map_err(|err| DecodeError::Malformed(err.to_string()))?;
                if !rest.is_empty() {
                    return Err(DecodeError::Malformed(format!(
                        "{} bytes left over after the message",
                        rest.len()
                    )));
                }
                Ok(message)
            }
            (Encoding::Json, false) => Err(DecodeError::WrongFrameType {
                got: "binary",
                expected: "JSON (text)",
            }),
            (Encoding::Postcard, true) => Err(DecodeError::WrongFrameType {
                got: "text",
                expected: "postcard (binary)",
            }),
        }
    }
}

impl Frame {
    pub fn as_ref(&self) -> FrameRef<'_> {
        match self {
            Frame::Text(text) => FrameRef::Text(text.as_bytes()),
            Frame::Binary(bytes) => FrameRef::Binary(bytes),
        }
    }

    pub fn len(&self) -> usize {
        match self {
            Frame::Text(text) => text.len(),
            Frame::Binary(bytes) => bytes.len(),
        }
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
}
