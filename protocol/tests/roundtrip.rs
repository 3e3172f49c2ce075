//! Property tests: arbitrary messages survive both encodings; arbitrary bytes never panic a
//! decoder; oversized frames are refused before parsing; out-of-range fields are refused.
//!
//! Case counts are capped so the whole file runs in a few seconds; raise them with
//! `PROPTEST_CASES=10000 cargo test -p boardcast-protocol --test roundtrip` for a longer run.

use boardcast_protocol::limits::{
    MAX_CLIENT_FRAME_BYTES, MAX_ID_BYTES, MAX_NAME_CHARS, MAX_ROUTE_SQUARES, MAX_SERVER_FRAME_BYTES,
};
use boardcast_protocol::*;
use proptest::collection::vec;
use proptest::option::of;
use proptest::prelude::*;

// ---- leaves ----

/// Any text, including empty, control characters and non-ASCII.
fn text() -> impl Strategy<Value = String> {
    prop_oneof![
        "[a-z0-9]{1,10}",
        any::<String>(),
        Just(String::new()),
        "[\\PC]{0,40}",
    ]
}

/// Mostly valid ids, sometimes anything.
fn ident() -> impl Strategy<Value = String> {
    prop_oneof![4 => "[A-Za-z0-9._-]{1,20}", 1 => text()]
}

fn side() -> impl Strategy<Value = Side> {
    prop_oneof![Just(Side::White), Just(Side::Black)]
}

fn squares() -> impl Strategy<Value = Vec<u8>> {
    prop_oneof![4 => vec(1u8..=50, 2..=6), 1 => vec(any::<u8>(), 0..=25)]
}

fn target() -> impl Strategy<Value = Target> {
    prop_oneof![
        ident().prop_map(Target::Match),
        ident().prop_map(Target::Channel),
        ident().prop_map(Target::Event)
    ]
}

prop_compose! {
    fn time_control()(initial_ms in any::<u64>(), increment_ms in any::<u64>()) -> TimeControl {
        TimeControl { initial_ms, increment_ms }
    }
}

fn error_code() -> impl Strategy<Value = ErrorCode> {
    prop::sample::select(ErrorCode::ALL.to_vec())
}

fn end_reason() -> impl Strategy<Value = EndReason> {
    prop::sample::select(vec![
        EndReason::NoLegalMove,
        EndReason::Resignation,
        EndReason::TimeForfeit,
        EndReason::DrawByRule,
        EndReason::DrawByAgreement,
        EndReason::Aborted,
        EndReason::Abandoned,
        EndReason::DrawClaimed,
    ])
}

fn phase() -> impl Strategy<Value = MatchPhase> {
    prop::sample::select(vec![
        MatchPhase::Waiting,
        MatchPhase::Playing,
        MatchPhase::Finished,
    ])
}

fn channel_kind() -> impl Strategy<Value = ChannelKind> {
    prop_oneof![Just(ChannelKind::Tv), Just(ChannelKind::OnDemand)]
}

// ---- client messages ----

fn chat_say() -> impl Strategy<Value = ChatSay> {
    prop_oneof![
        text().prop_map(ChatSay::Text),
        prop::sample::select(ChatPreset::ALL.to_vec()).prop_map(ChatSay::Preset),
    ]
}

fn chat_line() -> impl Strategy<Value = ChatLine> {
    (
        ident(),
        any::<bool>(),
        any::<u64>(),
        text(),
        any::<bool>(),
        chat_say(),
        any::<i64>(),
    )
        .prop_map(
            |(match_id, players, line, author, member, say, at_ms)| ChatLine {
                match_id,
                room: if players {
                    ChatRoom::Players
                } else {
                    ChatRoom::Spectators
                },
                line,
                author,
                member,
                say,
                at_ms,
            },
        )
}

prop_compose! {
    fn seat_action()(match_id in ident(), token in ident()) -> SeatAction {
        SeatAction { match_id, token }
    }
}

fn client_message() -> impl Strategy<Value = ClientMessage> {
    prop_oneof![
        (any::<u32>(), text(), text(), any::<bool>()).prop_map(|(protocol, client, name, bot)| {
            ClientMessage::Hello(Hello {
                protocol,
                client,
                name,
                bot,
            })
        }),
        any::<u64>().prop_map(|nonce| ClientMessage::Ping(Ping { nonce })),
        Just(ClientMessage::ListLobby),
        (
            of(time_control()),
            prop::sample::select(vec![
                ColorChoice::White,
                ColorChoice::Black,
                ColorChoice::Random
            ]),
            any::<bool>(),
            any::<bool>(),
            of(proptest::sample::select(
                boardcast_protocol::limits::RATING_RANGES.to_vec()
            ))
        )
            .prop_map(|(time_control, color, public, rated, range)| {
                ClientMessage::CreateMatch(CreateMatch {
                    time_control,
                    color,
                    public,
                    rated,
                    rating_range: range.filter(|_| rated),
                })
            }),
        ident().prop_map(|id| ClientMessage::JoinMatch(JoinMatch::Id(id))),
        ident().prop_map(|code| ClientMessage::JoinMatch(JoinMatch::Code(code))),
        ident().prop_map(|id| ClientMessage::JoinMatch(JoinMatch::Myself(id))),
        (ident(), of(any::<u64>()))
            .prop_map(|(token, since_v)| ClientMessage::Resume(Resume { token, since_v })),
        (ident(), of(any::<u64>()))
            .prop_map(|(match_id, since_v)| ClientMessage::Reclaim(Reclaim { match_id, since_v })),
        (ident(), ident(), squares()).prop_map(|(match_id, token, route)| ClientMessage::Move(
            PlayMove {
                match_id,
                token,
                route,
                lag_ms: None,
            }
        )),
        seat_action().prop_map(ClientMessage::Resign),
        seat_action().prop_map(ClientMessage::OfferDraw),
        seat_action().prop_map(ClientMessage::AcceptDraw),
        seat_action().prop_map(ClientMessage::DeclineDraw),
        seat_action().prop_map(ClientMessage::Abort),
        (
            seat_action(),
            prop_oneof![Just(ClaimKind::Win), Just(ClaimKind::Draw)]
        )
            .prop_map(|(seat, kind)| {
                ClientMessage::Claim(Claim {
                    match_id: seat.match_id,
                    token: seat.token,
                    kind,
                })
            }),
        (ident(), chat_say())
            .prop_map(|(match_id, say)| ClientMessage::Chat(Chat { match_id, say })),
        (ident(), any::<u64>())
            .prop_map(|(match_id, line)| ClientMessage::ChatDelete(ChatDelete { match_id, line })),
        (ident(), any::<bool>())
            .prop_map(|(name, muted)| ClientMessage::ChatMute(ChatMute { name, muted })),
        seat_action().prop_map(ClientMessage::OfferRematch),
        seat_action().prop_map(ClientMessage::AcceptRematch),
        seat_action().prop_map(ClientMessage::DeclineRematch),
        seat_action().prop_map(ClientMessage::MoreTime),
        seat_action().prop_map(ClientMessage::Berserk),
        seat_action().prop_map(ClientMessage::ProposeTakeback),
        seat_action().prop_map(ClientMessage::AcceptTakeback),
        seat_action().prop_map(ClientMessage::DeclineTakeback),
        (seat_action(), any::<bool>()).prop_map(|(seat, refuse)| {
            ClientMessage::RefuseMoreTime(RefuseMoreTime {
                match_id: seat.match_id,
                token: seat.token,
                refuse,
            })
        }),
        (target(), of(any::<u64>()))
            .prop_map(|(target, since_v)| ClientMessage::Watch(Watch { target, since_v })),
        target().prop_map(ClientMessage::Unwatch),
        (
            ident(),
            ident(),
            ident(),
            of(any::<u64>()),
            of(any::<u32>())
        )
            .prop_map(|(serial, white, black, ply_interval_ms, reveal_from_ply)| {
                ClientMessage::StartEngineGame(StartEngineGame {
                    serial,
                    white,
                    black,
                    ply_interval_ms,
                    reveal_from_ply,
                })
            }),
        (
            ident(),
            any::<u32>(),
            prop_oneof!["[a-e][1-6]", text()],
            prop_oneof!["[a-e][1-6]", text()]
        )
            .prop_map(|(channel, ply, from, to)| ClientMessage::Predict(Predict {
                channel,
                ply,
                from,
                to
            })),
        any::<u32>().prop_map(|limit| ClientMessage::Leaderboard(LeaderboardQuery { limit })),
        preset().prop_map(|preset| ClientMessage::PlayNow(PlayNow { preset })),
        Just(ClientMessage::CancelPlayNow),
    ]
}

fn preset() -> impl Strategy<Value = PoolPreset> {
    proptest::sample::select(PoolPreset::ALL.to_vec())
}

prop_compose! {
    fn envelope()(id in any::<u64>(), msg in client_message()) -> ClientEnvelope {
        ClientEnvelope { id, msg }
    }
}

// ---- server messages ----

prop_compose! {
    fn clock()(white_ms in any::<u64>(), black_ms in any::<u64>(), running in of(side())) -> ClockState {
        ClockState { white_ms, black_ms, running }
    }
}

prop_compose! {
    fn legal_move()(notation in text(), route in squares(), captures in squares()) -> LegalMove {
        LegalMove { notation, route, captures }
    }
}

prop_compose! {
    fn played_move()(ply in any::<u32>(), side in side(), notation in text(), route in squares(),
                     captures in squares(), promotes in any::<bool>()) -> PlayedMove {
        PlayedMove { ply, side, notation, route, captures, promotes }
    }
}

prop_compose! {
    fn king_counters()(white in of((any::<u8>(), any::<u8>())), black in of((any::<u8>(), any::<u8>()))) -> KingCounters {
        let counter = |(count, square)| KingCounter { count, square };
        KingCounters { white: white.map(counter), black: black.map(counter) }
    }
}

prop_compose! {
    fn rating_diff()(before in any::<u16>(), after in any::<u16>(), diff in any::<i16>(), provisional in any::<bool>()) -> RatingDiff {
        RatingDiff { before, after, diff, provisional }
    }
}

prop_compose! {
    fn match_result()(
        winner in of(side()),
        reason in end_reason(),
        detail in text(),
        rating_change in of((rating_diff(), rating_diff()).prop_map(|(white, black)| RatingChanges { white, black })),
    ) -> MatchResult {
        MatchResult { winner, reason, detail, rating_change }
    }
}

prop_compose! {
    fn absence()(side in side(), claim_in_ms in any::<u64>()) -> Absence {
        Absence { side, claim_in_ms }
    }
}

prop_compose! {
    fn player()(name in text(), connected in any::<bool>(), bot in any::<bool>(),
                account in any::<bool>()) -> PlayerInfo {
        PlayerInfo { name, connected, bot, account }
    }
}

prop_compose! {
    fn snapshot_head()(match_id in ident(), v in any::<u64>(), white in of(player()), black in of(player()),
                       time_control in of(time_control()), public in any::<bool>(), phase in phase(),
                       start_fen in text(), fen in text(), turn in side())
        -> (String, u64, Option<PlayerInfo>, Option<PlayerInfo>, Option<TimeControl>, bool, MatchPhase, String, String, Side) {
        (match_id, v, white, black, time_control, public, phase, start_fen, fen, turn)
    }
}

prop_compose! {
    fn match_snapshot()(head in snapshot_head(), moves in vec(played_move(), 0..4), clock in of(clock()),
                        legal_moves in vec(legal_move(), 0..4), king_counters in king_counters(),
                        draw_offer in of(side()), rematch_offer in of(side()), absent in vec(absence(), 0..3),
                        result in of(match_result()), rematch in of(ident()),
                        first_move_in_ms in of(any::<u64>()),
                        offers in (of(vec(side(), 0..3)), of(side())),
                        flags in (any::<bool>(), any::<bool>(), any::<bool>(), any::<bool>()),
                        event in of(ident())) -> MatchSnapshot {
        let (berserk, takeback_offer) = offers;
        let (match_id, v, white, black, time_control, public, phase, start_fen, fen, turn) = head;
        MatchSnapshot {
            match_id, v, white, black, time_control, public, phase, start_fen, fen, moves, turn, clock,
            legal_moves, king_counters, draw_offer, rematch_offer, absent, result, rematch,
            first_move_in_ms, berserk,
            refuses_more_time: MoreTimeRefusals { white: flags.0, black: flags.1 },
            takeback_offer,
            takebacks: flags.2,
            rated: flags.3,
            event,
        }
    }
}

fn match_event() -> impl Strategy<Value = MatchEvent> {
    prop_oneof![
        (
            side(),
            text(),
            any::<bool>(),
            of(any::<u64>()),
            any::<bool>()
        )
            .prop_map(|(side, name, bot, first_move_in_ms, account)| {
                MatchEvent::PlayerJoined(PlayerJoined {
                    side,
                    name,
                    bot,
                    first_move_in_ms,
                    account,
                })
            }),
        (
            played_move(),
            text(),
            of(clock()),
            vec(legal_move(), 0..4),
            king_counters(),
            of(any::<u64>())
        )
            .prop_map(
                |(played, fen, clock, legal_moves, king_counters, first_move_in_ms)| {
                    MatchEvent::Moved(Moved {
                        played,
                        fen,
                        clock,
                        legal_moves,
                        king_counters,
                        first_move_in_ms,
                        lag_ms: None,
                    })
                }
            ),
        side().prop_map(MatchEvent::DrawOffered),
        side().prop_map(MatchEvent::DrawDeclined),
        Just(MatchEvent::DrawOfferCancelled),
        absence().prop_map(MatchEvent::PlayerLeft),
        side().prop_map(MatchEvent::PlayerReturned),
        match_result().prop_map(MatchEvent::Ended),
        side().prop_map(MatchEvent::RematchOffered),
        side().prop_map(MatchEvent::RematchDeclined),
        ident().prop_map(MatchEvent::RematchStarted),
        (side(), clock())
            .prop_map(|(side, clock)| MatchEvent::MoreTimeGiven(MoreTimeGiven { side, clock })),
        (side(), any::<bool>()).prop_map(|(side, refused)| MatchEvent::MoreTimeRefused(
            MoreTimeRefused { side, refused }
        )),
        (side(), clock())
            .prop_map(|(side, clock)| MatchEvent::Berserked(Berserked { side, clock })),
        side().prop_map(MatchEvent::TakebackProposed),
        side().prop_map(MatchEvent::TakebackDeclined),
        Just(MatchEvent::TakebackCancelled),
        (
            side(),
            any::<u32>(),
            text(),
            of(clock()),
            vec(legal_move(), 0..4),
            king_counters(),
            of(any::<u64>())
        )
            .prop_map(
                |(side, plies, fen, clock, legal_moves, king_counters, first_move_in_ms)| {
                    MatchEvent::TakenBack(TakenBack {
                        side,
                        plies,
                        fen,
                        clock,
                        legal_moves,
                        king_counters,
                        first_move_in_ms,
                    })
                }
            ),
    ]
}

prop_compose! {
    fn header()(game_id in any::<u64>(), serial in ident(), white in ident(), black in ident()) -> GameHeader {
        GameHeader { game_id, serial, white, black }
    }
}

prop_compose! {
    fn engine_result()(winner in of(side()), reason in text()) -> EngineResult {
        EngineResult { winner, reason }
    }
}

prop_compose! {
    fn engine_view()(header in header(), start_board in text(), start_ply in any::<u32>(),
                     promoted in vec(text(), 0..3), revealed in vec("[a-e][1-6]-[a-e][1-6]", 0..6),
                     board in text(), next_ply in any::<u32>(), move_number in any::<u32>(),
                     next_reveal_in_ms in of(any::<u64>()), ply_interval_ms in any::<u64>(),
                     result in of(engine_result()),
                     legal in vec("[a-e][1-6]-[a-e][1-6]", 0..8)) -> EngineGameView {
        EngineGameView {
            header, start_board, start_ply, promoted, revealed, board, next_ply, move_number,
            next_reveal_in_ms, ply_interval_ms, result, legal,
        }
    }
}

prop_compose! {
    fn standing()(name in text(), correct in any::<u32>(), strikes in any::<u32>()) -> Standing {
        Standing { name, correct, strikes }
    }
}

fn channel_event() -> impl Strategy<Value = ChannelEvent> {
    prop_oneof![
        engine_view().prop_map(ChannelEvent::GameStarted),
        (
            any::<u32>(),
            text(),
            text(),
            of(any::<u64>()),
            vec(text(), 0..4)
        )
            .prop_map(|(ply, mv, board, next_reveal_in_ms, legal)| {
                ChannelEvent::PlyRevealed(PlyRevealed {
                    ply,
                    mv,
                    board,
                    next_reveal_in_ms,
                    legal,
                })
            }),
        (
            any::<u64>(),
            engine_result(),
            vec(standing(), 0..4),
            of(any::<u64>())
        )
            .prop_map(|(game_id, result, standings, next_game_in_ms)| {
                ChannelEvent::GameEnded(GameEnded {
                    game_id,
                    result,
                    standings,
                    next_game_in_ms,
                })
            }),
    ]
}

prop_compose! {
    fn match_summary()(match_id in ident(), white in of(text()), black in of(text()),
                       time_control in of(time_control()), phase in phase(), plies in any::<u32>(),
                       watchers in any::<u32>(), white_bot in any::<bool>(), black_bot in any::<bool>(),
                       rated in any::<bool>(), rating_range in of(any::<u16>()),
                       white_rating in of(player_rating()), black_rating in of(player_rating()),
                       white_account in any::<bool>(), black_account in any::<bool>()) -> MatchSummary {
        MatchSummary {
            match_id, white, black, time_control, phase, plies, watchers, white_bot, black_bot,
            rated, rating_range, white_rating, black_rating, white_account, black_account,
        }
    }
}

prop_compose! {
    fn player_rating()(rating in any::<u16>(), provisional in any::<bool>()) -> PlayerRating {
        PlayerRating { rating, provisional }
    }
}

prop_compose! {
    fn channel_summary()(channel in ident(), kind in channel_kind(), game in of(header()),
                         watchers in any::<u32>()) -> ChannelSummary {
        ChannelSummary { channel, kind, game, watchers }
    }
}

prop_compose! {
    fn leaderboard_entry()(name in text(), games in any::<u32>(), correct in any::<u32>(),
                           strikes in any::<u32>()) -> LeaderboardEntry {
        LeaderboardEntry { name, games, correct, strikes }
    }
}

prop_compose! {
    fn event_standing()(
        rank in any::<u32>(), name in text(), rating in any::<u32>(), score_halves in any::<u32>(),
        score in text(), buchholz in text(), withdrawn in any::<bool>(), sheet in of(text()),
        on_fire in any::<bool>(),
    ) -> EventStanding {
        EventStanding {
            rank, name, rating, score_halves, score, buchholz: buchholz.clone(),
            buchholz_cut1: buchholz.clone(), sonneborn_berger: buchholz, withdrawn, sheet, on_fire,
        }
    }
}

prop_compose! {
    fn event_round()(
        round in any::<u32>(),
        games in vec((text(), text(), of(ident()), of(text())), 0..3),
        bye in of(text()),
    ) -> EventRound {
        let games = games
            .into_iter()
            .map(|(white, black, match_id, result)| EventGame { white, black, match_id, result })
            .collect();
        EventRound { round, games, bye }
    }
}

prop_compose! {
    fn club_event()(
        (id, v, name, time_control, rated, private) in
            (ident(), any::<u64>(), text(), text(), any::<bool>(), any::<bool>()),
        (created_at, starts_at, rounds_total, minutes, ends_at_ms, double) in
            (any::<i64>(), any::<i64>(), any::<u32>(), of(any::<u32>()), of(any::<i64>()), any::<bool>()),
        kind in prop_oneof![
            Just(ClubEventKind::Swiss), Just(ClubEventKind::RoundRobin), Just(ClubEventKind::Arena)
        ],
        status in prop_oneof![
            Just(ClubEventStatus::Waiting), Just(ClubEventStatus::Playing),
            Just(ClubEventStatus::Finished)
        ],
        players in vec(text(), 0..4),
        standings in vec(event_standing(), 0..3),
        rounds in vec(event_round(), 0..3),
    ) -> ClubEvent {
        ClubEvent {
            id, v, name, kind, time_control, rated, private, created_at, starts_at, status,
            rounds_total, minutes, ends_at_ms, double, players, standings, rounds,
        }
    }
}

fn server_message() -> impl Strategy<Value = ServerMessage> {
    prop_oneof![
        chat_line().prop_map(ServerMessage::ChatLine),
        (ident(), vec(chat_line(), 0..3)).prop_map(|(match_id, lines)| {
            ServerMessage::ChatHistory(ChatHistory {
                match_id,
                room: ChatRoom::Spectators,
                lines,
            })
        }),
        (ident(), any::<u64>()).prop_map(|(match_id, line)| {
            ServerMessage::ChatDeleted(ChatDeleted {
                match_id,
                room: ChatRoom::Players,
                line,
            })
        }),
        (
            any::<u32>(),
            text(),
            any::<(u32, u32, u32, u64)>(),
            text(),
            of((text(), any::<bool>(), any::<bool>()))
        )
            .prop_map(|(protocol, server, l, public_url, account)| {
                ServerMessage::Welcome(Welcome {
                    protocol,
                    server,
                    limits: Limits {
                        max_frame_bytes: l.0,
                        messages_per_second: l.1,
                        message_burst: l.2,
                        idle_timeout_ms: l.3,
                    },
                    public_url,
                    account: account.map(|(name, bot, admin)| AccountInfo { name, bot, admin }),
                })
            }),
        (any::<u64>(), any::<bool>())
            .prop_map(|(id, duplicate)| ServerMessage::Ack(Ack { id, duplicate })),
        (
            (of(any::<u64>()), error_code(), text(), of(any::<u64>())),
            of((
                text(),
                proptest::collection::btree_map(text(), any::<u64>(), 0..3),
                proptest::collection::btree_map(text(), text(), 0..3)
            ))
        )
            .prop_map(|((id, code, message, last_id), args)| ServerMessage::Error(
                ErrorReply {
                    id,
                    code,
                    message,
                    last_id,
                    args: args.map(|(reason, numbers, words)| {
                        Box::new(ErrorArgs {
                            reason,
                            numbers,
                            words,
                        })
                    }),
                }
            )),
        any::<u64>().prop_map(|nonce| ServerMessage::Pong(Pong { nonce })),
        (
            any::<u64>(),
            vec(match_summary(), 0..3),
            vec(match_summary(), 0..3),
            vec(channel_summary(), 0..3)
        )
            .prop_map(|(id, seeks, live, channels)| ServerMessage::Lobby(Lobby {
                id,
                seeks,
                live,
                channels
            })),
        (any::<u64>(), ident(), ident(), side(), ident()).prop_map(
            |(id, match_id, invite_code, side, token)| {
                ServerMessage::Seat(Seat {
                    id,
                    match_id,
                    invite_code,
                    side,
                    token,
                })
            }
        ),
        match_snapshot().prop_map(ServerMessage::MatchSnapshot),
        (ident(), any::<u64>(), match_event()).prop_map(|(match_id, v, event)| {
            ServerMessage::MatchEvent(MatchEventMsg { match_id, v, event })
        }),
        (
            ident(),
            any::<u64>(),
            channel_kind(),
            of(engine_view()),
            of(any::<u64>())
        )
            .prop_map(|(channel, v, kind, game, next_game_in_ms)| {
                ServerMessage::ChannelSnapshot(ChannelSnapshot {
                    channel,
                    v,
                    kind,
                    game,
                    next_game_in_ms,
                })
            }),
        (ident(), any::<u64>(), channel_event()).prop_map(|(channel, v, event)| {
            ServerMessage::ChannelEvent(ChannelEventMsg { channel, v, event })
        }),
        (target(), any::<u32>())
            .prop_map(|(target, watchers)| ServerMessage::Crowd(Crowd { target, watchers })),
        (any::<u64>(), ident())
            .prop_map(|(id, channel)| ServerMessage::GameCreated(GameCreated { id, channel })),
        (
            ident(),
            any::<u32>(),
            text(),
            text(),
            any::<bool>(),
            any::<u32>(),
            any::<u32>()
        )
            .prop_map(
                |(channel, ply, guess, actual, correct, correct_total, strikes)| {
                    ServerMessage::PredictionResult(PredictionResult {
                        channel,
                        ply,
                        guess,
                        actual,
                        correct,
                        correct_total,
                        strikes,
                    })
                }
            ),
        (any::<u64>(), vec(leaderboard_entry(), 0..4))
            .prop_map(|(id, entries)| ServerMessage::Leaderboard(Leaderboard { id, entries })),
        (text(), any::<u64>()).prop_map(|(reason, reconnect_after_ms)| ServerMessage::Shutdown(
            ShutdownNotice {
                reason,
                reconnect_after_ms
            }
        )),
        (ident(), of(side()))
            .prop_map(|(match_id, side)| ServerMessage::Resumed(Resumed { match_id, side })),
        club_event().prop_map(ServerMessage::ClubEvent),
        (ident(), of(ident())).prop_map(|(channel, match_id)| ServerMessage::Featured(Featured {
            channel,
            match_id
        })),
        (
            preset(),
            any::<u64>(),
            ident(),
            ident(),
            side(),
            ident(),
            text(),
            player_rating()
        )
            .prop_map(
                |(preset, id, match_id, invite_code, side, token, opponent, opponent_rating)| {
                    ServerMessage::Paired(Paired {
                        preset,
                        seat: Seat {
                            id,
                            match_id,
                            invite_code,
                            side,
                            token,
                        },
                        opponent,
                        opponent_rating,
                    })
                }
            ),
    ]
}

/// Frames worth throwing at a decoder: random bytes, and encodings of real messages with a
/// few bytes changed, cut off or appended, so that the mutations reach deep into the parsers.
fn mutated(encoded: Vec<u8>) -> impl Strategy<Value = Vec<u8>> {
    let len = encoded.len();
    (
        vec((0..len.max(1), any::<u8>()), 0..4),
        0..=len,
        vec(any::<u8>(), 0..3),
    )
        .prop_map(move |(flips, cut, tail)| {
            let mut bytes = encoded.clone();
            for (at, byte) in flips {
                if at < bytes.len() {
                    bytes[at] = byte;
                }
            }
            bytes.truncate(cut.max(len / 2));
            bytes.extend(tail);
            bytes
        })
}

fn frame_bytes(frame: &Frame) -> Vec<u8> {
    match frame {
        Frame::Text(text) => text.as_bytes().to_vec(),
        Frame::Binary(bytes) => bytes.clone(),
    }
}

fn reframe(encoding: Encoding, bytes: &[u8]) -> FrameRef<'_> {
    match encoding {
        Encoding::Json => FrameRef::Text(bytes),
        Encoding::Postcard => FrameRef::Binary(bytes),
    }
}

fn encoding() -> impl Strategy<Value = Encoding> {
    prop_oneof![Just(Encoding::Json), Just(Encoding::Postcard)]
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 256, ..ProptestConfig::default() })]

    /// Both encodings give back the very envelope, with no validation in the way.
    #[test]
    fn envelopes_round_trip(envelope in envelope(), encoding in encoding()) {
        let frame = encoding.encode(&envelope);
        let back: ClientEnvelope = encoding.decode(frame.as_ref(), usize::MAX).unwrap();
        prop_assert_eq!(back, envelope);
    }

    /// `decode_client` gives back exactly the envelopes that validate, and refuses the others
    /// with the validation error; an encoded message is never "malformed".
    #[test]
    fn decode_client_agrees_with_validate(envelope in envelope(), encoding in encoding()) {
        let frame = encoding.encode(&envelope);
        prop_assume!(frame.len() <= MAX_CLIENT_FRAME_BYTES);
        match envelope.validate() {
            Ok(()) => prop_assert_eq!(encoding.decode_client(frame.as_ref()), Ok(envelope)),
            Err(err) => prop_assert_eq!(encoding.decode_client(frame.as_ref()), Err(DecodeError::Invalid(err))),
        }
    }

    #[test]
    fn server_messages_round_trip(message in server_message(), encoding in encoding()) {
        let frame = encoding.encode(&message);
        prop_assert!(frame.len() <= MAX_SERVER_FRAME_BYTES);
        prop_assert_eq!(encoding.decode_server(frame.as_ref()), Ok(message));
    }

    /// JSON and postcard agree: what one encodes, the other re-encodes from the decoded value.
    #[test]
    fn encodings_carry_the_same_value(message in server_message()) {
        let json = Encoding::Json.encode(&message);
        let from_json = Encoding::Json.decode_server(json.as_ref()).unwrap();
        let postcard = Encoding::Postcard.encode(&from_json);
        prop_assert_eq!(Encoding::Postcard.decode_server(postcard.as_ref()), Ok(message));
    }

    /// Random bytes as either frame type never panic any decoder.
    #[test]
    fn random_bytes_never_panic(bytes in vec(any::<u8>(), 0..300), encoding in encoding(), text in any::<bool>()) {
        let frame = if text { FrameRef::Text(&bytes) } else { FrameRef::Binary(&bytes) };
        let _ = encoding.decode_client(frame);
        let _ = encoding.decode_server(frame);
    }

    /// Near-misses of real client messages never panic, and anything accepted re-encodes to
    /// a frame that decodes to the same envelope.
    #[test]
    fn mutated_client_frames_never_panic(
        (encoding, bytes) in (encoding(), envelope()).prop_flat_map(|(encoding, envelope)| {
            (Just(encoding), mutated(frame_bytes(&encoding.encode(&envelope))))
        })
    ) {
        if let Ok(envelope) = encoding.decode_client(reframe(encoding, &bytes)) {
            let again = encoding.encode(&envelope);
            prop_assert_eq!(encoding.decode_client(again.as_ref()), Ok(envelope));
        }
    }

    #[test]
    fn mutated_server_frames_never_panic(
        (encoding, bytes) in (encoding(), server_message()).prop_flat_map(|(encoding, message)| {
            (Just(encoding), mutated(frame_bytes(&encoding.encode(&message))))
        })
    ) {
        if let Ok(message) = encoding.decode_server(reframe(encoding, &bytes)) {
            let again = encoding.encode(&message);
            prop_assert_eq!(encoding.decode_server(again.as_ref()), Ok(message));
        }
    }

    /// Any frame over the limit is refused as too large, whatever it holds.
    #[test]
    fn oversized_frames_are_refused_first(
        extra in 1usize..64,
        filler in any::<u8>(),
        encoding in encoding(),
        text in any::<bool>(),
    ) {
        let bytes = vec![filler; MAX_CLIENT_FRAME_BYTES + extra];
        let frame = if text { FrameRef::Text(&bytes) } else { FrameRef::Binary(&bytes) };
        prop_assert_eq!(
            encoding.decode_client(frame),
            Err(DecodeError::TooLarge { size: bytes.len(), limit: MAX_CLIENT_FRAME_BYTES })
        );
        let limit = bytes.len() - 1;
        prop_assert_eq!(
            encoding.decode_client_within(frame, limit),
            Err(DecodeError::TooLarge { size: bytes.len(), limit })
        );
    }

    /// A route with a square off the board, or of the wrong length, is refused by field.
    #[test]
    fn routes_out_of_range_are_invalid(route in vec(any::<u8>(), 0..40)) {
        let ok = (2..=MAX_ROUTE_SQUARES).contains(&route.len())
            && route.iter().all(|square| (1..=50).contains(square));
        let envelope = ClientEnvelope {
            id: 1,
            msg: ClientMessage::Move(PlayMove { match_id: "m1".into(), token: "t1".into(), route, lag_ms: None }),
        };
        for encoding in Encoding::ALL {
            match encoding.decode_client(encoding.encode(&envelope).as_ref()) {
                Ok(back) => prop_assert!(ok && back == envelope),
                Err(DecodeError::Invalid(err)) => prop_assert!(!ok && err.field == "route"),
                Err(other) => prop_assert!(false, "{other:?}"),
            }
        }
    }

    /// Names are 1 to 32 characters without control characters (letters and digits always
    /// pass; `names` has the finer rules and their tests); ids are 1 to 64 printable ASCII bytes.
    #[test]
    fn names_and_ids_out_of_range_are_invalid(name in text(), code in text()) {
        let chars = name.chars().count();
        let plain = (1..=MAX_NAME_CHARS).contains(&chars)
            && name.chars().all(|c| c.is_ascii_alphanumeric());
        let refused = chars == 0 || name.chars().any(char::is_control);
        let hello = ClientEnvelope {
            id: 1,
            msg: ClientMessage::Hello(Hello { protocol: 1, client: "c".into(), name: name.clone(), bot: false }),
        };
        let valid = hello.validate().is_ok();
        prop_assert!(!plain || valid, "{:?} is refused", name);
        prop_assert!(!refused || !valid, "{:?} is accepted", name);
        if valid {
            let kept = boardcast_protocol::names::normalize(&name).unwrap();
            prop_assert!((1..=MAX_NAME_CHARS).contains(&kept.chars().count()));
        }
        let code_ok = (1..=MAX_ID_BYTES).contains(&code.len()) && code.bytes().all(|b| b.is_ascii_graphic());
        let join = ClientEnvelope { id: 2, msg: ClientMessage::JoinMatch(JoinMatch::Code(code)) };
        match Encoding::Postcard.decode_client(Encoding::Postcard.encode(&join).as_ref()) {
            Ok(back) => prop_assert!(code_ok && back == join),
            Err(DecodeError::Invalid(err)) => prop_assert!(!code_ok && err.field == "join"),
            Err(other) => prop_assert!(false, "{other:?}"),
        }
    }
}
