//! Carrying out a [`Command`]: checking what can be checked locally (whose seat, which legal
//! move was meant) and queueing the message for the server.

use boardcast_protocol::limits::MAX_LAG_CLAIM_MS;
use boardcast_protocol::{
    Claim, ClientMessage, CreateMatch, FRISIAN_TV, JoinMatch, LeaderboardQuery, PlayMove, Predict,
    Reclaim, Resume, SeatAction, StartEngineGame, Target, Watch,
};

use super::command::{Command, Reply};
use super::entry::{self, Resolution};
use super::game::Game;
use super::notes::Note;
use super::{App, Pending, Screen, SeatInfo};
use crate::i18n::{refusal, tr, tr_args};

impl App {
    pub fn command(&mut self, command: Command) {
        match command {
            Command::Lobby => {
                self.send(ClientMessage::ListLobby, Pending::Other);
            }
            Command::Create {
                time,
                color,
                public,
                rated,
            } => {
                let create = CreateMatch {
                    time_control: time,
                    color,
                    public,
                    rated,
                    rating_range: None,
                };
                self.leave();
                self.send(ClientMessage::CreateMatch(create), Pending::Other);
            }
            Command::PlayNow(Some(preset)) => {
                let ask = ClientMessage::PlayNow(boardcast_protocol::PlayNow { preset });
                self.send(ask, Pending::PlayNow);
            }
            Command::PlayNow(None) => {
                self.send(ClientMessage::CancelPlayNow, Pending::Other);
            }
            Command::JoinCode(code) => {
                self.leave();
                let join = ClientMessage::JoinMatch(JoinMatch::Code(code.clone()));
                self.send(join, Pending::JoinCode(code));
            }
            Command::JoinId(id) => self.join(JoinMatch::Id(id)),
            Command::Watch(target) => self.watch(target, false),
            Command::Predict(channel) => self.watch(Target::Channel(channel), true),
            Command::Resume { token, match_id } => {
                self.leave();
                self.seat = Some(SeatInfo {
                    match_id: match_id.clone(),
                    side: boardcast_protocol::Side::White,
                    token: token.clone(),
                    invite_code: String::new(),
                });
                self.watching = Some(Target::Match(match_id));
                self.asked_at = Some(std::time::Instant::now());
                let resume = Resume {
                    token,
                    since_v: None,
                };
                self.send(ClientMessage::Resume(resume), Pending::Resume);
            }
            Command::Reclaim(match_id) => {
                self.leave();
                self.watching = Some(Target::Match(match_id.clone()));
                self.asked_at = Some(std::time::Instant::now());
                let reclaim = Reclaim {
                    match_id,
                    since_v: None,
                };
                // Answered as `resume` is: the seat (with its token), then the match.
                self.send(ClientMessage::Reclaim(reclaim), Pending::Resume);
            }
            Command::Move(text) => self.typed_move(&text),
            Command::Route(route) => self.play(route),
            Command::Resign => self.seat_action(ClientMessage::Resign),
            Command::MoreTime => self.seat_action(ClientMessage::MoreTime),
            Command::Berserk => self.seat_action(ClientMessage::Berserk),
            Command::Abort => self.seat_action(ClientMessage::Abort),
            Command::Takeback(reply) => self.takeback(reply),
            Command::Draw(reply) => self.seat_action(match reply {
                Reply::Offer => ClientMessage::OfferDraw,
                Reply::Accept => ClientMessage::AcceptDraw,
                Reply::Decline => ClientMessage::DeclineDraw,
            }),
            Command::Rematch(reply) => self.seat_action(match reply {
                Reply::Offer => ClientMessage::OfferRematch,
                Reply::Accept => ClientMessage::AcceptRematch,
                Reply::Decline => ClientMessage::DeclineRematch,
            }),
            Command::Claim(kind) => {
                if let Some(seat) = self.seat.clone() {
                    let claim = Claim {
                        match_id: seat.match_id,
                        token: seat.token,
                        kind,
                    };
                    self.send(ClientMessage::Claim(claim), Pending::MatchAction);
                } else {
                    self.error("no_seat", tr("local-no-seat"));
                }
            }
            Command::Guess { from, to } => self.guess(from, to),
            Command::Engine {
                serial,
                white,
                black,
            } => {
                let start = StartEngineGame {
                    serial,
                    white,
                    black,
                    ply_interval_ms: None,
                    reveal_from_ply: None,
                };
                self.send(ClientMessage::StartEngineGame(start), Pending::Other);
            }
            Command::Leaderboard => {
                // As many as the server gives (it caps at 100), to find the viewer's own place.
                let query = LeaderboardQuery {
                    limit: super::LEADERBOARD_ASKED as u32,
                };
                self.send(ClientMessage::Leaderboard(query), Pending::Other);
            }
            Command::SavePdn => {
                let dir = self.save_pdn.clone().unwrap_or_else(|| ".".into());
                self.save_pdn_to(dir);
            }
            Command::Quit => self.quit = true,
        }
    }

    fn join(&mut self, join: JoinMatch) {
        self.leave();
        self.send(ClientMessage::JoinMatch(join), Pending::Other);
    }

    /// Stops watching whatever is shown, Frisian TV included (a held seat stays held).
    fn leave(&mut self) {
        if std::mem::take(&mut self.tv) {
            let tv = Target::Channel(FRISIAN_TV.to_owned());
            self.send(ClientMessage::Unwatch(tv), Pending::Other);
        }
        self.stop_watching();
    }

    /// Whether the screen shows the player's own public match still waiting for an opponent
    /// (a private one stays followed: only the friend with the code can join it).
    pub(super) fn waiting_in_own_seek(&self) -> bool {
        let own = self.seat.as_ref().is_some_and(|seat| {
            self.watching.as_ref() == Some(&Target::Match(seat.match_id.clone()))
        });
        own && self.game.as_ref().is_some_and(|game| {
            game.public && game.phase == boardcast_protocol::MatchPhase::Waiting
        })
    }

    /// Stops watching the match or channel shown (a held seat stays held). A player keeps
    /// following the match they play; but leaving the waiting screen of their own seek
    /// unwatches it too, so the server takes it out of the lobby until `R` resumes it, instead
    /// of letting someone join a player who is elsewhere.
    pub(super) fn stop_watching(&mut self) {
        let leaving_seek = self.waiting_in_own_seek();
        if let Some(target) = self.watching.take() {
            let own = matches!(&target, Target::Match(id) if self.seat.as_ref().is_some_and(|s| &s.match_id == id));
            if !own || leaving_seek {
                self.send(ClientMessage::Unwatch(target), Pending::Other);
            }
        }
        self.game = None;
        self.channel = None;
        self.watchers = 0;
        self.unavailable = None;
        self.asked_at = None;
    }

    fn watch(&mut self, target: Target, predicting: bool) {
        if matches!(&target, Target::Channel(id) if id == FRISIAN_TV) {
            return self.follow_frisian_tv();
        }
        if self.tv || self.watching.as_ref() != Some(&target) {
            self.leave();
            self.watching = Some(target.clone());
            let watch = Watch {
                target: target.clone(),
                since_v: None,
            };
            self.asked_at = Some(std::time::Instant::now());
            self.send(ClientMessage::Watch(watch), Pending::Watch);
        }
        self.ui.predicting = predicting;
        self.ui.enter(match target {
            Target::Match(_) => Screen::Match,
            Target::Channel(_) => Screen::Channel,
            // Never asked for here: `boardcast event ID --follow` follows an event.
            Target::Event(_) => Screen::Home,
        });
    }

    /// Follows Frisian TV: the server answers with the match it features (`featured`), which
    /// [`App::featured`] then watches like any match.
    fn follow_frisian_tv(&mut self) {
        if !self.tv {
            self.leave();
            self.tv = true;
            self.asked_at = Some(std::time::Instant::now());
            self.send(ClientMessage::Watch(super::frisian_tv()), Pending::Watch);
        }
        self.ui.predicting = false;
        self.ui.enter(Screen::Match);
    }

    /// Resolves typed notation to one route, asks which on ambiguity.
    fn typed_move(&mut self, text: &str) {
        if self.premove_instead(text) {
            return;
        }
        let legal = self.game.as_ref().map_or(&[][..], |g| g.legal.as_slice());
        match entry::resolve(text, legal) {
            Err(error) => self.error("bad_input", error.to_string()),
            Ok(Resolution::One(route)) => self.play(route),
            Ok(Resolution::Unlisted(route)) => {
                // An unfinished notation (`32-2`) offers the legal moves it begins (to be
                // picked, never guessed); anything else goes to the server, which says why it
                // is not legal.
                let started: Vec<usize> = (0..legal.len())
                    .filter(|&i| legal[i].notation.starts_with(text.trim()))
                    .collect();
                if started.is_empty() {
                    self.play(route);
                } else {
                    self.ask_which(started);
                }
            }
            Ok(Resolution::Ambiguous(candidates)) => self.ask_which(candidates),
        }
    }

    /// On the opponent's turn a typed move is kept as a premove (replacing any earlier one),
    /// to be sent when their move arrives ([`App::play_premove`]); returns whether it was.
    fn premove_instead(&mut self, text: &str) -> bool {
        let me = self.my_side();
        let Some(game) = self.game.as_ref() else {
            return false;
        };
        if me.is_none_or(|me| me == game.turn)
            || game.phase != boardcast_protocol::MatchPhase::Playing
        {
            return false;
        }
        let text = text.trim().to_owned();
        let ply = game.moves.len();
        self.note(Note::Premove("set", text.clone()));
        self.premove = Some((text, ply));
        true
    }

    /// The opponent's move has arrived: the premove is played if it is legal now, else
    /// dropped with a notice (a capture may have become compulsory). One made before another
    /// position than the one this move left (a snapshot after a takeback) is forgotten.
    pub(super) fn play_premove(&mut self) {
        let Some((text, ply)) = self.premove.take() else {
            return;
        };
        if self.game.as_ref().is_none_or(|g| g.moves.len() != ply + 1) {
            return;
        }
        let legal = self.game.as_ref().map_or(&[][..], |g| g.legal.as_slice());
        match entry::resolve(&text, legal) {
            Ok(Resolution::One(route)) => {
                self.note(Note::Premove("played", text));
                self.play(route);
            }
            _ => self.note(Note::Premove("dropped", text)),
        }
    }

    /// Several legal moves fit: the user picks one (`1`–`9` in the UI, full path in plain).
    pub(super) fn ask_which(&mut self, candidates: Vec<usize>) {
        let legal = self.game.as_ref().map_or(&[][..], |g| g.legal.as_slice());
        let names = candidates
            .iter()
            .filter_map(|&i| legal.get(i).map(|m| m.notation.clone()))
            .collect();
        self.ui.choice = Some(candidates);
        self.ui.choice_at = 0;
        self.note(Note::Ambiguous(names));
    }

    fn play(&mut self, route: Vec<u8>) {
        let Some(seat) = self.seat.clone() else {
            return self.error("no_seat", tr("local-no-seat"));
        };
        self.ui.choice = None;
        self.ui.selected = None;
        let play = PlayMove {
            match_id: seat.match_id,
            token: seat.token,
            route,
            lag_ms: self
                .round_trip
                .map(|trip| trip.as_millis().min(MAX_LAG_CLAIM_MS.into()) as u32),
        };
        self.send(ClientMessage::Move(play), Pending::MatchAction);
    }

    /// A takeback proposal or answer. A match that takes none (rated, or a club event's game:
    /// the snapshot says which, and an older server's only that it takes none) refuses it here
    /// in the words of the server's refusal, in the player's language, instead of sending
    /// what the server can only refuse: the keys the help hides are the keys not sent.
    fn takeback(&mut self, reply: Reply) {
        let refused = self.game.as_ref().and_then(Game::takeback_refusal);
        if let (Some(args), Some(_)) = (refused, self.my_side()) {
            // Every catalogue words this reason; its id stands in as a missing word does.
            let words = refusal("not_allowed", &args.reason, Some(&args));
            return self.error("not_allowed", words);
        }
        self.seat_action(match reply {
            Reply::Offer => ClientMessage::ProposeTakeback,
            Reply::Accept => ClientMessage::AcceptTakeback,
            Reply::Decline => ClientMessage::DeclineTakeback,
        })
    }

    fn seat_action(&mut self, make: fn(SeatAction) -> ClientMessage) {
        let Some(seat) = self.seat.clone() else {
            return self.error("no_seat", tr("local-no-seat"));
        };
        let action = SeatAction {
            match_id: seat.match_id,
            token: seat.token,
        };
        self.send(make(action), Pending::MatchAction);
    }

    fn guess(&mut self, from: String, to: String) {
        let Some(channel) = &self.channel else {
            return self.error("no_channel", tr("local-no-channel"));
        };
        let Some(game) = channel.game.as_ref().filter(|g| g.result.is_none()) else {
            return self.error("game_over", tr("local-no-game"));
        };
        let mv = format!("{from}-{to}");
        let legal = channel.legal_guesses();
        if !legal.contains(&mv) {
            let side = channel
                .side_to_move()
                .map_or_else(|| "none".to_owned(), |s| s.to_string());
            let args = [
                ("move", mv.into()),
                ("side", side.into()),
                ("legal", legal.join(" ").into()),
            ];
            return self.error("illegal_prediction", tr_args("local-guess-illegal", &args));
        }
        let predict = Predict {
            channel: channel.channel.clone(),
            ply: game.next_ply,
            from: from.clone(),
            to: to.clone(),
        };
        let ply = game.next_ply;
        if let Some(channel) = &mut self.channel {
            channel.score.pending = Some((ply, format!("{from}-{to}")));
        }
        self.ui.minit_from = None;
        self.send(ClientMessage::Predict(predict), Pending::Guess);
    }
}
