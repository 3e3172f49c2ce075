//! The two encodings: JSON in text frames, postcard in binary frames.

use serde::Serialize;
use serde::de::{self, DeserializeOwned, Visitor};

use crate::client::{ClientEnvelope, ClientMessage};
use crate::error::DecodeError;
use crate::limits::{MAX_CLIENT_FRAME_BYTES, MAX_SERVER_FRAME_BYTES};
use crate::server::ServerMessage;
use crate::validate::Validate;

/// The encoding of one connection, fixed by the WebSocket subprotocol at the handshake.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
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
    /// A message type this crate does not know gives [`DecodeError::UnknownType`].
    pub fn decode_client(self, frame: FrameRef<'_>) -> Result<ClientEnvelope, DecodeError> {
        self.decode_client_within(frame, MAX_CLIENT_FRAME_BYTES)
    }

    /// [`Encoding::decode_client`] with the server's own frame limit (the one it announces in
    /// [`crate::Limits::max_frame_bytes`]) instead of [`MAX_CLIENT_FRAME_BYTES`].
    pub fn decode_client_within(
        self,
        frame: FrameRef<'_>,
        limit: usize,
    ) -> Result<ClientEnvelope, DecodeError> {
        let envelope: ClientEnvelope = self
            .decode(frame, limit)
            .map_err(|err| refine::<ClientMessage>(err, frame, Nesting::Envelope))?;
        envelope.validate()?;
        Ok(envelope)
    }

    /// The ack id of a client frame, read on its own so that the refusal of a frame whose
    /// message does not decode (or does not validate) can still name the envelope it answers.
    /// `None` when not even the id can be read: a frame over `limit`, of the wrong frame type,
    /// not JSON, without a numeric `id`, or (postcard) not starting with a complete varint.
    pub fn envelope_id(self, frame: FrameRef<'_>, limit: usize) -> Option<u64> {
        /// The envelope with everything but its id ignored.
        #[derive(serde::Deserialize)]
        struct IdOnly {
            id: u64,
        }
        match (self, frame) {
            (_, FrameRef::Text(bytes) | FrameRef::Binary(bytes)) if bytes.len() > limit => None,
            (Encoding::Json, FrameRef::Text(bytes)) => serde_json::from_slice::<IdOnly>(bytes)
                .ok()
                .map(|envelope| envelope.id),
            (Encoding::Postcard, FrameRef::Binary(bytes)) => {
                // postcard writes a u64 as a varint of at most 10 bytes.
                varint(bytes, 10).map(|(id, _)| id)
            }
            _ => None,
        }
    }

    /// Decodes a frame the server sent, within [`MAX_SERVER_FRAME_BYTES`].
    /// A message type this crate does not know gives [`DecodeError::UnknownType`].
    pub fn decode_server(self, frame: FrameRef<'_>) -> Result<ServerMessage, DecodeError> {
        self.decode(frame, MAX_SERVER_FRAME_BYTES)
            .map_err(|err| refine::<ServerMessage>(err, frame, Nesting::TopLevel))
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

/// The wire names of an enum's variants (its JSON tags), in declaration order, which is also
/// the order of postcard's variant indexes: `variant_names::<ServerMessage>()[0] == "welcome"`.
/// Empty for a type that is not an enum.
pub fn variant_names<T: DeserializeOwned>() -> &'static [&'static str] {
    let mut names: &'static [&'static str] = &[];
    // The probe records what serde's derived code announces and then fails on purpose.
    let _ = T::deserialize(VariantProbe(&mut names));
    names
}

/// A deserializer that only answers `deserialize_enum`, by remembering the variant names.
struct VariantProbe<'a>(&'a mut &'static [&'static str]);

impl<'de> de::Deserializer<'de> for VariantProbe<'_> {
    type Error = de::value::Error;

    fn deserialize_any<V: Visitor<'de>>(self, _visitor: V) -> Result<V::Value, Self::Error> {
        Err(de::Error::custom("not an enum"))
    }

    fn deserialize_enum<V: Visitor<'de>>(
        self,
        _name: &'static str,
        variants: &'static [&'static str],
        _visitor: V,
    ) -> Result<V::Value, Self::Error> {
        *self.0 = variants;
        Err(de::Error::custom("variant names recorded"))
    }

    serde::forward_to_deserialize_any! {
        bool i8 i16 i32 i64 i128 u8 u16 u32 u64 u128 f32 f64 char str string bytes byte_buf
        option unit unit_struct newtype_struct seq tuple tuple_struct map struct identifier
        ignored_any
    }
}

/// Where the message-type tag sits in a frame.
#[derive(Clone, Copy)]
enum Nesting {
    /// The frame is the message enum itself ([`ServerMessage`]).
    TopLevel,
    /// The frame is a [`ClientEnvelope`]: `{"id": …, "msg": <tag>}`, or in postcard the id
    /// varint followed by the variant index.
    Envelope,
}

/// Longest unknown tag echoed in [`DecodeError::UnknownType`].
const MAX_TAG_BYTES: usize = 64;

/// Turns a [`DecodeError::Malformed`] into [`DecodeError::UnknownType`] when the frame's
/// message tag is readable and names no variant of `M`. Only called after decoding failed, so
/// well-formed traffic never pays for the second look.
fn refine<M: DeserializeOwned>(
    err: DecodeError,
    frame: FrameRef<'_>,
    nesting: Nesting,
) -> DecodeError {
    if !matches!(err, DecodeError::Malformed(_)) {
        return err;
    }
    let known = variant_names::<M>();
    let unknown = match frame {
        FrameRef::Text(bytes) => json_tag(bytes, nesting)
            .filter(|tag| !known.contains(&tag.as_str()))
            .map(|tag| truncate(tag, MAX_TAG_BYTES)),
        FrameRef::Binary(bytes) => postcard_index(bytes, nesting)
            .filter(|&index| index >= known.len() as u64)
            .map(|index| format!("#{index}")),
    };
    match unknown {
        Some(tag) => DecodeError::UnknownType(tag),
        None => err,
    }
}

/// The message tag of a JSON frame: a bare string (unit variant) or the only key of an object.
fn json_tag(bytes: &[u8], nesting: Nesting) -> Option<String> {
    let value: serde_json::Value = serde_json::from_slice(bytes).ok()?;
    let message = match nesting {
        Nesting::TopLevel => &value,
        Nesting::Envelope => value.get("msg")?,
    };
    match message {
        serde_json::Value::String(tag) => Some(tag.clone()),
        serde_json::Value::Object(fields) if fields.len() == 1 => fields.keys().next().cloned(),
        _ => None,
    }
}

/// The variant index of a postcard frame (after the envelope's id varint).
fn postcard_index(bytes: &[u8], nesting: Nesting) -> Option<u64> {
    let rest = match nesting {
        Nesting::TopLevel => bytes,
        Nesting::Envelope => varint(bytes, 10)?.1,
    };
    // postcard writes variant indexes as a u32 varint: at most 5 bytes.
    varint(rest, 5).map(|(index, _)| index)
}

/// A LEB128 varint of at most `max_bytes` bytes, as postcard writes integers.
fn varint(bytes: &[u8], max_bytes: usize) -> Option<(u64, &[u8])> {
    let mut value: u64 = 0;
    for (i, &byte) in bytes.iter().take(max_bytes).enumerate() {
        value |= u64::from(byte & 0x7f).checked_shl(7 * i as u32)?;
        if byte & 0x80 == 0 {
            return Some((value, &bytes[i + 1..]));
        }
    }
    None
}

fn truncate(mut text: String, max_bytes: usize) -> String {
    if text.len() > max_bytes {
        let mut end = max_bytes;
        while !text.is_char_boundary(end) {
            end -= 1;
        }
        text.truncate(end);
    }
    text
}
