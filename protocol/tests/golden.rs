//! Golden tests: the exact wire form of every message, pinned in fixture files.
//!
//! For every case below, `tests/golden/<name>.json` holds the exact JSON text
//! (`boardcast.v1.json`) and `tests/golden/<name>.hex` the exact postcard bytes
//! (`boardcast.v1.postcard`) in lower-case hex, each followed by one newline. A test fails when
//! the encoder's output differs from a fixture, when a fixture does not decode back to its value,
//! when a fixture has no case, or when a variant of [`ClientMessage`], [`ServerMessage`],
//! [`MatchEvent`], [`ChannelEvent`] or of the unit enums ([`ErrorCode`], [`EndReason`], …) has no
//! case. `PROTOCOL.md` must quote every JSON fixture verbatim.
//!
//! A deliberate wire change is re-recorded with
//!
//! ```sh
//! BLESS=1 cargo test -p boardcast-protocol --test golden
//! ```
//!
//! which rewrites the fixtures (and deletes fixtures no case produces); review the diff, and
//! bump the protocol version if the change is not backward compatible.

use std::collections::{BTreeMap, BTreeSet};
use std::fmt::Debug;
use std::fs;
use std::path::{Path, PathBuf};

use boardcast_protocol::limits::{MAX_CLIENT_NUMBER, MAX_SERVER_FRAME_BYTES};
use boardcast_protocol::*;
use serde::Serialize;
use serde::de::DeserializeOwned;
use serde_json::Value;

/// One pinned message: its fixture name, both encodings, and a check that both decode back.
struct Case {
    name: String,
    json: String,
    postcard: Vec<u8>,
    decodes_back: Box<dyn Fn() -> Result<(), String>>,
}

fn case<T>(
    name: &str,
    value: T,
    decode: fn(Encoding, FrameRef<'_>) -> Result<T, DecodeError>,
) -> Case
where
    T: Serialize + PartialEq + Debug + 'static,
{
    let json = match Encoding::Json.encode(&value) {
        Frame::Text(text) => text,
        Frame::Binary(_) => panic!("JSON must give a text frame"),
    };
    let postcard = match Encoding::Postcard.encode(&value) {
        Frame::Binary(bytes) => bytes,
        Frame::Text(_) => panic!("postcard must give a binary frame"),
    };
    let (json_copy, postcard_copy) = (json.clone(), postcard.clone());
    Case {
        name: name.to_owned(),
        json,
        postcard,
        decodes_back: Box::new(move || {
            let from_json = decode(Encoding::Json, FrameRef::Text(json_copy.as_bytes()))
                .map_err(|err| format!("JSON does not decode: {err}"))?;
            let from_postcard = decode(Encoding::Postcard, FrameRef::Binary(&postcard_copy))
                .map_err(|err| format!("postcard does not decode: {err}"))?;
            if from_json != value {
                return Err(format!("JSON decodes to {from_json:?}"));
            }
            if from_postcard != value {
                return Err(format!("postcard decodes to {from_postcard:?}"));
            }
            Ok(())
        }),
    }
}

fn client(name: &str, id: u64, msg: ClientMessage) -> Case {
    case(
        &format!("client.{name}"),
        ClientEnvelope { id, msg },
        |encoding, frame| encoding.decode_client(frame),
    )
}

fn server(name: &str, msg: ServerMessage) -> Case {
    case(&format!("server.{name}"), msg, |encoding, frame| {
        encoding.decode_server(frame)
    })
}

fn match_event(name: &str, v: u64, event: MatchEvent) -> Case {
    server(
        &format!("match_event.{name}"),
        ServerMessage::MatchEvent(MatchEventMsg {
            match_id: MATCH.into(),
            v,
            event,
        }),
    )
}

fn channel_event(name: &str, v: u64, event: ChannelEvent) -> Case {
    channel_event_on("tv1", name, v, event)
}

fn channel_event_on(channel: &str, name: &str, v: u64, event: ChannelEvent) -> Case {
    server(
        &format!("channel_event.{name}"),
        ServerMessage::ChannelEvent(ChannelEventMsg {
            channel: channel.into(),
            v,
            event,
        }),
    )
}

/// Every value of a unit-only enum, in declaration order, pinned as one list.
fn unit_enum<T>(name: &str, values: Vec<T>) -> Case
where
    T: Serialize + DeserializeOwned + PartialEq + Debug + 'static,
{
    case(&format!("enum.{name}"), values, |encoding, frame| {
        encoding.decode(frame, MAX_SERVER_FRAME_BYTES)
    })
}

const MATCH: &str = "m7Kq2Xw9";
const INVITE: &str = "FRJ4K-D7MQX";
const WHITE_TOKEN: &str = "st.9f2c4e7a1b3d5f60.8e1a7c2d4b6f9035";
const BLACK_TOKEN: &str = "st.2b7d9e1c3a5f4860.17c3e9a5d2b8f046";

fn seat_action() -> SeatAction {
    SeatAction {
        match_id: MATCH.into(),
        token: WHITE_TOKEN.into(),
    }
}

fn timed() -> Option<TimeControl> {
    Some(TimeControl {
        initial_ms: 300_000,
        increment_ms: 3_000,
    })
}

/// A Frisian simple move or capture as the server describes it.
fn legal(notation: &str, route: &[u8], captures: &[u8]) -> LegalMove {
    LegalMove {
        notation: notation.into(),
        route: route.to_vec(),
        captures: captures.to_vec(),
    }
}

/// Black's nine moves in the position after 1. 32-28.
fn black_opening_moves() -> Vec<LegalMove> {
    [
        (16, 21),
        (17, 21),
        (17, 22),
        (18, 22),
        (18, 23),
        (19, 23),
        (19, 24),
        (20, 24),
        (20, 25),
    ]
    .into_iter()
    .map(|(from, to)| legal(&format!("{from}-{to}"), &[from, to], &[]))
    .collect()
}

/// White's nine moves in the start position.
fn white_opening_moves() -> Vec<LegalMove> {
    [
        (31, 26),
        (31, 27),
        (32, 27),
        (32, 28),
        (33, 28),
        (33, 29),
        (34, 29),
        (34, 30),
        (35, 30),
    ]
    .into_iter()
    .map(|(from, to)| legal(&format!("{from}-{to}"), &[from, to], &[]))
    .collect()
}

const START_FEN: &str = "W:W31,32,33,34,35,36,37,38,39,40,41,42,43,44,45,46,47,48,49,50:B1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,19,20:H0:F1:+0+0";
const AFTER_32_28: &str = "B:W28,31,33,34,35,36,37,38,39,40,41,42,43,44,45,46,47,48,49,50:B1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,19,20:H0:F1:+0+0";

fn no_counters() -> KingCounters {
    KingCounters {
        white: None,
        black: None,
    }
}

fn header() -> GameHeader {
    GameHeader {
        game_id: 4711,
        serial: "CH3SS5".into(),
        white: "L4".into(),
        black: "K7".into(),
    }
}

const MINIT_START: &str = "kqbnrppppp..........PPPPPRNBQK";

fn engine_view() -> EngineGameView {
    EngineGameView {
        header: header(),
        start_board: MINIT_START.into(),
        start_ply: 0,
        promoted: vec![],
        revealed: vec!["b1-c3".into(), "e5-e4".into()],
        board: "kqbnrpppp.....p..N..PPPPPR.BQK".into(),
        next_ply: 2,
        move_number: 2,
        next_reveal_in_ms: Some(1_840),
        ply_interval_ms: 3_000,
        result: None,
        legal: moves(&[
            "a1-b1", "a2-a3", "b2-b3", "c1-b1", "c3-a4", "c3-b1", "c3-b5", "c3-d5", "c3-e4",
            "d2-d3", "e2-e3",
        ]),
    }
}

/// MinitChess moves as the server lists them.
fn moves(list: &[&str]) -> Vec<String> {
    list.iter().map(|mv| (*mv).to_owned()).collect()
}

/// A club event's id.
const EVENT: &str = "k3v9q2xa";

/// A Swiss in its second round: one result in, one game being played, a bye.
fn swiss_event() -> ClubEvent {
    let standing = |rank, name: &str, halves: u32, score: &str, bh: &str| EventStanding {
        rank,
        name: name.into(),
        rating: 1500,
        score_halves: halves,
        score: score.into(),
        buchholz: bh.into(),
        buchholz_cut1: bh.into(),
        sonneborn_berger: "0".into(),
        withdrawn: false,
        sheet: None,
        on_fire: false,
    };
    let game = |white: &str, black: &str, match_id: &str, result: Option<&str>| EventGame {
        white: white.into(),
        black: black.into(),
        match_id: Some(match_id.into()),
        result: result.map(Into::into),
    };
    ClubEvent {
        id: EVENT.into(),
        v: 9,
        name: "Tuesday Swiss".into(),
        kind: ClubEventKind::Swiss,
        time_control: "5+3".into(),
        rated: true,
        private: false,
        created_at: 1_795_000_000_000,
        starts_at: 1_795_003_600_000,
        status: ClubEventStatus::Playing,
        rounds_total: 5,
        minutes: None,
        ends_at_ms: None,
        double: false,
        players: vec!["Sietske".into(), "Wytze".into(), "Anne".into()],
        standings: vec![
            standing(1, "Sietske", 3, "1½", "1"),
            standing(2, "Anne", 2, "1", "1½"),
            standing(3, "Wytze", 1, "½", "2"),
        ],
        rounds: vec![
            EventRound {
                round: 1,
                games: vec![game("Sietske", "Wytze", "m7Kq2Xw9aa", Some("½-½"))],
                bye: Some("Anne".into()),
            },
            EventRound {
                round: 2,
                games: vec![game("Anne", "Sietske", "p4Rt8Zn2bb", None)],
                bye: Some("Wytze".into()),
            },
        ],
    }
}

/// An arena counting down to its start, two players in.
fn arena_event() -> ClubEvent {
    ClubEvent {
        id: EVENT.into(),
        v: 2,
        name: "Blitz arena".into(),
        kind: ClubEventKind::Arena,
        time_control: "3+2".into(),
        rated: false,
        private: true,
        created_at: 1_795_000_000_000,
        starts_at: 1_795_000_600_000,
        status: ClubEventStatus::Waiting,
        rounds_total: 0,
        minutes: Some(30),
        ends_at_ms: Some(1_795_002_400_000),
        double: false,
        players: vec!["Sietske".into(), "Wytze".into()],
        standings: ["Sietske", "Wytze"]
            .iter()
            .zip(1..)
            .map(|(name, rank)| EventStanding {
                rank,
                name: (*name).into(),
                rating: 1500,
                score_halves: 0,
                score: "0".into(),
                buchholz: String::new(),
                buchholz_cut1: String::new(),
                sonneborn_berger: String::new(),
                withdrawn: false,
                sheet: Some(String::new()),
                on_fire: false,
            })
            .collect(),
        rounds: vec![],
    }
}

fn cases() -> Vec<Case> {
    let mut cases = vec![
        // Client messages: one per variant, a second where the shape differs.
        client(
            "hello",
            1,
            ClientMessage::Hello(Hello {
                protocol: PROTOCOL_VERSION,
                client: "boardcast-cli/0.1.0".into(),
                name: "Sietske".into(),
                bot: false,
            }),
        ),
        client(
            "hello.bot",
            1,
            ClientMessage::Hello(Hello {
                protocol: PROTOCOL_VERSION,
                client: "boardcast-engine/0.1.0".into(),
                name: "Scan 3.1".into(),
                bot: true,
            }),
        ),
        client("ping", 2, ClientMessage::Ping(Ping { nonce: 42 })),
        // The largest id and nonce a client may choose (2^53 - 1).
        client(
            "ping.largest",
            MAX_CLIENT_NUMBER,
            ClientMessage::Ping(Ping {
                nonce: MAX_CLIENT_NUMBER,
            }),
        ),
        client("list_lobby", 3, ClientMessage::ListLobby),
        client(
            "create_match",
            4,
            ClientMessage::CreateMatch(CreateMatch {
                time_control: timed(),
                color: ColorChoice::Random,
                public: true,
                rated: false,
                rating_range: None,
            }),
        ),
        client(
            "create_match.untimed_private",
            4,
            ClientMessage::CreateMatch(CreateMatch {
                time_control: None,
                color: ColorChoice::White,
                public: false,
                rated: false,
                rating_range: None,
            }),
        ),
        client(
            "create_match.rated",
            4,
            ClientMessage::CreateMatch(CreateMatch {
                time_control: timed(),
                color: ColorChoice::Random,
                public: true,
                rated: true,
                rating_range: Some(200),
            }),
        ),
        client("join_match.id", 5, ClientMessage::JoinMatch(JoinMatch::Id(MATCH.into()))),
        client("join_match.code", 5, ClientMessage::JoinMatch(JoinMatch::Code(INVITE.into()))),
        client("join_match.myself", 5, ClientMessage::JoinMatch(JoinMatch::Myself(MATCH.into()))),
        client(
            "resume",
            1,
            ClientMessage::Resume(Resume { token: WHITE_TOKEN.into(), since_v: Some(12) }),
        ),
        client(
            "reclaim",
            1,
            ClientMessage::Reclaim(Reclaim { match_id: MATCH.into(), since_v: Some(12) }),
        ),
        client(
            "chat.text",
            40,
            ClientMessage::Chat(Chat {
                match_id: MATCH.into(),
                say: ChatSay::Text("Nice sacrifice on 23!".into()),
            }),
        ),
        client(
            "chat.preset",
            41,
            ClientMessage::Chat(Chat {
                match_id: MATCH.into(),
                say: ChatSay::Preset(ChatPreset::GoodLuck),
            }),
        ),
        client(
            "chat_delete",
            42,
            ClientMessage::ChatDelete(ChatDelete { match_id: MATCH.into(), line: 7 }),
        ),
        client(
            "chat_mute",
            43,
            ClientMessage::ChatMute(ChatMute { name: "Wytze".into(), muted: true }),
        ),
        client("more_time", 44, ClientMessage::MoreTime(seat_action())),
        client("berserk", 45, ClientMessage::Berserk(seat_action())),
        client("propose_takeback", 46, ClientMessage::ProposeTakeback(seat_action())),
        client("accept_takeback", 47, ClientMessage::AcceptTakeback(seat_action())),
        client("decline_takeback", 48, ClientMessage::DeclineTakeback(seat_action())),
        client(
            "refuse_more_time",
            45,
            ClientMessage::RefuseMoreTime(RefuseMoreTime {
                match_id: MATCH.into(),
                token: WHITE_TOKEN.into(),
                refuse: true,
            }),
        ),
        client(
            "move",
            6,
            ClientMessage::Move(PlayMove {
                match_id: MATCH.into(),
                token: WHITE_TOKEN.into(),
                route: vec![32, 28],
                lag_ms: None,
            }),
        ),
        client(
            "move.capture",
            9,
            ClientMessage::Move(PlayMove {
                match_id: MATCH.into(),
                token: BLACK_TOKEN.into(),
                route: vec![9, 18, 16],
                lag_ms: Some(120),
            }),
        ),
        client("resign", 10, ClientMessage::Resign(seat_action())),
        client("offer_draw", 11, ClientMessage::OfferDraw(seat_action())),
        client("accept_draw", 12, ClientMessage::AcceptDraw(seat_action())),
        client("decline_draw", 13, ClientMessage::DeclineDraw(seat_action())),
        client("abort", 14, ClientMessage::Abort(seat_action())),
        client(
            "claim",
            15,
            ClientMessage::Claim(Claim {
                match_id: MATCH.into(),
                token: WHITE_TOKEN.into(),
                kind: ClaimKind::Win,
            }),
        ),
        client("offer_rematch", 16, ClientMessage::OfferRematch(seat_action())),
        client("accept_rematch", 17, ClientMessage::AcceptRematch(seat_action())),
        client("decline_rematch", 18, ClientMessage::DeclineRematch(seat_action())),
        client(
            "watch",
            19,
            ClientMessage::Watch(Watch { target: Target::Match(MATCH.into()), since_v: None }),
        ),
        client(
            "watch.channel_since",
            20,
            ClientMessage::Watch(Watch { target: Target::Channel("tv1".into()), since_v: Some(57) }),
        ),
        client("unwatch", 21, ClientMessage::Unwatch(Target::Channel("tv1".into()))),
        client(
            "start_engine_game",
            22,
            ClientMessage::StartEngineGame(StartEngineGame {
                serial: "CH3SS5".into(),
                white: "L4".into(),
                black: "K7".into(),
                ply_interval_ms: Some(2_000),
                reveal_from_ply: Some(4),
            }),
        ),
        client(
            "start_engine_game.defaults",
            22,
            ClientMessage::StartEngineGame(StartEngineGame {
                serial: "AB12CD".into(),
                white: "N1".into(),
                black: "Q9".into(),
                ply_interval_ms: None,
                reveal_from_ply: None,
            }),
        ),
        client(
            "predict",
            4,
            ClientMessage::Predict(Predict {
                channel: "tv1".into(),
                ply: 2,
                from: "c3".into(),
                to: "d5".into(),
            }),
        ),
        client("leaderboard", 24, ClientMessage::Leaderboard(LeaderboardQuery { limit: 10 })),
        client(
            "play_now",
            25,
            ClientMessage::PlayNow(PlayNow {
                preset: PoolPreset::ThreePlusTwo,
            }),
        ),
        client("cancel_play_now", 26, ClientMessage::CancelPlayNow),
        // Server messages.
        server(
            "welcome",
            ServerMessage::Welcome(Welcome {
                protocol: PROTOCOL_VERSION,
                server: "boardcast-server 0.1.0".into(),
                limits: Limits {
                    max_frame_bytes: 8192,
                    messages_per_second: 20,
                    message_burst: 40,
                    idle_timeout_ms: 60_000,
                },
                public_url: "https://draughts.example.org".into(),
                account: Some(AccountInfo { name: "Sietske".into(), bot: false, admin: false }),
            }),
        ),
        server("ack", ServerMessage::Ack(Ack { id: 6, duplicate: false })),
        server("ack.duplicate", ServerMessage::Ack(Ack { id: 6, duplicate: true })),
        server(
            "error",
            ServerMessage::Error(ErrorReply {
                id: Some(6),
                code: ErrorCode::NotYourTurn,
                message: "not your turn: black to move".into(),
                last_id: None,
                args: Some(Box::new(ErrorArgs::new("side_to_move").word("side", "black"))),
            }),
        ),
        server(
            "error.illegal_move",
            ServerMessage::Error(ErrorReply {
                id: Some(8),
                code: ErrorCode::IllegalMove,
                message: "illegal move: a man moves one square diagonally forward: 32-23 is not a man move".into(),
                last_id: None,
                args: Some(Box::new(ErrorArgs::new("not_a_man_move").number("from", 32u8).number("to", 23u8))),
            }),
        ),
        server(
            "error.illegal_prediction",
            ServerMessage::Error(ErrorReply {
                id: Some(4),
                code: ErrorCode::IllegalPrediction,
                message: "a2-a4 is not a legal move for white before ply 0".into(),
                last_id: None,
                args: Some(Box::new(
                    ErrorArgs::new("not_legal")
                        .number("next", 0u32)
                        .word("move", "a2-a4")
                        .word("side", "white"),
                )),
            }),
        ),
        server(
            "error.unreadable",
            ServerMessage::Error(ErrorReply {
                id: None,
                code: ErrorCode::Malformed,
                message: "not a valid message: expected value at line 1 column 1".into(),
                last_id: None,
                args: Some(Box::new(ErrorArgs::new("not_a_message"))),
            }),
        ),
        server(
            "error.stale_id",
            ServerMessage::Error(ErrorReply {
                id: Some(5),
                code: ErrorCode::StaleId,
                message: "id 5 is not above 10, the last id carried out for your seat: match \
                          actions need ids that increase per seat, across reconnects"
                    .into(),
                last_id: Some(10),
                args: Some(Box::new(ErrorArgs::new("not_above_last").number("id", 5u32).number("last_id", 10u32))),
            }),
        ),
        server(
            "error.invalid_argument",
            ServerMessage::Error(ErrorReply {
                id: Some(7),
                code: ErrorCode::InvalidArgument,
                message: "invalid message: route: must hold 2 to 21 squares (origin and landings)"
                    .into(),
                last_id: None,
                args: Some(Box::new(ErrorArgs::new("invalid_field").word("field", "route"))),
            }),
        ),
        server(
            "error.invalid_argument.id",
            ServerMessage::Error(ErrorReply {
                id: Some(MAX_CLIENT_NUMBER + 1),
                code: ErrorCode::InvalidArgument,
                message: "invalid message: id: must be at most 9007199254740991 (2^53 - 1, the \
                          largest integer JavaScript holds exactly)"
                    .into(),
                last_id: None,
                args: Some(Box::new(ErrorArgs::new("invalid_field").word("field", "id"))),
            }),
        ),
        server("pong", ServerMessage::Pong(Pong { nonce: 42 })),
        server(
            "lobby",
            ServerMessage::Lobby(Lobby {
                id: 3,
                seeks: vec![MatchSummary {
                    match_id: "m3Vd8Rt1".into(),
                    white: None,
                    black: Some("Scan 3.1".into()),
                    time_control: timed(),
                    phase: MatchPhase::Waiting,
                    plies: 0,
                    watchers: 0,
                    white_bot: false,
                    black_bot: true,
                    white_account: false,
                    black_account: true,
                    rated: true,
                    rating_range: Some(300),
                    white_rating: None,
                    black_rating: Some(PlayerRating {
                        rating: 1847,
                        provisional: false,
                    }),
                }],
                live: vec![MatchSummary {
                    match_id: MATCH.into(),
                    white: Some("Sietske".into()),
                    black: Some("Wytze".into()),
                    time_control: None,
                    phase: MatchPhase::Playing,
                    plies: 23,
                    watchers: 4,
                    white_bot: false,
                    black_bot: false,
                    white_account: true,
                    black_account: false,
                    rated: false,
                    rating_range: None,
                    white_rating: None,
                    black_rating: None,
                }],
                channels: vec![
                    ChannelSummary {
                        channel: "tv1".into(),
                        kind: ChannelKind::Tv,
                        game: Some(header()),
                        watchers: 12,
                    },
                    ChannelSummary {
                        channel: "g4712".into(),
                        kind: ChannelKind::OnDemand,
                        game: None,
                        watchers: 1,
                    },
                ],
            }),
        ),
        server(
            "seat",
            ServerMessage::Seat(Seat {
                id: 4,
                match_id: MATCH.into(),
                invite_code: INVITE.into(),
                side: Side::White,
                token: WHITE_TOKEN.into(),
            }),
        ),
        server(
            "match_snapshot",
            ServerMessage::MatchSnapshot(MatchSnapshot {
                match_id: MATCH.into(),
                v: 2,
                white: Some(PlayerInfo { name: "Sietske".into(), connected: true, bot: false, account: true }),
                black: Some(PlayerInfo { name: "Wytze".into(), connected: true, bot: false, account: true }),
                time_control: timed(),
                public: true,
                phase: MatchPhase::Playing,
                start_fen: START_FEN.into(),
                fen: START_FEN.into(),
                moves: vec![],
                turn: Side::White,
                clock: Some(ClockState { white_ms: 300_000, black_ms: 300_000, running: None }),
                legal_moves: white_opening_moves(),
                king_counters: no_counters(),
                draw_offer: None,
                rematch_offer: None,
                absent: vec![],
                result: None,
                rematch: None,
                first_move_in_ms: Some(27_500),
                berserk: None,
                refuses_more_time: MoreTimeRefusals { white: false, black: true },
                takeback_offer: None,
                takebacks: true,
                rated: false,
                event: None,
            }),
        ),
        server(
            "match_snapshot.finished",
            ServerMessage::MatchSnapshot(MatchSnapshot {
                match_id: MATCH.into(),
                v: 6,
                white: Some(PlayerInfo { name: "Sietske".into(), connected: true, bot: false, account: true }),
                black: Some(PlayerInfo { name: "Wytze".into(), connected: false, bot: false, account: true }),
                time_control: None,
                public: false,
                phase: MatchPhase::Finished,
                start_fen: START_FEN.into(),
                fen: AFTER_32_28.into(),
                moves: vec![PlayedMove {
                    ply: 0,
                    side: Side::White,
                    notation: "32-28".into(),
                    route: vec![32, 28],
                    captures: vec![],
                    promotes: false,
                }],
                turn: Side::Black,
                clock: None,
                legal_moves: vec![],
                king_counters: no_counters(),
                draw_offer: None,
                rematch_offer: Some(Side::White),
                absent: vec![Absence { side: Side::Black, claim_in_ms: 41_500 }],
                result: Some(MatchResult {
                    winner: Some(Side::White),
                    reason: EndReason::Resignation,
                    detail: "black resigned".into(),
                    rating_change: None,
                }),
                rematch: None,
                first_move_in_ms: None,
                berserk: None,
                refuses_more_time: MoreTimeRefusals::default(),
                takeback_offer: None,
                takebacks: true,
                rated: false,
                event: None,
            }),
        ),
        // One match event of every kind, in the order they might occur.
        match_event(
            "player_joined",
            2,
            MatchEvent::PlayerJoined(PlayerJoined {
                side: Side::Black,
                name: "Wytze".into(),
                bot: false,
                first_move_in_ms: Some(30_000),
                account: true,
            }),
        ),
        match_event(
            "player_joined.bot",
            2,
            MatchEvent::PlayerJoined(PlayerJoined {
                side: Side::Black,
                name: "Scan 3.1".into(),
                bot: true,
                first_move_in_ms: Some(30_000),
                account: true,
            }),
        ),
        match_event(
            "moved",
            3,
            MatchEvent::Moved(Moved {
                played: PlayedMove {
                    ply: 0,
                    side: Side::White,
                    notation: "32-28".into(),
                    route: vec![32, 28],
                    captures: vec![],
                    promotes: false,
                },
                fen: AFTER_32_28.into(),
                clock: Some(ClockState {
                    white_ms: 300_000,
                    black_ms: 300_000,
                    running: None,
                }),
                legal_moves: black_opening_moves(),
                king_counters: no_counters(),
                first_move_in_ms: Some(30_000),
                lag_ms: None,
            }),
        ),
        match_event(
            "moved.capture",
            12,
            MatchEvent::Moved(Moved {
                played: PlayedMove {
                    ply: 9,
                    side: Side::Black,
                    notation: "9x18x16".into(),
                    route: vec![9, 18, 16],
                    captures: vec![13, 17],
                    promotes: false,
                },
                fen: "W:W26,31,33,34,35,36,37,38,39,40,41,42,43,44,45,46,47,48,49,50:B1,2,3,4,5,6,7,8,10,11,12,14,15,16,19,20:H0:F6:+0+0".into(),
                clock: None,
                legal_moves: vec![legal("26-21", &[26, 21], &[]), legal("31-27", &[31, 27], &[])],
                king_counters: no_counters(),
                first_move_in_ms: None,
                lag_ms: Some(84),
            }),
        ),
        match_event("draw_offered", 4, MatchEvent::DrawOffered(Side::White)),
        match_event("draw_declined", 5, MatchEvent::DrawDeclined(Side::Black)),
        match_event("draw_offer_cancelled", 6, MatchEvent::DrawOfferCancelled),
        match_event(
            "player_left",
            7,
            MatchEvent::PlayerLeft(Absence { side: Side::Black, claim_in_ms: 70_000 }),
        ),
        match_event("player_returned", 8, MatchEvent::PlayerReturned(Side::Black)),
        match_event(
            "ended",
            9,
            MatchEvent::Ended(MatchResult {
                winner: Some(Side::White),
                reason: EndReason::Resignation,
                detail: "black resigned".into(),
                rating_change: None,
            }),
        ),
        match_event(
            "ended.rated",
            9,
            MatchEvent::Ended(MatchResult {
                winner: Some(Side::White),
                reason: EndReason::Resignation,
                detail: "black resigned".into(),
                rating_change: Some(RatingChanges {
                    white: RatingDiff { before: 1520, after: 1532, diff: 12, provisional: false },
                    black: RatingDiff { before: 1500, after: 1311, diff: -189, provisional: true },
                }),
            }),
        ),
        match_event("rematch_offered", 10, MatchEvent::RematchOffered(Side::White)),
        match_event("rematch_declined", 11, MatchEvent::RematchDeclined(Side::Black)),
        match_event("rematch_started", 11, MatchEvent::RematchStarted("m9Lp4Zc6".into())),
        match_event(
            "more_time_given",
            12,
            MatchEvent::MoreTimeGiven(MoreTimeGiven {
                side: Side::Black,
                clock: ClockState { white_ms: 181_250, black_ms: 197_500, running: Some(Side::White) },
            }),
        ),
        match_event(
            "more_time_refused",
            13,
            MatchEvent::MoreTimeRefused(MoreTimeRefused { side: Side::White, refused: true }),
        ),
        match_event(
            "berserked",
            3,
            MatchEvent::Berserked(Berserked {
                side: Side::Black,
                clock: ClockState { white_ms: 180_000, black_ms: 90_000, running: Some(Side::White) },
            }),
        ),
        match_event("takeback_proposed", 14, MatchEvent::TakebackProposed(Side::Black)),
        match_event("takeback_declined", 15, MatchEvent::TakebackDeclined(Side::White)),
        match_event("takeback_cancelled", 15, MatchEvent::TakebackCancelled),
        match_event(
            "taken_back",
            15,
            MatchEvent::TakenBack(TakenBack {
                side: Side::Black,
                plies: 1,
                fen: AFTER_32_28.into(),
                clock: Some(ClockState { white_ms: 287_400, black_ms: 291_900, running: None }),
                legal_moves: black_opening_moves(),
                king_counters: no_counters(),
                first_move_in_ms: Some(30_000),
            }),
        ),
        server(
            "channel_snapshot",
            ServerMessage::ChannelSnapshot(ChannelSnapshot {
                channel: "tv1".into(),
                v: 58,
                kind: ChannelKind::Tv,
                game: Some(engine_view()),
                next_game_in_ms: None,
            }),
        ),
        server(
            "channel_snapshot.between_games",
            ServerMessage::ChannelSnapshot(ChannelSnapshot {
                channel: "tv2".into(),
                v: 131,
                kind: ChannelKind::Tv,
                game: None,
                next_game_in_ms: Some(7_500),
            }),
        ),
        channel_event(
            "game_started",
            56,
            ChannelEvent::GameStarted(EngineGameView {
                revealed: vec![],
                board: MINIT_START.into(),
                next_ply: 0,
                move_number: 1,
                next_reveal_in_ms: Some(3_000),
                legal: moves(&["a2-a3", "b1-a3", "b1-c3", "b2-b3", "c2-c3", "d2-d3", "e2-e3"]),
                ..engine_view()
            }),
        ),
        channel_event_on(
            "g4712",
            "game_started.reveal_from_ply",
            1,
            ChannelEvent::GameStarted(EngineGameView {
                header: GameHeader {
                    game_id: 4712,
                    serial: "CH3SS5".into(),
                    white: "L4".into(),
                    black: "K7".into(),
                },
                start_board: "kqbnrppppp..........PPPPPRNBQK".into(),
                start_ply: 0,
                promoted: vec![],
                revealed: vec![
                    "b1-c3".into(),
                    "e5-e4".into(),
                    "a2-a3".into(),
                    "b5-b4".into(),
                ],
                board: "kqbnrp.pp..p..pP.N...PPPPR.BQK".into(),
                next_ply: 4,
                move_number: 3,
                next_reveal_in_ms: Some(2_000),
                ply_interval_ms: 2_000,
                result: None,
                legal: moves(&["a1-a2", "a1-b1", "a3-a4", "a3-b4", "b2-b3", "c1-b1", "c3-a2", "c3-a4", "c3-b1", "c3-b5", "c3-d5", "c3-e4", "d2-d3", "e2-e3"]),
            }),
        ),
        channel_event(
            "ply_revealed",
            59,
            ChannelEvent::PlyRevealed(PlyRevealed {
                ply: 2,
                mv: "c3-d5".into(),
                board: "kqbnrpppN.....p.....PPPPPR.BQK".into(),
                next_reveal_in_ms: Some(3_000),
                legal: moves(&["a5-a4", "b5-b4", "c5-c4", "c6-d5", "d6-c4", "e4-e3", "e6-e5"]),
            }),
        ),
        channel_event(
            "game_ended",
            97,
            ChannelEvent::GameEnded(GameEnded {
                game_id: 4711,
                result: EngineResult { winner: Some(Side::White), reason: "king captured".into() },
                standings: vec![
                    Standing { name: "Sietske".into(), correct: 14, strikes: 2 },
                    Standing { name: "anonymous".into(), correct: 9, strikes: 3 },
                ],
                next_game_in_ms: Some(10_000),
            }),
        ),
        server(
            "crowd",
            ServerMessage::Crowd(Crowd { target: Target::Match(MATCH.into()), watchers: 3 }),
        ),
        server(
            "crowd.channel",
            ServerMessage::Crowd(Crowd { target: Target::Channel("tv1".into()), watchers: 12 }),
        ),
        server(
            "game_created",
            ServerMessage::GameCreated(GameCreated { id: 22, channel: "g4712".into() }),
        ),
        server(
            "prediction_result",
            ServerMessage::PredictionResult(PredictionResult {
                channel: "tv1".into(),
                ply: 2,
                guess: "c3-d5".into(),
                actual: "c3-d5".into(),
                correct: true,
                correct_total: 1,
                strikes: 0,
            }),
        ),
        server(
            "leaderboard",
            ServerMessage::Leaderboard(Leaderboard {
                id: 24,
                entries: vec![
                    LeaderboardEntry { name: "Sietske".into(), games: 31, correct: 402, strikes: 57 },
                    LeaderboardEntry { name: "Wytze".into(), games: 3, correct: 40, strikes: 8 },
                ],
            }),
        ),
        server(
            "shutdown",
            ServerMessage::Shutdown(ShutdownNotice {
                reason: "server restarting for an upgrade".into(),
                reconnect_after_ms: 5_000,
            }),
        ),
        server(
            "featured",
            ServerMessage::Featured(Featured {
                channel: FRISIAN_TV.into(),
                match_id: Some(MATCH.into()),
            }),
        ),
        server(
            "paired",
            ServerMessage::Paired(Paired {
                preset: PoolPreset::ThreePlusTwo,
                seat: Seat {
                    id: 25,
                    match_id: MATCH.into(),
                    invite_code: INVITE.into(),
                    side: Side::White,
                    token: WHITE_TOKEN.into(),
                },
                opponent: "Wytze".into(),
                opponent_rating: PlayerRating {
                    rating: 1512,
                    provisional: true,
                },
            }),
        ),
        server(
            "chat_line",
            ServerMessage::ChatLine(ChatLine {
                match_id: MATCH.into(),
                room: ChatRoom::Players,
                line: 7,
                author: "Anne".into(),
                member: true,
                say: ChatSay::Text("Nice sacrifice on 23!".into()),
                at_ms: 1_700_000_000_000,
            }),
        ),
        server(
            "chat_history",
            ServerMessage::ChatHistory(ChatHistory {
                match_id: MATCH.into(),
                room: ChatRoom::Spectators,
                lines: vec![ChatLine {
                    match_id: MATCH.into(),
                    room: ChatRoom::Spectators,
                    line: 3,
                    author: "Wytze".into(),
                    member: false,
                    say: ChatSay::Preset(ChatPreset::HaveFun),
                    at_ms: 1_700_000_000_000,
                }],
            }),
        ),
        server(
            "chat_deleted",
            ServerMessage::ChatDeleted(ChatDeleted {
                match_id: MATCH.into(),
                room: ChatRoom::Players,
                line: 7,
            }),
        ),
        server(
            "resumed",
            ServerMessage::Resumed(Resumed { match_id: MATCH.into(), side: Some(Side::White) }),
        ),
        server(
            "resumed.watch",
            ServerMessage::Resumed(Resumed { match_id: MATCH.into(), side: None }),
        ),
        client(
            "watch.event",
            31,
            ClientMessage::Watch(Watch { target: Target::Event(EVENT.into()), since_v: Some(8) }),
        ),
        client("unwatch.event", 32, ClientMessage::Unwatch(Target::Event(EVENT.into()))),
        server("club_event.swiss", ServerMessage::ClubEvent(swiss_event())),
        server("club_event.arena", ServerMessage::ClubEvent(arena_event())),
        server(
            "featured.nothing_live",
            ServerMessage::Featured(Featured { channel: FRISIAN_TV.into(), match_id: None }),
        ),
        client(
            "watch.frisian_tv",
            30,
            ClientMessage::Watch(Watch {
                target: Target::Channel(FRISIAN_TV.into()),
                since_v: None,
            }),
        ),
        // Every value of every unit-only enum, in declaration order.
        unit_enum("error_code", ErrorCode::ALL.to_vec()),
        unit_enum(
            "end_reason",
            vec![
                EndReason::NoLegalMove,
                EndReason::Resignation,
                EndReason::TimeForfeit,
                EndReason::DrawByRule,
                EndReason::DrawByAgreement,
                EndReason::Aborted,
                EndReason::Abandoned,
                EndReason::DrawClaimed,
            ],
        ),
        unit_enum(
            "match_phase",
            vec![MatchPhase::Waiting, MatchPhase::Playing, MatchPhase::Finished],
        ),
        unit_enum("channel_kind", vec![ChannelKind::Tv, ChannelKind::OnDemand]),
        unit_enum(
            "color_choice",
            vec![ColorChoice::White, ColorChoice::Black, ColorChoice::Random],
        ),
        unit_enum("claim_kind", vec![ClaimKind::Win, ClaimKind::Draw]),
        unit_enum("side", vec![Side::White, Side::Black]),
        unit_enum("pool_preset", PoolPreset::ALL.to_vec()),
        unit_enum("chat_preset", ChatPreset::ALL.to_vec()),
        unit_enum("chat_room", vec![ChatRoom::Players, ChatRoom::Spectators]),
        unit_enum(
            "club_event_kind",
            vec![ClubEventKind::Swiss, ClubEventKind::RoundRobin, ClubEventKind::Arena],
        ),
        unit_enum(
            "club_event_status",
            vec![ClubEventStatus::Waiting, ClubEventStatus::Playing, ClubEventStatus::Finished],
        ),
    ];
    cases.push(case(
        "value.king_counters",
        KingCounters {
            white: None,
            black: Some(KingCounter {
                count: 2,
                square: 19,
            }),
        },
        |encoding, frame| encoding.decode(frame, MAX_SERVER_FRAME_BYTES),
    ));
    cases.push(case(
        "value.legal_capture",
        legal("28x17x19", &[28, 17, 19], &[18, 22]),
        |encoding, frame| encoding.decode(frame, MAX_SERVER_FRAME_BYTES),
    ));
    cases.extend(exchanges());
    cases
}

/// The messages of the two annotated exchanges in `PROTOCOL.md` that the catalogue above does
/// not already hold, so that every line of those exchanges is encoder output too.
fn exchanges() -> Vec<Case> {
    let ack = |name: &str, id: u64, duplicate: bool| {
        server(
            &format!("exchange.{name}"),
            ServerMessage::Ack(Ack { id, duplicate }),
        )
    };
    vec![
        // The match: Sietske (connection A) creates, Wytze (connection B) joins.
        ack("ack_hello", 1, false),
        client(
            "exchange.create_private",
            2,
            ClientMessage::CreateMatch(CreateMatch {
                time_control: timed(),
                color: ColorChoice::White,
                public: false,
                rated: false,
                rating_range: None,
            }),
        ),
        server(
            "exchange.seat_white",
            ServerMessage::Seat(Seat {
                id: 2,
                match_id: MATCH.into(),
                invite_code: INVITE.into(),
                side: Side::White,
                token: WHITE_TOKEN.into(),
            }),
        ),
        server(
            "exchange.snapshot_waiting",
            ServerMessage::MatchSnapshot(MatchSnapshot {
                match_id: MATCH.into(),
                v: 1,
                white: Some(PlayerInfo {
                    name: "Sietske".into(),
                    connected: true,
                    bot: false,
                    account: true,
                }),
                black: None,
                time_control: timed(),
                public: false,
                phase: MatchPhase::Waiting,
                start_fen: START_FEN.into(),
                fen: START_FEN.into(),
                moves: vec![],
                turn: Side::White,
                clock: Some(ClockState {
                    white_ms: 300_000,
                    black_ms: 300_000,
                    running: None,
                }),
                legal_moves: vec![],
                king_counters: no_counters(),
                draw_offer: None,
                rematch_offer: None,
                absent: vec![],
                result: None,
                rematch: None,
                first_move_in_ms: None,
                berserk: None,
                refuses_more_time: MoreTimeRefusals::default(),
                takeback_offer: None,
                takebacks: true,
                rated: false,
                event: None,
            }),
        ),
        client(
            "exchange.hello_black",
            1,
            ClientMessage::Hello(Hello {
                protocol: PROTOCOL_VERSION,
                client: "bot.py".into(),
                name: "Wytze".into(),
                bot: false,
            }),
        ),
        client(
            "exchange.join",
            2,
            ClientMessage::JoinMatch(JoinMatch::Code(INVITE.into())),
        ),
        server(
            "exchange.seat_black",
            ServerMessage::Seat(Seat {
                id: 2,
                match_id: MATCH.into(),
                invite_code: INVITE.into(),
                side: Side::Black,
                token: BLACK_TOKEN.into(),
            }),
        ),
        server(
            "exchange.snapshot_joined",
            ServerMessage::MatchSnapshot(MatchSnapshot {
                match_id: MATCH.into(),
                v: 2,
                white: Some(PlayerInfo {
                    name: "Sietske".into(),
                    connected: true,
                    bot: false,
                    account: true,
                }),
                black: Some(PlayerInfo {
                    name: "Wytze".into(),
                    connected: true,
                    bot: false,
                    account: true,
                }),
                time_control: timed(),
                public: false,
                phase: MatchPhase::Playing,
                start_fen: START_FEN.into(),
                fen: START_FEN.into(),
                moves: vec![],
                turn: Side::White,
                clock: Some(ClockState {
                    white_ms: 300_000,
                    black_ms: 300_000,
                    running: None,
                }),
                legal_moves: white_opening_moves(),
                king_counters: no_counters(),
                draw_offer: None,
                rematch_offer: None,
                absent: vec![],
                result: None,
                rematch: None,
                first_move_in_ms: Some(30_000),
                berserk: None,
                refuses_more_time: MoreTimeRefusals::default(),
                takeback_offer: None,
                takebacks: true,
                rated: false,
                event: None,
            }),
        ),
        client(
            "exchange.move_black_early",
            3,
            ClientMessage::Move(PlayMove {
                match_id: MATCH.into(),
                token: BLACK_TOKEN.into(),
                route: vec![19, 23],
                lag_ms: None,
            }),
        ),
        server(
            "exchange.not_your_turn",
            ServerMessage::Error(ErrorReply {
                id: Some(3),
                code: ErrorCode::NotYourTurn,
                message: "not your turn: white to move".into(),
                last_id: None,
                args: Some(Box::new(
                    ErrorArgs::new("side_to_move").word("side", "white"),
                )),
            }),
        ),
        client(
            "exchange.move_white",
            3,
            ClientMessage::Move(PlayMove {
                match_id: MATCH.into(),
                token: WHITE_TOKEN.into(),
                route: vec![32, 28],
                lag_ms: None,
            }),
        ),
        ack("ack_move", 3, false),
        match_event(
            "exchange.player_left",
            4,
            MatchEvent::PlayerLeft(Absence {
                side: Side::White,
                claim_in_ms: 70_000,
            }),
        ),
        client(
            "exchange.resume",
            1,
            ClientMessage::Resume(Resume {
                token: WHITE_TOKEN.into(),
                since_v: Some(2),
            }),
        ),
        server(
            "exchange.seat_resumed",
            ServerMessage::Seat(Seat {
                id: 1,
                match_id: MATCH.into(),
                invite_code: INVITE.into(),
                side: Side::White,
                token: WHITE_TOKEN.into(),
            }),
        ),
        match_event(
            "exchange.player_returned",
            5,
            MatchEvent::PlayerReturned(Side::White),
        ),
        ack("ack_move_again", 3, true),
        client(
            "exchange.resign_black",
            4,
            ClientMessage::Resign(SeatAction {
                match_id: MATCH.into(),
                token: BLACK_TOKEN.into(),
            }),
        ),
        ack("ack_resign", 4, false),
        match_event(
            "exchange.ended",
            6,
            MatchEvent::Ended(MatchResult {
                winner: Some(Side::White),
                reason: EndReason::Resignation,
                detail: "black resigned".into(),
                rating_change: None,
            }),
        ),
        // The prediction round on tv1.
        client(
            "exchange.watch_tv1",
            2,
            ClientMessage::Watch(Watch {
                target: Target::Channel("tv1".into()),
                since_v: None,
            }),
        ),
        ack("ack_watch", 2, false),
        client(
            "exchange.predict_first",
            3,
            ClientMessage::Predict(Predict {
                channel: "tv1".into(),
                ply: 2,
                from: "c3".into(),
                to: "e4".into(),
            }),
        ),
        ack("ack_predict_first", 3, false),
        ack("ack_predict", 4, false),
        client(
            "exchange.predict_late",
            5,
            ClientMessage::Predict(Predict {
                channel: "tv1".into(),
                ply: 2,
                from: "a2".into(),
                to: "a3".into(),
            }),
        ),
        server(
            "exchange.prediction_closed",
            ServerMessage::Error(ErrorReply {
                id: Some(5),
                code: ErrorCode::PredictionClosed,
                message: "ply 2 is already revealed; the coming ply is 3".into(),
                last_id: None,
                args: Some(Box::new(
                    ErrorArgs::new("already_revealed")
                        .number("ply", 2u32)
                        .number("next", 3u32),
                )),
            }),
        ),
        client(
            "exchange.predict_next",
            6,
            ClientMessage::Predict(Predict {
                channel: "tv1".into(),
                ply: 3,
                from: "a5".into(),
                to: "a4".into(),
            }),
        ),
        ack("ack_predict_next", 6, false),
        channel_event(
            "exchange.ply3",
            60,
            ChannelEvent::PlyRevealed(PlyRevealed {
                ply: 3,
                mv: "b5-b4".into(),
                board: "kqbnrp.pN..p..p.....PPPPPR.BQK".into(),
                next_reveal_in_ms: Some(3_000),
                legal: moves(&[
                    "a1-b1", "a2-a3", "b2-b3", "c1-b1", "c2-c3", "d2-d3", "d5-b4", "d5-b6",
                    "d5-c3", "d5-e3", "e2-e3",
                ]),
            }),
        ),
        server(
            "exchange.prediction_wrong",
            ServerMessage::PredictionResult(PredictionResult {
                channel: "tv1".into(),
                ply: 3,
                guess: "a5-a4".into(),
                actual: "b5-b4".into(),
                correct: false,
                correct_total: 1,
                strikes: 1,
            }),
        ),
        client(
            "exchange.leaderboard",
            7,
            ClientMessage::Leaderboard(LeaderboardQuery { limit: 3 }),
        ),
        server(
            "exchange.leaderboard_reply",
            ServerMessage::Leaderboard(Leaderboard {
                id: 7,
                entries: vec![
                    LeaderboardEntry {
                        name: "Sietske".into(),
                        games: 31,
                        correct: 402,
                        strikes: 57,
                    },
                    LeaderboardEntry {
                        name: "Wytze".into(),
                        games: 3,
                        correct: 40,
                        strikes: 8,
                    },
                    LeaderboardEntry {
                        name: "anonymous".into(),
                        games: 88,
                        correct: 610,
                        strikes: 201,
                    },
                ],
            }),
        ),
    ]
}

fn fixture_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/golden")
}

fn blessing() -> bool {
    std::env::var_os("BLESS").is_some_and(|value| value != "0" && !value.is_empty())
}

fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|byte| format!("{byte:02x}")).collect()
}

/// The message tag at the top of a JSON value: a bare string, or the only key of an object.
fn tag(value: &Value) -> Option<&str> {
    match value {
        Value::String(tag) => Some(tag),
        Value::Object(fields) if fields.len() == 1 => fields.keys().next().map(String::as_str),
        _ => None,
    }
}

#[test]
fn fixtures_pin_both_encodings_of_every_case() {
    let dir = fixture_dir();
    let bless = blessing();
    if bless {
        fs::create_dir_all(&dir).unwrap();
    }
    let mut failures = Vec::new();
    let mut expected_files = BTreeSet::new();
    let mut names = BTreeSet::new();
    for case in cases() {
        assert!(
            names.insert(case.name.clone()),
            "two cases named {}",
            case.name
        );
        if let Err(problem) = (case.decodes_back)() {
            failures.push(format!("{}: {problem}", case.name));
        }
        for (file, actual) in [
            (format!("{}.json", case.name), format!("{}\n", case.json)),
            (
                format!("{}.hex", case.name),
                format!("{}\n", hex(&case.postcard)),
            ),
        ] {
            let path = dir.join(&file);
            expected_files.insert(file.clone());
            if bless {
                fs::write(&path, &actual).unwrap();
                continue;
            }
            match fs::read_to_string(&path) {
                Ok(pinned) if pinned == actual => {}
                Ok(pinned) => failures.push(format!(
                    "{file}: the wire form changed\n  pinned: {}\n  now:    {}",
                    pinned.trim_end(),
                    actual.trim_end()
                )),
                Err(err) => failures.push(format!("{file}: {err}")),
            }
        }
    }
    for entry in fs::read_dir(&dir).unwrap() {
        let file = entry.unwrap().file_name().into_string().unwrap();
        if !expected_files.contains(&file) {
            if bless {
                fs::remove_file(dir.join(&file)).unwrap();
            } else {
                failures.push(format!("{file}: no case produces this fixture"));
            }
        }
    }
    assert!(
        failures.is_empty(),
        "{} golden mismatches (BLESS=1 re-records after a deliberate change):\n{}",
        failures.len(),
        failures.join("\n")
    );
}

#[test]
fn every_variant_has_a_case() {
    let mut seen: BTreeMap<&str, BTreeSet<String>> = BTreeMap::new();
    let mut unit_lists = BTreeMap::new();
    for case in cases() {
        let value: Value = serde_json::from_str(&case.json).unwrap();
        let (group, _) = case.name.split_once('.').unwrap();
        match group {
            "client" => {
                let message = tag(&value["msg"]).unwrap().to_owned();
                seen.entry("client").or_default().insert(message);
            }
            "server" => {
                let message = tag(&value).unwrap();
                let inner = &value[message]["event"];
                match message {
                    "match_event" => seen.entry("match_event").or_default(),
                    "channel_event" => seen.entry("channel_event").or_default(),
                    _ => seen.entry("unused").or_default(),
                }
                .insert(tag(inner).unwrap_or_default().to_owned());
                seen.entry("server").or_default().insert(message.to_owned());
            }
            "enum" => {
                unit_lists.insert(case.name.clone(), value);
            }
            "value" => {}
            other => panic!("unknown case group {other}"),
        }
    }
    let check = |group: &str, names: &[&str]| {
        let want: BTreeSet<String> = names.iter().map(|name| name.to_string()).collect();
        assert!(!want.is_empty(), "{group}: no variant names");
        assert_eq!(
            seen.get(group).cloned().unwrap_or_default(),
            want,
            "{group}"
        );
    };
    check("client", variant_names::<ClientMessage>());
    check("server", variant_names::<ServerMessage>());
    check("match_event", variant_names::<MatchEvent>());
    check("channel_event", variant_names::<ChannelEvent>());

    let list = |name: &str, names: &[&str]| {
        let want: Vec<Value> = names.iter().map(|name| Value::from(*name)).collect();
        assert_eq!(
            unit_lists[&format!("enum.{name}")],
            Value::Array(want),
            "{name}"
        );
    };
    list("error_code", variant_names::<ErrorCode>());
    list("end_reason", variant_names::<EndReason>());
    list("match_phase", variant_names::<MatchPhase>());
    list("channel_kind", variant_names::<ChannelKind>());
    list("color_choice", variant_names::<ColorChoice>());
    list("claim_kind", variant_names::<ClaimKind>());
    list("side", variant_names::<Side>());
    list("pool_preset", variant_names::<PoolPreset>());
    list("chat_preset", variant_names::<ChatPreset>());
    list("chat_room", variant_names::<ChatRoom>());
    list("club_event_kind", variant_names::<ClubEventKind>());
    list("club_event_status", variant_names::<ClubEventStatus>());
}

#[test]
fn variant_names_follow_declaration_order() {
    assert_eq!(variant_names::<ServerMessage>()[0], "welcome");
    assert_eq!(variant_names::<ClientMessage>()[2], "list_lobby");
    assert_eq!(variant_names::<Side>(), ["white", "black"]);
    assert!(variant_names::<Ack>().is_empty());
    assert!(variant_names::<u64>().is_empty());
}

/// `PROTOCOL.md` is the specification other clients are written from: it must quote every
/// JSON fixture exactly, and its postcard index tables must match the enums.
#[test]
fn protocol_md_quotes_every_fixture_and_index() {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("../PROTOCOL.md");
    let doc = fs::read_to_string(&path).expect("PROTOCOL.md at the workspace root");
    let mut missing = Vec::new();
    for case in cases() {
        if !doc.contains(&case.json) {
            missing.push(format!("{}: {}", case.name, case.json));
        }
    }
    for hex_case in [
        "client.ping",
        "client.list_lobby",
        "client.move",
        "server.ack",
        "server.pong",
    ] {
        let case = cases()
            .into_iter()
            .find(|case| case.name == hex_case)
            .unwrap();
        if !doc.contains(&hex(&case.postcard)) {
            missing.push(format!("{hex_case} (postcard): {}", hex(&case.postcard)));
        }
    }
    for names in [
        variant_names::<ClientMessage>(),
        variant_names::<ServerMessage>(),
        variant_names::<MatchEvent>(),
        variant_names::<ChannelEvent>(),
    ] {
        for (index, name) in names.iter().enumerate() {
            let row = format!("| {index} | `{name}` |");
            if !doc.contains(&row) {
                missing.push(format!("postcard index row {row}"));
            }
        }
    }
    for code in variant_names::<ErrorCode>() {
        if !doc.contains(&format!("| `{code}` |")) {
            missing.push(format!("error code table row for {code}"));
        }
    }
    assert!(
        missing.is_empty(),
        "PROTOCOL.md does not show {} fixtures/rows exactly:\n{}",
        missing.len(),
        missing.join("\n")
    );
}
