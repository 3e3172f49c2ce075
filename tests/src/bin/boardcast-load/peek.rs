//! What the spectators scenario reads of a server frame: which message it is and, for a
//! channel event, its version and (for a ply reveal) when the next one is due — and nothing
//! else.
//!
//! Decoding a whole `ply_revealed` copies its channel name, move, board and every legal move
//! into fresh strings, for each of thousands of watchers, only to drop them again: CPU the
//! load generator takes from the same two cores as the server it measures. This reads the
//! postcard fields in place (borrowed `&str`s, no allocation) and stops after the last field
//! it needs. The variant numbers are not written down here: they are read once from the
//! protocol crate's own encoding of sample messages, so they follow its enums.

use std::sync::OnceLock;

use boardcast_protocol::{
    ChannelEvent, ChannelEventMsg, Crowd, Encoding, Frame, PlyRevealed, ServerMessage, Target,
};

/// What a watcher needs to know of one server frame.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Peeked {
    /// Channel event `v`.
    ChannelEvent { v: u64, kind: EventKind },
    /// A crowd count.
    Crowd,
    /// Any other message.
    Other,
}

/// Which channel event it is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum EventKind {
    /// A ply reveal, and its `next_reveal_in_ms` (`None` when it ended the game).
    PlyRevealed { next_reveal_in_ms: Option<u64> },
    /// A game started or ended.
    Other,
}

/// The postcard variant numbers the peek compares with.
struct Variants {
    channel_event: u32,
    crowd: u32,
    ply_revealed: u32,
}

fn variants() -> &'static Variants {
    static VARIANTS: OnceLock<Variants> = OnceLock::new();
    VARIANTS.get_or_init(|| {
        let event = postcard_bytes(&ServerMessage::ChannelEvent(ChannelEventMsg {
            channel: String::new(),
            v: 0,
            event: ChannelEvent::PlyRevealed(PlyRevealed {
                ply: 0,
                mv: String::new(),
                board: String::new(),
                next_reveal_in_ms: None,
                legal: Vec::new(),
            }),
        }));
        let crowd = postcard_bytes(&ServerMessage::Crowd(Crowd {
            target: Target::Channel(String::new()),
            watchers: 0,
        }));
        let ((channel_event, _, _, ply_revealed), _) =
            postcard::take_from_bytes::<(u32, &str, u64, u32)>(&event)
                .expect("the sample channel event reads back");
        let (crowd, _) =
            postcard::take_from_bytes::<u32>(&crowd).expect("the sample crowd reads back");
        Variants {
            channel_event,
            crowd,
            ply_revealed,
        }
    })
}

fn postcard_bytes(message: &ServerMessage) -> Vec<u8> {
    match Encoding::Postcard.encode(message) {
        Frame::Binary(bytes) => bytes,
        Frame::Text(text) => text.into_bytes(),
    }
}

/// Reads what a watcher needs of a postcard frame from the server; `Err` if it is not a
/// server message this protocol knows.
pub fn peek(frame: &[u8]) -> Result<Peeked, postcard::Error> {
    let variants = variants();
    let (variant, rest) = postcard::take_from_bytes::<u32>(frame)?;
    if variant == variants.crowd {
        return Ok(Peeked::Crowd);
    }
    if variant != variants.channel_event {
        return Ok(Peeked::Other);
    }
    // ChannelEventMsg { channel, v, event }, then PlyRevealed { ply, mv, board,
    // next_reveal_in_ms, legal }: the legal moves are never read.
    let ((_channel, v, event), rest) = postcard::take_from_bytes::<(&str, u64, u32)>(rest)?;
    let kind = if event == variants.ply_revealed {
        let ((_ply, _mv, _board, next_reveal_in_ms), _) =
            postcard::take_from_bytes::<(u32, &str, &str, Option<u64>)>(rest)?;
        EventKind::PlyRevealed { next_reveal_in_ms }
    } else {
        EventKind::Other
    };
    Ok(Peeked::ChannelEvent { v, kind })
}

#[cfg(test)]
mod tests {
    use boardcast_protocol::{Ack, EngineResult, GameEnded};

    use super::*;

    fn reveal(v: u64, next_reveal_in_ms: Option<u64>) -> ServerMessage {
        ServerMessage::ChannelEvent(ChannelEventMsg {
            channel: "tv1".into(),
            v,
            event: ChannelEvent::PlyRevealed(PlyRevealed {
                ply: 17,
                mv: "b2-b3".into(),
                board: "rnbqk/ppppp/5/5/PPPPP/RNBQK".into(),
                next_reveal_in_ms,
                legal: vec!["a2-a3".into(), "c1-d3".into()],
            }),
        })
    }

    #[test]
    fn a_reveal_gives_its_version_and_when_the_next_is_due() {
        assert_eq!(
            peek(&postcard_bytes(&reveal(300, Some(50)))),
            Ok(Peeked::ChannelEvent {
                v: 300,
                kind: EventKind::PlyRevealed {
                    next_reveal_in_ms: Some(50)
                }
            })
        );
        assert_eq!(
            peek(&postcard_bytes(&reveal(u64::MAX, None))),
            Ok(Peeked::ChannelEvent {
                v: u64::MAX,
                kind: EventKind::PlyRevealed {
                    next_reveal_in_ms: None
                }
            })
        );
    }

    #[test]
    fn other_events_and_messages_are_told_apart() {
        let ended = ServerMessage::ChannelEvent(ChannelEventMsg {
            channel: "tv1".into(),
            v: 9,
            event: ChannelEvent::GameEnded(GameEnded {
                game_id: 4,
                result: EngineResult {
                    winner: None,
                    reason: "stalemate".into(),
                },
                standings: Vec::new(),
                next_game_in_ms: Some(200),
            }),
        });
        assert_eq!(
            peek(&postcard_bytes(&ended)),
            Ok(Peeked::ChannelEvent {
                v: 9,
                kind: EventKind::Other
            })
        );
        let crowd = ServerMessage::Crowd(Crowd {
            target: Target::Channel("tv1".into()),
            watchers: 10_000,
        });
        assert_eq!(peek(&postcard_bytes(&crowd)), Ok(Peeked::Crowd));
        let ack = ServerMessage::Ack(Ack {
            id: 3,
            duplicate: false,
        });
        assert_eq!(peek(&postcard_bytes(&ack)), Ok(Peeked::Other));
    }

    #[test]
    fn a_cut_frame_is_an_error() {
        let bytes = postcard_bytes(&reveal(300, Some(50)));
        assert!(matches!(
            peek(&bytes[..4]),
            Err(postcard::Error::DeserializeUnexpectedEnd)
        ));
    }
}
