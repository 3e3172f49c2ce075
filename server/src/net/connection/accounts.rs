//! Who a connection is: the `hello` that names a guest. A member's name and bot tag come from
//! the account the upgrade authenticated, not from `hello`.

use boardcast_protocol::{ErrorArgs, ErrorCode, Hello, PROTOCOL_VERSION};

use super::Connection;
use crate::matches::Player;
use crate::refusal::Refusal;

impl Connection {
    pub(super) fn hello(&mut self, id: u64, hello: Hello) -> Result<(), Refusal> {
        if hello.protocol != PROTOCOL_VERSION {
            return Err(Refusal::new(
                ErrorCode::UnsupportedVersion,
                format!(
                    "this server speaks protocol {PROTOCOL_VERSION}, not {}",
                    hello.protocol
                ),
            )
            .with(
                ErrorArgs::new("protocol_version")
                    .number("ours", u64::from(PROTOCOL_VERSION))
                    .number("theirs", u64::from(hello.protocol)),
            ));
        }
        // Validation has checked the name; what is kept is its one form (NFC, trimmed), so two
        // spellings of one name are one name.
        if self.account.is_none() {
            self.player = Player {
                name: boardcast_protocol::names::normalize(&hello.name).unwrap_or(hello.name),
                bot: hello.bot,
                account: None,
                rating: None,
                refuses_more_time: false,
            };
        }
        self.outbox.ack(id);
        Ok(())
    }
}
