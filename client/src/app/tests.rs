//! App state machine tests: server messages and keys in; queued messages, notes and store
//! changes out. No server, no terminal.

use std::time::Instant;

use boardcast_protocol::*;
use crossterm::event::{KeyCode, KeyEvent};

use super::channel::tests::snapshot as channel_snapshot;
use super::command::Command;
use super::game::tests::{moved, snapshot};
use super::{App, Screen, StoreOp};

fn seat(id: u64, side: Side) -> ServerMessage {
    ServerMessage::Seat(Seat {
        id,
        match_id: "m1".into(),
        invite_code: "ABCD".into(),
        side,
        token: "secret".into(),
    })
}

fn lines(app: &mut App) -> Vec<String> {
    app.drain().1.iter().map(ToString::to_string).collect()
}

fn sent(app: &mut App) -> Vec<ClientMessage> {
    app.out.drain(..).map(|e| e.msg).collect()
}

fn key(app: &mut App, code: KeyCode) {
    app.key(KeyEvent::from(code));
}

fn type_text(app: &mut App, text: &str) {
    for c in text.chars() {
        key(app, KeyCode::Char(c));
    }
}

/// A player seated as `side` in match m1, with the start snapshot received.
fn seated(side: Side, legal: &[&str]) -> App {
    let create = Command::Create {
        time: None,
        color: ColorChoice::Random,
        public: true,
        rated: false,
    };
    let mut app = App::new("alice", Some(create), 100);
    app.connected();
    app.receive(seat(101, side), Instant::now());
    let mut snap = snapshot("W:W31-50:B1-20:H0:F1:+0+0", legal);
    snap.turn = Side::White;
    app.receive(ServerMessage::MatchSnapshot(snap), Instant::now());
    app.drain();
    app
}

#[test]
fn creating_a_match_greets_creates_stores_the_seat_and_lists_legal_moves() {
    let create = Command::Create {
        time: Some("5+3".parse().unwrap()),
        color: ColorChoice::White,
        public: false,
        rated: false,
    };
    let mut app = App::new("alice", Some(create), 100);
    app.connected();
    let out = app.out.clone();
    assert_eq!(out.len(), 2);
    assert_eq!((out[0].id, out[1].id), (100, 101));
    assert!(matches!(&out[0].msg, ClientMessage::Hello(h) if h.name == "alice"));
    assert!(matches!(&out[1].msg, ClientMessage::CreateMatch(c) if !c.public));
    app.receive(seat(101, Side::White), Instant::now());
    let snap = snapshot("W:W31-50:B1-20", &["32-28", "31-27"]);
    app.receive(ServerMessage::MatchSnapshot(snap), Instant::now());
    let (_, notes, ops) = app.drain();
    let text: Vec<String> = notes.iter().map(ToString::to_string).collect();
    assert_eq!(
        text,
        [
            "connected",
            "seat white m1 invite ABCD",
            "match m1 white alice black bob playing",
            "turn white",
            "legal 31-27 32-28",
        ]
    );
    assert!(matches!(&ops[..], [StoreOp::Save(s)] if s.token == "secret"));
    assert_eq!(app.ui.screen, Screen::Match);
    assert!(!text.iter().any(|l| l.contains("secret")));
}

#[test]
fn typed_moves_become_routes_and_moves_are_announced() {
    let mut app = seated(Side::White, &["32-28", "31-27"]);
    app.command(Command::Move("32-28".into()));
    let out = sent(&mut app);
    assert!(
        matches!(&out[..], [ClientMessage::Move(m)] if m.route == [32, 28] && m.token == "secret")
    );
    let event = MatchEventMsg {
        match_id: "m1".into(),
        v: 3,
        event: moved(0, "32-28", "B:W28,31,33-50:B1-20", &["19-23"]),
    };
    app.receive(ServerMessage::MatchEvent(event), Instant::now());
    // White waits now: no legal list for us.
    assert_eq!(lines(&mut app), ["move 1. 32-28", "turn black"]);
}

#[test]
fn black_gets_the_legal_list_and_a_flipped_board() {
    let mut app = seated(Side::Black, &["32-28"]);
    assert!(app.board_flipped());
    let event = MatchEventMsg {
        match_id: "m1".into(),
        v: 3,
        event: moved(0, "32-28", "B:W28,31,33-50:B1-20", &["19-23", "18-23"]),
    };
    app.receive(ServerMessage::MatchEvent(event), Instant::now());
    assert_eq!(
        lines(&mut app),
        ["move 1. 32-28", "turn black", "legal 18-23 19-23"]
    );
    key(&mut app, KeyCode::Char('f'));
    assert!(!app.board_flipped());
}

#[test]
fn a_move_carries_the_measured_round_trip_for_lag_compensation() {
    let mut app = seated(Side::White, &["32-28", "31-27"]);
    app.command(Command::Move("32-28".into()));
    let out = sent(&mut app);
    assert!(
        matches!(&out[..], [ClientMessage::Move(m)] if m.lag_ms.is_none()),
        "nothing measured yet: the server uses its own figure"
    );
    let mut app = seated(Side::White, &["32-28", "31-27"]);
    app.round_trip(std::time::Duration::from_millis(300));
    app.round_trip(std::time::Duration::from_millis(100));
    app.command(Command::Move("32-28".into()));
    let out = sent(&mut app);
    assert!(
        matches!(&out[..], [ClientMessage::Move(m)] if m.lag_ms == Some(250)),
        "a moving average, each ping a quarter: {out:?}"
    );
}

#[test]
fn an_ambiguous_capture_asks_which_and_a_digit_picks() {
    let mut app = seated(Side::White, &["9x18x16", "9x20x16"]);
    type_text(&mut app, "9x16");
    key(&mut app, KeyCode::Enter);
    assert_eq!(lines(&mut app), ["ambiguous 9x18x16 9x20x16"]);
    assert!(sent(&mut app).is_empty());
    key(&mut app, KeyCode::Char('2'));
    let out = sent(&mut app);
    assert!(matches!(&out[..], [ClientMessage::Move(m)] if m.route == [9, 20, 16]));
    assert_eq!(app.ui.choice, None);
}

#[test]
fn tab_completes_from_the_legal_list() {
    let mut app = seated(Side::White, &["32-28", "32-27", "31-26"]);
    type_text(&mut app, "31");
    key(&mut app, KeyCode::Tab);
    assert_eq!(app.ui.input, "31-26");
    key(&mut app, KeyCode::Enter);
    assert!(matches!(&sent(&mut app)[..], [ClientMessage::Move(m)] if m.route == [31, 26]));
}

#[test]
fn the_cursor_picks_origin_then_destination() {
    let mut app = seated(Side::White, &["32-28", "32-27"]);
    // The cursor starts on a movable piece: the first legal origin, 32 (row 6, column 3).
    assert_eq!(app.ui.cursor, (6, 3));
    key(&mut app, KeyCode::Enter);
    assert_eq!(app.ui.selected, Some(32));
    // 28 is up one row and right one column: row 5, column 4.
    key(&mut app, KeyCode::Char('k'));
    key(&mut app, KeyCode::Right);
    assert_eq!(app.ui.cursor, (5, 4));
    key(&mut app, KeyCode::Enter);
    assert!(matches!(&sent(&mut app)[..], [ClientMessage::Move(m)] if m.route == [32, 28]));
}

#[test]
fn resigning_needs_a_yes() {
    let mut app = seated(Side::White, &["32-28"]);
    key(&mut app, KeyCode::Char('r'));
    key(&mut app, KeyCode::Char('n'));
    assert!(sent(&mut app).is_empty());
    key(&mut app, KeyCode::Char('r'));
    key(&mut app, KeyCode::Char('y'));
    assert!(matches!(&sent(&mut app)[..], [ClientMessage::Resign(a)] if a.match_id == "m1"));
}

#[test]
fn a_reconnect_resumes_the_seat_and_resends_unacknowledged_moves() {
    let mut app = seated(Side::White, &["32-28"]);
    app.command(Command::Move("32-28".into()));
    let move_id = app.out[0].id;
    app.out.clear();
    app.disconnected("connection lost", 500);
    assert_eq!(
        lines(&mut app),
        ["disconnected retry 500ms: connection lost"]
    );
    app.connected();
    let out = app.out.clone();
    assert!(matches!(&out[0].msg, ClientMessage::Hello(_)));
    assert!(matches!(&out[1].msg,
        ClientMessage::Resume(r) if r.token == "secret" && r.since_v == Some(2)));
    assert_eq!(out[2].id, move_id);
    assert!(matches!(&out[2].msg, ClientMessage::Move(m) if m.route == [32, 28]));
    app.receive(
        ServerMessage::Ack(Ack {
            id: move_id,
            duplicate: true,
        }),
        Instant::now(),
    );
    app.out.clear();
    app.disconnected("again", 500);
    app.connected();
    assert_eq!(app.out.len(), 2, "an acknowledged move is not sent again");
}

#[test]
fn a_match_resumed_on_another_server_changes_nothing_and_keeps_the_move_waiting() {
    let mut app = seated(Side::White, &["32-28"]);
    app.command(Command::Move("32-28".into()));
    let move_id = app.out[0].id;
    app.drain();
    for side in [Some(Side::White), None] {
        app.receive(
            ServerMessage::Resumed(Resumed {
                match_id: "m1".into(),
                side,
            }),
            Instant::now(),
        );
    }
    assert!(lines(&mut app).is_empty(), "nothing to tell the player");
    assert_eq!(app.seat.as_ref().map(|s| s.token.as_str()), Some("secret"));
    assert!(
        app.pending.contains_key(&move_id),
        "the move still waits for its answer"
    );
    app.out.clear();
    app.disconnected("connection lost", 500);
    app.connected();
    assert!(
        app.out.iter().any(|e| e.id == move_id),
        "and is sent again after a reconnect"
    );
}

#[test]
fn missed_events_ask_for_a_resync_and_old_ones_are_ignored() {
    let mut app = seated(Side::White, &["32-28"]);
    let cancelled = |v| {
        ServerMessage::MatchEvent(MatchEventMsg {
            match_id: "m1".into(),
            v,
            event: MatchEvent::DrawOfferCancelled,
        })
    };
    app.receive(cancelled(2), Instant::now());
    assert!(app.drain().0.is_empty());
    app.receive(cancelled(9), Instant::now());
    let out = sent(&mut app);
    assert!(matches!(&out[..], [ClientMessage::Watch(w)]
        if w.since_v == Some(2) && w.target == Target::Match("m1".into())));
}

#[test]
fn server_errors_read_as_lines_and_a_dead_seat_is_forgotten() {
    let mut app = App::new(
        "bob",
        Some(Command::Resume {
            token: "old".into(),
            match_id: "m9".into(),
        }),
        1,
    );
    app.connected();
    let resume_id = app.out[1].id;
    app.drain();
    app.receive(
        ServerMessage::Error(ErrorReply {
            id: Some(resume_id),
            code: ErrorCode::InvalidToken,
            message: "unknown seat token".into(),
            last_id: None,
            args: None,
        }),
        Instant::now(),
    );
    let (_, notes, ops) = app.drain();
    assert_eq!(
        notes[0].to_string(),
        "error invalid_token: unknown seat token"
    );
    assert_eq!(ops, [StoreOp::Remove("m9".into())]);
    assert_eq!(app.seat, None);
}

#[test]
fn the_end_of_the_match_is_announced_and_the_seat_dropped_from_the_store() {
    let mut app = seated(Side::White, &["32-28"]);
    let ended = MatchEventMsg {
        match_id: "m1".into(),
        v: 3,
        event: MatchEvent::Ended(MatchResult {
            winner: Some(Side::Black),
            reason: EndReason::Resignation,
            detail: "white resigned".into(),
            rating_change: None,
        }),
    };
    app.receive(ServerMessage::MatchEvent(ended), Instant::now());
    let (_, notes, ops) = app.drain();
    assert_eq!(notes[0].to_string(), "result black wins: white resigned");
    assert_eq!(ops, [StoreOp::Remove("m1".into())]);
    assert!(!app.my_turn());
    assert_eq!(app.stored, None, "nothing left to resume");
}

#[test]
fn unexpected_messages_never_panic() {
    let mut app = App::new("eve", None, 1);
    let now = Instant::now();
    let strays = [
        moved(0, "32-28", "nonsense", &[]),
        MatchEvent::RematchStarted("m2".into()),
    ];
    for event in strays {
        let msg = MatchEventMsg {
            match_id: "nowhere".into(),
            v: 1,
            event,
        };
        app.receive(ServerMessage::MatchEvent(msg), now);
    }
    app.receive(ServerMessage::MatchSnapshot(snapshot("x", &[])), now);
    app.receive(ServerMessage::ChannelSnapshot(channel_snapshot()), now);
    app.receive(
        ServerMessage::PredictionResult(PredictionResult {
            channel: "tv9".into(),
            ply: 3,
            guess: "a1-a2".into(),
            actual: "b1-c3".into(),
            correct: false,
            correct_total: 0,
            strikes: 1,
        }),
        now,
    );
    app.receive(
        ServerMessage::Ack(Ack {
            id: 77,
            duplicate: false,
        }),
        now,
    );
    app.garbled("bad bytes");
    app.command(Command::Move("32-28".into()));
    app.command(Command::Resign);
    app.command(Command::Guess {
        from: "b1".into(),
        to: "c3".into(),
    });
    for code in [KeyCode::Enter, KeyCode::Char('d'), KeyCode::Char('p')] {
        key(&mut app, code);
    }
    let text = lines(&mut app);
    assert_eq!(
        text[0],
        "info ignored a message this client cannot read: bad bytes"
    );
    assert!(
        text[1..].iter().all(|l| l.starts_with("error ")),
        "{text:?}"
    );
    assert_eq!(text.len(), 4, "{text:?}");
    assert!(app.game.is_none() && app.channel.is_none());
}

#[test]
fn predicting_picks_from_then_to_and_keeps_the_score() {
    let mut app = App::new("dee", Some(Command::Predict("tv1".into())), 1);
    app.connected();
    let out = sent(&mut app);
    assert!(matches!(&out[1], ClientMessage::Watch(w)
        if w.target == Target::Channel("tv1".into()) && w.since_v.is_none()));
    app.receive(
        ServerMessage::ChannelSnapshot(channel_snapshot()),
        Instant::now(),
    );
    assert_eq!(
        lines(&mut app),
        ["connected", "game tv1 42 CH3SS5 L4 K7 move 1"]
    );
    assert_eq!(app.ui.screen, Screen::Channel);
    // Cursor starts on b1; pick it, then go to c3 (two up, one right).
    key(&mut app, KeyCode::Enter);
    for code in [KeyCode::Up, KeyCode::Up, KeyCode::Right] {
        key(&mut app, code);
    }
    key(&mut app, KeyCode::Enter);
    let out = sent(&mut app);
    assert!(matches!(&out[..], [ClientMessage::Predict(p)]
        if p.from == "b1" && p.to == "c3" && p.ply == 0 && p.channel == "tv1"));
    let result = PredictionResult {
        channel: "tv1".into(),
        ply: 0,
        guess: "b1-c3".into(),
        actual: "b1-c3".into(),
        correct: true,
        correct_total: 1,
        strikes: 0,
    };
    app.receive(ServerMessage::PredictionResult(result), Instant::now());
    assert_eq!(
        lines(&mut app),
        ["predicted tv1 0 b1-c3 correct actual b1-c3 score 1 strikes 0"]
    );
    let score = &app.channel.as_ref().unwrap().score;
    assert_eq!((score.correct, score.strikes), (1, 0));
}

#[test]
fn typed_guesses_and_the_piece_set_toggle() {
    let mut app = App::new("dee", Some(Command::Predict("tv1".into())), 1);
    app.connected();
    app.receive(
        ServerMessage::ChannelSnapshot(channel_snapshot()),
        Instant::now(),
    );
    app.drain();
    key(&mut app, KeyCode::Char('f'));
    assert!(app.ui.flat);
    type_text(&mut app, "e2-e3");
    key(&mut app, KeyCode::Enter);
    assert!(
        matches!(&sent(&mut app)[..], [ClientMessage::Predict(p)] if p.from == "e2" && p.to == "e3")
    );
    assert_eq!(
        app.channel.as_ref().unwrap().score.pending,
        Some((0, "e2-e3".to_owned()))
    );
}

#[test]
fn lobby_lines_show_members_ratings_and_rated_terms() {
    let mut app = App::new("fay", Some(Command::Lobby), 1);
    app.connected();
    app.drain();
    let seek = MatchSummary {
        match_id: "m7".into(),
        white: Some("gus".into()),
        black: None,
        time_control: None,
        phase: MatchPhase::Waiting,
        plies: 0,
        watchers: 0,
        white_bot: false,
        black_bot: false,
        rated: true,
        rating_range: Some(300),
        white_rating: Some(PlayerRating {
            rating: 1847,
            provisional: false,
        }),
        black_rating: None,
        white_account: true,
        black_account: false,
    };
    let live = MatchSummary {
        match_id: "m8".into(),
        white: Some("hal".into()),
        black: Some("ivy".into()),
        phase: MatchPhase::Playing,
        plies: 12,
        rating_range: None,
        white_rating: Some(PlayerRating {
            rating: 1512,
            provisional: true,
        }),
        black_rating: Some(PlayerRating {
            rating: 1490,
            provisional: false,
        }),
        ..seek.clone()
    };
    let lobby = Lobby {
        id: 2,
        seeks: vec![seek],
        live: vec![live],
        channels: Vec::new(),
    };
    app.receive(ServerMessage::Lobby(lobby), Instant::now());
    assert_eq!(
        lines(&mut app),
        [
            "seek m7 gus (1847) untimed free black rated ±300",
            "live m8 hal (1512?) ivy (1490) untimed plies 12 watchers 0 rated",
            "lobby end"
        ]
    );
}

#[test]
fn the_home_screen_joins_seeks_and_watches_channels() {
    let mut app = App::new("fay", Some(Command::Lobby), 1);
    app.connected();
    app.drain();
    let summary = MatchSummary {
        match_id: "m7".into(),
        white: Some("gus".into()),
        black: None,
        time_control: None,
        phase: MatchPhase::Waiting,
        plies: 0,
        watchers: 0,
        white_bot: false,
        black_bot: false,
        rated: false,
        rating_range: None,
        white_rating: None,
        black_rating: None,
        white_account: false,
        black_account: false,
    };
    let lobby = Lobby {
        id: 2,
        seeks: vec![summary],
        live: Vec::new(),
        channels: vec![ChannelSummary {
            channel: "tv1".into(),
            kind: ChannelKind::Tv,
            game: None,
            watchers: 2,
        }],
    };
    app.receive(ServerMessage::Lobby(lobby), Instant::now());
    assert_eq!(
        lines(&mut app),
        [
            "seek m7 gus untimed free black",
            "channel tv1 watchers 2",
            "lobby end"
        ]
    );
    key(&mut app, KeyCode::Enter);
    assert!(
        matches!(&sent(&mut app)[..], [ClientMessage::JoinMatch(JoinMatch::Id(id))] if id == "m7")
    );
    key(&mut app, KeyCode::Tab);
    key(&mut app, KeyCode::Tab);
    key(&mut app, KeyCode::Char('p'));
    assert!(
        matches!(&sent(&mut app)[..], [ClientMessage::Watch(w)] if w.target == Target::Channel("tv1".into()))
    );
    assert!(app.ui.predicting);
}

#[test]
fn the_creator_fetches_the_legal_moves_when_the_opponent_joins() {
    let mut app = App::new("alice", None, 1);
    app.connected();
    app.receive(seat(0, Side::White), Instant::now());
    let mut waiting = snapshot("W:W31-50:B1-20", &[]);
    waiting.v = 1;
    waiting.black = None;
    waiting.phase = MatchPhase::Waiting;
    app.receive(ServerMessage::MatchSnapshot(waiting), Instant::now());
    app.drain();
    let joined = MatchEventMsg {
        match_id: "m1".into(),
        v: 2,
        event: MatchEvent::PlayerJoined(PlayerJoined {
            side: Side::Black,
            name: "bob".into(),
            bot: false,
            first_move_in_ms: None,
            account: false,
        }),
    };
    app.receive(ServerMessage::MatchEvent(joined), Instant::now());
    let out = app.out.clone();
    assert!(matches!(&out[..], [e] if matches!(&e.msg,
        ClientMessage::Resume(r) if r.token == "secret" && r.since_v.is_none())));
    assert_eq!(lines(&mut app), ["joined black bob"]);
    // The answer: the same seat again (not announced twice), then the playing snapshot.
    app.receive(seat(out[0].id, Side::White), Instant::now());
    let playing = snapshot("W:W31-50:B1-20", &["32-28"]);
    app.receive(ServerMessage::MatchSnapshot(playing), Instant::now());
    assert_eq!(
        lines(&mut app),
        [
            "match m1 white alice black bob playing",
            "turn white",
            "legal 32-28"
        ]
    );
}

#[test]
fn the_home_prompts_join_by_code_and_start_engine_games() {
    let mut app = App::new("gil", None, 1);
    app.connected();
    app.drain();
    key(&mut app, KeyCode::Char('i'));
    type_text(&mut app, "FRJ4kd");
    key(&mut app, KeyCode::Enter);
    assert!(matches!(&sent(&mut app)[..],
        [ClientMessage::JoinMatch(JoinMatch::Code(code))] if code == "FRJ4kd"));
    key(&mut app, KeyCode::Char('e'));
    type_text(&mut app, "ch3ss5 l4 k7");
    key(&mut app, KeyCode::Enter);
    assert!(
        matches!(&sent(&mut app)[..], [ClientMessage::StartEngineGame(g)]
        if g.serial == "CH3SS5" && g.white == "L4" && g.black == "K7")
    );
    app.receive(
        ServerMessage::GameCreated(GameCreated {
            id: 3,
            channel: "g17".into(),
        }),
        Instant::now(),
    );
    assert!(matches!(&sent(&mut app)[..], [ClientMessage::Watch(w)]
        if w.target == Target::Channel("g17".into())));
    assert!(app.ui.predicting);
    key(&mut app, KeyCode::Char('q'));
    key(&mut app, KeyCode::Char('e'));
    type_text(&mut app, "only-one-word");
    key(&mut app, KeyCode::Enter);
    assert!(
        lines(&mut app)
            .last()
            .unwrap()
            .starts_with("error bad_input: expected engine game")
    );
}

#[test]
fn an_unfinished_notation_offers_the_moves_it_begins() {
    let mut app = seated(Side::White, &["32-28", "32-27", "31-26"]);
    type_text(&mut app, "32-2");
    key(&mut app, KeyCode::Enter);
    assert_eq!(lines(&mut app), ["ambiguous 32-27 32-28"]);
    assert!(sent(&mut app).is_empty());
    key(&mut app, KeyCode::Char('2'));
    assert!(matches!(&sent(&mut app)[..], [ClientMessage::Move(m)] if m.route == [32, 28]));
    // Esc clears, it never leaves the match.
    type_text(&mut app, "31");
    key(&mut app, KeyCode::Esc);
    key(&mut app, KeyCode::Esc);
    assert_eq!((app.ui.input.as_str(), app.ui.screen), ("", Screen::Match));
}

#[test]
fn d_offers_a_draw_or_accepts_the_opponents_offer() {
    let mut app = seated(Side::White, &["32-28"]);
    key(&mut app, KeyCode::Char('d'));
    assert!(matches!(&sent(&mut app)[..], [ClientMessage::OfferDraw(_)]));
    let offered = MatchEventMsg {
        match_id: "m1".into(),
        v: 3,
        event: MatchEvent::DrawOffered(Side::Black),
    };
    app.receive(ServerMessage::MatchEvent(offered), Instant::now());
    assert_eq!(lines(&mut app), ["draw offered black"]);
    key(&mut app, KeyCode::Char('d'));
    assert!(matches!(
        &sent(&mut app)[..],
        [ClientMessage::AcceptDraw(_)]
    ));
    key(&mut app, KeyCode::Char('D'));
    assert!(matches!(
        &sent(&mut app)[..],
        [ClientMessage::DeclineDraw(_)]
    ));
}

#[test]
fn the_waiting_creator_is_told_how_the_friend_joins() {
    let mut app = App::new("amy", None, 1);
    app.address = Some(crate::address::ServerAddress::parse("https://boards.example").unwrap());
    app.connected();
    app.receive(seat(0, Side::White), Instant::now());
    let mut waiting = snapshot("W:W31-50:B1-20", &[]);
    waiting.black = None;
    waiting.phase = MatchPhase::Waiting;
    app.receive(ServerMessage::MatchSnapshot(waiting), Instant::now());
    assert_eq!(
        lines(&mut app)[3..],
        [
            "info your friend runs: boardcast --server wss://boards.example/ws join ABCD",
            "info or opens: https://boards.example/i/ABCD"
        ]
    );
}

#[test]
fn the_legal_moves_are_listed_by_square_whatever_order_the_server_sends() {
    // The server's order follows directions (left, then right): 33-29 before 31-26.
    let by_direction = [
        "33-29", "34-30", "31-26", "32-28", "31-27", "33-28", "34-29", "32-27", "35-30",
    ];
    let app = seated(Side::White, &by_direction);
    let listed: Vec<&str> = app
        .game
        .as_ref()
        .unwrap()
        .legal
        .iter()
        .map(|m| m.notation.as_str())
        .collect();
    assert_eq!(
        listed,
        [
            "31-26", "31-27", "32-27", "32-28", "33-28", "33-29", "34-29", "34-30", "35-30"
        ]
    );
    let mut app = seated(Side::Black, &["32-28"]);
    let event = MatchEventMsg {
        match_id: "m1".into(),
        v: 3,
        event: moved(
            0,
            "32-28",
            "B:W28,31,33-50:B1-20",
            &["20-25", "9-14", "19-23", "10-14"],
        ),
    };
    app.receive(ServerMessage::MatchEvent(event), Instant::now());
    assert_eq!(lines(&mut app)[2], "legal 9-14 10-14 19-23 20-25");
}

#[test]
fn a_space_separates_the_squares_of_a_typed_move() {
    let mut app = seated(Side::White, &["32-28", "32-27", "31-26"]);
    type_text(&mut app, "32 28");
    assert_eq!(app.ui.input, "32-28");
    key(&mut app, KeyCode::Enter);
    assert!(matches!(&sent(&mut app)[..], [ClientMessage::Move(m)] if m.route == [32, 28]));
    // With nothing typed, space still picks the square under the cursor.
    key(&mut app, KeyCode::Char(' '));
    assert_eq!(app.ui.selected, Some(31));
}

#[test]
fn a_refused_start_up_command_fails_the_session_and_later_refusals_do_not() {
    let mut app = App::new("bob", Some(Command::JoinCode("BADCODE".into())), 10);
    app.connected();
    let join = app.out[1].id;
    app.drain();
    let refuse = |id| {
        ServerMessage::Error(ErrorReply {
            id: Some(id),
            code: ErrorCode::NotFound,
            message: "no match with invite code BADCODE".into(),
            last_id: None,
            args: None,
        })
    };
    app.receive(refuse(join), Instant::now());
    // Not a code: tried as the match id `list` prints, and only that refusal fails.
    assert_eq!(app.failed, None);
    let as_id = app.out.last().unwrap().clone();
    assert!(
        matches!(&as_id.msg, ClientMessage::JoinMatch(JoinMatch::Id(id)) if id == "BADCODE"),
        "{as_id:?}"
    );
    app.receive(refuse(as_id.id), Instant::now());
    assert_eq!(
        app.failed.as_deref(),
        Some("not_found: no open match has the invite code or match id BADCODE")
    );
    let mut app = App::new("bob", Some(Command::Lobby), 10);
    app.connected();
    app.command(Command::JoinCode("BADCODE".into()));
    let typed = app.out.last().unwrap().id;
    app.receive(refuse(typed), Instant::now());
    assert_eq!(app.failed, None, "a typed command's refusal is only a line");
    // A server that was never reached fails the session; a dropped one is retried.
    let mut never = App::new("bob", None, 1);
    never.disconnected("connection refused", 250);
    assert_eq!(
        never.failed.as_deref(),
        Some("cannot reach the server: connection refused")
    );
    app.disconnected("connection lost", 250);
    assert_eq!(app.failed, None);
}

#[test]
fn the_player_is_told_once_when_the_gone_opponent_may_be_claimed_against() {
    let now = Instant::now();
    let mut app = seated(Side::White, &["32-28"]);
    // Black leaves on its own turn (the grace runs only then).
    app.game.as_mut().unwrap().turn = Side::Black;
    let left = MatchEventMsg {
        match_id: "m1".into(),
        v: 3,
        event: MatchEvent::PlayerLeft(Absence {
            side: Side::Black,
            claim_in_ms: 1000,
        }),
    };
    app.receive(ServerMessage::MatchEvent(left), now);
    assert_eq!(lines(&mut app), ["left black"]);
    app.tick(now + std::time::Duration::from_millis(999));
    assert!(lines(&mut app).is_empty());
    app.tick(now + std::time::Duration::from_millis(1000));
    app.tick(now + std::time::Duration::from_millis(1200));
    assert_eq!(
        lines(&mut app),
        ["claimable black: claim aborts the match (not both sides have moved)"]
    );
    // Once both sides have moved, the claim is a win or a draw.
    app.game.as_mut().unwrap().claim_told = false;
    for (ply, notation) in [(0, "32-28"), (1, "19-23")] {
        let route = super::entry::parse_squares(notation).unwrap();
        app.game.as_mut().unwrap().moves.push(PlayedMove {
            ply,
            side: if ply == 0 { Side::White } else { Side::Black },
            notation: notation.into(),
            route,
            captures: Vec::new(),
            promotes: false,
        });
    }
    app.tick(now + std::time::Duration::from_millis(1300));
    assert_eq!(
        lines(&mut app),
        ["claimable black: claim win or claim draw"]
    );
}

#[test]
fn only_legal_guesses_are_sent() {
    let mut app = App::new("dee", Some(Command::Predict("tv1".into())), 1);
    app.connected();
    app.receive(
        ServerMessage::ChannelSnapshot(channel_snapshot()),
        Instant::now(),
    );
    app.drain();
    // Typed: a pawn does not step two squares in MinitChess.
    type_text(&mut app, "a2-a4");
    key(&mut app, KeyCode::Enter);
    assert!(sent(&mut app).is_empty());
    assert_eq!(
        lines(&mut app),
        [
            "error illegal_prediction: a2-a4 is not a legal move for white here; legal: \
          a2-a3 b1-a3 b1-c3 b2-b3 c2-c3 d2-d3 e2-e3"
        ]
    );
    assert_eq!(app.channel.as_ref().unwrap().score.pending, None);
    // Picked: a1's rook cannot move, so it cannot be the from square.
    app.ui.minit_cursor = 25;
    key(&mut app, KeyCode::Enter);
    assert_eq!(app.ui.minit_from, None);
    assert_eq!(
        lines(&mut app),
        ["error illegal_prediction: no legal move starts on a1"]
    );
    // b1, then a square the knight cannot reach, then c3.
    app.ui.minit_cursor = 26;
    key(&mut app, KeyCode::Enter);
    app.ui.minit_cursor = 13;
    key(&mut app, KeyCode::Enter);
    assert_eq!(
        lines(&mut app),
        ["error illegal_prediction: b1 cannot go to d4"]
    );
    assert!(sent(&mut app).is_empty());
    app.ui.minit_cursor = 17;
    key(&mut app, KeyCode::Enter);
    assert!(
        matches!(&sent(&mut app)[..], [ClientMessage::Predict(p)] if p.from == "b1" && p.to == "c3")
    );
}

#[test]
fn the_friend_is_given_the_address_the_server_names_over_the_one_this_client_used() {
    let mut app = App::new("amy", None, 1);
    app.address = Some(crate::address::ServerAddress::parse("10.0.0.5:7878").unwrap());
    app.connected();
    app.receive(
        ServerMessage::Welcome(Welcome {
            protocol: 1,
            server: "boardcast-server".into(),
            limits: Limits {
                max_frame_bytes: 8192,
                messages_per_second: 20,
                message_burst: 40,
                idle_timeout_ms: 60_000,
            },
            public_url: "https://draughts.example.org".into(),
            account: None,
        }),
        Instant::now(),
    );
    app.receive(seat(0, Side::White), Instant::now());
    let mut waiting = snapshot("W:W31-50:B1-20", &[]);
    waiting.black = None;
    waiting.phase = MatchPhase::Waiting;
    app.receive(ServerMessage::MatchSnapshot(waiting), Instant::now());
    assert_eq!(
        app.invite_lines(),
        [
            "your friend runs: boardcast --server wss://draughts.example.org/ws join ABCD",
            "or opens: https://draughts.example.org/i/ABCD"
        ]
    );
}

#[test]
fn the_friend_of_a_player_who_used_ca_file_is_told_to_use_it_too() {
    let mut app = App::new("amy", None, 1);
    app.address = Some(crate::address::ServerAddress::parse("wss://club.lan:7878/ws").unwrap());
    app.ca_file = Some("boardcast.crt".into());
    app.connected();
    app.receive(seat(0, Side::White), Instant::now());
    let mut waiting = snapshot("W:W31-50:B1-20", &[]);
    waiting.black = None;
    waiting.phase = MatchPhase::Waiting;
    app.receive(ServerMessage::MatchSnapshot(waiting), Instant::now());
    assert_eq!(
        app.invite_lines()[0],
        "your friend runs: boardcast --server wss://club.lan:7878/ws --ca-file boardcast.crt join ABCD"
    );
}

#[test]
fn a_finished_match_says_where_its_pdn_is_and_s_saves_it() {
    let mut app = seated(Side::White, &["32-28"]);
    app.address = Some(crate::address::ServerAddress::parse("10.0.0.5:7878").unwrap());
    key(&mut app, KeyCode::Char('s'));
    assert_eq!(
        lines(&mut app),
        ["error not_over: the PDN is saved once the match is over"]
    );
    app.save_pdn = Some("/tmp/games".into());
    let ended = MatchEventMsg {
        match_id: "m1".into(),
        v: 3,
        event: MatchEvent::Ended(MatchResult {
            winner: Some(Side::Black),
            reason: EndReason::Resignation,
            detail: "white resigned".into(),
            rating_change: None,
        }),
    };
    app.receive(ServerMessage::MatchEvent(ended), Instant::now());
    assert_eq!(
        lines(&mut app),
        [
            "result black wins: white resigned",
            "info pdn http://10.0.0.5:7878/games/m1.pdn"
        ]
    );
    let save = super::PdnSave {
        match_id: "m1".into(),
        url: "http://10.0.0.5:7878/games/m1.pdn".into(),
        dir: "/tmp/games".into(),
    };
    assert_eq!(
        std::mem::take(&mut app.pdn_saves),
        std::slice::from_ref(&save)
    );
    app.save_pdn = None;
    key(&mut app, KeyCode::Char('s'));
    assert_eq!(
        app.pdn_saves,
        [super::PdnSave {
            dir: ".".into(),
            ..save
        }]
    );
}

#[test]
fn c_asks_time_control_colour_and_visibility_before_creating() {
    let mut app = App::new("fay", Some(Command::Lobby), 1);
    app.connected();
    app.drain();
    key(&mut app, KeyCode::Char('c'));
    assert!(
        sent(&mut app).is_empty(),
        "nothing is created before the form is filled"
    );
    // Time: 5+3 → 10+5; colour: random → white; seek: public → private.
    for code in [
        KeyCode::Right,
        KeyCode::Down,
        KeyCode::Right,
        KeyCode::Down,
        KeyCode::Right,
    ] {
        key(&mut app, code);
    }
    key(&mut app, KeyCode::Enter);
    assert!(
        matches!(&sent(&mut app)[..], [ClientMessage::CreateMatch(c)]
        if c.time_control == Some("10+5".parse().unwrap())
            && c.color == ColorChoice::White
            && !c.public
            && !c.rated)
    );
    assert_eq!(app.ui.create, None);
    // The last row: casual → rated (issue 31).
    key(&mut app, KeyCode::Char('c'));
    for code in [KeyCode::Down, KeyCode::Down, KeyCode::Down, KeyCode::Right] {
        key(&mut app, code);
    }
    assert_eq!(
        app.ui.create.as_ref().unwrap().rated_label(),
        "rated (members)"
    );
    key(&mut app, KeyCode::Enter);
    assert!(matches!(&sent(&mut app)[..], [ClientMessage::CreateMatch(c)] if c.rated && c.public));
    // Untimed, then custom: a time that does not parse stays in the form with the reason.
    key(&mut app, KeyCode::Char('C'));
    for _ in 0..4 {
        key(&mut app, KeyCode::Right);
    }
    assert_eq!(app.ui.create.as_ref().unwrap().time_label(), "untimed");
    key(&mut app, KeyCode::Right);
    type_text(&mut app, "7+");
    key(&mut app, KeyCode::Enter);
    assert!(sent(&mut app).is_empty());
    let form = app.ui.create.as_ref().unwrap();
    assert!(
        form.error
            .as_deref()
            .unwrap()
            .starts_with("`7+` is not a time control")
    );
    type_text(&mut app, "2");
    key(&mut app, KeyCode::Enter);
    assert!(
        matches!(&sent(&mut app)[..], [ClientMessage::CreateMatch(c)]
        if c.time_control == Some("7+2".parse().unwrap())
            && c.color == ColorChoice::Random
            && !c.public)
    );
    // Esc leaves the form without creating; untimed is one step left of custom.
    key(&mut app, KeyCode::Char('c'));
    key(&mut app, KeyCode::Esc);
    assert!(sent(&mut app).is_empty() && app.ui.create.is_none());
}

#[test]
fn frisian_tv_watches_the_featured_match_and_moves_on_when_told() {
    let ftv = || Target::Channel(FRISIAN_TV.into());
    let watch = |target: Target, since_v| ClientMessage::Watch(Watch { target, since_v });
    let featured = |id: Option<&str>| {
        ServerMessage::Featured(Featured {
            channel: FRISIAN_TV.into(),
            match_id: id.map(Into::into),
        })
    };
    let mut app = App::new("fay", Some(Command::Watch(ftv())), 1);
    app.connected();
    assert_eq!(sent(&mut app)[1..], [watch(ftv(), None)]);
    assert_eq!(app.ui.screen, Screen::Match);
    assert_eq!(lines(&mut app), ["connected"]);
    // Nothing live yet: TV says so, and nothing is watched.
    app.receive(featured(None), Instant::now());
    assert!(sent(&mut app).is_empty());
    assert_eq!(lines(&mut app), ["featured ftv -"]);
    // The featured match is watched like any match, and shown.
    app.receive(featured(Some("m1")), Instant::now());
    assert_eq!(sent(&mut app), [watch(Target::Match("m1".into()), None)]);
    app.receive(
        ServerMessage::MatchSnapshot(snapshot("W:W31-50:B1-20:H0:F1:+0+0", &["32-28"])),
        Instant::now(),
    );
    assert_eq!(app.game.as_ref().map(|g| g.match_id.as_str()), Some("m1"));
    assert_eq!(lines(&mut app)[0], "featured ftv m1");
    // TV moves on: the old match is left, the new one watched; TV itself stays followed.
    app.receive(featured(Some("m2")), Instant::now());
    assert_eq!(
        sent(&mut app),
        [
            ClientMessage::Unwatch(Target::Match("m1".into())),
            watch(Target::Match("m2".into()), None)
        ]
    );
    assert!(app.game.is_none());
    assert!(app.tv);
    // After a reconnect both are asked for again.
    app.disconnected("gone", 500);
    app.connected();
    let again = sent(&mut app);
    assert_eq!(
        again[1..],
        [watch(ftv(), None), watch(Target::Match("m2".into()), None)]
    );
    // Watching something else leaves TV: no more featured matches are followed.
    app.command(Command::Watch(Target::Match("m9".into())));
    assert_eq!(
        sent(&mut app),
        [
            ClientMessage::Unwatch(ftv()),
            ClientMessage::Unwatch(Target::Match("m2".into())),
            watch(Target::Match("m9".into()), None)
        ]
    );
    app.receive(featured(Some("m3")), Instant::now());
    assert!(sent(&mut app).is_empty());
}

#[test]
fn typed_guesses_are_not_sent_while_prediction_is_off() {
    let mut app = App::new(
        "dee",
        Some(Command::Watch(Target::Channel("tv1".into()))),
        1,
    );
    app.connected();
    app.receive(
        ServerMessage::ChannelSnapshot(channel_snapshot()),
        Instant::now(),
    );
    app.drain();
    assert!(!app.ui.predicting);
    type_text(&mut app, "e2-e3");
    key(&mut app, KeyCode::Enter);
    assert!(
        !sent(&mut app)
            .iter()
            .any(|m| matches!(m, ClientMessage::Predict(_))),
        "a guess typed unseen was sent"
    );
    assert_eq!(app.ui.input, "");
    assert_eq!(
        app.ui.status.as_ref().map(|s| s.text.as_str()),
        Some("Prediction is off: p turns it on")
    );
    // That Enter turned prediction on (showing the cursor) without a guess; now the same
    // typing is one.
    assert!(app.ui.predicting);
    type_text(&mut app, "e2-e3");
    key(&mut app, KeyCode::Enter);
    assert!(matches!(&sent(&mut app)[..], [ClientMessage::Predict(p)] if p.from == "e2"));
}

#[test]
fn q_leaves_the_program_when_it_was_started_on_that_screen_and_goes_home_otherwise() {
    for (intent, quits) in [
        (Some(Command::Watch(Target::Channel("tv1".into()))), true),
        (Some(Command::Predict("tv1".into())), true),
        (Some(Command::Watch(Target::Match("m1".into()))), true),
        (Some(Command::Lobby), false),
    ] {
        let mut app = App::new("dee", intent.clone(), 1);
        app.connected();
        if !quits {
            app.command(Command::Watch(Target::Channel("tv1".into())));
        }
        app.receive(
            ServerMessage::ChannelSnapshot(channel_snapshot()),
            Instant::now(),
        );
        key(&mut app, KeyCode::Char('q'));
        assert_eq!(app.quit, quits, "{intent:?}");
        assert_eq!(app.ui.screen == Screen::Home, !quits, "{intent:?}");
    }
}

#[test]
fn q_on_the_waiting_screen_of_a_public_seek_unwatches_it_and_r_takes_it_back() {
    let waiting_app = |public| {
        let mut app = App::new("amy", None, 1);
        app.connected();
        app.receive(seat(0, Side::White), Instant::now());
        let mut waiting = snapshot("W:W31-50:B1-20", &[]);
        waiting.black = None;
        waiting.phase = MatchPhase::Waiting;
        waiting.public = public;
        app.receive(ServerMessage::MatchSnapshot(waiting), Instant::now());
        app.drain();
        sent(&mut app);
        assert_eq!(app.ui.screen, Screen::Match);
        key(&mut app, KeyCode::Char('q'));
        app
    };
    // Home from the waiting screen: the server is told this connection no longer follows the
    // seek (so the lobby stops offering it), and the lobby is asked for.
    let mut app = waiting_app(true);
    assert_eq!(app.ui.screen, Screen::Home);
    assert_eq!(
        sent(&mut app),
        [
            ClientMessage::Unwatch(Target::Match("m1".into())),
            ClientMessage::ListLobby
        ]
    );
    // R takes the kept seat back, which lists the seek again.
    key(&mut app, KeyCode::Char('R'));
    assert!(
        matches!(&sent(&mut app)[..], [ClientMessage::Resume(r)] if r.token == "secret"),
        "{:?}",
        app.out
    );
    // A private match waits for the friend with the code: it stays followed.
    let mut app = waiting_app(false);
    assert_eq!(sent(&mut app), [ClientMessage::ListLobby]);
    // So does a match being played.
    let mut app = seated(Side::White, &["32-28"]);
    sent(&mut app);
    key(&mut app, KeyCode::Char('q'));
    assert_eq!(sent(&mut app), [ClientMessage::ListLobby]);
}
