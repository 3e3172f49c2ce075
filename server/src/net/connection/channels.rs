//! A connection's channel requests (MinitChess channels, Frisian TV, predictions, the
//! leaderboard): each becomes one [`ChannelRequest`] for [`crate::channels`], which never waits
//! and answers through the outbox.

use boardcast_protocol::{ErrorCode, Predict, StartEngineGame};

use super::Connection;
use crate::channels::ChannelRequest;
use crate::net::per_address::Rated;
use crate::refusal::Refusal;

impl Connection {
    /// Hands `request` to the channels; they refuse it themselves when they cannot take it.
    pub(super) fn channel(&self, id: u64, request: ChannelRequest) -> Result<(), Refusal> {
        self.app.channels.handle(&self.outbox, id, request);
        Ok(())
    }

    /// An engine game costs the address one of its engine games a minute, given back when the
    /// game could not start.
    pub(super) fn start_engine_game(&self, id: u64, start: StartEngineGame) -> Result<(), Refusal> {
        let limits = &self.app.address_limits;
        if let Err(over) = limits.take(Rated::EngineGames, self.client) {
            return Err(
                Refusal::new(ErrorCode::AddressLimit, over.message.clone()).with(over.args())
            );
        }
        let request = ChannelRequest::StartEngineGame(start);
        if !self.app.channels.handle(&self.outbox, id, request) {
            limits.refund(Rated::EngineGames, self.client);
        }
        Ok(())
    }

    /// A guess counts under the connection's display name and address.
    pub(super) fn predict(&self, id: u64, predict: Predict) -> Result<(), Refusal> {
        let request = ChannelRequest::Predict {
            predict,
            name: self.player.name.clone(),
            client: self.client,
        };
        self.channel(id, request)
    }
}
