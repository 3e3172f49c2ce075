//! Decoding untrusted frames: size limits, frame types, unknown message types, malformed data
//! and out-of-range fields, each giving its own [`DecodeError`] and error code.

use boardcast_protocol::limits::{
    MAX_CLIENT_FRAME_BYTES, MAX_CLIENT_NUMBER, MAX_ID_BYTES, MAX_ROUTE_SQUARES,
};
use boardcast_protocol::*;

fn json_client(text: &str) -> Result<ClientEnvelope, DecodeError> {
    Encoding::Json.decode_client(FrameRef::Text(text.as_bytes()))
}

fn postcard_client(bytes: &[u8]) -> Result<ClientEnvelope, DecodeError> {
    Encoding::Postcard.decode_client(FrameRef::Binary(bytes))
}

fn seat() -> SeatAction {
    SeatAction {
        match_id: "m1".into(),
        token: "t1".into(),
    }
}

#[test]
fn unknown_json_message_types_are_named() {
    for (text, tag) in [
        (r#"{"id":1,"msg":{"castle":{"side":"king"}}}"#, "castle"),
        (r#"{"id":1,"msg":"dance"}"#, "dance"),
        (r#"{"msg":"dance"}"#, "dance"),
    ] {
        let err = json_client(text).unwrap_err();
        assert_eq!(err, DecodeError::UnknownType(tag.into()), "{text}");
        assert_eq!(err.code(), ErrorCode::Malformed);
    }
    let err = Encoding::Json
        .decode_server(FrameRef::Text(br#"{"fireworks":{"count":3}}"#))
        .unwrap_err();
    assert_eq!(err, DecodeError::UnknownType("fireworks".into()));
}

#[test]
fn long_unknown_tags_are_truncated() {
    let tag = "é".repeat(100);
    let text = format!(r#"{{"id":1,"msg":"{tag}"}}"#);
    match json_client(&text).unwrap_err() {
        DecodeError::UnknownType(shown) => {
            assert!(shown.len() <= 64 && shown.len() >= 62, "{}", shown.len());
            assert!(tag.starts_with(&shown));
        }
        other => panic!("{other:?}"),
    }
}

#[test]
fn known_types_with_bad_bodies_are_malformed_not_unknown() {
    for text in [
        r#"{"id":1,"msg":{"move":{"match_id":1}}}"#,
        r#"{"id":1,"msg":{"watch":{"target":{"game":"x"},"since_v":null}}}"#,
        r#"{"id":1,"msg":{"ping":{"nonce":-1}}}"#,
        r#"{"id":"1","msg":"list_lobby"}"#,
        r#"{"id":1,"msg":{"ping":{"nonce":1},"pong":{"nonce":1}}}"#,
        r#"{"id":1}"#,
        r#"{"id":1,"msg":"list_lobby""#,
        "",
    ] {
        match json_client(text) {
            Err(DecodeError::Malformed(_)) => {}
            other => panic!("{text}: {other:?}"),
        }
    }
}

/// PROTOCOL.md promises that a JSON client may leave out an optional field (read as null) and
/// that unknown object fields are ignored.
#[test]
fn json_reads_left_out_optionals_and_ignores_unknown_fields() {
    let envelope =
        json_client(r#"{"id":4,"msg":{"watch":{"target":{"channel":"tv1"}}},"extra":1}"#).unwrap();
    assert_eq!(
        envelope.msg,
        ClientMessage::Watch(Watch {
            target: Target::Channel("tv1".into()),
            since_v: None
        })
    );
    // A required field is still required.
    assert!(matches!(
        json_client(r#"{"id":4,"msg":{"watch":{"since_v":null}}}"#),
        Err(DecodeError::Malformed(_))
    ));
}

#[test]
fn json_without_the_bot_flags_reads_as_people() {
    // Clients and servers from before the flags existed leave them out.
    let hello = json_client(
        r#"{"id":1,"msg":{"hello":{"protocol":1,"client":"old/0.1","name":"Sietske"}}}"#,
    )
    .unwrap();
    assert_eq!(
        hello.msg,
        ClientMessage::Hello(Hello {
            protocol: 1,
            client: "old/0.1".into(),
            name: "Sietske".into(),
            bot: false,
        })
    );
    let joined = Encoding::Json
        .decode_server(FrameRef::Text(
            br#"{"match_event":{"match_id":"m1","v":2,"event":{"player_joined":{"side":"black","name":"Wytze"}}}}"#,
        ))
        .unwrap();
    assert_eq!(
        joined,
        ServerMessage::MatchEvent(MatchEventMsg {
            match_id: "m1".into(),
            v: 2,
            event: MatchEvent::PlayerJoined(PlayerJoined {
                side: Side::Black,
                name: "Wytze".into(),
                bot: false,
                first_move_in_ms: None,
                account: false,
            }),
        })
    );
}

#[test]
fn unknown_postcard_message_types_are_named_by_index() {
    let known = variant_names::<ClientMessage>().len() as u8;
    // id 1, then a variant index one past the last.
    assert_eq!(
        postcard_client(&[1, known]).unwrap_err(),
        DecodeError::UnknownType(format!("#{known}"))
    );
    // A two-byte varint index (200) after a two-byte id (300).
    assert_eq!(
        postcard_client(&[0xac, 0x02, 0xc8, 0x01]).unwrap_err(),
        DecodeError::UnknownType("#200".into())
    );
    let server_known = variant_names::<ServerMessage>().len() as u8;
    assert_eq!(
        Encoding::Postcard
            .decode_server(FrameRef::Binary(&[server_known, 0, 0]))
            .unwrap_err(),
        DecodeError::UnknownType(format!("#{server_known}"))
    );
}

#[test]
fn truncated_or_padded_postcard_is_malformed() {
    let Frame::Binary(bytes) = Encoding::Postcard.encode(&ClientEnvelope {
        id: 7,
        msg: ClientMessage::Resign(seat()),
    }) else {
        panic!("postcard gives binary frames");
    };
    for cut in 0..bytes.len() {
        assert!(
            matches!(
                postcard_client(&bytes[..cut]),
                Err(DecodeError::Malformed(_))
            ),
            "cut at {cut}"
        );
    }
    let mut padded = bytes.clone();
    padded.push(0);
    assert!(matches!(
        postcard_client(&padded),
        Err(DecodeError::Malformed(_))
    ));
    // An id varint that never ends is malformed, not an unknown type.
    assert!(matches!(
        postcard_client(&[0xff; 12]),
        Err(DecodeError::Malformed(_))
    ));
    assert_eq!(postcard_client(&bytes).unwrap().id, 7);
}

#[test]
fn frames_over_the_limit_are_refused_before_parsing() {
    // Garbage that would be malformed is refused for its size alone.
    let big = vec![b'{'; MAX_CLIENT_FRAME_BYTES + 1];
    let err = Encoding::Json
        .decode_client(FrameRef::Text(&big))
        .unwrap_err();
    assert_eq!(
        err,
        DecodeError::TooLarge {
            size: big.len(),
            limit: MAX_CLIENT_FRAME_BYTES
        }
    );
    assert_eq!(err.code(), ErrorCode::TooLarge);
    let err = Encoding::Postcard
        .decode_client(FrameRef::Binary(&big))
        .unwrap_err();
    assert!(matches!(err, DecodeError::TooLarge { .. }));
    // Invalid UTF-8 over the limit is still "too large": size is checked first.
    let bad = vec![0xff; MAX_CLIENT_FRAME_BYTES + 1];
    assert!(matches!(
        json_client_bytes(&bad),
        Err(DecodeError::TooLarge { .. })
    ));

    // A valid message of exactly the limit is accepted (JSON allows trailing whitespace).
    let mut text = r#"{"id":1,"msg":"list_lobby"}"#.to_owned();
    text.push_str(&" ".repeat(MAX_CLIENT_FRAME_BYTES - text.len()));
    assert_eq!(json_client(&text).unwrap().msg, ClientMessage::ListLobby);
    text.push(' ');
    assert!(matches!(
        json_client(&text),
        Err(DecodeError::TooLarge { .. })
    ));

    // The server's own limit.
    let small = r#"{"id":1,"msg":"list_lobby"}"#;
    assert!(matches!(
        Encoding::Json.decode_client_within(FrameRef::Text(small.as_bytes()), 10),
        Err(DecodeError::TooLarge {
            size: 27,
            limit: 10
        })
    ));
}

fn json_client_bytes(bytes: &[u8]) -> Result<ClientEnvelope, DecodeError> {
    Encoding::Json.decode_client(FrameRef::Text(bytes))
}

#[test]
fn wrong_frame_types_and_bad_utf8_are_refused() {
    let text = br#"{"id":1,"msg":"list_lobby"}"#;
    let err = Encoding::Json
        .decode_client(FrameRef::Binary(text))
        .unwrap_err();
    assert!(matches!(
        err,
        DecodeError::WrongFrameType { got: "binary", .. }
    ));
    assert_eq!(err.code(), ErrorCode::Malformed);
    let err = Encoding::Postcard
        .decode_client(FrameRef::Text(&[1, 2]))
        .unwrap_err();
    assert!(matches!(
        err,
        DecodeError::WrongFrameType { got: "text", .. }
    ));
    let err = json_client_bytes(b"{\"id\":1,\"msg\":\"\xff\"}").unwrap_err();
    assert_eq!(err, DecodeError::InvalidUtf8);
    assert_eq!(err.code(), ErrorCode::Malformed);
}

/// Every out-of-range field is refused with its name, in both encodings.
#[test]
fn out_of_range_fields_are_invalid() {
    let long_id = "x".repeat(MAX_ID_BYTES + 1);
    let play = |route: Vec<u8>| {
        ClientMessage::Move(PlayMove {
            match_id: "m1".into(),
            token: "t1".into(),
            route,
            lag_ms: None,
        })
    };
    let hello = |client: &str, name: &str| {
        ClientMessage::Hello(Hello {
            protocol: 1,
            client: client.into(),
            name: name.into(),
            bot: false,
        })
    };
    let create = |initial_ms, increment_ms| {
        ClientMessage::CreateMatch(CreateMatch {
            time_control: Some(TimeControl {
                initial_ms,
                increment_ms,
            }),
            color: ColorChoice::Random,
            public: true,
            rated: false,
            rating_range: None,
        })
    };
    let ranged = |rated, range| {
        ClientMessage::CreateMatch(CreateMatch {
            time_control: None,
            color: ColorChoice::Random,
            public: true,
            rated,
            rating_range: Some(range),
        })
    };
    let engine = |serial: &str, ply_interval_ms| {
        ClientMessage::StartEngineGame(StartEngineGame {
            serial: serial.into(),
            white: "L4".into(),
            black: "K7".into(),
            ply_interval_ms,
            reveal_from_ply: None,
        })
    };
    let predict = |channel: &str, from: &str, to: &str| {
        ClientMessage::Predict(Predict {
            channel: channel.into(),
            ply: 3,
            from: from.into(),
            to: to.into(),
        })
    };
    let refused = [
        (hello("cli", ""), "name"),
        (hello("cli", &"n".repeat(33)), "name"),
        (hello("cli", "tab\there"), "name"),
        (hello("cli", "   "), "name"),
        (hello("cli", "\u{3000}\t"), "name"),
        (hello("cli", "Sietske\u{202E}"), "name"),
        (hello("cli", "\u{200B}"), "name"),
        (hello(&long_id, "Sietske"), "client"),
        (hello("cli\n", "Sietske"), "client"),
        (create(0, 0), "time_control"),
        (create(0, 1_000), "time_control"),
        (create(1, 0), "time_control"),
        (create(14_999, 5_000), "time_control"),
        (create(3 * 3_600_000 + 1, 0), "time_control"),
        (create(60_000, 180_001), "time_control"),
        (ranged(false, 200), "rating_range"),
        (ranged(true, 150), "rating_range"),
        (ranged(true, 600), "rating_range"),
        (ranged(true, 0), "rating_range"),
        (
            ClientMessage::JoinMatch(JoinMatch::Code(String::new())),
            "join",
        ),
        (
            ClientMessage::JoinMatch(JoinMatch::Id("a b".into())),
            "join",
        ),
        (
            ClientMessage::JoinMatch(JoinMatch::Id(long_id.clone())),
            "join",
        ),
        (
            ClientMessage::Resume(Resume {
                token: "tök".into(),
                since_v: None,
            }),
            "token",
        ),
        (play(vec![32]), "route"),
        (play(vec![1; MAX_ROUTE_SQUARES + 1]), "route"),
        (play(vec![0, 5]), "route"),
        (play(vec![46, 51]), "route"),
        (
            ClientMessage::Move(PlayMove {
                match_id: "".into(),
                token: "t".into(),
                route: vec![32, 28],
                lag_ms: None,
            }),
            "match_id",
        ),
        (
            ClientMessage::Resign(SeatAction {
                match_id: "m".into(),
                token: long_id.clone(),
            }),
            "token",
        ),
        (
            ClientMessage::Claim(Claim {
                match_id: "m".into(),
                token: "".into(),
                kind: ClaimKind::Win,
            }),
            "token",
        ),
        (
            ClientMessage::Watch(Watch {
                target: Target::Channel("".into()),
                since_v: None,
            }),
            "target",
        ),
        (
            ClientMessage::Unwatch(Target::Match("m 1".into())),
            "target",
        ),
        (engine("", None), "serial"),
        (engine("CH3SS", None), "serial"),
        (engine("CH3SS55", None), "serial"),
        (engine("CH3SS5", Some(99)), "ply_interval_ms"),
        (engine("CH3SS5", Some(600_001)), "ply_interval_ms"),
        (predict("", "b1", "c3"), "channel"),
        (predict("tv1", "f1", "c3"), "from"),
        (predict("tv1", "b1", "c7"), "to"),
        (predict("tv1", "b10", "c3"), "from"),
        (predict("tv1", "B1", "c3"), "from"),
    ];
    for (msg, field) in refused {
        let envelope = ClientEnvelope { id: 1, msg };
        for encoding in Encoding::ALL {
            let frame = encoding.encode(&envelope);
            match encoding.decode_client(frame.as_ref()) {
                Err(DecodeError::Invalid(err)) => {
                    assert_eq!(err.field, field, "{envelope:?}");
                    assert_eq!(DecodeError::Invalid(err).code(), ErrorCode::InvalidArgument);
                }
                other => panic!("{envelope:?} via {encoding:?}: {other:?}"),
            }
        }
    }
    let accepted = [
        hello("", &"n".repeat(32)),
        hello("cli", "Sïetske ✓"),
        create(3 * 3_600_000, 180_000),
        create(15_000, 0),
        ranged(true, 100),
        ranged(true, 500),
        play(vec![1; MAX_ROUTE_SQUARES]),
        play(vec![50, 1]),
        engine("CH3SS5", Some(100)),
        engine("CH3SS5", Some(600_000)),
        predict("tv1", "a1", "e6"),
        ClientMessage::JoinMatch(JoinMatch::Id("x".repeat(MAX_ID_BYTES))),
    ];
    for msg in accepted {
        let envelope = ClientEnvelope { id: 1, msg };
        for encoding in Encoding::ALL {
            let frame = encoding.encode(&envelope);
            assert_eq!(
                encoding.decode_client(frame.as_ref()).as_ref(),
                Ok(&envelope)
            );
        }
    }
}

/// Ids, nonces and `since_v` a client chooses stay within what JavaScript holds exactly
/// (2^53 - 1): one more is refused by name in both encodings, whatever the message.
#[test]
fn client_numbers_above_two_to_the_53_minus_one_are_invalid() {
    assert_eq!(MAX_CLIENT_NUMBER, 9_007_199_254_740_991);
    let too_big = MAX_CLIENT_NUMBER + 1;
    let watch = |since_v| {
        ClientMessage::Watch(Watch {
            target: Target::Match("m1".into()),
            since_v,
        })
    };
    let resume = |since_v| {
        ClientMessage::Resume(Resume {
            token: "t1".into(),
            since_v,
        })
    };
    let ping = |nonce| ClientMessage::Ping(Ping { nonce });
    let refused = [
        (too_big, ClientMessage::ListLobby, "id"),
        (u64::MAX, ping(1), "id"),
        (1, ping(too_big), "nonce"),
        (1, watch(Some(too_big)), "since_v"),
        (1, resume(Some(u64::MAX)), "since_v"),
    ];
    for (id, msg, field) in refused {
        let envelope = ClientEnvelope { id, msg };
        for encoding in Encoding::ALL {
            let frame = encoding.encode(&envelope);
            match encoding.decode_client(frame.as_ref()) {
                Err(DecodeError::Invalid(err)) => {
                    assert_eq!(err.field, field, "{envelope:?}");
                    assert!(err.problem.contains("9007199254740991"), "{err}");
                }
                other => panic!("{envelope:?} via {encoding:?}: {other:?}"),
            }
            // The refusal can still name the envelope it answers.
            assert_eq!(encoding.envelope_id(frame.as_ref(), 1024), Some(id));
        }
    }
    let largest = MAX_CLIENT_NUMBER;
    for (id, msg) in [
        (largest, ping(largest)),
        (largest, watch(Some(largest))),
        (largest, resume(Some(largest))),
    ] {
        let envelope = ClientEnvelope { id, msg };
        for encoding in Encoding::ALL {
            let frame = encoding.encode(&envelope);
            assert_eq!(
                encoding.decode_client(frame.as_ref()).as_ref(),
                Ok(&envelope)
            );
        }
    }
}

#[test]
fn subprotocols_negotiate_the_first_known_one() {
    assert_eq!(
        Encoding::negotiate(["chat", "boardcast.v1.json"]),
        Some(Encoding::Json)
    );
    assert_eq!(
        Encoding::negotiate(["boardcast.v1.postcard", "boardcast.v1.json"]),
        Some(Encoding::Postcard)
    );
    assert_eq!(Encoding::negotiate(["boardcast.v2.json"]), None);
    assert_eq!(Encoding::Json.subprotocol(), "boardcast.v1.json");
    assert_eq!(Encoding::Postcard.subprotocol(), "boardcast.v1.postcard");
}
