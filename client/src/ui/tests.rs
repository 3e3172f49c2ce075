//! Whole-screen rendering tests: the app fed with server messages, drawn into a
//! `TestBackend`, checked by the text and colours on screen.

use std::time::{Duration, Instant};

use boardcast_protocol::*;
use ratatui::Terminal;
use ratatui::backend::TestBackend;
use ratatui::buffer::Buffer;
use ratatui::style::Color;

use crate::app::App;
use crate::app::channel::tests::snapshot as channel_snapshot;
use crate::app::command::Command;
use crate::app::game::tests::{moved, snapshot};
use crate::i18n::{Lang, speak_on_this_thread, tr, tr_args};

fn render(app: &App, now: Instant, width: u16, height: u16) -> Buffer {
    let mut terminal = Terminal::new(TestBackend::new(width, height)).unwrap();
    terminal.draw(|frame| super::draw(frame, app, now)).unwrap();
    terminal.backend().buffer().clone()
}

fn text(buf: &Buffer) -> Vec<String> {
    (0..buf.area.height)
        .map(|y| {
            (0..buf.area.width)
                .map(|x| buf[(x, y)].symbol())
                .collect::<String>()
        })
        .collect()
}

fn contains(buf: &Buffer, needle: &str) -> bool {
    text(buf).iter().any(|line| line.contains(needle))
}

/// Black's player, one move into the game, with a king counter running for White.
fn black_player(now: Instant) -> App {
    let mut app = App::new("bob", Some(Command::JoinCode("ABCD".into())), 1);
    app.connected();
    app.receive(
        ServerMessage::Seat(Seat {
            id: 2,
            match_id: "m1".into(),
            invite_code: "ABCD".into(),
            side: Side::Black,
            token: "secret".into(),
        }),
        now,
    );
    let snap = snapshot("W:W31-50:B1-20:H0:F1:+0+0", &["32-28"]);
    app.receive(ServerMessage::MatchSnapshot(snap), now);
    let mut event = moved(0, "32-28", "B:W28,31,33-50:B1-20", &["19-23", "18-23"]);
    if let MatchEvent::Moved(m) = &mut event {
        m.king_counters.white = Some(KingCounter {
            count: 2,
            square: 45,
        });
    }
    let msg = MatchEventMsg {
        match_id: "m1".into(),
        v: 3,
        event,
    };
    app.receive(ServerMessage::MatchEvent(msg), now);
    app.drain();
    app
}

#[test]
fn the_match_screen_for_black_is_flipped_with_clocks_moves_and_legal_list() {
    let now = Instant::now();
    let app = black_player(now);
    let buf = render(&app, now + Duration::from_millis(2500), 100, 30);
    let lines = text(&buf);
    // Board inside a border at (1, 1), cells 5x2. Flipped: square 50 top left (column 1),
    // square 1 bottom right (row 9, column 8 on screen).
    assert_eq!([buf[(6, 1)].symbol(), buf[(7, 1)].symbol()], ["5", "0"]);
    assert_eq!(buf[(1 + 5 + 2, 2)].symbol(), "○");
    assert_eq!(buf[(1 + 40 + 2, 1 + 18 + 1)].symbol(), "●");
    // The last move 32-28 is highlighted on both squares.
    let (r, c) = crate::app::fen::square_cell(28);
    let (x, y) = (1 + (9 - u16::from(c)) * 5, 1 + (9 - u16::from(r)) * 2);
    assert_eq!(buf[(x, y)].bg, super::frisian_board::LAST);
    assert!(contains(&buf, "1. 32-28"), "{lines:#?}");
    assert!(contains(&buf, "your move"));
    assert!(contains(&buf, "legal (2)"));
    assert!(contains(&buf, "18-23 19-23"));
    // White's clock stopped at 4:50; Black's runs from 5:00 and shows 4:57 after 2.5 s.
    assert!(contains(&buf, "4:50"));
    assert!(contains(&buf, "▶ 4:57"));
    assert!(contains(&buf, "black: bob (you)"));
    assert!(contains(&buf, "white king on 45: 2/3 moves"));
    assert!(contains(&buf, "invite code: ABCD"));
    assert!(!contains(&buf, "secret"));
}

#[test]
fn a_seat_a_program_plays_carries_a_bot_tag_beside_its_name() {
    let now = Instant::now();
    let mut app = App::new("bob", Some(Command::JoinCode("ABCD".into())), 1);
    app.connected();
    app.receive(
        ServerMessage::Seat(Seat {
            id: 2,
            match_id: "m1".into(),
            invite_code: "ABCD".into(),
            side: Side::Black,
            token: "secret".into(),
        }),
        now,
    );
    let mut snap = snapshot("W:W31-50:B1-20:H0:F1:+0+0", &["32-28"]);
    if let Some(white) = &mut snap.white {
        white.bot = true;
    }
    app.receive(ServerMessage::MatchSnapshot(snap), now);
    let buf = render(&app, now, 100, 30);
    assert!(contains(&buf, "white: BOT alice"), "{:#?}", text(&buf));
    assert!(contains(&buf, "black: bob"));
    assert!(!contains(&buf, "BOT bob"));
    // The tag is drawn in its own colours, unlike any name.
    let (y, line) = text(&buf)
        .into_iter()
        .enumerate()
        .find(|(_, l)| l.contains("white: BOT"))
        .unwrap();
    let x = line.find("BOT").unwrap();
    let x = line[..x].chars().count() as u16;
    assert_eq!(buf[(x, y as u16)].bg, ratatui::style::Color::Cyan);
    let name = x + 4;
    assert_ne!(buf[(name, y as u16)].bg, ratatui::style::Color::Cyan);
}

#[test]
fn the_result_banner_covers_the_board_when_the_match_ends() {
    let now = Instant::now();
    let mut app = black_player(now);
    let ended = MatchEventMsg {
        match_id: "m1".into(),
        v: 4,
        event: MatchEvent::Ended(MatchResult {
            winner: Some(Side::White),
            reason: EndReason::TimeForfeit,
            detail: "black ran out of time".into(),
            rating_change: None,
        }),
    };
    app.receive(ServerMessage::MatchEvent(ended), now);
    let buf = render(&app, now, 100, 30);
    let banner_rows: Vec<String> = text(&buf)
        .into_iter()
        .filter(|l| l.contains("white wins: black ran out of time"))
        .collect();
    // In the banner over the board, in the side panel and on the status line.
    assert_eq!(banner_rows.len(), 3, "{:#?}", text(&buf));
    assert!(banner_rows[1].starts_with("│      │white wins"));
    assert!(!contains(&buf, "your move"));
}

#[test]
fn a_gone_opponent_shows_the_claim_countdown_and_low_clocks_turn_red() {
    let now = Instant::now();
    let mut app = black_player(now);
    let left = MatchEventMsg {
        match_id: "m1".into(),
        v: 4,
        event: MatchEvent::PlayerLeft(Absence {
            side: Side::White,
            claim_in_ms: 60_000,
        }),
    };
    app.receive(ServerMessage::MatchEvent(left), now);
    // Black (still here) is to move: the countdown stands still.
    let buf = render(&app, now + Duration::from_millis(20_500), 100, 30);
    assert!(
        contains(&buf, "alice left — you may claim in 1:00")
            && contains(&buf, "(paused while it is your move)"),
        "{:#?}",
        text(&buf)
    );
    assert!(contains(&buf, "white: alice [gone]"));
    // Black's clock (5:00 running) is under ten seconds after 4:51.
    let late = render(&app, now + Duration::from_secs(291), 100, 30);
    let row = text(&late)
        .iter()
        .position(|l| l.contains("black: bob (you)"))
        .unwrap() as u16;
    let x = (0..late.area.width)
        .find(|&x| late[(x, row)].symbol() == "▶")
        .unwrap();
    assert_eq!(late[(x + 2, row)].fg, ratatui::style::Color::Red);
    // Black moves after 20.5 s: White's turn, it runs.
    let black_moved = MatchEventMsg {
        match_id: "m1".into(),
        v: 5,
        event: moved(1, "19-23", "W:W28,31,33-50:B1-18,20,23", &["28x19"]),
    };
    app.receive(
        ServerMessage::MatchEvent(black_moved),
        now + Duration::from_millis(20_500),
    );
    let buf = render(&app, now + Duration::from_millis(40_500), 100, 30);
    assert!(
        contains(&buf, "alice left — you may claim in 0:40") && !contains(&buf, "paused"),
        "{:#?}",
        text(&buf)
    );
    let buf = render(&app, now + Duration::from_secs(81), 100, 30);
    assert!(
        contains(&buf, "white is gone: claim now (c win, C draw)"),
        "{:#?}",
        text(&buf)
    );
}

#[test]
fn the_prediction_screen_shows_the_module_display_the_board_and_the_score() {
    let now = Instant::now();
    let mut app = App::new("dee", Some(Command::Predict("tv1".into())), 1);
    app.connected();
    let mut snap = channel_snapshot();
    if let Some(game) = &mut snap.game {
        game.revealed = vec!["b1-c3".into(), "a5-a4".into()];
        game.board = ["kqbnr", ".pppp", "p....", "..N..", "PPPPP", "R.BQK"].concat();
        game.next_ply = 2;
        game.move_number = 2;
    }
    app.receive(ServerMessage::ChannelSnapshot(snap), now);
    app.receive(
        ServerMessage::PredictionResult(PredictionResult {
            channel: "tv1".into(),
            ply: 1,
            guess: "e5-e4".into(),
            actual: "a5-a4".into(),
            correct: false,
            correct_total: 1,
            strikes: 1,
        }),
        now,
    );
    app.ui.minit_from = Some(27);
    let buf = render(&app, now + Duration::from_millis(500), 90, 24);
    let lines = text(&buf);
    assert!(contains(&buf, "Serial CH3SS5"), "{lines:#?}");
    assert!(contains(&buf, "White L4  Black K7"));
    assert!(contains(&buf, "Move 2  (White to play, ply 2)"));
    assert!(contains(&buf, "FULL set"));
    assert!(contains(&buf, "you said e5-e4, it was a5-a4"));
    assert!(contains(&buf, "score 1  strikes 1"));
    assert!(contains(&buf, "from c1"));
    assert!(contains(&buf, "next ply in 1.5s"));
    assert!(contains(&buf, "1. b1-c3 a5-a4"));
    // Board at (1, 1) inside its border, cells of 7x3 at 90 columns; a4 (index 10) holds
    // the black pawn.
    let (x, y) = super::minit_board::MinitBoard::cell_origin(
        ratatui::layout::Rect::new(1, 1, 37, 19),
        (7, 3),
        10,
    );
    assert_eq!(buf[(x + 3, y + 1)].symbol(), "♟");
    app.ui.flat = true;
    let buf = render(&app, now, 90, 24);
    assert_eq!(buf[(x + 3, y + 1)].symbol(), "p");
    assert!(contains(&buf, "FLAT set"));
}

#[test]
fn the_home_screen_lists_seeks_live_matches_and_channels() {
    let now = Instant::now();
    let mut app = App::new("fay", Some(Command::Lobby), 1);
    app.connected();
    let seek = MatchSummary {
        match_id: "m7".into(),
        white: Some("gus".into()),
        black: None,
        time_control: Some("3+2".parse().unwrap()),
        phase: MatchPhase::Waiting,
        plies: 0,
        watchers: 0,
        white_bot: true,
        black_bot: false,
        rated: false,
        rating_range: None,
        white_rating: None,
        black_rating: None,
        white_account: true,
        black_account: true,
    };
    let live = MatchSummary {
        match_id: "m8".into(),
        white: Some("hal".into()),
        black: Some("ivy".into()),
        phase: MatchPhase::Playing,
        plies: 12,
        white_bot: false,
        ..seek.clone()
    };
    app.receive(
        ServerMessage::Lobby(Lobby {
            id: 2,
            seeks: vec![seek],
            live: vec![live],
            channels: vec![ChannelSummary {
                channel: "tv1".into(),
                kind: ChannelKind::Tv,
                game: channel_snapshot().game.map(|g| g.header),
                watchers: 3,
            }],
        }),
        now,
    );
    let buf = render(&app, now, 120, 20);
    assert!(contains(&buf, "Open seeks (1)"));
    // A program's seek says so, as lidraughts shows its bots.
    assert!(contains(&buf, "> m7 BOT gus 3+2 free black"));
    assert!(contains(&buf, "m8 hal ivy 3+2 plies 12"));
    assert!(contains(&buf, "tv1 CH3SS5 L4 K7 watchers 3"));
    assert!(contains(&buf, "[online]"));
}

#[test]
fn the_help_overlay_lists_the_keys_of_the_screen() {
    let now = Instant::now();
    let mut app = black_player(now);
    app.ui.help = true;
    let buf = render(&app, now, 100, 30);
    assert!(contains(&buf, "resign (asks to confirm)"));
    assert!(contains(&buf, "abort, only before both sides have moved"));
    assert!(contains(&buf, "type a move; Tab completes, Enter plays"));
}

#[test]
fn every_screen_draws_in_tiny_and_odd_terminal_sizes() {
    let now = Instant::now();
    let mut apps = vec![black_player(now), App::new("x", None, 1)];
    let mut channel = App::new("y", Some(Command::Predict("tv1".into())), 1);
    channel.connected();
    channel.receive(ServerMessage::ChannelSnapshot(channel_snapshot()), now);
    apps.push(channel);
    let mut overlays = black_player(now);
    overlays.ui.choice = Some(vec![0, 1, 7]);
    overlays.ui.help = true;
    apps.push(overlays);
    let mut browsing = black_player(now);
    browsing.ui.browse = Some(0);
    browsing.ui.leaderboard = true;
    apps.push(browsing);
    for app in &apps {
        for (width, height) in [
            (1, 1),
            (2, 3),
            (10, 5),
            (33, 12),
            (52, 22),
            (80, 24),
            (200, 50),
        ] {
            let buf = render(app, now, width, height);
            assert_eq!(buf.area.width, width);
        }
    }
    // A standard 80x24 terminal fits the full-size board (cells of 4x2), square numbers and
    // men, with 38 columns left for the panel.
    let buf = render(&apps[0], now, 80, 24);
    assert!(contains(&buf, "●"));
    assert!(contains(&buf, "○"));
    assert_eq!([buf[(5, 1)].symbol(), buf[(6, 1)].symbol()], ["5", "0"]);
    assert_eq!(buf[(41, 0)].symbol(), "┐", "{:#?}", text(&buf));
}

/// The creator of a private match, waiting for the friend, on a server reached as HOST:PORT.
fn waiting_creator(now: Instant) -> App {
    let mut app = App::new("amy", None, 1);
    app.address = Some(crate::address::ServerAddress::parse("192.168.1.20:7878").unwrap());
    app.connected();
    app.receive(
        ServerMessage::Seat(Seat {
            id: 0,
            match_id: "m4".into(),
            invite_code: "FRJ4K-D7MQX".into(),
            side: Side::White,
            token: "secret".into(),
        }),
        now,
    );
    let mut waiting = snapshot("W:W31-50:B1-20", &[]);
    waiting.match_id = "m4".into();
    waiting.black = None;
    waiting.phase = MatchPhase::Waiting;
    app.receive(ServerMessage::MatchSnapshot(waiting), now);
    app
}

#[test]
fn the_waiting_screen_shows_the_friends_command_and_web_link_whole_at_80x24() {
    let now = Instant::now();
    let app = waiting_creator(now);
    let buf = render(&app, now, 80, 24);
    let lines = text(&buf);
    assert!(
        contains(
            &buf,
            "  boardcast --server ws://192.168.1.20:7878/ws join FRJ4K-D7MQX"
        ),
        "{lines:#?}"
    );
    assert!(contains(&buf, "  http://192.168.1.20:7878/i/FRJ4K-D7MQX"));
    assert!(contains(&buf, "You play white. Waiting for an opponent"));
    assert!(contains(&buf, "invite code: FRJ4K-D7MQX"));
    assert!(!contains(&buf, "secret"));
}

/// The eleven characters of a code (two groups of five) are read whole on the waiting
/// screen, and the seat's news stays in the status bar there instead of being cleared by
/// the change of screen it came with.
#[test]
fn the_waiting_screen_keeps_the_code_whole_and_says_which_seat_at_80x24_and_60x20() {
    let now = Instant::now();
    let app = waiting_creator(now);
    for (width, height) in [(80, 24), (60, 20)] {
        let buf = render(&app, now, width, height);
        assert_shows(
            &buf,
            &[
                "invite code: FRJ4K-D7MQX",
                "/i/FRJ4K-D7MQX",
                "You play white in match m4",
            ],
        );
        // The friend's command may wrap between words (at 60 columns it is longer than the
        // panel), never inside the code.
        let words: Vec<String> = text(&buf)
            .iter()
            .flat_map(|line| {
                line.split(|c: char| c.is_whitespace() || c == '│')
                    .map(str::to_owned)
                    .collect::<Vec<_>>()
            })
            .filter(|word| !word.is_empty())
            .collect();
        assert!(
            words.windows(2).any(|w| w == ["join", "FRJ4K-D7MQX"]),
            "{:#?}",
            text(&buf)
        );
    }
}

#[test]
fn an_offer_reads_as_waiting_to_its_maker_with_keys_to_the_opponent_and_none_to_spectators() {
    let now = Instant::now();
    let offer = |app: &mut App, v, event| {
        let msg = MatchEventMsg {
            match_id: "m1".into(),
            v,
            event,
        };
        app.receive(ServerMessage::MatchEvent(msg), now);
    };
    // Black (bob) offers a draw.
    let mut bob = black_player(now);
    offer(&mut bob, 4, MatchEvent::DrawOffered(Side::Black));
    let buf = render(&bob, now, 100, 30);
    assert!(
        contains(&buf, "you offered a draw (waiting)"),
        "{:#?}",
        text(&buf)
    );
    assert!(!contains(&buf, "accept"));
    // The same offer seen by a spectator: no keys.
    let mut eve = App::new("eve", Some(Command::Watch(Target::Match("m1".into()))), 1);
    eve.connected();
    eve.receive(
        ServerMessage::MatchSnapshot(snapshot("W:W31-50:B1-20", &[])),
        now,
    );
    offer(&mut eve, 3, MatchEvent::DrawOffered(Side::Black));
    offer(&mut eve, 4, MatchEvent::RematchOffered(Side::White));
    let buf = render(&eve, now, 100, 30);
    assert!(contains(&buf, "black offers a draw"));
    assert!(contains(&buf, "white offers a rematch"));
    assert!(!contains(&buf, "accept"), "{:#?}", text(&buf));
    // White's player gets the keys.
    let mut amy = App::new("amy", None, 1);
    amy.connected();
    amy.receive(
        ServerMessage::Seat(Seat {
            id: 0,
            match_id: "m1".into(),
            invite_code: "ABCD".into(),
            side: Side::White,
            token: "t".into(),
        }),
        now,
    );
    amy.receive(
        ServerMessage::MatchSnapshot(snapshot("W:W31-50:B1-20", &["32-28"])),
        now,
    );
    offer(&mut amy, 3, MatchEvent::DrawOffered(Side::Black));
    let buf = render(&amy, now, 100, 30);
    assert!(contains(&buf, "black offers a draw (d accept, D decline)"));
}

#[test]
fn after_an_engine_game_the_tv_shows_the_result_and_the_countdown_to_the_next_game() {
    let now = Instant::now();
    let mut app = App::new(
        "dee",
        Some(Command::Watch(Target::Channel("tv1".into()))),
        1,
    );
    app.connected();
    app.receive(ServerMessage::ChannelSnapshot(channel_snapshot()), now);
    let ended = ChannelEventMsg {
        channel: "tv1".into(),
        v: 2,
        event: ChannelEvent::GameEnded(GameEnded {
            game_id: 42,
            result: EngineResult {
                winner: Some(Side::White),
                reason: "king captured".into(),
            },
            standings: Vec::new(),
            next_game_in_ms: Some(10_000),
        }),
    };
    app.receive(ServerMessage::ChannelEvent(ended), now);
    let buf = render(&app, now + Duration::from_millis(2500), 80, 24);
    let lines = text(&buf);
    assert!(
        contains(&buf, "Game over: white wins: king captured"),
        "{lines:#?}"
    );
    assert!(contains(&buf, "next game in 8s"));
    assert!(!contains(&buf, "to play"));
    assert!(!contains(&buf, "next ply"));
    // Between games (no game at all): the countdown is to the next game too.
    let mut idle = channel_snapshot();
    idle.game = None;
    idle.next_game_in_ms = Some(4000);
    let mut app = App::new(
        "dee",
        Some(Command::Watch(Target::Channel("tv1".into()))),
        1,
    );
    app.connected();
    app.receive(ServerMessage::ChannelSnapshot(idle), now);
    let buf = render(&app, now, 80, 24);
    assert!(contains(&buf, "between games"));
    assert!(contains(&buf, "next game in 4s"));
    assert!(!contains(&buf, "next ply"));
}

#[test]
fn status_messages_expire_and_do_not_follow_the_user_to_another_screen_or_match() {
    let now = Instant::now();
    let mut app = black_player(now);
    app.receive(
        ServerMessage::Error(ErrorReply {
            id: None,
            code: ErrorCode::NotYourTurn,
            message: "not your turn".into(),
            last_id: None,
            args: None,
        }),
        now,
    );
    let at = |app: &App, later| render(app, now + Duration::from_millis(later), 100, 30);
    assert!(contains(&at(&app, 0), "Not your turn"));
    assert!(
        !contains(&at(&app, 9000), "not your turn"),
        "stale after a while"
    );
    app.receive(
        ServerMessage::Error(ErrorReply {
            id: None,
            code: ErrorCode::NotFound,
            message: "no such match".into(),
            last_id: None,
            args: None,
        }),
        now,
    );
    app.key(crossterm::event::KeyEvent::from(
        crossterm::event::KeyCode::Char('q'),
    ));
    assert_eq!(app.ui.screen, crate::app::Screen::Home);
    assert!(
        !contains(&at(&app, 0), "no such match"),
        "not on the home screen"
    );
    // A rematch is another match: "your opponent is back" from the old one is not shown there.
    let mut app = black_player(now);
    let returned = MatchEventMsg {
        match_id: "m1".into(),
        v: 4,
        event: MatchEvent::PlayerReturned(Side::White),
    };
    app.receive(ServerMessage::MatchEvent(returned), now);
    assert!(contains(&at(&app, 0), "Your opponent is back"));
    app.receive(
        ServerMessage::Seat(Seat {
            id: 0,
            match_id: "m2".into(),
            invite_code: "EFGH".into(),
            side: Side::White,
            token: "t2".into(),
        }),
        now,
    );
    let mut rematch = snapshot("W:W31-50:B1-20", &["32-28"]);
    rematch.match_id = "m2".into();
    app.receive(ServerMessage::MatchSnapshot(rematch), now);
    let buf = at(&app, 0);
    assert!(!contains(&buf, "is back"), "{:#?}", text(&buf));
}

#[test]
fn the_leaderboard_overlay_always_shows_the_viewers_own_place() {
    let now = Instant::now();
    let mut app = App::new("dee", Some(Command::Predict("tv1".into())), 1);
    app.connected();
    app.receive(ServerMessage::ChannelSnapshot(channel_snapshot()), now);
    app.drain();
    app.key(crossterm::event::KeyEvent::from(
        crossterm::event::KeyCode::Char('L'),
    ));
    let (out, _, _) = app.drain();
    assert!(
        matches!(&out[..], [e] if e.msg == ClientMessage::Leaderboard(LeaderboardQuery { limit: 100 }))
    );
    let entries: Vec<LeaderboardEntry> = (0..30)
        .map(|i| LeaderboardEntry {
            name: if i == 24 {
                "dee".into()
            } else {
                format!("p{i:02}")
            },
            games: 2,
            correct: 60 - i,
            strikes: i,
        })
        .collect();
    app.receive(
        ServerMessage::Leaderboard(Leaderboard {
            id: out[0].id,
            entries,
        }),
        now,
    );
    let notes: Vec<String> = app.drain().1.iter().map(ToString::to_string).collect();
    assert_eq!(notes.len(), 11, "{notes:#?}");
    assert_eq!(notes[0], "leader 1 p00 60 correct 0 strikes 2 games");
    assert_eq!(notes[10], "you 25 dee 36 correct 24 strikes 2 games");
    let buf = render(&app, now, 80, 24);
    let lines = text(&buf);
    assert!(
        contains(&buf, "  1. p00 60 correct 0 strikes 2 games"),
        "{lines:#?}"
    );
    assert!(
        contains(&buf, "you: #25  dee 36 correct 24 strikes 2 games"),
        "{lines:#?}"
    );
    assert!(
        !contains(&buf, " 25. dee"),
        "row 25 does not fit; the own line does"
    );
    // Someone not on the board yet is told so.
    let mut new = App::new("zed", None, 1);
    new.receive(
        ServerMessage::Leaderboard(Leaderboard {
            id: 9,
            entries: Vec::new(),
        }),
        now,
    );
    let notes: Vec<String> = new.drain().1.iter().map(ToString::to_string).collect();
    assert_eq!(notes, ["you - zed not ranked"]);
    new.ui.leaderboard = true;
    assert!(contains(
        &render(&new, now, 80, 24),
        "you: zed — not ranked yet"
    ));
}

/// Every needle is on screen, whole, on one line.
fn assert_shows(buf: &Buffer, needles: &[&str]) {
    let lines = text(buf);
    for needle in needles {
        assert!(
            lines.iter().any(|line| line.contains(needle)),
            "`{needle}` is not on screen (cut or missing):\n{}",
            lines.join("\n")
        );
    }
}

fn lobby() -> Lobby {
    let seek = MatchSummary {
        match_id: "c08rkh6tyk".into(),
        white: Some("gustavus".into()),
        black: None,
        time_control: Some("3+2".parse().unwrap()),
        phase: MatchPhase::Waiting,
        plies: 0,
        watchers: 0,
        white_bot: false,
        black_bot: false,
        rated: false,
        rating_range: None,
        white_rating: None,
        black_rating: None,
        white_account: true,
        black_account: true,
    };
    let live = MatchSummary {
        match_id: "k2j4h6g8f0".into(),
        white: Some("hallgerd".into()),
        black: Some("ingeborg".into()),
        phase: MatchPhase::Playing,
        plies: 112,
        watchers: 12,
        ..seek.clone()
    };
    let channel = |id: &str| ChannelSummary {
        channel: id.into(),
        kind: ChannelKind::Tv,
        game: channel_snapshot().game.map(|g| g.header),
        watchers: 13,
    };
    Lobby {
        id: 2,
        seeks: vec![seek],
        live: vec![live],
        channels: vec![channel("tv1"), channel("tv2")],
    }
}

#[test]
fn at_80x24_nothing_a_user_needs_is_cut_on_home_match_tv_and_predict() {
    let now = Instant::now();
    // Home: every row and every key of the footer.
    let mut home = App::new("fay", Some(Command::Lobby), 1);
    home.connected();
    home.receive(ServerMessage::Lobby(lobby()), now);
    let buf = render(&home, now, 80, 24);
    assert_shows(
        &buf,
        &[
            "c08rkh6tyk gustavus 3+2 free black",
            "k2j4h6g8f0 hallgerd ingeborg 3+2 plies 112 watchers 12",
            "tv1 CH3SS5 L4 K7 watchers 13",
            "tv2 CH3SS5 L4 K7 watchers 13",
            "p predict",
            "c new match",
            "i join by code",
            "e engine game",
            "t TV",
            "R resume",
            "r refresh",
            "? help",
            "q quit",
        ],
    );
    // The new-match form fits too.
    home.key(crossterm::event::KeyEvent::from(
        crossterm::event::KeyCode::Char('c'),
    ));
    let buf = render(&home, now, 80, 24);
    assert_shows(
        &buf,
        &[
            "time     ◀ 5+3 ▶",
            "1+0 3+2 5+3 10+5 15+10 30+20 untimed custom",
            "colour   ◀ random ▶",
            "seek     ◀ public (listed as an open seek) ▶",
            "Enter create  Esc cancel",
        ],
    );

    // Match: White to move from the start, all nine legal moves listed.
    let opening = [
        "33-29", "34-30", "31-26", "32-28", "31-27", "33-28", "34-29", "32-27", "35-30",
    ];
    let mut app = App::new("amy", None, 1);
    app.connected();
    app.receive(
        ServerMessage::Seat(Seat {
            id: 0,
            match_id: "m1".into(),
            invite_code: "ABCD".into(),
            side: Side::White,
            token: "t".into(),
        }),
        now,
    );
    app.receive(
        ServerMessage::MatchSnapshot(snapshot("W:W31-50:B1-20", &opening)),
        now,
    );
    let buf = render(&app, now, 80, 24);
    let mut needles = vec![
        "legal (9)",
        "move> _",
        "white: alice (you)",
        "black: bob",
        "your move",
    ];
    needles.extend(opening);
    assert_shows(&buf, &needles);
    // The board's corners: square 1 (top row) and 46 (bottom row) with their men.
    assert!(text(&buf)[2].contains('●') && text(&buf)[20].contains('○'));

    // TV: the module's display, the countdown and every key.
    let mut tv = App::new(
        "dee",
        Some(Command::Watch(Target::Channel("tv1".into()))),
        1,
    );
    tv.connected();
    tv.receive(ServerMessage::ChannelSnapshot(channel_snapshot()), now);
    let buf = render(&tv, now, 80, 24);
    assert_shows(
        &buf,
        &[
            "TV tv1 · FULL set",
            "Serial CH3SS5",
            "White L4  Black K7",
            "Move 1  (White to play, ply 0)",
            "next ply in 2.0s",
            "p predict",
            "f FULL/FLAT",
            "L leaderboard",
            // Started as `boardcast tv`: q goes back to the shell.
            "q quit",
        ],
    );
    // Predict: the guess prompt and the instructions.
    tv.key(crossterm::event::KeyEvent::from(
        crossterm::event::KeyCode::Char('p'),
    ));
    let buf = render(&tv, now, 80, 24);
    assert_shows(
        &buf,
        &[
            "guess> _",
            "guess ply 0: pick a from square or type b1-c3",
            "score 0  strikes 0",
            "q quit",
        ],
    );
    let a1 = super::minit_board::MinitBoard::cell_origin(
        ratatui::layout::Rect::new(1, 1, 27, 13),
        super::minit_board::CELL,
        25,
    );
    assert_eq!(
        buf[(a1.0 + 2, a1.1 + 1)].symbol(),
        "♖",
        "the board's corner is drawn"
    );
}

#[test]
fn a_wide_terminal_gets_a_bigger_board_with_the_move_list_beside_it() {
    let now = Instant::now();
    let app = black_player(now);
    let buf = render(&app, now, 220, 60);
    // Cells of 11x5: the board is 110 wide; its border ends at column 111.
    assert_eq!(buf[(111, 0)].symbol(), "┐", "{:#?}", text(&buf));
    // Black's view: square 1 bottom right, its man a disc filling the cell under the number.
    let (r, c) = crate::app::fen::square_cell(1);
    let (x, y) = (1 + (9 - u16::from(c)) * 11, 1 + (9 - u16::from(r)) * 5);
    let row = |dy: u16| {
        (2..9)
            .map(|dx| buf[(x + dx, y + dy)].symbol())
            .collect::<String>()
    };
    assert_eq!(
        [row(1), row(2), row(3)],
        ["▄█████▄", "███████", "▀█████▀"],
        "{:#?}",
        text(&buf)
    );
    assert_eq!(buf[(x + 5, y + 2)].fg, ratatui::style::Color::Black);
    // The move list is a column of its own, beside the status and the legal list.
    let lines = text(&buf);
    let moves_row = lines.iter().position(|l| l.contains("┌moves")).unwrap();
    let legal_row = lines.iter().position(|l| l.contains("┌legal (2)")).unwrap();
    assert!(moves_row < legal_row);
    assert!(lines[legal_row].contains("│"), "{}", lines[legal_row]);
    let moves_col = lines[moves_row].find("┌moves").unwrap();
    let legal_col = lines[legal_row].find("┌legal").unwrap();
    assert!(moves_col > legal_col + 30, "{moves_col} vs {legal_col}");
}

#[test]
fn the_capture_chooser_sits_beside_the_board_and_marks_what_the_route_takes() {
    let now = Instant::now();
    let mut app = App::new("amy", None, 1);
    app.connected();
    app.receive(
        ServerMessage::Seat(Seat {
            id: 0,
            match_id: "m1".into(),
            invite_code: "ABCD".into(),
            side: Side::White,
            token: "t".into(),
        }),
        now,
    );
    let mut snap = snapshot("W:W27:B21,22,31,32", &[]);
    snap.legal_moves = vec![
        LegalMove {
            notation: "27x16x38".into(),
            route: vec![27, 16, 38],
            captures: vec![21, 32],
        },
        LegalMove {
            notation: "27x18x38".into(),
            route: vec![27, 18, 38],
            captures: vec![22, 31],
        },
    ];
    app.receive(ServerMessage::MatchSnapshot(snap), now);
    app.command(Command::Move("27x38".into()));
    assert_eq!(app.ui.choice, Some(vec![0, 1]));
    let origin = |square| {
        let (row, col) = crate::app::fen::square_cell(square);
        (1 + u16::from(col) * 5, 1 + u16::from(row) * 2)
    };
    let captured = super::frisian_board::CAPTURED;
    for (at, takes, spared) in [(0, [21, 32], [22, 31]), (1, [22, 31], [21, 32])] {
        app.ui.choice_at = at;
        let buf = render(&app, now, 100, 30);
        assert_shows(
            &buf,
            &[
                "which capture?",
                "1) 27x16x38  takes 21 32",
                "2) 27x18x38  takes 22 31",
            ],
        );
        for square in takes {
            let (x, y) = origin(square);
            assert_eq!(
                buf[(x, y)].bg,
                captured,
                "square {square} is taken by route {at}"
            );
        }
        for square in spared {
            let (x, y) = origin(square);
            assert_ne!(buf[(x, y)].bg, captured, "square {square}");
        }
        // Nothing is drawn over the board: its pieces all show.
        for square in [21, 22, 31, 32] {
            let (x, y) = origin(square);
            assert_eq!(buf[(x + 2, y + 1)].symbol(), "●", "square {square}");
        }
    }
    // ↓ (from the second, round to the first) and Enter pick that route.
    app.drain();
    app.key(crossterm::event::KeyEvent::from(
        crossterm::event::KeyCode::Down,
    ));
    app.key(crossterm::event::KeyEvent::from(
        crossterm::event::KeyCode::Enter,
    ));
    let out = app.drain().0;
    assert!(
        matches!(&out[..], [e] if matches!(&e.msg, ClientMessage::Move(m) if m.route == [27, 16, 38]))
    );
}

#[test]
fn at_60x20_the_prediction_panel_wraps_without_losing_a_line() {
    let now = Instant::now();
    let mut app = App::new("dee", Some(Command::Predict("tv1".into())), 1);
    app.connected();
    app.receive(ServerMessage::ChannelSnapshot(channel_snapshot()), now);
    let buf = render(&app, now, 60, 20);
    let screen = text(&buf).join("\n");
    for words in [
        "guess ply 0: pick a from",
        "square or type b1-c3",
        "score 0  strikes 0",
        "q quit",
    ] {
        assert!(screen.contains(words), "`{words}`:\n{screen}");
    }
}

#[test]
fn a_wide_terminal_gets_a_bigger_minitchess_board() {
    let now = Instant::now();
    let mut app = App::new(
        "dee",
        Some(Command::Watch(Target::Channel("tv1".into()))),
        1,
    );
    app.connected();
    app.receive(ServerMessage::ChannelSnapshot(channel_snapshot()), now);
    let buf = render(&app, now, 220, 60);
    // Cells of 11x5: the board with its rank labels is 57 wide; a1 holds White's rook.
    assert_eq!(buf[(58, 0)].symbol(), "┐", "{:#?}", text(&buf));
    let cell = (11, 5);
    let (x, y) = super::minit_board::MinitBoard::cell_origin(
        ratatui::layout::Rect::new(1, 1, 57, 31),
        cell,
        25,
    );
    assert_eq!(buf[(x + 5, y + 2)].symbol(), "♖");
    // The figurine sits on a disc of its side's colour that fills the square.
    let white = ratatui::style::Color::Rgb(255, 255, 255);
    assert_eq!(buf[(x + 5, y + 2)].bg, white);
    let row = |dy: u16| {
        (2..9)
            .map(|dx| buf[(x + dx, y + dy)].symbol())
            .collect::<String>()
    };
    assert_eq!([row(1), row(3)], ["▄█████▄", "▀█████▀"]);
    assert_eq!(buf[(x + 2, y + 1)].fg, white);
    assert_shows(&buf, &["Serial CH3SS5", "next ply in 2.0s", "q quit"]);
}

#[test]
fn a_viewer_below_the_hundred_listed_is_told_so_not_called_unranked() {
    let now = Instant::now();
    let mut app = App::new("dee", None, 1);
    let entries: Vec<LeaderboardEntry> = (0..100)
        .map(|i| LeaderboardEntry {
            name: format!("p{i:03}"),
            games: 1,
            correct: 200 - i,
            strikes: 0,
        })
        .collect();
    app.receive(
        ServerMessage::Leaderboard(Leaderboard { id: 3, entries }),
        now,
    );
    let notes: Vec<String> = app.drain().1.iter().map(ToString::to_string).collect();
    assert_eq!(notes.last().unwrap(), "you - dee not in the top 100");
    app.ui.leaderboard = true;
    assert!(contains(
        &render(&app, now, 80, 24),
        "you: dee — not in the top 100"
    ));
}

fn key(app: &mut App, code: crossterm::event::KeyCode) {
    app.key(crossterm::event::KeyEvent::from(code));
}

fn event(app: &mut App, v: u64, event: MatchEvent, now: Instant) {
    let msg = MatchEventMsg {
        match_id: "m1".into(),
        v,
        event,
    };
    app.receive(ServerMessage::MatchEvent(msg), now);
}

/// White's player (amy) right after her first move: Black (bob) is to move.
fn white_waiting(now: Instant) -> App {
    let mut app = App::new("amy", None, 1);
    app.connected();
    app.receive(
        ServerMessage::Seat(Seat {
            id: 0,
            match_id: "m1".into(),
            invite_code: "ABCD".into(),
            side: Side::White,
            token: "t".into(),
        }),
        now,
    );
    app.receive(
        ServerMessage::MatchSnapshot(snapshot("W:W31-50:B1-20:H0:F1:+0+0", &["32-28"])),
        now,
    );
    let after = "B:W28,31,33-50:B1-20";
    event(
        &mut app,
        3,
        moved(0, "32-28", after, &["19-23", "18-23"]),
        now,
    );
    app
}

#[test]
fn the_waiting_player_sees_whom_they_wait_for_not_the_opponents_moves() {
    let now = Instant::now();
    let app = white_waiting(now);
    for (width, height) in [(80, 24), (60, 20)] {
        let buf = render(&app, now, width, height);
        assert_shows(&buf, &["your opponent's move", "waiting for bob"]);
        assert!(!contains(&buf, "legal ("), "{:#?}", text(&buf));
        assert!(!contains(&buf, "19-23"), "{:#?}", text(&buf));
        assert!(!contains(&buf, "move>"), "{:#?}", text(&buf));
    }
    // The player to move (bob) gets both.
    let bob = black_player(now);
    for (width, height) in [(80, 24), (60, 20)] {
        let buf = render(&bob, now, width, height);
        assert_shows(&buf, &["legal (2)", "18-23 19-23", "move> _", "your move"]);
    }
}

#[test]
fn names_tags_and_the_spectator_count_are_never_cut_mid_word_at_80x24_and_60x20() {
    let now = Instant::now();
    let mut app = App::new("bob", None, 1);
    app.connected();
    app.receive(
        ServerMessage::Seat(Seat {
            id: 2,
            match_id: "m1".into(),
            invite_code: "ABCD".into(),
            side: Side::Black,
            token: "t".into(),
        }),
        now,
    );
    let mut snap = snapshot("W:W31-50:B1-20:H0:F1:+0+0", &["32-28"]);
    snap.white = Some(PlayerInfo {
        name: "PyRandomBot Deluxe".into(),
        connected: true,
        bot: true,
        account: true,
    });
    snap.black = Some(PlayerInfo {
        name: "a player named gone".into(),
        connected: true,
        bot: false,
        account: true,
    });
    app.receive(ServerMessage::MatchSnapshot(snap), now);
    let left = MatchEvent::PlayerLeft(Absence {
        side: Side::White,
        claim_in_ms: 60_000,
    });
    event(&mut app, 3, left, now);
    for (width, height) in [(80, 24), (60, 20)] {
        let buf = render(&app, now, width, height);
        let lines = text(&buf);
        // Cut names end in `…`; the tags after them show whole.
        assert_shows(&buf, &["white: BOT Py", "…", "[gone]", "(you)"]);
        let white = lines.iter().find(|l| l.contains("white: BOT")).unwrap();
        assert!(white.trim_end().ends_with("… [gone]"), "{white}");
        let black = lines.iter().find(|l| l.contains("black: a ")).unwrap();
        assert!(black.trim_end().ends_with("… (you)"), "{black}");
        // The spectator count is one phrase on one line, never "0" here and "watching" there.
        assert_shows(&buf, &["0 spectators", "match m1"]);
        assert!(!contains(&buf, "watching"), "{lines:#?}");
    }
}

#[test]
fn a_legal_list_too_long_for_its_box_says_how_many_more_there_are() {
    let now = Instant::now();
    let names: Vec<String> = (31..=50u8)
        .flat_map(|from| [from - 5, from - 4].map(|to| format!("{from}-{to}")))
        .collect();
    let legal: Vec<&str> = names.iter().map(String::as_str).collect();
    let mut app = App::new("amy", None, 1);
    app.connected();
    app.receive(
        ServerMessage::Seat(Seat {
            id: 0,
            match_id: "m1".into(),
            invite_code: "ABCD".into(),
            side: Side::White,
            token: "t".into(),
        }),
        now,
    );
    app.receive(
        ServerMessage::MatchSnapshot(snapshot("W:W31-50:B1-20", &legal)),
        now,
    );
    for (width, height) in [(80, 24), (60, 20)] {
        let buf = render(&app, now, width, height);
        let lines = text(&buf);
        assert_shows(&buf, &["legal (40)", "move> _"]);
        // Every move is either listed or counted in "+N more".
        let shown = legal.iter().filter(|m| contains(&buf, m)).count();
        let more = lines
            .iter()
            .find_map(|l| {
                let (_, rest) = l.split_once('+')?;
                rest.split_once(" more")?.0.parse::<usize>().ok()
            })
            .unwrap_or(0);
        assert_eq!(shown + more, 40, "{}", lines.join("\n"));
        // At 80x24 the move list gives its room and all fit; at 60x20 some are counted.
        assert_eq!(more > 0, height == 20, "{}", lines.join("\n"));
        assert!(shown >= 8, "the box still lists moves: {shown}");
    }
    // The packer itself: five moves in two lines of 13 say how many are left out (the bug
    // was a box titled "legal (5)" showing four and no sign of the fifth).
    let five = ["31-26", "31-27", "32-27", "32-28", "33-28"];
    assert_eq!(
        super::match_view::legal_lines(&five, 13, 2),
        ["31-26 31-27", "32-27 +2 more"]
    );
    assert_eq!(
        super::match_view::legal_lines(&five, 13, 3),
        ["31-26 31-27", "32-27 32-28", "33-28"]
    );
}

#[test]
fn a_long_refusal_wraps_in_the_status_bar_instead_of_being_cut() {
    let now = Instant::now();
    let mut app = black_player(now);
    let message = "a match can be aborted only before both sides have moved; r resigns \
                   (this sentence is long on purpose)";
    app.receive(
        ServerMessage::Error(ErrorReply {
            id: None,
            code: ErrorCode::NotAllowed,
            message: message.into(),
            last_id: None,
            args: None,
        }),
        now,
    );
    for (width, height) in [(80, 24), (60, 20)] {
        let buf = render(&app, now, width, height);
        let lines = text(&buf);
        // The bottom lines hold the whole sentence, word by word, in red.
        let bottom = lines[lines.len() - 3..].join(" ");
        let words: Vec<&str> = bottom.split_whitespace().collect();
        let sentence = format!("[online] A{}", &message[1..]);
        let expected: Vec<&str> = sentence.split_whitespace().collect();
        assert!(
            words.ends_with(&expected),
            "{width}x{height}:\n{}",
            lines.join("\n")
        );
        let y = height - 1;
        let x = (0..width).find(|&x| buf[(x, y)].symbol() != " ").unwrap();
        assert_eq!(buf[(x, y)].fg, ratatui::style::Color::Red);
        // The board and its panel still draw above it.
        assert!(contains(&buf, "●"));
    }
    // Far too long: three lines, the last one ending in `…`.
    let long = "word ".repeat(100);
    app.receive(
        ServerMessage::Error(ErrorReply {
            id: None,
            code: ErrorCode::NotAllowed,
            message: long,
            last_id: None,
            args: None,
        }),
        now,
    );
    let buf = render(&app, now, 60, 20);
    let lines = text(&buf);
    assert!(lines[19].trim_end().ends_with('…'), "{}", lines.join("\n"));
    assert!(
        lines[17].starts_with("[online] Word word"),
        "{}",
        lines.join("\n")
    );
}

#[test]
fn the_spectators_keys_the_help_and_the_leaderboard_fit_at_80x24_and_60x20() {
    let now = Instant::now();
    let mut eve = App::new("eve", None, 1);
    eve.connected();
    eve.watching = Some(Target::Match("m1".into()));
    eve.receive(
        ServerMessage::MatchSnapshot(snapshot("W:W31-50:B1-20", &["32-28"])),
        now,
    );
    for (width, height) in [(80, 24), (60, 20)] {
        let buf = render(&eve, now, width, height);
        assert_shows(
            &buf,
            &[
                "spectator",
                "q back",
                "f flip",
                "n numbers",
                "< > moves",
                "? keys",
            ],
        );
    }
    // The match help, in each language: at 80x24 every key and description whole (a player
    // of a casual match: the takeback keys too).
    let mut bob = black_player(now);
    bob.ui.help = true;
    let bobs_keys = super::help::keys(&bob);
    assert!(bobs_keys.contains(&super::help::TAKEBACK));
    for lang in Lang::ALL {
        speak_on_this_thread(lang);
        let buf = render(&bob, now, 80, 24);
        let descriptions: Vec<String> = bobs_keys.iter().map(|(_, id)| tr(id)).collect();
        let mut needles: Vec<&str> = Vec::new();
        for ((key, _), what) in bobs_keys.iter().zip(&descriptions) {
            needles.push(key);
            needles.push(what);
        }
        let close = tr("help-close");
        needles.push(&close);
        assert_shows(&buf, &needles);
        // At 60x20 descriptions wrap beside their keys and every key still shows; on a
        // shorter terminal what does not fit is counted.
        let keys_shown = |buf: &Buffer| {
            let screen = text(buf).join("\n");
            let shown = bobs_keys
                .iter()
                .filter(|(key, _)| screen.contains(&format!(" {key}  ")))
                .count();
            (shown, screen)
        };
        let (shown, _) = keys_shown(&render(&bob, now, 60, 12));
        let more = bobs_keys.len() - shown;
        assert!(more > 0);
        let counted = tr_args("help-more", &[("count", more.into())]);
        assert_shows(&render(&bob, now, 60, 12), &[&counted]);
        let buf = render(&bob, now, 60, 20);
        let (shown, screen) = keys_shown(&buf);
        assert_eq!(shown, bobs_keys.len(), "{} {screen}", lang.tag());
        if lang == Lang::En {
            assert!(screen.contains("type a move; Tab completes,"), "{screen}");
            assert!(screen.contains("Enter plays"), "{screen}");
            assert_eq!(
                counted,
                format!("… {more} more: a taller terminal shows them")
            );
        }
    }
    speak_on_this_thread(Lang::En);
    // The leaderboard: a long name is cut with `…`; the viewer's own lines are whole.
    let mut dee = App::new("dee", Some(Command::Predict("tv1".into())), 1);
    dee.connected();
    dee.receive(ServerMessage::ChannelSnapshot(channel_snapshot()), now);
    let entries = vec![
        LeaderboardEntry {
            name: "W".repeat(32),
            games: 2,
            correct: 60,
            strikes: 1,
        },
        LeaderboardEntry {
            name: "dee".into(),
            games: 12,
            correct: 36,
            strikes: 24,
        },
    ];
    dee.receive(
        ServerMessage::Leaderboard(Leaderboard { id: 9, entries }),
        now,
    );
    dee.ui.leaderboard = true;
    for (width, height) in [(80, 24), (60, 20)] {
        let buf = render(&dee, now, width, height);
        assert_shows(
            &buf,
            &[
                "you: #2  dee 36 correct 24 strikes 12 games",
                "this game: 0 correct, 0 strikes",
                "  1. WWWWWWWWWW",
            ],
        );
        let lines = text(&buf);
        let first = lines.iter().find(|l| l.contains("  1. WWW")).unwrap();
        assert!(first.contains('…'), "{first}");
    }
}

#[test]
fn the_status_bar_speaks_to_the_player_not_in_plain_keywords() {
    let now = Instant::now();
    let mut bob = black_player(now);
    let status = |app: &App| {
        let buf = render(app, now, 100, 30);
        text(&buf).last().unwrap().clone()
    };
    event(&mut bob, 4, MatchEvent::DrawOffered(Side::Black), now);
    assert!(
        status(&bob).contains("You offered a draw"),
        "{}",
        status(&bob)
    );
    event(&mut bob, 5, MatchEvent::DrawDeclined(Side::White), now);
    assert!(status(&bob).contains("Your draw offer was declined"));
    assert!(!status(&bob).contains("draw declined white"));
    let left = MatchEvent::PlayerLeft(Absence {
        side: Side::White,
        claim_in_ms: 60_000,
    });
    event(&mut bob, 6, left, now);
    assert!(status(&bob).contains("Your opponent has left"));
    event(&mut bob, 7, MatchEvent::PlayerReturned(Side::White), now);
    assert!(status(&bob).contains("Your opponent is back"));
    assert!(!status(&bob).contains("returned"));
    // The opponent's move, in words.
    let after = "W:W28,31,33-50:B1-18,20,23";
    event(&mut bob, 8, moved(2, "33-29", after, &["23x34"]), now);
    assert!(status(&bob).contains("Your opponent played 33-29: your move"));
    // The end: the result, the rematch key, and where the PDN is.
    let mut amy = white_waiting(now);
    amy.address = Some(crate::address::ServerAddress::parse("127.0.0.1:7878").unwrap());
    let ended = MatchEvent::Ended(MatchResult {
        winner: Some(Side::White),
        reason: EndReason::Resignation,
        detail: "black resigned".into(),
        rating_change: None,
    });
    event(&mut amy, 4, ended, now);
    let log: Vec<&String> = amy.ui.log.iter().collect();
    assert!(
        log.iter()
            .any(|l| *l == "Game over: white wins: black resigned · m offers a rematch"),
        "{log:#?}"
    );
    assert!(
        log.iter()
            .any(|l| *l == "PDN at http://127.0.0.1:7878/games/m1.pdn (s saves it)"),
        "{log:#?}"
    );
    assert!(!log.iter().any(|l| l.starts_with("info ")), "{log:#?}");
    assert_shows(
        &render(&amy, now, 80, 24),
        &["m offers a rematch", "m rematch"],
    );
    // A seat's own news: the player is not told they are "watching" their own match.
    assert!(
        !bob.ui.log.iter().any(|l| l.contains("Watching")),
        "{:#?}",
        bob.ui.log
    );
}

#[test]
fn abort_is_offered_only_while_the_server_allows_it() {
    let now = Instant::now();
    // One move made: the match can still be aborted, after a yes.
    let mut amy = white_waiting(now);
    key(&mut amy, crossterm::event::KeyCode::Char('a'));
    assert_eq!(amy.ui.confirm, Some(crate::app::view::Confirm::Abort));
    assert!(contains(
        &render(&amy, now, 80, 24),
        "Abort this game? y / n"
    ));
    key(&mut amy, crossterm::event::KeyCode::Char('n'));
    // Both sides moved: no question, the reason instead, and nothing sent.
    let after = "W:W28,31,33-50:B1-18,20,23";
    event(&mut amy, 4, moved(1, "19-23", after, &["28x19"]), now);
    amy.drain();
    key(&mut amy, crossterm::event::KeyCode::Char('a'));
    assert_eq!(amy.ui.confirm, None);
    assert!(amy.drain().0.is_empty());
    let buf = render(&amy, now, 80, 24);
    assert!(!contains(&buf, "Abort this game?"));
    assert!(
        contains(
            &buf,
            "A match can be aborted only before both sides have moved"
        ),
        "{:#?}",
        text(&buf)
    );
}

#[test]
fn a_refused_or_unanswered_watch_says_so_instead_of_waiting_forever() {
    let now = Instant::now();
    let mut app = App::new(
        "dee",
        Some(Command::Watch(Target::Channel("tv3".into()))),
        1,
    );
    app.connected();
    let (out, _, _) = app.drain();
    let watch = out
        .iter()
        .find(|e| matches!(&e.msg, ClientMessage::Watch(_)))
        .unwrap();
    // Nothing yet: waiting; ten silent seconds later the screen says the server is silent.
    let buf = render(&app, Instant::now(), 80, 24);
    assert_shows(&buf, &["waiting for the channel…", "q quits"]);
    let buf = render(&app, Instant::now() + Duration::from_secs(11), 80, 24);
    assert_shows(&buf, &["The server has not answered for 1"]);
    // What the server answers for a channel it does not have.
    app.receive(
        ServerMessage::Error(ErrorReply {
            id: Some(watch.id),
            code: ErrorCode::NotFound,
            message: "no channel or archived game tv3".into(),
            last_id: None,
            args: None,
        }),
        now,
    );
    for (width, height) in [(80, 24), (60, 20)] {
        let buf = render(
            &app,
            Instant::now() + Duration::from_secs(60),
            width,
            height,
        );
        assert_shows(
            &buf,
            &["Not available: no channel or archived game tv3", "q quits"],
        );
        assert!(!contains(&buf, "waiting for the channel"));
    }
    // Started from the shell on this screen, q goes back to the shell.
    key(&mut app, crossterm::event::KeyCode::Char('q'));
    assert!(app.quit);
}

#[test]
fn the_history_steps_back_and_forth_with_a_marker_and_end_returns() {
    let now = Instant::now();
    let mut app = white_waiting(now);
    let after = "W:W28,31,33-50:B1-18,20,23";
    event(&mut app, 4, moved(1, "19-23", after, &["28x19"]), now);
    // Cells of 4x2 at 80x24, the man on the second line, third column.
    let square = |buf: &Buffer, square: u8| {
        let (row, col) = crate::app::fen::square_cell(square);
        let (x, y) = (1 + u16::from(col) * 4, 1 + u16::from(row) * 2);
        buf[(x + 2, y + 1)].symbol().to_owned()
    };
    let live = render(&app, now, 80, 24);
    assert_eq!([square(&live, 23), square(&live, 19)], ["●", " "]);
    key(&mut app, crossterm::event::KeyCode::Char('<'));
    for (width, height) in [(80, 24), (60, 20)] {
        let buf = render(&app, now, width, height);
        assert_shows(
            &buf,
            &["viewing 1. 32-28", "< > step", "End back to the game"],
        );
    }
    let buf = render(&app, now, 80, 24);
    assert_eq!(
        [square(&buf, 23), square(&buf, 19), square(&buf, 28)],
        [" ", "●", "○"]
    );
    key(&mut app, crossterm::event::KeyCode::Home);
    let buf = render(&app, now, 80, 24);
    assert_shows(&buf, &["viewing the start"]);
    assert_eq!([square(&buf, 28), square(&buf, 32)], [" ", "○"]);
    key(&mut app, crossterm::event::KeyCode::Char('>'));
    assert_shows(&render(&app, now, 80, 24), &["viewing 1. 32-28"]);
    key(&mut app, crossterm::event::KeyCode::End);
    let buf = render(&app, now, 80, 24);
    assert!(!contains(&buf, "viewing"));
    assert_eq!(square(&buf, 23), "●");
    // Typing a move returns to the live board.
    key(&mut app, crossterm::event::KeyCode::Char('<'));
    key(&mut app, crossterm::event::KeyCode::Char('2'));
    assert_eq!(app.ui.browse, None);
    assert_eq!(app.ui.input, "2");
}

#[test]
fn clicks_pick_a_piece_then_its_square() {
    let now = Instant::now();
    let mut app = black_player(now);
    render(&app, now, 80, 24);
    // Black's flipped board at 80x24: cells of 4x2 inside the border at (1, 1).
    let at = |square: u8| {
        let (row, col) = crate::app::fen::square_cell(square);
        (
            1 + (9 - u16::from(col)) * 4 + 2,
            1 + (9 - u16::from(row)) * 2 + 1,
        )
    };
    let (x, y) = at(19);
    app.click(x, y);
    assert_eq!(app.ui.selected, Some(19));
    let (x, y) = at(23);
    app.click(x, y);
    let out = app.drain().0;
    assert!(
        matches!(&out[..], [e] if matches!(&e.msg, ClientMessage::Move(m) if m.route == [19, 23])),
        "{out:?}"
    );
    // A click beside the board does nothing.
    app.click(70, 10);
    assert!(app.drain().0.is_empty());
    // On the MinitChess board: b1 (index 26), then c3 (index 17) is a guess.
    let mut dee = App::new("dee", Some(Command::Predict("tv1".into())), 1);
    dee.connected();
    dee.receive(ServerMessage::ChannelSnapshot(channel_snapshot()), now);
    dee.drain();
    render(&dee, now, 80, 24);
    let area = ratatui::layout::Rect::new(1, 1, 27, 13);
    for index in [26, 17] {
        let (x, y) =
            super::minit_board::MinitBoard::cell_origin(area, super::minit_board::CELL, index);
        dee.click(x + 2, y + 1);
    }
    let out = dee.drain().0;
    assert!(
        matches!(&out[..], [e] if matches!(&e.msg, ClientMessage::Predict(p) if p.from == "b1" && p.to == "c3")),
        "{out:?}"
    );
}

#[test]
fn the_bell_rings_when_the_turn_comes_not_for_ones_own_move() {
    let now = Instant::now();
    let mut amy = white_waiting(now);
    assert!(!amy.ring, "her own move");
    let after = "W:W28,31,33-50:B1-18,20,23";
    event(&mut amy, 4, moved(1, "19-23", after, &["28x19"]), now);
    assert!(amy.ring, "the opponent moved");
}

#[test]
fn at_200x50_the_pieces_fill_their_squares() {
    let now = Instant::now();
    let mut app = white_waiting(now);
    let after = "W:W28,31,33-50:B1-18,20,23";
    event(&mut app, 4, moved(1, "19-23", after, &["28x19"]), now);
    let buf = render(&app, now, 200, 50);
    // Cells of 9x4: a man is a disc of two rows five wide under the square's number.
    let (row, col) = crate::app::fen::square_cell(23);
    let (x, y) = (1 + u16::from(col) * 9, 1 + u16::from(row) * 4);
    let line = |dy: u16| {
        (2..7)
            .map(|dx| buf[(x + dx, y + dy)].symbol())
            .collect::<String>()
    };
    assert_eq!([line(1), line(2)], ["▄███▄", "▀███▀"], "{:#?}", text(&buf));
    assert_eq!(buf[(x + 4, y + 1)].fg, ratatui::style::Color::Black);
    // A king carries a crown in the other colour.
    let mut king = white_waiting(now);
    king.game.as_mut().unwrap().board = crate::app::fen::Board::from_fen("W:WK28:B1");
    let buf = render(&king, now, 200, 50);
    let (row, col) = crate::app::fen::square_cell(28);
    let (x, y) = (1 + u16::from(col) * 9, 1 + u16::from(row) * 4);
    assert_eq!(buf[(x + 4, y + 2)].symbol(), "♚");
    assert_eq!(buf[(x + 4, y + 2)].fg, ratatui::style::Color::Black);
    assert_eq!(buf[(x + 4, y + 2)].bg, ratatui::style::Color::White);
}

#[test]
fn lobby_rows_with_long_names_wrap_instead_of_being_cut() {
    let now = Instant::now();
    let mut home = App::new("fay", Some(Command::Lobby), 1);
    home.connected();
    let mut lobby = lobby();
    lobby.live[0].white = Some("W".repeat(32));
    lobby.live[0].black = Some("PyRandomBot Deluxe Edition".into());
    lobby.live[0].black_bot = true;
    home.receive(ServerMessage::Lobby(lobby), now);
    home.key(crossterm::event::KeyEvent::from(
        crossterm::event::KeyCode::Tab,
    ));
    for (width, height) in [(80, 24), (60, 20)] {
        let buf = render(&home, now, width, height);
        let screen = text(&buf).join(" ");
        let words: Vec<&str> = screen
            .split(|c: char| c.is_whitespace() || c == '│' || c == '>')
            .filter(|w| !w.is_empty())
            .collect();
        let row = format!(
            "k2j4h6g8f0 {} BOT PyRandomBot Deluxe Edition 3+2 plies 112 watchers 12",
            "W".repeat(32)
        );
        let expected: Vec<&str> = row.split(' ').collect();
        assert!(
            words
                .windows(expected.len())
                .any(|w| w == expected.as_slice()),
            "{width}x{height}:\n{}",
            text(&buf).join("\n")
        );
    }
}

#[test]
fn the_mouse_is_taken_only_while_a_board_is_shown() {
    // The runner reports the mouse while the last frame drew a board; elsewhere (the waiting
    // screen's command to copy, the home screen) the terminal's own selection must work.
    let now = Instant::now();
    let mut app = black_player(now);
    render(&app, now, 80, 24);
    assert!(app.ui.board.get().is_some());
    key(&mut app, crossterm::event::KeyCode::Char('q'));
    render(&app, now, 80, 24);
    assert!(app.ui.board.get().is_none(), "home screen");
    let waiting = waiting_creator(now);
    render(&waiting, now, 80, 24);
    assert!(waiting.ui.board.get().is_none(), "waiting screen");
}

/// A move as the server records it: plies count from 0 whoever moved first.
fn played(ply: u32, side: Side, notation: &str) -> PlayedMove {
    PlayedMove {
        ply,
        side,
        notation: notation.into(),
        route: crate::app::entry::parse_squares(notation).unwrap(),
        captures: Vec::new(),
        promotes: false,
    }
}

#[test]
fn a_game_whose_first_move_is_blacks_numbers_its_moves_from_1_dots() {
    let now = Instant::now();
    let mut app = App::new("amy", None, 1);
    app.connected();
    app.receive(
        ServerMessage::Seat(Seat {
            id: 0,
            match_id: "m1".into(),
            invite_code: "ABCDE-FGHJK".into(),
            side: Side::White,
            token: "t".into(),
        }),
        now,
    );
    // Set up with Black to move; resumed after three plies.
    let mut snap = snapshot("W:W28,31,33-50:B1-13,15-20,23", &["28x19"]);
    snap.start_fen = "B:W31-50:B1-20".into();
    snap.moves = vec![
        played(0, Side::Black, "19-23"),
        played(1, Side::White, "32-28"),
        played(2, Side::Black, "14-19"),
    ];
    app.receive(ServerMessage::MatchSnapshot(snap), now);
    for (width, height) in [(80, 24), (60, 20)] {
        let buf = render(&app, now, width, height);
        assert_shows(&buf, &["  1... 19-23", "  2. 32-28  14-19"]);
        assert!(!contains(&buf, "1. 19-23"), "{:#?}", text(&buf));
    }
    // Browsing names the move by the same number.
    key(&mut app, crossterm::event::KeyCode::Char('<'));
    assert_shows(&render(&app, now, 80, 24), &["viewing 2. 32-28"]);
}

#[test]
fn between_games_the_prediction_panel_waits_for_the_next_game_instead_of_asking_a_guess() {
    let now = Instant::now();
    let mut idle = channel_snapshot();
    idle.game = None;
    idle.next_game_in_ms = Some(4000);
    let mut app = App::new("dee", Some(Command::Predict("tv1".into())), 1);
    app.connected();
    app.receive(ServerMessage::ChannelSnapshot(idle), now);
    for (width, height) in [(80, 24), (60, 20)] {
        let buf = render(&app, now, width, height);
        assert_shows(&buf, &["waiting for the next game", "next game in 4s"]);
        assert!(!contains(&buf, "guess ply"), "{:#?}", text(&buf));
    }
}

/// The finished match's PDN address stays on one line of the panel, shortened in its middle
/// when the panel is narrow; `s` saves from the whole address.
#[test]
fn the_pdn_address_stays_on_one_line_shortened_in_the_middle_when_narrow() {
    let now = Instant::now();
    let mut amy = white_waiting(now);
    amy.address = Some(
        crate::address::ServerAddress::parse("scheveningen-draughts.example.org:7878").unwrap(),
    );
    let ended = MatchEvent::Ended(MatchResult {
        winner: Some(Side::White),
        reason: EndReason::Resignation,
        detail: "black resigned".into(),
        rating_change: None,
    });
    event(&mut amy, 4, ended, now);
    let url = "http://scheveningen-draughts.example.org:7878/games/m1.pdn";
    assert_eq!(
        amy.pdn_url().as_deref(),
        Some(url),
        "s saves the whole address"
    );
    for (width, height) in [(80, 24), (60, 20), (200, 50)] {
        let lines = text(&render(&amy, now, width, height));
        let line = lines
            .iter()
            .find(|l| l.contains("PDN "))
            .unwrap_or_else(|| panic!("no PDN line at {width}x{height}: {lines:#?}"));
        let shown = line
            .split("PDN ")
            .nth(1)
            .and_then(|rest| rest.split(" (s saves)").next())
            .filter(|_| line.contains(" (s saves)"))
            .unwrap_or_else(|| panic!("the PDN line is cut at {width}x{height}: {lines:#?}"));
        let whole = match shown.split_once('…') {
            Some((start, end)) => {
                url.starts_with(start) && url.ends_with(end) && end.ends_with("/m1.pdn")
            }
            None => shown == url,
        };
        assert!(
            whole,
            "{shown:?} at {width}x{height} is not {url}: {lines:#?}"
        );
    }
}

/// The home screen's "join by code" prompt shows the eleven characters of a code typed as a
/// person reads it, whole, at 80x24 and 60x20, and sends it as typed (the server reads codes
/// in any case, with or without the dash).
#[test]
fn the_join_by_code_prompt_shows_and_sends_an_eleven_character_code() {
    let now = Instant::now();
    for (width, height) in [(80, 24), (60, 20)] {
        let mut app = App::new("gil", None, 1);
        app.connected();
        app.receive(ServerMessage::Lobby(lobby()), now);
        app.drain();
        key(&mut app, crossterm::event::KeyCode::Char('i'));
        for c in "frj4k-d7mqx".chars() {
            key(&mut app, crossterm::event::KeyCode::Char(c));
        }
        assert_shows(
            &render(&app, now, width, height),
            &["invite code: frj4k-d7mqx_"],
        );
        key(&mut app, crossterm::event::KeyCode::Enter);
        let sent: Vec<ClientMessage> = app.drain().0.into_iter().map(|e| e.msg).collect();
        assert!(
            matches!(&sent[..], [ClientMessage::JoinMatch(JoinMatch::Code(code))] if code == "frj4k-d7mqx"),
            "{sent:?}"
        );
    }
}

#[test]
fn the_match_panel_counts_down_the_first_move_owed_then_shows_none_at_80x24() {
    let now = Instant::now();
    let mut app = App::new("amy", None, 1);
    app.connected();
    app.receive(
        ServerMessage::Seat(Seat {
            id: 0,
            match_id: "m1".into(),
            invite_code: "ABCDE-FGHJK".into(),
            side: Side::White,
            token: "t".into(),
        }),
        now,
    );
    let mut snap = snapshot("W:W31-50:B1-20:H0:F1:+0+0", &["32-28"]);
    snap.first_move_in_ms = Some(23_000);
    app.receive(ServerMessage::MatchSnapshot(snap), now);
    assert_shows(&render(&app, now, 80, 24), &["you must move within 0:23"]);
    // It counts down by itself, from when the snapshot arrived.
    let later = now + Duration::from_millis(5_500);
    assert_shows(&render(&app, later, 80, 24), &["you must move within 0:18"]);
    // White's first move starts Black's wait, as the event says.
    let with_first_move = |mut event: MatchEvent, first_move_in_ms| {
        if let MatchEvent::Moved(moved) = &mut event {
            moved.first_move_in_ms = first_move_in_ms;
        }
        event
    };
    let after = "B:W28,31,33-50:B1-20";
    let white_moved = moved(0, "32-28", after, &["19-23"]);
    event(
        &mut app,
        3,
        with_first_move(white_moved, Some(30_000)),
        later,
    );
    let buf = render(&app, later + Duration::from_secs(1), 80, 24);
    assert_shows(&buf, &["black must move within 0:29"]);
    assert!(!contains(&buf, "you must move"), "{:#?}", text(&buf));
    // Black's first move: nothing more is owed.
    let black_moved = moved(1, "19-23", "W:W28,31,33-50:B1-18,20,23", &["28x19"]);
    event(&mut app, 4, with_first_move(black_moved, None), later);
    let buf = render(&app, later + Duration::from_secs(2), 80, 24);
    assert!(!contains(&buf, "must move within"), "{:#?}", text(&buf));
}

/// A refusal with arguments (its reason, the side to move, squares) shows in the player's
/// language on the 80x24 match screen, worded from the catalogue with the arguments filled in.
#[test]
fn a_refusal_with_arguments_in_the_players_language_at_80x24() {
    let now = Instant::now();
    for (lang, turn, man) in [
        (
            Lang::En,
            "It is not your turn: White is to move",
            "31-22 is not a man's move",
        ),
        (
            Lang::Nl,
            "Je bent niet aan zet: wit is aan zet",
            "31-22 is geen schijfzet",
        ),
        (
            Lang::Fy,
            "Do bist net oan set: wyt is oan set",
            "31-22 is gjin houtsjeset",
        ),
    ] {
        speak_on_this_thread(lang);
        let mut bob = black_player(now);
        bob.receive(
            ServerMessage::Error(ErrorReply {
                id: Some(7),
                code: ErrorCode::NotYourTurn,
                message: "not your turn: white to move".into(),
                last_id: None,
                args: Some(Box::new(
                    ErrorArgs::new("side_to_move").word("side", "white"),
                )),
            }),
            now,
        );
        let buf = render(&bob, now, 80, 24);
        assert!(contains(&buf, turn), "{}: {:#?}", lang.tag(), text(&buf));
        bob.receive(
            ServerMessage::Error(ErrorReply {
                id: Some(8),
                code: ErrorCode::IllegalMove,
                message: "illegal move: a man moves one square diagonally forward: 31-22 is not \
                          a man move"
                    .into(),
                last_id: None,
                args: Some(Box::new(
                    ErrorArgs::new("not_a_man_move")
                        .number("from", 31u32)
                        .number("to", 22u32),
                )),
            }),
            now,
        );
        let buf = render(&bob, now, 80, 24);
        assert!(contains(&buf, man), "{}: {:#?}", lang.tag(), text(&buf));
    }
    speak_on_this_thread(Lang::En);
}

/// A refusal shows in the player's language on the 80x24 match screen, whole; in English it
/// is the server's own text.
#[test]
fn a_refusal_in_the_players_language_at_80x24() {
    let now = Instant::now();
    for (lang, expected) in [
        (Lang::En, "Not your turn"),
        (Lang::Nl, "Je bent niet aan zet"),
        (Lang::Fy, "Do bist net oan set"),
    ] {
        speak_on_this_thread(lang);
        let mut bob = black_player(now);
        bob.receive(
            ServerMessage::Error(ErrorReply {
                id: Some(7),
                code: ErrorCode::NotYourTurn,
                message: "not your turn".into(),
                last_id: None,
                args: None,
            }),
            now,
        );
        let buf = render(&bob, now, 80, 24);
        assert!(
            contains(&buf, expected),
            "{}: {:#?}",
            lang.tag(),
            text(&buf)
        );
    }
    speak_on_this_thread(Lang::En);
}

/// Issue 30: a member's name is shown as it is, a guest's marked `(guest)` in its own
/// colour, on the home screen and the match screen at 80×24, so a guest never passes for
/// the member of the same name.
#[test]
fn members_and_guests_are_told_apart_at_80x24() {
    let now = Instant::now();
    let mut home = App::new("fay", Some(Command::Lobby), 1);
    home.connected();
    let mut lobby = lobby();
    lobby.seeks[0].white_account = false;
    lobby.live[0].black_account = false;
    home.receive(ServerMessage::Lobby(lobby), now);
    let buf = render(&home, now, 80, 24);
    assert_shows(
        &buf,
        &[
            "c08rkh6tyk gustavus (guest) 3+2 free black",
            "k2j4h6g8f0 hallgerd ingeborg (guest) 3+2",
        ],
    );

    let mut app = App::new("Anne", Some(Command::JoinCode("ABCD".into())), 1);
    app.connected();
    app.receive(
        ServerMessage::Seat(Seat {
            id: 2,
            match_id: "m1".into(),
            invite_code: "ABCD".into(),
            side: Side::Black,
            token: "secret".into(),
        }),
        now,
    );
    let mut snap = snapshot("W:W31-50:B1-20:H0:F1:+0+0", &["32-28"]);
    snap.white = Some(PlayerInfo {
        name: "Anne".into(),
        connected: true,
        bot: false,
        account: true,
    });
    snap.black = Some(PlayerInfo {
        name: "Anne".into(),
        connected: true,
        bot: false,
        account: false,
    });
    app.receive(ServerMessage::MatchSnapshot(snap), now);
    let buf = render(&app, now, 80, 24);
    let lines = text(&buf);
    let row = |needle: &str| {
        lines
            .iter()
            .position(|line| line.contains(needle))
            .unwrap_or_else(|| panic!("no `{needle}` on screen:\n{}", lines.join("\n")))
    };
    // The member: the bare name, nothing after it but the end of the line.
    let white = row("white: Anne");
    assert!(
        lines[white].trim_end().ends_with("white: Anne"),
        "{}",
        lines[white]
    );
    // The guest (this player): marked, in a muted colour, before `(you)`.
    let black = row("black: Anne (guest) (you)");
    let at = lines[black].find("(guest)").expect("the mark");
    // Cells, not bytes: the board's pieces on the same line are several bytes each.
    let x = lines[black][..at].chars().count() as u16;
    let cell = &buf[(x + 1, black as u16)];
    assert_eq!(cell.symbol(), "g");
    assert_eq!(cell.fg, Color::DarkGray);
    let name = &buf[(x - 2, black as u16)];
    assert_eq!((name.symbol(), name.fg), ("e", Color::Reset));
}

/// Issue 34: the home screen and its new-match form in each language at 80x24: the greeting,
/// the lists' titles, every key of the footer and every row of the form, whole.
#[test]
fn at_80x24_the_home_screen_is_whole_in_every_language() {
    let now = Instant::now();
    for lang in Lang::ALL {
        speak_on_this_thread(lang);
        let mut home = App::new("fay", Some(Command::Lobby), 1);
        home.connected();
        home.receive(ServerMessage::Lobby(lobby()), now);
        let buf = render(&home, now, 80, 24);
        let mut needles: Vec<String> = [
            "home-hint-list",
            "home-hint-select",
            "home-hint-join",
            "home-hint-predict",
            "home-hint-new",
            "home-hint-code",
            "home-hint-engine",
            "home-hint-tv",
            "home-hint-ftv",
            "home-hint-resume",
            "home-hint-refresh",
            "home-hint-help",
            "home-hint-quit",
        ]
        .map(tr)
        .to_vec();
        needles.push(tr_args("home-hello", &[("name", "fay".into())]));
        needles.push(format!("{} (1)", tr("lobby-seeks")));
        needles.push(format!("{} (1)", tr("lobby-live")));
        needles.push(format!("{} (2)", tr("home-channels")));
        assert_shows(
            &buf,
            &needles.iter().map(String::as_str).collect::<Vec<_>>(),
        );
        home.key(crossterm::event::KeyEvent::from(
            crossterm::event::KeyCode::Char('c'),
        ));
        let buf = render(&home, now, 80, 24);
        let needles = [
            tr("home-form-title"),
            format!("{:<8} ◀ 5+3 ▶", tr("home-form-time")),
            format!("{} {}", tr("tc-untimed"), tr("home-form-custom")),
            format!("◀ {} ▶", tr("form-random")),
            format!("◀ {} ▶", tr("home-form-public")),
            tr("home-form-keys"),
        ];
        assert_shows(
            &buf,
            &needles.iter().map(String::as_str).collect::<Vec<_>>(),
        );
        if lang == Lang::Nl {
            assert_shows(
                &buf,
                &["tempo    ◀ 5+3 ▶", "◀ openbaar (als open uitdaging) ▶"],
            );
        }
    }
    speak_on_this_thread(Lang::En);
}

#[test]
fn after_a_rated_game_both_players_new_ratings_and_changes_show_at_80x24_and_in_line_mode() {
    let now = Instant::now();
    let mut amy = white_waiting(now);
    let ended = MatchEvent::Ended(MatchResult {
        winner: Some(Side::White),
        reason: EndReason::Resignation,
        detail: "black resigned".into(),
        rating_change: Some(RatingChanges {
            white: RatingDiff {
                before: 1520,
                after: 1532,
                diff: 12,
                provisional: false,
            },
            black: RatingDiff {
                before: 1674,
                after: 1662,
                diff: -12,
                provisional: true,
            },
        }),
    });
    event(&mut amy, 4, ended, now);
    // The full-screen terminal: under the result, each player's part whole.
    let buf = render(&amy, now, 80, 24);
    assert_shows(&buf, &["White 1532 (+12)", "Black 1662? (\u{2212}12)"]);
    // Line mode prints the notes: one line a program can read after `result`.
    let lines: Vec<String> = amy.notes.iter().map(ToString::to_string).collect();
    let result = lines
        .iter()
        .position(|l| l.starts_with("result white wins"));
    let ratings = lines
        .iter()
        .position(|l| l == "ratings White 1532 (+12) · Black 1662? (\u{2212}12)");
    assert!(
        result.is_some() && ratings == result.map(|r| r + 1),
        "{lines:#?}"
    );
    // A casual game shows no ratings.
    let mut casual = white_waiting(now);
    let ended = MatchEvent::Ended(MatchResult {
        winner: Some(Side::White),
        reason: EndReason::Resignation,
        detail: "black resigned".into(),
        rating_change: None,
    });
    event(&mut casual, 4, ended, now);
    assert!(!contains(&render(&casual, now, 80, 24), "(+"));
    assert!(
        !casual
            .notes
            .iter()
            .any(|n| n.to_string().starts_with("ratings"))
    );
}

#[test]
fn the_play_now_key_chooses_a_preset_waits_with_a_cancel_and_a_pairing_opens_the_match_at_80x24() {
    let now = Instant::now();
    let mut app = App::new("fay", Some(Command::Lobby), 1);
    app.connected();
    app.drain();
    let sent = |app: &mut App| -> Vec<ClientMessage> {
        app.drain().0.into_iter().map(|e| e.msg).collect()
    };
    assert_shows(&render(&app, now, 80, 24), &["n play now"]);
    key(&mut app, crossterm::event::KeyCode::Char('n'));
    let buf = render(&app, now, 80, 24);
    assert_shows(
        &buf,
        &[
            "Play now",
            "1+1",
            "3+2",
            "5+3",
            "10+5",
            "15+10",
            "←→ or 1–5 time control  Enter play  Esc back",
        ],
    );
    assert!(sent(&mut app).is_empty(), "nothing is sent before Enter");
    // → from 3+2 to 5+3, then Enter: play_now at 5+3, and the wait on screen.
    key(&mut app, crossterm::event::KeyCode::Right);
    key(&mut app, crossterm::event::KeyCode::Enter);
    assert_eq!(
        sent(&mut app),
        vec![ClientMessage::PlayNow(PlayNow {
            preset: PoolPreset::FivePlusThree
        })]
    );
    assert_shows(
        &render(&app, now, 80, 24),
        &["Looking for an opponent at 5+3…", "Esc stops looking"],
    );
    // Other keys do nothing while waiting; Esc stops looking and tells the server.
    key(&mut app, crossterm::event::KeyCode::Char('q'));
    assert!(!app.quit && sent(&mut app).is_empty());
    key(&mut app, crossterm::event::KeyCode::Esc);
    assert_eq!(sent(&mut app), vec![ClientMessage::CancelPlayNow]);
    assert!(!contains(
        &render(&app, now, 80, 24),
        "Looking for an opponent"
    ));

    // A refusal (a guest, a full pool) ends the wait and says why; the preset stays chosen.
    key(&mut app, crossterm::event::KeyCode::Char('n'));
    key(&mut app, crossterm::event::KeyCode::Char('1'));
    key(&mut app, crossterm::event::KeyCode::Enter);
    let id = app.drain().0.last().expect("play_now sent").id;
    app.receive(
        ServerMessage::Error(ErrorReply {
            id: Some(id),
            code: ErrorCode::MembersOnly,
            message: "rated games and play now are for signed-in members".into(),
            last_id: None,
            args: None,
        }),
        now,
    );
    let buf = render(&app, now, 80, 24);
    assert!(
        !contains(&buf, "Looking for an opponent"),
        "{:#?}",
        text(&buf)
    );
    assert_shows(&buf, &["←→ or 1–5 time control  Enter play  Esc back"]);

    // Paired: the match screen, with the panel gone.
    key(&mut app, crossterm::event::KeyCode::Enter);
    let id = app.drain().0.last().expect("play_now sent").id;
    app.receive(
        ServerMessage::Paired(Paired {
            preset: PoolPreset::OnePlusOne,
            seat: Seat {
                id,
                match_id: "m1".into(),
                invite_code: "ABCD".into(),
                side: Side::White,
                token: "t".into(),
            },
            opponent: "bob".into(),
            opponent_rating: PlayerRating {
                rating: 1512,
                provisional: true,
            },
        }),
        now,
    );
    assert_eq!(app.ui.screen, crate::app::view::Screen::Match);
    assert_eq!(app.ui.play_now, None);
}

fn chat_line(line: u64, author: &str, member: bool, say: ChatSay) -> ChatLine {
    ChatLine {
        match_id: "m1".into(),
        room: ChatRoom::Players,
        line,
        author: author.into(),
        member,
        say,
        at_ms: 1_700_000_000_000,
    }
}

/// The chat at 80×24 beside the game: the players' room with its lines (a guest marked, a
/// phrase in the reader's words, control characters drawn harmless), the phrases a guest
/// picks with `/` and a number, the line a member types; the move, the legal list and both
/// players stay on the screen.
#[test]
fn the_chat_pane_and_prompt_fit_at_80x24_beside_the_game() {
    let now = Instant::now();
    let mut app = black_player(now);
    app.receive(
        ServerMessage::ChatHistory(ChatHistory {
            match_id: "m1".into(),
            room: ChatRoom::Players,
            lines: vec![
                chat_line(1, "Anne", true, ChatSay::Text("nice opening".into())),
                chat_line(2, "bob", false, ChatSay::Preset(ChatPreset::GoodLuck)),
                chat_line(
                    3,
                    "Anne",
                    true,
                    ChatSay::Text("\u{1b}[2Jforged\nline".into()),
                ),
            ],
        }),
        now,
    );
    let buf = render(&app, now, 80, 24);
    let lines = text(&buf);
    assert_shows(
        &buf,
        &[
            "Players' chat",
            "Anne: nice opening",
            "bob (guest): Good luck",
            "Anne: ?[2Jforged?line",
            "your move",
            "legal (2)",
            "black: bob (you)",
        ],
    );
    assert!(
        !lines.iter().any(|line| line.contains('\u{1b}')),
        "{lines:#?}"
    );

    // A guest opens the chat and picks a phrase by its number.
    key(&mut app, crossterm::event::KeyCode::Char('/'));
    let buf = render(&app, now, 80, 24);
    assert_shows(&buf, &["1 Hello", "2 Good luck", "6 Thank you", "Esc"]);
    key(&mut app, crossterm::event::KeyCode::Char('2'));
    assert!(app.ui.chat.is_none(), "a phrase closes the prompt");
    let said: Vec<ChatSay> = app
        .drain()
        .0
        .into_iter()
        .filter_map(|envelope| match envelope.msg {
            ClientMessage::Chat(chat) => Some(chat.say),
            _ => None,
        })
        .collect();
    assert_eq!(said, [ChatSay::Preset(ChatPreset::GoodLuck)]);

    // A member types a line; its end stays in view; Enter says it.
    app.member = true;
    key(&mut app, crossterm::event::KeyCode::Char('/'));
    for c in "well played".chars() {
        key(&mut app, crossterm::event::KeyCode::Char(c));
    }
    assert_shows(&render(&app, now, 80, 24), &["Say> well played_"]);
    key(&mut app, crossterm::event::KeyCode::Enter);
    let said: Vec<ChatSay> = app
        .drain()
        .0
        .into_iter()
        .filter_map(|envelope| match envelope.msg {
            ClientMessage::Chat(chat) => Some(chat.say),
            _ => None,
        })
        .collect();
    assert_eq!(said, [ChatSay::Text("well played".into())]);
}

/// Muting for oneself at 80×24: `/` then Tab lists the chat's authors by number; the
/// opponent's number hides their lines, those already shown and those still to come, and the
/// pane says how many are hidden; the same number again hears them again. The server is not
/// told, and the list is marked for the runner to store.
#[test]
fn muting_an_author_hides_their_lines_with_a_notice_at_80x24() {
    let now = Instant::now();
    let mut app = black_player(now);
    app.receive(
        ServerMessage::ChatHistory(ChatHistory {
            match_id: "m1".into(),
            room: ChatRoom::Players,
            lines: vec![
                chat_line(1, "Anne", true, ChatSay::Text("rude remark".into())),
                chat_line(2, "bob", false, ChatSay::Preset(ChatPreset::GoodLuck)),
                chat_line(3, "Anne", true, ChatSay::Text("another one".into())),
            ],
        }),
        now,
    );
    app.drain();
    assert_shows(&render(&app, now, 80, 24), &["Anne: rude remark"]);

    key(&mut app, crossterm::event::KeyCode::Char('/'));
    key(&mut app, crossterm::event::KeyCode::Tab);
    let buf = render(&app, now, 80, 24);
    // Our own name is never offered.
    assert_shows(&buf, &["1 Mute Anne for me", "Tab", "Esc"]);
    assert!(!contains(&buf, "Mute bob"), "{:#?}", text(&buf));
    key(&mut app, crossterm::event::KeyCode::Char('1'));
    assert_eq!(app.muted, ["m:Anne"]);
    assert!(app.muted_changed, "the runner is told to store the list");
    key(&mut app, crossterm::event::KeyCode::Esc);
    assert!(app.ui.chat.is_none() && !app.ui.muting);

    // A line said after the mute is hidden too.
    app.receive(
        ServerMessage::ChatLine(chat_line(
            4,
            "Anne",
            true,
            ChatSay::Text("still here".into()),
        )),
        now,
    );
    let buf = render(&app, now, 80, 24);
    let lines = text(&buf);
    assert_shows(
        &buf,
        &[
            "Players' chat",
            "lines of muted authors hidden: 3",
            "bob (guest): Good luck",
            "your move",
        ],
    );
    for gone in ["rude remark", "another one", "still here"] {
        assert!(!contains(&buf, gone), "{gone}: {lines:#?}");
    }
    assert!(
        app.drain()
            .0
            .iter()
            .all(|e| !matches!(e.msg, ClientMessage::Chat(_))),
        "the server is not told"
    );

    // Listed and undoable: the muted author comes first, and their number hears them again.
    key(&mut app, crossterm::event::KeyCode::Char('/'));
    key(&mut app, crossterm::event::KeyCode::Tab);
    assert_shows(&render(&app, now, 80, 24), &["1 Unmute Anne"]);
    key(&mut app, crossterm::event::KeyCode::Char('1'));
    assert!(app.muted.is_empty());
    let buf = render(&app, now, 80, 24);
    assert_shows(&buf, &["Anne: still here"]);
    assert!(!contains(&buf, "hidden"), "{:#?}", text(&buf));

    key(&mut app, crossterm::event::KeyCode::Esc);

    // A guest's phrases are muted the same way (the newest author is offered first).
    app.receive(
        ServerMessage::ChatLine(chat_line(
            5,
            "carl",
            false,
            ChatSay::Preset(ChatPreset::Hello),
        )),
        now,
    );
    assert_shows(&render(&app, now, 80, 24), &["carl (guest): Hello"]);
    key(&mut app, crossterm::event::KeyCode::Char('/'));
    key(&mut app, crossterm::event::KeyCode::Tab);
    assert_shows(
        &render(&app, now, 80, 24),
        &["1 Mute carl for me", "2 Mute Anne for me"],
    );
    key(&mut app, crossterm::event::KeyCode::Char('1'));
    assert_eq!(app.muted, ["g:carl"]);
    let buf = render(&app, now, 80, 24);
    assert!(!contains(&buf, "carl (guest)"), "{:#?}", text(&buf));
    assert_shows(
        &buf,
        &["lines of muted authors hidden: 1", "Anne: still here"],
    );
}

/// `+` gives the opponent 15 s; the clock `more_time_given` carries is the one shown.
#[test]
fn plus_gives_the_opponent_more_time_and_the_clock_shows_it() {
    let now = Instant::now();
    let mut app = black_player(now);
    key(&mut app, crossterm::event::KeyCode::Char('+'));
    let sent = app.drain().0;
    assert!(
        sent.iter()
            .any(|envelope| matches!(&envelope.msg, ClientMessage::MoreTime(seat) if seat.match_id == "m1")),
        "{sent:?}"
    );
    event(
        &mut app,
        4,
        MatchEvent::MoreTimeGiven(MoreTimeGiven {
            side: Side::White,
            clock: ClockState {
                white_ms: 305_000,
                black_ms: 300_000,
                running: Some(Side::Black),
            },
        }),
        now,
    );
    assert_shows(&render(&app, now, 80, 24), &["5:05"]);
}

/// `B` goes berserk in an arena game; `berserked` halves the clock shown and marks the player
/// `berserk` beside their name, within 80 columns.
#[test]
fn shift_b_goes_berserk_and_the_halved_clock_and_the_mark_show() {
    let now = Instant::now();
    let mut app = black_player(now);
    if let Some(game) = app.game.as_mut() {
        game.berserk = Some(Vec::new());
    }
    key(&mut app, crossterm::event::KeyCode::Char('B'));
    let sent = app.drain().0;
    assert!(
        sent.iter()
            .any(|envelope| matches!(&envelope.msg, ClientMessage::Berserk(seat) if seat.match_id == "m1")),
        "{sent:?}"
    );
    event(
        &mut app,
        4,
        MatchEvent::Berserked(boardcast_protocol::Berserked {
            side: Side::Black,
            clock: ClockState {
                white_ms: 300_000,
                black_ms: 150_000,
                running: Some(Side::Black),
            },
        }),
        now,
    );
    assert_shows(&render(&app, now, 80, 24), &["2:30", "berserk"]);
}

/// The bell rings once when the player's own clock drops under 10 s on their turn, not again
/// at every frame of that turn (`--no-bell` silences it with the turn bell).
#[test]
fn the_bell_rings_once_when_ones_own_clock_drops_under_10_s() {
    let now = Instant::now();
    let mut app = black_player(now);
    app.ring = false;
    // Black (to move) has 5:00, running from `now`.
    app.check_low_time(now + Duration::from_secs(200));
    assert!(!app.ring, "3:20 left is not low");
    app.check_low_time(now + Duration::from_secs(291));
    assert!(app.ring, "9 s left rings");
    app.ring = false;
    app.check_low_time(now + Duration::from_secs(293));
    assert!(!app.ring, "once per turn");
}

/// Takebacks at 80×24 (issue 32): `u` proposes, the opponent sees what `u` and `U` do and
/// `u` accepts; once taken back, the proposer is to move again with the move gone.
#[test]
fn u_proposes_and_accepts_a_takeback_and_the_move_is_gone() {
    let now = Instant::now();
    let mut amy = white_waiting(now);
    key(&mut amy, crossterm::event::KeyCode::Char('u'));
    let sent = amy.drain().0;
    assert!(
        sent.iter()
            .any(|envelope| matches!(&envelope.msg, ClientMessage::ProposeTakeback(seat) if seat.match_id == "m1")),
        "{sent:?}"
    );
    event(&mut amy, 4, MatchEvent::TakebackProposed(Side::White), now);
    assert_shows(&render(&amy, now, 80, 24), &["You proposed to take back"]);
    let mut bob = black_player(now);
    event(&mut bob, 4, MatchEvent::TakebackProposed(Side::White), now);
    assert_shows(
        &render(&bob, now, 80, 24),
        &["Your opponent asks to take back"],
    );
    key(&mut bob, crossterm::event::KeyCode::Char('u'));
    let sent = bob.drain().0;
    assert!(
        sent.iter()
            .any(|envelope| matches!(&envelope.msg, ClientMessage::AcceptTakeback(_))),
        "{sent:?}"
    );
    let taken = MatchEvent::TakenBack(TakenBack {
        side: Side::White,
        plies: 0,
        fen: "W:W31-50:B1-20:H0:F1:+0+0".into(),
        clock: Some(ClockState {
            white_ms: 300_000,
            black_ms: 296_000,
            running: None,
        }),
        legal_moves: crate::app::entry::legal(&["31-26", "32-28"]),
        king_counters: KingCounters {
            white: None,
            black: None,
        },
        first_move_in_ms: Some(30_000),
    });
    event(&mut amy, 5, taken, now);
    let game = amy.game.as_ref().unwrap();
    assert_eq!(
        (game.moves.len(), game.turn, game.takeback_offer),
        (0, Side::White, None)
    );
    let buf = render(&amy, now, 80, 24);
    assert_shows(&buf, &["Taken back: your move again", "move>"]);
    assert!(!contains(&buf, "1. 32-28"), "{:#?}", text(&buf));
}

/// White's player (amy) at the start of a match that takes no takebacks: a rated match, or a
/// club event's game (`event`), as its snapshot says.
fn white_without_takebacks(now: Instant, rated: bool, event: Option<&str>) -> App {
    let mut app = App::new("amy", None, 1);
    app.connected();
    app.receive(
        ServerMessage::Seat(Seat {
            id: 0,
            match_id: "m1".into(),
            invite_code: "ABCD".into(),
            side: Side::White,
            token: "t".into(),
        }),
        now,
    );
    let mut snap = snapshot("W:W31-50:B1-20:H0:F1:+0+0", &["32-28"]);
    snap.takebacks = false;
    snap.rated = rated;
    snap.event = event.map(str::to_owned);
    app.receive(ServerMessage::MatchSnapshot(snap), now);
    app.drain();
    app
}

/// Takebacks in a rated match or a club event's game at 80×24 (issue 32): `u` and `U` are
/// refused here, in the player's language with the server's reason for this match (a rated
/// match, or an event's game, rated or not), and nothing is sent; the help lists the takeback
/// keys to a player of a casual match only.
#[test]
fn u_without_takebacks_is_refused_here_in_words_and_the_help_does_not_offer_it() {
    let now = Instant::now();
    let words =
        |text: &str| -> Vec<String> { text.split_whitespace().map(str::to_lowercase).collect() };
    let reason = |kind: &str| {
        let args = ErrorArgs::new("takeback_casual_only").word("match", kind);
        crate::i18n::refusal("not_allowed", "", Some(&args))
    };
    let matches = [
        (true, None, "rated"),
        (true, Some("e1"), "event"),
        (false, Some("e1"), "event"),
    ];
    for lang in Lang::ALL {
        speak_on_this_thread(lang);
        assert_ne!(reason("rated"), reason("event"), "{}", lang.tag());
        for (rated, event, kind) in matches {
            for code in ['u', 'U'] {
                let mut amy = white_without_takebacks(now, rated, event);
                key(&mut amy, crossterm::event::KeyCode::Char(code));
                let sent = amy.drain().0;
                assert!(sent.is_empty(), "{} {code} {kind}: {sent:?}", lang.tag());
                // The status bar's bottom lines show the whole reason.
                let lines = text(&render(&amy, now, 80, 24));
                let bottom = words(&lines[lines.len() - 3..].join(" "));
                let said = words(&reason(kind));
                assert!(
                    bottom.windows(said.len()).any(|shown| shown == said),
                    "{} {code} {kind}:\n{}",
                    lang.tag(),
                    lines.join("\n")
                );
            }
        }
        let mut amy = white_without_takebacks(now, true, None);
        amy.ui.help = true;
        assert!(!super::help::keys(&amy).contains(&super::help::TAKEBACK));
        let buf = render(&amy, now, 80, 24);
        assert!(contains(&buf, &tr("help-match-draw")), "{:#?}", text(&buf));
        assert!(!contains(&buf, "u / U"), "{:#?}", text(&buf));
        // A casual match's player has them, and `u` goes to the server.
        let mut casual = white_waiting(now);
        casual.ui.help = true;
        assert_shows(
            &render(&casual, now, 80, 24),
            &["u / U", &tr("help-match-takeback")],
        );
        casual.ui.help = false;
        casual.drain();
        key(&mut casual, crossterm::event::KeyCode::Char('u'));
        assert!(
            casual
                .drain()
                .0
                .iter()
                .any(|envelope| matches!(envelope.msg, ClientMessage::ProposeTakeback(_)))
        );
    }
    speak_on_this_thread(Lang::En);
    assert_eq!(
        reason("rated"),
        "Takebacks are for casual games only, not for a rated game."
    );
    assert_eq!(
        reason("event"),
        "Takebacks are for casual games only, not for a club event's game."
    );
}

/// An older server's snapshot says `takebacks: false` but not why (no `rated`, no `event`):
/// the help hides `u / U` there, so `u` and `U` are not sent either; they are refused here in
/// words that name no kind of match, in each language at 80×24. What the help hides and what
/// the keys send agree.
#[test]
fn u_of_an_older_server_without_takebacks_is_hidden_and_not_sent() {
    let now = Instant::now();
    for (lang, said) in [
        (
            Lang::En,
            "Takebacks are for casual games only: this game takes none.",
        ),
        (
            Lang::Nl,
            "Zetten terugnemen kan alleen in vrije partijen: in deze partij niet.",
        ),
        (
            Lang::Fy,
            "In set weromnimme kin allinnich yn frije partijen: yn dizze partij net.",
        ),
    ] {
        speak_on_this_thread(lang);
        let mut amy = white_without_takebacks(now, false, None);
        amy.ui.help = true;
        assert!(!super::help::keys(&amy).contains(&super::help::TAKEBACK));
        assert!(!contains(&render(&amy, now, 80, 24), "u / U"));
        amy.ui.help = false;
        for code in ['u', 'U'] {
            key(&mut amy, crossterm::event::KeyCode::Char(code));
            let sent = amy.drain().0;
            assert!(sent.is_empty(), "{} {code}: {sent:?}", lang.tag());
            let lines = text(&render(&amy, now, 80, 24));
            let words = |text: &str| -> Vec<String> {
                text.split_whitespace().map(str::to_lowercase).collect()
            };
            let bottom = words(&lines[lines.len() - 3..].join(" "));
            let said = words(said);
            assert!(
                bottom.windows(said.len()).any(|shown| shown == said),
                "{} {code}:\n{}",
                lang.tag(),
                lines.join("\n")
            );
        }
    }
    speak_on_this_thread(Lang::En);
}

/// Premoves at 80×24 (issue 32): a move typed on the opponent's turn is kept and sent the
/// moment the opponent's move arrives when it is legal then; one a compulsory capture made
/// illegal is dropped, nothing sent, with a notice on screen.
#[test]
fn a_typed_premove_is_played_when_legal_and_dropped_with_a_notice_when_not() {
    let now = Instant::now();
    let type_move = |app: &mut App, text: &str| {
        for c in text.chars() {
            key(app, crossterm::event::KeyCode::Char(c));
        }
        key(app, crossterm::event::KeyCode::Enter);
    };
    let after = "W:W28,31,33-50:B1-18,20,23";
    for (legal, played) in [
        (&["31-26", "31-27", "33-29"][..], true),
        (&["28x19"][..], false),
    ] {
        let mut amy = white_waiting(now);
        amy.drain();
        type_move(&mut amy, "31-27");
        assert!(
            amy.drain().0.is_empty(),
            "nothing is sent on the opponent's turn"
        );
        assert_shows(&render(&amy, now, 80, 24), &["Premove 31-27"]);
        event(&mut amy, 4, moved(1, "19-23", after, legal), now);
        let sent = amy.drain().0;
        let moves: Vec<_> = sent
            .iter()
            .filter_map(|envelope| match &envelope.msg {
                ClientMessage::Move(play) => Some(play.route.clone()),
                _ => None,
            })
            .collect();
        let buf = render(&amy, now, 80, 24);
        if played {
            assert_eq!(moves, [vec![31, 27]]);
            assert_shows(&buf, &["Premove 31-27 played"]);
        } else {
            assert!(moves.is_empty(), "{moves:?}");
            assert_shows(&buf, &["Premove 31-27 dropped"]);
        }
        assert_eq!(amy.premove, None);
    }
    // Esc cancels a premove.
    let mut amy = white_waiting(now);
    type_move(&mut amy, "31-27");
    key(&mut amy, crossterm::event::KeyCode::Esc);
    assert_eq!(amy.premove, None);
    event(&mut amy, 4, moved(1, "19-23", after, &["31-27"]), now);
    assert!(
        !amy.drain()
            .0
            .iter()
            .any(|e| matches!(e.msg, ClientMessage::Move(_))),
        "a cancelled premove is not played"
    );
}

/// A premove typed before the connection dropped (issue 32), when the reconnect's snapshot
/// already holds the opponent's move (the server no longer kept the events missed): played at
/// once, as when the move's event arrives. A snapshot of the same turn keeps it; one of
/// another position (after a takeback) forgets it, nothing sent, so it is never played later
/// against a position it was not meant for.
#[test]
fn a_premove_is_played_when_a_reconnects_snapshot_holds_the_opponents_move() {
    let now = Instant::now();
    let type_move = |app: &mut App, text: &str| {
        for c in text.chars() {
            key(app, crossterm::event::KeyCode::Char(c));
        }
        key(app, crossterm::event::KeyCode::Enter);
    };
    // The match as a snapshot shows it after `moves`, with `legal` for the side to move.
    let at = |moves: Vec<PlayedMove>, fen: &str, legal: &[&str]| {
        let mut snap = snapshot(fen, legal);
        snap.v = 9;
        snap.turn = if moves.len().is_multiple_of(2) {
            Side::White
        } else {
            Side::Black
        };
        snap.moves = moves;
        ServerMessage::MatchSnapshot(snap)
    };
    let opening = || {
        vec![
            played(0, Side::White, "32-28"),
            played(1, Side::Black, "19-23"),
        ]
    };
    let after = "W:W28,31,33-50:B1-18,20,23";

    let mut amy = white_waiting(now);
    type_move(&mut amy, "31-27");
    amy.drain();
    // Still Black's move: the premove waits.
    let waiting = at(opening()[..1].to_vec(), "B:W28,31,33-50:B1-20", &["19-23"]);
    amy.receive(waiting, now);
    assert!(amy.drain().0.is_empty());
    assert!(amy.premove.is_some());
    amy.receive(at(opening(), after, &["31-26", "31-27", "33-29"]), now);
    let moves: Vec<Vec<u8>> = amy
        .drain()
        .0
        .iter()
        .filter_map(|envelope| match &envelope.msg {
            ClientMessage::Move(play) => Some(play.route.clone()),
            _ => None,
        })
        .collect();
    assert_eq!(moves, [vec![31, 27]]);
    assert_shows(&render(&amy, now, 80, 24), &["Premove 31-27 played"]);
    assert_eq!(amy.premove, None);

    // Illegal then: dropped with the notice.
    let mut amy = white_waiting(now);
    type_move(&mut amy, "31-27");
    amy.drain();
    amy.receive(at(opening(), after, &["28x19"]), now);
    assert!(amy.drain().0.is_empty());
    assert_shows(&render(&amy, now, 80, 24), &["Premove 31-27 dropped"]);

    // A takeback's position: forgotten, and not played at White's next turn either.
    let mut amy = white_waiting(now);
    type_move(&mut amy, "31-27");
    amy.drain();
    amy.receive(at(Vec::new(), "W:W31-50:B1-20", &["31-27", "32-28"]), now);
    assert!(amy.drain().0.is_empty());
    assert_eq!(amy.premove, None);
}

/// `b` turns the bell off while playing and on again (`--no-bell` still starts it off): at
/// 80×24 the status line says which, a turn that comes while it is off rings nothing (and is
/// not rung later), and the keys overlay lists `b`.
#[test]
fn b_turns_the_bell_off_and_on_while_playing() {
    let now = Instant::now();
    let mut amy = white_waiting(now);
    assert!(amy.bell, "on unless --no-bell");
    key(&mut amy, crossterm::event::KeyCode::Char('b'));
    assert!(!amy.bell);
    assert_shows(
        &render(&amy, now, 80, 24),
        &["bell off (b turns it on again)"],
    );
    let after = "W:W28,31,33-50:B1-18,20,23";
    event(&mut amy, 4, moved(1, "19-23", after, &["28x19"]), now);
    assert!(!amy.take_ring(), "the turn came with the bell off");
    key(&mut amy, crossterm::event::KeyCode::Char('b'));
    assert!(amy.bell);
    assert_shows(&render(&amy, now, 80, 24), &["bell on (b turns it off)"]);
    assert!(
        !amy.take_ring(),
        "no ring for the turn that came while it was off"
    );
    // On again: her next turn rings.
    event(
        &mut amy,
        5,
        moved(2, "28x19", "B:W19,31,33-50:B1-18,20", &["14x23"]),
        now,
    );
    assert!(!amy.take_ring(), "her own move");
    let after = "W:W31,33-50:B1-13,15-18,20,23";
    event(&mut amy, 6, moved(3, "14x23", after, &["33-28"]), now);
    assert!(amy.take_ring(), "the turn came with the bell on again");
    amy.ui.help = true;
    assert_shows(
        &render(&amy, now, 80, 24),
        &["n f t b", "letter pieces, bell"],
    );
}

/// Issue 34: the match screen and the MinitChess TV and prediction screen at 80x24 in every
/// language, each line of theirs whole on screen (Dutch and Frisian words run longer).
#[test]
fn at_80x24_the_match_and_predict_screens_are_whole_in_every_language() {
    let now = Instant::now();
    for lang in Lang::ALL {
        speak_on_this_thread(lang);
        // Black to move after 32-28, White's king counted on 45, the invite code shown.
        let bob = black_player(now);
        let buf = render(&bob, now, 80, 24);
        let needles = [
            tr("tui-your-move"),
            format!("{}: bob {}", tr("side-black"), tr("tui-you")),
            format!("{}: alice", tr("side-white")),
            tr_args(
                "tui-king-count",
                &[
                    ("side", "white".into()),
                    ("square", "45".into()),
                    ("count", "2".into()),
                ],
            ),
            tr_args("tui-invite-code", &[("code", "ABCD".into())]),
            tr_args("tui-match-id", &[("id", "m1".into())]),
            tr_args("tui-spectators", &[("count", 0.into())]),
            tr_args("tui-legal", &[("count", 2.into())]),
            format!("{}> _", tr("tui-move-prompt")),
            format!("[{}]", tr("tui-link-online")),
            tr("tui-hint-help"),
        ];
        assert_shows(
            &buf,
            &needles.iter().map(String::as_str).collect::<Vec<_>>(),
        );
        // A spectator of the same match: whose move, and every key.
        let mut eve = App::new("eve", None, 1);
        eve.connected();
        eve.watching = Some(Target::Match("m1".into()));
        eve.receive(
            ServerMessage::MatchSnapshot(snapshot("W:W31-50:B1-20", &["32-28"])),
            now,
        );
        let buf = render(&eve, now, 80, 24);
        let mut needles = vec![tr_args("tui-to-move", &[("side", "white".into())])];
        needles.extend(
            [
                "tui-hint-spectator",
                "tui-hint-back",
                "tui-hint-flip",
                "tui-hint-numbers",
                "tui-hint-moves",
                "tui-hint-keys",
            ]
            .map(tr),
        );
        assert_shows(
            &buf,
            &needles.iter().map(String::as_str).collect::<Vec<_>>(),
        );

        // TV: the module's display, the countdown and every key; then the guess prompt.
        let mut tv = App::new(
            "dee",
            Some(Command::Watch(Target::Channel("tv1".into()))),
            1,
        );
        tv.connected();
        tv.receive(ServerMessage::ChannelSnapshot(channel_snapshot()), now);
        let buf = render(&tv, now, 80, 24);
        let needles = [
            format!(
                "TV tv1 · {}",
                tr_args("tui-piece-set", &[("set", "FULL".into())])
            ),
            tr_args("tui-serial", &[("serial", "CH3SS5".into())]),
            tr_args(
                "tui-engines",
                &[("white", "L4".into()), ("black", "K7".into())],
            ),
            tr_args(
                "tui-move-number",
                &[
                    ("side", "white".into()),
                    ("move", "1".into()),
                    ("ply", "0".into()),
                ],
            ),
            tr_args(
                "tui-next-ply-in",
                &[("seconds", crate::i18n::tenths(2.0).into())],
            ),
            tr("tui-hint-predict"),
            tr("tui-hint-pieces"),
            tr("tui-hint-leaderboard"),
            tr("tui-hint-quit"),
        ];
        assert_shows(
            &buf,
            &needles.iter().map(String::as_str).collect::<Vec<_>>(),
        );
        tv.key(crossterm::event::KeyEvent::from(
            crossterm::event::KeyCode::Char('p'),
        ));
        let buf = render(&tv, now, 80, 24);
        let needles = [
            format!("{}> _", tr("tui-guess-prompt")),
            tr_args("tui-guess-pick", &[("ply", "0".into())]),
            tr_args("tui-score", &[("correct", 0.into()), ("strikes", 0.into())]),
            tr("tui-prediction"),
        ];
        assert_shows(
            &buf,
            &needles.iter().map(String::as_str).collect::<Vec<_>>(),
        );
        if lang == Lang::Fy {
            assert_shows(&buf, &["heale set 0: kies in begjinfjild of typ b1-c3"]);
        }
    }
    speak_on_this_thread(Lang::En);
}
