//! Who takes a seat: a name, and whether a program plays it. Shared by the state machine, its
//! stored record and the directory, so it sits below all of them.

/// Who takes a seat, as everyone sees them. Serializable: in a cluster it travels to the
/// match's owner.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Player {
    pub name: String,
    /// A program plays the seat: its connection said so in `hello`. Stored in the seat's
    /// `player_joined` event, so a restart or a resume keeps it.
    pub bot: bool,
    /// The account that holds the seat (its id), `None` for a guest. Stored with the seat's
    /// `player_joined` record (not in the public event, which says only `account: true`), so
    /// the seat stays the account's across restarts, take-overs and devices.
    #[serde(default)]
    pub account: Option<i64>,
    /// A member's rating when they took the seat (read from storage by the connection): shown
    /// in the lobby and checked against a rated seek's range. `None` for a guest.
    #[serde(default)]
    pub rating: Option<boardcast_protocol::PlayerRating>,
    /// A member's account refuses to be given more time (their preference, read from storage
    /// by the connection as they take the seat): the match records it with the seat, so it
    /// holds in every match they play. `false` for a guest (their browser says so per match).
    #[serde(default)]
    pub refuses_more_time: bool,
}

/// How a seat is taken back ([`crate::matches::Command::Resume`]): by its secret token, or by
/// the account that holds it (`reclaim`: a member on another device), or by the token a
/// play-now pairing handed out (answered `paired` instead of `seat`: the member's node seats
/// them in a match another node created), or as the player of the match this one is the
/// rematch of. Serializable: in a cluster it travels to the match's owner (postcard, by
/// variant index: new variants go at the end).
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub enum SeatKey {
    Token(String),
    Account(i64),
    Paired {
        token: String,
        preset: boardcast_protocol::PoolPreset,
    },
    /// The player who held `side` in match `of`, sent on by `of` itself when it has just
    /// seated them (by their token or account) after it was rematched: the rematch seats them
    /// on the other colour, and only if it is `of`'s rematch. Only a match builds this key,
    /// never a connection, so no client can name a seat with it. It needs nothing kept
    /// besides the two matches' own records (`of`'s `rematch_started`, the rematch's
    /// `rematch_of` and its seats), so a guest finds their rematch seat after a restart, an
    /// unload of `of` or its move to another node as before them.
    Rematch {
        of: String,
        side: boardcast_protocol::Side,
    },
}

impl From<&str> for SeatKey {
    fn from(token: &str) -> Self {
        SeatKey::Token(token.to_owned())
    }
}

impl From<String> for SeatKey {
    fn from(token: String) -> Self {
        SeatKey::Token(token)
    }
}

impl Player {
    /// A person named `name`.
    pub fn person(name: &str) -> Self {
        Player {
            name: name.to_owned(),
            bot: false,
            account: None,
            rating: None,
            refuses_more_time: false,
        }
    }
}
