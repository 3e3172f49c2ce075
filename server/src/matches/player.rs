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
}

impl Player {
    /// A person named `name`.
    pub fn person(name: &str) -> Self {
        Player {
            name: name.to_owned(),
            bot: false,
        }
    }
}
