//! A connection's match requests: the lobby, opening, joining and resuming a seat, watching,
//! and the seat actions. Each finds its match through the directory and hands the match's actor
//! a command with `try_send`; the actor answers through the connection's outbox.

use boardcast_protocol::{
    ClientMessage, CreateMatch, ErrorArgs, ErrorCode, JoinMatch, Lobby, MatchSummary, PlayNow,
    Reclaim, Resume, SeatAction, ServerMessage,
};

use super::Connection;
use crate::matches::{Action, Command, MatchHandle, Player, SeatKey};
use crate::net::limits::LimitKind;
use crate::net::pairing::members_only;
use crate::net::per_address::Rated;
use crate::ratings::seek::{SeekTerms, may_join};
use crate::ratings::stored;
use crate::refusal::Refusal;

impl Connection {
    pub(super) async fn list_lobby(&self, id: u64) -> Result<(), Refusal> {
        let (mut seeks, live) = self.app.directory.lobby();
        let viewer = self.seated_player().await.ok().and_then(|p| p.rating);
        // The lobby leaves out the seeks this viewer would be refused.
        seeks.retain(|seek| seek_open_to(seek, viewer.map(|r| i32::from(r.rating))));
        self.reply(ServerMessage::Lobby(Lobby {
            id,
            seeks,
            live,
            channels: self.app.channels.summaries(),
        }));
        Ok(())
    }

    /// A member waits in this node's pool ([`crate::net::pairing`]) until `paired`.
    pub(super) async fn play_now(&self, id: u64, play: PlayNow) -> Result<(), Refusal> {
        if self.account.is_none() {
            return Err(members_only());
        }
        let player = self.seat_taker().await?;
        self.app
            .play_now
            .join(&self.outbox, id, player, play.preset)?;
        self.outbox.ack(id);
        Ok(())
    }

    /// A guest waits in no pool: there is nothing to take out.
    pub(super) fn cancel_play_now(&self, id: u64) -> Result<(), Refusal> {
        if let Some(who) = &self.account {
            self.app.play_now.cancel(who.id, None)?;
        }
        self.outbox.ack(id);
        Ok(())
    }

    /// Who this connection seats: its player, and a member's rating as of now (read from
    /// storage, for the lobby and a rated seek's range).
    async fn seated_player(&self) -> Result<Player, Refusal> {
        let mut player = self.player.clone();
        if let Some(account) = player.account {
            let rating = stored::read_shown(&*self.app.accounts.store, account)
                .await
                .map_err(|err| Refusal::storage(&err, "nothing changed"))?;
            player.rating = Some(rating);
        }
        Ok(player)
    }

    /// Who this connection seats in a match: [`Self::seated_player`], with a member's
    /// preference about more time (read from storage), which the match records with the seat.
    async fn seat_taker(&self) -> Result<Player, Refusal> {
        let mut player = self.seated_player().await?;
        if let Some(account) = player.account {
            let preferences = self
                .app
                .accounts
                .store
                .preferences(account)
                .await
                .map_err(|err| Refusal::storage(&err, "nothing changed"))?;
            player.refuses_more_time = preferences.refuse_more_time;
        }
        Ok(player)
    }

    /// Opens a match from the lobby within the address's allowances (open seeks, new
    /// matches a minute): the creator's seat follows as a `seat` reply.
    pub(super) async fn create_match(&self, id: u64, create: CreateMatch) -> Result<(), Refusal> {
        if create.rated && self.account.is_none() {
            return Err(members_only());
        }
        let limits = &self.app.address_limits;
        let most = self.app.config.open_seeks_per_address;
        if self.app.hub.open_seeks_of(self.client) >= most {
            let message = format!(
                "{} already has {most} matches waiting for an opponent (at most {most}); \
                 play or abort one first",
                self.client
            );
            limits.hit(LimitKind::OpenSeeks, self.client, &message);
            return Err(Refusal::new(ErrorCode::AddressLimit, message)
                .with(ErrorArgs::new("waiting").number("limit", most as u64)));
        }
        if let Err(over) = limits.take(Rated::Matches, self.client) {
            return Err(
                Refusal::new(ErrorCode::AddressLimit, over.message.clone()).with(over.args())
            );
        }
        let player = self.seat_taker().await?;
        let app = &self.app;
        let created = app
            .hub
            .create_seek(app.directory.as_ref(), self.client, &player, create)
            .await;
        match created {
            Ok((handle, _, token)) => self.resume_seat(id, handle, SeatKey::Token(token), None),
            Err(refusal) => {
                limits.refund(Rated::Matches, self.client);
                Err(refusal)
            }
        }
    }

    pub(super) async fn join_match(&self, id: u64, join: JoinMatch) -> Result<(), Refusal> {
        let directory = &self.app.directory;
        let found = match &join {
            JoinMatch::Id(match_id) if directory.is_public(match_id) => {
                directory.find(match_id).await?
            }
            JoinMatch::Id(_) => None,
            JoinMatch::Code(code) => self.find_by_code(code).await?,
            // The match checks that this connection holds its other seat.
            JoinMatch::Myself(match_id) => directory.find(match_id).await?,
        };
        let Some(handle) = found else {
            let (message, args) = match join {
                JoinMatch::Id(match_id) => (
                    format!(
                        "no open public match {match_id} (private matches are joined by invite code)"
                    ),
                    ErrorArgs::new("no_open_match").word("match_id", match_id),
                ),
                JoinMatch::Code(code) => (
                    format!("no match with invite code {code}"),
                    ErrorArgs::new("no_invite_code").word("code", code),
                ),
                JoinMatch::Myself(match_id) => (
                    format!("no match {match_id}"),
                    ErrorArgs::new("no_match").word("match_id", match_id),
                ),
            };
            return Err(Refusal::new(ErrorCode::NotFound, message).with(args));
        };
        let player = self.seat_taker().await?;
        handle.try_send(Command::Join {
            outbox: self.outbox.clone(),
            id,
            player,
            myself: matches!(join, JoinMatch::Myself(_)),
        })
    }

    pub(super) async fn resume(&self, id: u64, resume: Resume) -> Result<(), Refusal> {
        let Some(handle) = self.app.directory.find_by_token(&resume.token).await? else {
            return Err(Refusal::new(ErrorCode::InvalidToken, "unknown seat token")
                .with(ErrorArgs::new("unknown_token")));
        };
        self.resume_seat(id, handle, SeatKey::Token(resume.token), resume.since_v)
    }

    /// A member takes back the seat their account holds, without its token.
    pub(super) async fn reclaim(&self, id: u64, reclaim: Reclaim) -> Result<(), Refusal> {
        let Some(who) = &self.account else {
            return Err(Refusal::not_allowed(
                "reclaim_needs_login",
                "reclaim takes back an account's seat: log in first (a guest resumes by \
                 seat token)",
            ));
        };
        let handle = self.find(&reclaim.match_id).await?;
        self.resume_seat(id, handle, SeatKey::Account(who.id), reclaim.since_v)
    }

    fn resume_seat(
        &self,
        id: u64,
        handle: MatchHandle,
        token: SeatKey,
        since_v: Option<u64>,
    ) -> Result<(), Refusal> {
        handle.try_send(Command::Resume {
            outbox: self.outbox.clone(),
            id,
            token,
            since_v,
            carried: false,
        })
    }

    pub(super) async fn watch_match(
        &self,
        id: u64,
        match_id: &str,
        since_v: Option<u64>,
    ) -> Result<(), Refusal> {
        self.find(match_id).await?.try_send(Command::Watch {
            outbox: self.outbox.clone(),
            id,
            since_v,
            carried: false,
        })
    }

    /// Only a match in memory can be followed; no need to read one back.
    pub(super) fn unwatch_match(&self, id: u64, match_id: &str) -> Result<(), Refusal> {
        let Some(handle) = self.app.directory.running(match_id) else {
            return Err(
                Refusal::new(ErrorCode::NotFound, format!("no match {match_id}"))
                    .with(ErrorArgs::new("no_match").word("match_id", match_id)),
            );
        };
        handle.try_send(Command::Unwatch {
            outbox: self.outbox.clone(),
            id,
        })
    }

    /// Every seat action takes this one path: the match found by id, the seat by its token.
    pub(super) async fn act(&mut self, id: u64, msg: ClientMessage) -> Result<(), Refusal> {
        let (seat, action) = match msg {
            ClientMessage::Move(play) => {
                if let Some(who) = &self.account {
                    self.app.accounts.used(who.id);
                }
                let lag_ms = self.move_round_trip(play.lag_ms);
                let seat = SeatAction {
                    match_id: play.match_id,
                    token: play.token,
                };
                let action = Action::Move {
                    route: play.route,
                    lag_ms,
                };
                (seat, action)
            }
            ClientMessage::Claim(claim) => {
                let seat = SeatAction {
                    match_id: claim.match_id,
                    token: claim.token,
                };
                (seat, Action::Claim(claim.kind))
            }
            ClientMessage::Resign(seat) => (seat, Action::Resign),
            ClientMessage::OfferDraw(seat) => (seat, Action::OfferDraw),
            ClientMessage::AcceptDraw(seat) => (seat, Action::AcceptDraw),
            ClientMessage::DeclineDraw(seat) => (seat, Action::DeclineDraw),
            ClientMessage::Abort(seat) => (seat, Action::Abort),
            ClientMessage::OfferRematch(seat) => (seat, Action::OfferRematch),
            ClientMessage::AcceptRematch(seat) => (seat, Action::AcceptRematch),
            ClientMessage::DeclineRematch(seat) => (seat, Action::DeclineRematch),
            ClientMessage::MoreTime(seat) => (seat, Action::MoreTime),
            ClientMessage::Berserk(seat) => (seat, Action::Berserk),
            ClientMessage::ProposeTakeback(seat) => (seat, Action::ProposeTakeback),
            ClientMessage::AcceptTakeback(seat) => (seat, Action::AcceptTakeback),
            ClientMessage::DeclineTakeback(seat) => (seat, Action::DeclineTakeback),
            ClientMessage::RefuseMoreTime(refuse) => {
                let seat = SeatAction {
                    match_id: refuse.match_id,
                    token: refuse.token,
                };
                (seat, Action::RefuseMoreTime(refuse.refuse))
            }
            _ => {
                return Err(Refusal::new(ErrorCode::Internal, "not a seat action")
                    .with(ErrorArgs::new("internal")));
            }
        };
        self.find(&seat.match_id).await?.try_send(Command::Act {
            outbox: self.outbox.clone(),
            id,
            token: seat.token,
            action,
            received: tokio::time::Instant::now(),
        })
    }

    /// The open match whose invite code is `code` (typed in any case, with or without its
    /// dash), within the address's and the server's allowance of wrong codes: an invite code
    /// is the only secret of a private match, so guessing is throttled (see
    /// [`crate::matches::invite`]).
    async fn find_by_code(&self, code: &str) -> Result<Option<MatchHandle>, Refusal> {
        let limits = &self.app.address_limits;
        if let Err(over) = limits.may_try_code(self.client) {
            return Err(match over.kind {
                LimitKind::FailedJoinsTotal => {
                    Refusal::new(ErrorCode::Busy, over.message).with(ErrorArgs::new("failed_joins"))
                }
                _ => Refusal::new(ErrorCode::AddressLimit, over.message.clone()).with(over.args()),
            });
        }
        let found = self
            .app
            .directory
            .find_by_code(&crate::matches::invite::normalize(code))
            .await;
        if let Ok(None) = found {
            limits.wrong_code(self.client);
        }
        found
    }

    /// The match `match_id`, wherever it is.
    pub(super) async fn find(&self, match_id: &str) -> Result<MatchHandle, Refusal> {
        self.app.directory.find(match_id).await?.ok_or_else(|| {
            Refusal::new(ErrorCode::NotFound, format!("no match {match_id}"))
                .with(ErrorArgs::new("no_match").word("match_id", match_id))
        })
    }
}

/// Whether a viewer of rating `viewer` (`None`: a guest) may join `seek`: the lobby lists only
/// those ([`crate::ratings::seek`], the rule the match applies to a join).
fn seek_open_to(seek: &MatchSummary, viewer: Option<i32>) -> bool {
    let terms = SeekTerms {
        rated: seek.rated,
        rating_range: seek.rating_range,
        creator_rating: seek
            .white_rating
            .or(seek.black_rating)
            .map(|r| i32::from(r.rating)),
    };
    may_join(&terms, viewer, false).is_ok()
}
