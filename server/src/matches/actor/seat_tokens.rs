//! Handing out a seat's token when the seat is taken back without it: by the account that
//! holds it (`reclaim`), or as a rematch's seat handed to the player of the match before.
//! Storage keeps only the hashes of seat tokens (`storage/seat_tokens.rs`), so once the actor
//! that issued a token is gone (a restart, an unload, a take-over) nobody knows it any more:
//! the seat then gets a new token, whose hash is recorded as valid beside the old ones (the
//! same player on another device keeps playing with the token it has).

use boardcast_protocol::Side;

use super::Actor;
use crate::accounts::secret;
use crate::matches::record::Record;
use crate::matches::state::new_token;
use crate::refusal::Refusal;

impl Actor {
    /// Makes sure the actor knows a token of `side`'s seat in plain text, to hand it out: the
    /// one it knows, or a new one, stored (as its hash, with a `player_returned`: the seat's
    /// player is back) before it is handed out. Refused only if that record cannot be stored.
    pub(super) async fn know_seat_token(&mut self, side: Side) -> Result<(), Refusal> {
        match self.state.seat(side) {
            Some(seat) if seat.token.is_none() => {}
            _ => return Ok(()),
        }
        let token = new_token();
        let hash = secret::hash(&token);
        self.commit(vec![Record::token_issued(side, token)]).await?;
        self.directory.register_token_hash(&hash, &self.state.id);
        Ok(())
    }
}
