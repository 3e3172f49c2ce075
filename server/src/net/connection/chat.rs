//! A connection's chat messages (PROTOCOL.md §19): who speaks is checked here, where the
//! connection knows its account; the line itself goes to the match's actor, which keeps the
//! rooms ([`crate::matches::chat`]).

use boardcast_protocol::{Chat, ChatDelete, ChatMute, ErrorArgs, ErrorCode};

use super::Connection;
use crate::matches::{ChatRequest, Command};
use crate::refusal::Refusal;
use crate::storage::{ChatMuteRow, now_ms};

impl Connection {
    /// Hands a line to its match, unless a club admin muted this member.
    pub(super) async fn chat(&self, id: u64, chat: Chat) -> Result<(), Refusal> {
        if let Some(who) = &self.account {
            let muted = self
                .app
                .accounts
                .store
                .chat_mute(who.id)
                .await
                .map_err(|err| Refusal::storage(&err, "nothing was said"))?;
            if let Some(mute) = muted {
                return Err(Refusal::new(
                    ErrorCode::ChatMuted,
                    format!(
                        "a club admin ({}) has muted you in every chat of this server",
                        mute.by
                    ),
                )
                .with(ErrorArgs::new("muted").word("by", mute.by.as_str())));
            }
        }
        self.find(&chat.match_id).await?.try_send(Command::Chat {
            outbox: self.outbox.clone(),
            id,
            request: ChatRequest::Say {
                author: self.player.clone(),
                say: chat.say,
            },
        })
    }

    /// A club admin deletes a line.
    pub(super) async fn chat_delete(&self, id: u64, delete: ChatDelete) -> Result<(), Refusal> {
        let by = self.club_admin()?;
        self.find(&delete.match_id).await?.try_send(Command::Chat {
            outbox: self.outbox.clone(),
            id,
            request: ChatRequest::Delete {
                by,
                line: delete.line,
            },
        })
    }

    /// A club admin mutes or unmutes a member in every chat: stored with who and when.
    pub(super) async fn chat_mute(&self, id: u64, mute: ChatMute) -> Result<(), Refusal> {
        let by = self.club_admin()?;
        let store = &self.app.accounts.store;
        let account = store
            .account_by_name(mute.name.clone())
            .await
            .map_err(|err| Refusal::storage(&err, "nobody was muted"))?
            .ok_or_else(|| {
                Refusal::new(ErrorCode::NotFound, format!("no account {}", mute.name))
                    .with(ErrorArgs::new("no_account").word("name", mute.name.as_str()))
            })?;
        let row = mute.muted.then(|| ChatMuteRow {
            by,
            at_ms: now_ms(),
        });
        store
            .set_chat_mute(account.id, row)
            .await
            .map_err(|err| Refusal::storage(&err, "nobody was muted"))?;
        self.outbox.ack(id);
        Ok(())
    }

    /// The name of this connection's account if it is a club admin's.
    fn club_admin(&self) -> Result<String, Refusal> {
        match &self.account {
            Some(who) if who.admin => Ok(who.name.clone()),
            _ => Err(Refusal::not_allowed(
                "admins_only",
                "only a club admin moderates chat",
            )),
        }
    }
}
