//! Folding server messages into the app. Every message is accepted: ones that make no sense
//! here (for a match not shown, out of order, unexpected) are ignored or trigger a resync,
//! never a panic.

use std::time::Instant;

use boardcast_protocol::{
    ChannelEvent, ChannelEventMsg, ChannelSnapshot, ClientMessage, ErrorCode, ErrorReply,
    FRISIAN_TV, Featured, JoinMatch, MatchEvent, MatchEventMsg, MatchSnapshot, ServerMessage,
    Target, Watch,
};

use super::channel::Channel;
use super::game::{Fold, Game, rating_change_parts, result_text};
use super::notes::{Note, player_name};
use super::{App, Pending, Screen, SeatInfo, StoreOp};

/// How many leaders `--plain` prints (the TUI shows as many as fit).
const LEADERS_SHOWN: usize = 10;

/// `not_your_turn` for [`ErrorCode::NotYourTurn`]: the wire name of a code.
pub fn code_name(code: ErrorCode) -> String {
    serde_json::to_value(code)
        .ok()
        .and_then(|value| value.as_str().map(str::to_owned))
        .unwrap_or_else(|| format!("{code:?}"))
}

impl App {
    pub fn receive(&mut self, msg: ServerMessage, now: Instant) {
        match msg {
            ServerMessage::Welcome(welcome) => {
                self.public = crate::address::ServerAddress::parse(&welcome.public_url).ok();
                self.member = welcome.account.is_some();
            }
            ServerMessage::Pong(_) => {}
            ServerMessage::Ack(ack) => {
                self.pending.remove(&ack.id);
                self.unacked.remove(&ack.id);
            }
            ServerMessage::Error(reply) => self.refused(reply),
            ServerMessage::Lobby(lobby) => {
                for seek in &lobby.seeks {
                    self.note(Note::Seek(seek.clone()));
                }
                for live in &lobby.live {
                    self.note(Note::Live(live.clone()));
                }
                for channel in &lobby.channels {
                    self.note(Note::Channel(channel.clone()));
                }
                self.note(Note::LobbyEnd);
                self.ui.home_clamp(&lobby);
                self.lobby = Some(lobby);
            }
            // A play-now pairing is a seat handed out in answer to `play_now`.
            ServerMessage::Paired(paired) => {
                self.ui.play_now = None;
                self.receive(ServerMessage::Seat(paired.seat), now)
            }
            ServerMessage::Seat(seat) => {
                self.pending.remove(&seat.id);
                if self
                    .game
                    .as_ref()
                    .is_some_and(|g| g.match_id != seat.match_id)
                {
                    // News of the old match (`returned white`) is not news of this one.
                    self.ui.status = None;
                }
                let info = SeatInfo {
                    match_id: seat.match_id,
                    side: seat.side,
                    token: seat.token,
                    invite_code: seat.invite_code,
                };
                // The match screen first: entering a screen clears the status line, and the
                // seat's news below belongs on it (the waiting creator reads it there).
                self.ui.enter(Screen::Match);
                // A resume answers with the seat we already hold: no news for the user.
                if self.seat.as_ref() != Some(&info) {
                    self.note(Note::Seat {
                        side: info.side,
                        match_id: info.match_id.clone(),
                        invite: info.invite_code.clone(),
                    });
                }
                if self
                    .game
                    .as_ref()
                    .is_some_and(|g| g.match_id != info.match_id)
                {
                    self.game = None;
                }
                self.store(StoreOp::Save(info.clone()));
                self.watching = Some(Target::Match(info.match_id.clone()));
                self.seat = Some(info);
            }
            // The match moved to another server (a cluster) and kept this seat or watch
            // there; the events missed follow as after a resume: nothing to show or do.
            ServerMessage::Resumed(_) => {}
            // Our room's chat, drawn beside the game (`chat.rs`); muted authors are hidden there.
            ServerMessage::ChatLine(line) => self.chat_line(line),
            ServerMessage::ChatHistory(history) => self.chat_history(history),
            ServerMessage::ChatDeleted(deleted) => self.chat_deleted(deleted),
            ServerMessage::MatchSnapshot(snapshot) => self.match_snapshot(snapshot, now),
            ServerMessage::MatchEvent(event) => self.match_event(event, now),
            ServerMessage::ChannelSnapshot(snapshot) => self.channel_snapshot(snapshot, now),
            ServerMessage::ChannelEvent(event) => self.channel_event(event, now),
            ServerMessage::Crowd(crowd) => {
                if self.watching.as_ref() == Some(&crowd.target) {
                    self.watchers = crowd.watchers;
                }
            }
            ServerMessage::GameCreated(created) => {
                self.pending.remove(&created.id);
                self.command(super::command::Command::Predict(created.channel));
            }
            ServerMessage::PredictionResult(result) => {
                let Some(channel) = self
                    .channel
                    .as_mut()
                    .filter(|c| c.channel == result.channel)
                else {
                    return;
                };
                channel.predicted(result.clone());
                self.note(Note::Predicted {
                    channel: result.channel,
                    ply: result.ply,
                    guess: result.guess,
                    actual: result.actual,
                    correct: result.correct,
                    score: result.correct_total,
                    strikes: result.strikes,
                });
            }
            ServerMessage::Leaderboard(board) => {
                self.pending.remove(&board.id);
                self.leaderboard = Some(board.entries);
                let shown = self.leaderboard.iter().flatten().take(LEADERS_SHOWN);
                let leaders: Vec<Note> = shown
                    .enumerate()
                    .map(|(i, entry)| Note::Leader {
                        rank: i + 1,
                        entry: entry.clone(),
                    })
                    .collect();
                for note in leaders {
                    self.note(note);
                }
                let me = match self.my_rank() {
                    Some((rank, entry)) => Note::You {
                        rank,
                        entry: entry.clone(),
                    },
                    None => Note::Unranked {
                        name: self.name.clone(),
                        beyond: self.leaderboard_beyond(),
                    },
                };
                self.note(me);
            }
            ServerMessage::Shutdown(notice) => self.note(Note::Shutdown(notice.reason)),
            ServerMessage::Featured(featured) => self.featured(featured),
            // These screens follow no event (`boardcast event ID --follow` does).
            ServerMessage::ClubEvent(_) => {}
        }
    }

    /// Frisian TV moved on (or says what it shows on `watch`): watch that match instead.
    pub(super) fn featured(&mut self, featured: Featured) {
        if !self.tv || featured.channel != FRISIAN_TV {
            return;
        }
        self.note(Note::Featured(featured.match_id.clone()));
        let Some(match_id) = featured.match_id else {
            // Answered: nothing is live yet, which the screen says rather than "no answer".
            self.asked_at = None;
            return;
        };
        let target = Target::Match(match_id);
        if self.watching.as_ref() != Some(&target) {
            self.stop_watching();
            self.watching = Some(target.clone());
            let watch = Watch {
                target,
                since_v: None,
            };
            self.send(ClientMessage::Watch(watch), Pending::Other);
        }
    }

    fn refused(&mut self, mut reply: ErrorReply) {
        let pending = reply.id.and_then(|id| {
            self.unacked.remove(&id);
            self.pending.remove(&id)
        });
        let not_found = reply.code == ErrorCode::NotFound;
        let mut from_client = false;
        match &pending {
            Some(Pending::JoinCode(text)) if not_found => {
                // Not an invite code: perhaps the id `boardcast list` printed.
                let join = ClientMessage::JoinMatch(JoinMatch::Id(text.clone()));
                let retry = self.send(join, Pending::JoinCodeAsId(text.clone()));
                if reply.id.is_some_and(|id| self.startup.contains(&id)) {
                    self.startup.end = retry + 1;
                }
                return;
            }
            Some(Pending::JoinCodeAsId(text)) if not_found => {
                // Neither as a code nor as an id: the client's own words say so.
                reply.message =
                    crate::i18n::tr_args("local-no-code-or-id", &[("text", text.clone().into())]);
                reply.args = None;
                from_client = true;
            }
            _ => {}
        }
        if reply.id.is_some_and(|id| self.startup.contains(&id)) {
            self.failed = Some(format!("{}: {}", code_name(reply.code), reply.message));
        }
        if pending == Some(Pending::PlayNow)
            && let Some(panel) = &mut self.ui.play_now
        {
            panel.waiting = false;
        }
        if pending == Some(Pending::Resume)
            && matches!(reply.code, ErrorCode::InvalidToken | ErrorCode::NotFound)
        {
            if let Some(seat) = self.seat.take() {
                self.store(StoreOp::Remove(seat.match_id));
            }
        }
        // The match or channel asked for will not come: the screen says why, not "waiting".
        let nothing_shown = self.game.is_none() && self.channel.is_none();
        if matches!(pending, Some(Pending::Watch | Pending::Resume)) && nothing_shown {
            self.unavailable = Some(if from_client {
                reply.message.clone()
            } else {
                crate::i18n::refusal(
                    &code_name(reply.code),
                    &reply.message,
                    reply.args.as_deref(),
                )
            });
            self.asked_at = None;
        }
        if pending == Some(Pending::Guess) {
            if let Some(channel) = &mut self.channel {
                channel.score.pending = None;
            }
        }
        self.note(Note::Error {
            code: code_name(reply.code),
            message: reply.message,
            args: reply.args,
            from_client,
        });
    }

    fn match_snapshot(&mut self, snapshot: MatchSnapshot, now: Instant) {
        if self.watching != Some(Target::Match(snapshot.match_id.clone())) {
            return;
        }
        let game = Game::from_snapshot(snapshot, now);
        if self
            .game
            .as_ref()
            .is_some_and(|g| g.match_id != game.match_id)
        {
            self.ui.status = None;
            // The moves being browsed were another match's, and so was a premove.
            self.ui.browse = None;
            self.premove = None;
        }
        self.note(Note::Match {
            match_id: game.match_id.clone(),
            white: game.white.as_ref().map(|p| player_name(&p.name, p.bot)),
            black: game.black.as_ref().map(|p| player_name(&p.name, p.bot)),
            phase: game.phase,
        });
        if !game.moves.is_empty() {
            let moves = game.moves.iter().map(|m| m.notation.clone()).collect();
            self.note(Note::History(moves));
        }
        let waiting = game.phase == boardcast_protocol::MatchPhase::Waiting;
        self.game = Some(game);
        self.asked_at = None;
        self.unavailable = None;
        if waiting {
            for line in self.invite_lines() {
                self.note(Note::Invite(line));
            }
        }
        self.ui.enter(Screen::Match);
        self.after_change();
        // A reconnect's snapshot may hold the opponent's move instead of its event (the server
        // no longer kept the events missed): a premove waiting for it is played or dropped as
        // then (one of another position is forgotten); a finished match forgets it.
        if self.my_turn() {
            self.play_premove();
        } else if self
            .game
            .as_ref()
            .is_none_or(|g| g.phase != boardcast_protocol::MatchPhase::Playing)
        {
            self.premove = None;
        }
    }

    /// Notes the state a player needs after a snapshot or move: result, or turn and legal list.
    fn after_change(&mut self) {
        let Some(game) = &self.game else { return };
        if let Some(result) = &game.result {
            let text = result_text(result);
            let ratings = rating_change_parts(result).map(|parts| parts.join(" · "));
            let finished = self
                .seat
                .as_ref()
                .is_some_and(|s| s.match_id == game.match_id);
            let match_id = game.match_id.clone();
            self.note(Note::Result(text));
            if let Some(ratings) = ratings {
                self.note(Note::Ratings(ratings));
            }
            if let Some(url) = self.pdn_url() {
                self.note(Note::Pdn(url));
            }
            if let Some(dir) = self.save_pdn.clone() {
                self.save_pdn_to(dir);
            }
            if finished {
                self.store(StoreOp::Remove(match_id));
            }
            return;
        }
        if game.phase != boardcast_protocol::MatchPhase::Playing {
            return;
        }
        let turn = game.turn;
        let legal: Vec<String> = game.legal.iter().map(|m| m.notation.clone()).collect();
        let (row, col) = self.ui.cursor;
        let cursor = super::fen::cell_square(row, col);
        let on_origin = game
            .legal
            .iter()
            .any(|m| m.route.first() == cursor.as_ref());
        let first_origin = game
            .legal
            .first()
            .and_then(|m| m.route.first().copied())
            .filter(|_| !on_origin);
        self.note(Note::Turn(turn));
        if self.my_turn() {
            if let (Some(origin), None) = (first_origin, self.ui.selected) {
                self.ui.cursor = super::fen::square_cell(origin);
            }
            self.note(Note::Legal(legal));
        }
    }

    fn match_event(&mut self, msg: MatchEventMsg, now: Instant) {
        let Some(game) = self.game.as_mut().filter(|g| g.match_id == msg.match_id) else {
            return;
        };
        let was_playing = game.phase == boardcast_protocol::MatchPhase::Playing;
        match game.fold(msg.v, &msg.event, now) {
            Fold::Stale => return,
            Fold::Gap => return self.watch_again(),
            Fold::Applied => {}
        }
        let playing = game.phase == boardcast_protocol::MatchPhase::Playing;
        match msg.event {
            MatchEvent::PlayerJoined(joined) => {
                self.note(Note::Joined {
                    side: joined.side,
                    name: joined.name,
                    bot: joined.bot,
                });
                if playing && !was_playing {
                    self.ring = self.my_turn();
                    self.started();
                }
            }
            MatchEvent::Moved(moved) => {
                self.ui.moved();
                self.ring = self.my_side().is_some_and(|me| me != moved.played.side)
                    && !moved.legal_moves.is_empty();
                // The game holds this move already: its number counts from the game's first.
                let number = self
                    .game
                    .as_ref()
                    .map_or(1, |g| g.move_number(g.moves.len().saturating_sub(1)));
                let number = u32::try_from(number).unwrap_or(u32::MAX);
                self.note(Note::Move {
                    number,
                    side: moved.played.side,
                    notation: moved.played.notation,
                });
                if moved.legal_moves.is_empty() {
                    // The game ended with this move; `Ended` follows with the result.
                    self.premove = None;
                    return;
                }
                self.after_change();
                if self.my_turn() {
                    self.play_premove();
                }
            }
            MatchEvent::DrawOffered(side) => self.note(Note::Draw("offered", Some(side))),
            MatchEvent::DrawDeclined(side) => self.note(Note::Draw("declined", Some(side))),
            MatchEvent::DrawOfferCancelled => self.note(Note::Draw("cancelled", None)),
            MatchEvent::PlayerLeft(absence) => self.note(Note::Left(absence.side)),
            MatchEvent::PlayerReturned(side) => self.note(Note::Returned(side)),
            MatchEvent::Ended(_) => {
                self.ui.confirm = None;
                self.after_change();
            }
            MatchEvent::RematchOffered(side) => {
                self.note(Note::Rematch("offered", side.to_string()))
            }
            MatchEvent::RematchDeclined(side) => {
                self.note(Note::Rematch("declined", side.to_string()))
            }
            MatchEvent::RematchStarted(id) => {
                self.note(Note::Rematch("started", id.clone()));
                if self.my_side().is_none() {
                    // A watcher follows the players to the rematch.
                    self.command(super::command::Command::Watch(Target::Match(id)));
                }
            }
            // The clocks moved with the fold; the board shows them.
            MatchEvent::MoreTimeGiven(_) | MatchEvent::MoreTimeRefused(_) => {}
            MatchEvent::Berserked(berserked) => self.note(Note::Berserk(berserked.side)),
            MatchEvent::TakebackProposed(side) => self.note(Note::Takeback("offered", Some(side))),
            MatchEvent::TakebackDeclined(side) => self.note(Note::Takeback("declined", Some(side))),
            MatchEvent::TakebackCancelled => self.note(Note::Takeback("cancelled", None)),
            MatchEvent::TakenBack(taken) => {
                self.premove = None;
                self.ui.moved();
                self.note(Note::Takeback("done", Some(taken.side)));
                self.after_change();
            }
        }
    }

    /// Both seats are taken. A waiting snapshot has no legal moves, and `player_joined` does
    /// not carry them: a seated player asks for a fresh snapshot, which brings turn and moves.
    fn started(&mut self) {
        let needs_snapshot =
            self.my_side().is_some() && self.game.as_ref().is_some_and(|g| g.legal.is_empty());
        match self.seat.clone().filter(|_| needs_snapshot) {
            Some(seat) => {
                let resume = boardcast_protocol::Resume {
                    token: seat.token,
                    since_v: None,
                };
                self.send(
                    boardcast_protocol::ClientMessage::Resume(resume),
                    Pending::Resume,
                );
            }
            None => self.after_change(),
        }
    }

    fn channel_snapshot(&mut self, snapshot: ChannelSnapshot, now: Instant) {
        if self.watching != Some(Target::Channel(snapshot.channel.clone())) {
            return;
        }
        let score = self
            .channel
            .take()
            .filter(|c| c.channel == snapshot.channel)
            .map(|c| c.score);
        let mut channel = Channel::from_snapshot(snapshot, now);
        if let Some(score) = score {
            channel.score = score;
        }
        if let Some(game) = &channel.game {
            self.note(game_note(&channel.channel, game));
            if !game.revealed.is_empty() {
                self.note(Note::Revealed {
                    channel: channel.channel.clone(),
                    moves: game.revealed.clone(),
                });
            }
        }
        self.channel = Some(channel);
        self.asked_at = None;
        self.unavailable = None;
        self.ui.enter(Screen::Channel);
        self.aim_minit_cursor();
    }

    fn channel_event(&mut self, msg: ChannelEventMsg, now: Instant) {
        let Some(channel) = self.channel.as_mut().filter(|c| c.channel == msg.channel) else {
            return;
        };
        match channel.fold(msg.v, &msg.event, now) {
            Fold::Stale => return,
            Fold::Gap => return self.watch_again(),
            Fold::Applied => {}
        }
        let name = msg.channel;
        match msg.event {
            ChannelEvent::GameStarted(view) => {
                self.ui.minit_from = None;
                self.aim_minit_cursor();
                self.note(game_note(&name, &view));
            }
            ChannelEvent::PlyRevealed(revealed) => {
                self.aim_minit_cursor();
                self.note(Note::Ply {
                    channel: name,
                    ply: revealed.ply,
                    mv: revealed.mv,
                });
            }
            ChannelEvent::GameEnded(ended) => {
                let text = super::channel::result_text(&ended.result);
                self.note(Note::GameOver {
                    channel: name,
                    text,
                });
                for standing in ended.standings {
                    self.note(Note::Standing {
                        name: standing.name,
                        correct: standing.correct,
                        strikes: standing.strikes,
                    });
                }
            }
        }
    }
}

fn game_note(channel: &str, game: &boardcast_protocol::EngineGameView) -> Note {
    Note::Game {
        channel: channel.to_owned(),
        game_id: game.header.game_id,
        serial: game.header.serial.clone(),
        white: game.header.white.clone(),
        black: game.header.black.clone(),
        move_number: game.move_number,
    }
}
