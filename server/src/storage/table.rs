//! The stored tables as plain rows, for copying a database into another (`migrate`).
//!
//! Both backends hold the same tables with the same columns; [`TABLES`] names them, in
//! an order that respects foreign keys. A [`Tally`] (row count and an order-free checksum)
//! taken on each side proves a copy complete.

use std::hash::{DefaultHasher, Hash, Hasher};

/// What a column holds.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Kind {
    Int,
    Text,
    Bool,
    /// A double-precision float (ratings).
    Real,
}

/// One stored table: its name and columns, the first `key` of which are its primary key.
#[derive(Debug)]
pub(crate) struct Table {
    pub name: &'static str,
    pub columns: &'static [(&'static str, Kind)],
    pub key: usize,
}

/// Every table, parents first.
pub(super) const TABLES: &[Table] = &[
    Table {
        name: "matches",
        columns: &[
            ("id", Kind::Text),
            ("invite", Kind::Text),
            ("created_ms", Kind::Int),
            ("setup", Kind::Text),
            ("finished", Kind::Bool),
            ("result", Kind::Text),
            ("pdn", Kind::Text),
        ],
        key: 1,
    },
    Table {
        name: "events",
        columns: &[
            ("match_id", Kind::Text),
            ("v", Kind::Int),
            ("at_ms", Kind::Int),
            ("body", Kind::Text),
        ],
        key: 2,
    },
    Table {
        name: "engine_games",
        columns: &[
            ("id", Kind::Int),
            ("channel", Kind::Text),
            ("serial", Kind::Text),
            ("white", Kind::Text),
            ("black", Kind::Text),
            ("start_board", Kind::Text),
            ("start_ply", Kind::Int),
            ("moves", Kind::Text),
            ("winner", Kind::Text),
            ("reason", Kind::Text),
            ("finished_ms", Kind::Int),
        ],
        key: 1,
    },
    Table {
        name: "server_runs",
        columns: &[("run", Kind::Int), ("started_ms", Kind::Int)],
        key: 1,
    },
    Table {
        name: "leaderboard",
        columns: &[
            ("identity", Kind::Text),
            ("name", Kind::Text),
            ("games", Kind::Int),
            ("correct", Kind::Int),
            ("strikes", Kind::Int),
        ],
        key: 1,
    },
    // Accounts (issue 30); their seats are not copied as a table: the events' trigger
    // fills them on the PostgreSQL side as the events arrive.
    Table {
        name: "accounts",
        columns: &[
            ("id", Kind::Int),
            ("name", Kind::Text),
            ("name_key", Kind::Text),
            ("password", Kind::Text),
            ("bot", Kind::Bool),
            ("admin", Kind::Bool),
            ("closed", Kind::Bool),
            ("created_ms", Kind::Int),
            ("last_seen_ms", Kind::Int),
        ],
        key: 1,
    },
    Table {
        name: "sessions",
        columns: &[
            ("hash", Kind::Text),
            ("account_id", Kind::Int),
            ("created_ms", Kind::Int),
            ("used_ms", Kind::Int),
        ],
        key: 1,
    },
    Table {
        name: "tokens",
        columns: &[
            ("id", Kind::Int),
            ("hash", Kind::Text),
            ("account_id", Kind::Int),
            ("name", Kind::Text),
            ("scopes", Kind::Text),
            ("created_ms", Kind::Int),
            ("used_ms", Kind::Int),
            ("login", Kind::Bool),
        ],
        key: 1,
    },
    Table {
        name: "resets",
        columns: &[
            ("hash", Kind::Text),
            ("account_id", Kind::Int),
            ("expires_ms", Kind::Int),
        ],
        key: 1,
    },
    // Rating changes (issue 31), after the accounts they belong to.
    Table {
        name: "rating_changes",
        columns: &[
            ("match_id", Kind::Text),
            ("account_id", Kind::Int),
            ("games_before", Kind::Int),
            ("at_ms", Kind::Int),
            ("rating_before", Kind::Real),
            ("rating", Kind::Real),
            ("deviation", Kind::Real),
            ("volatility", Kind::Real),
        ],
        key: 2,
    },
    Table {
        name: "club_events",
        columns: &[
            ("id", Kind::Text),
            ("created_ms", Kind::Int),
            ("setup", Kind::Text),
            ("finished", Kind::Bool),
        ],
        key: 1,
    },
    Table {
        name: "club_event_log",
        columns: &[
            ("event_id", Kind::Text),
            ("v", Kind::Int),
            ("at_ms", Kind::Int),
            ("body", Kind::Text),
            ("round", Kind::Int),
            ("match_id", Kind::Text),
        ],
        key: 2,
    },
    // Match chat (issue 32), after the accounts its mutes refer to.
    Table {
        name: "chat_lines",
        columns: &[
            ("match_id", Kind::Text),
            ("line", Kind::Int),
            ("room", Kind::Text),
            ("author", Kind::Text),
            ("account_id", Kind::Int),
            ("preset", Kind::Text),
            ("text", Kind::Text),
            ("at_ms", Kind::Int),
            ("deleted_by", Kind::Text),
            ("deleted_ms", Kind::Int),
        ],
        key: 2,
    },
    Table {
        name: "chat_mutes",
        columns: &[
            ("account_id", Kind::Int),
            ("muted_by", Kind::Text),
            ("muted_ms", Kind::Int),
        ],
        key: 1,
    },
    Table {
        name: "club_organisers",
        columns: &[("account_id", Kind::Int)],
        key: 1,
    },
];

impl Table {
    /// The column names, comma-separated.
    pub(crate) fn column_list(&self) -> String {
        let names: Vec<&str> = self.columns.iter().map(|(name, _)| *name).collect();
        names.join(", ")
    }
}

/// One stored value.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum Value {
    Int(Option<i64>),
    Text(Option<String>),
    Bool(bool),
    Real(Real),
}

/// A stored float, equal and hashed by its bits: a copy holds exactly the same number or it
/// is not a copy.
#[derive(Debug, Clone, Copy)]
pub struct Real(pub f64);

impl PartialEq for Real {
    fn eq(&self, other: &Self) -> bool {
        self.0.to_bits() == other.0.to_bits()
    }
}

impl Eq for Real {}

impl Hash for Real {
    fn hash<H: Hasher>(&self, state: &mut H) {
        self.0.to_bits().hash(state);
    }
}

/// One row, its values in [`Table::columns`] order.
pub(super) type Row = Vec<Value>;

/// How many rows a table holds and a checksum of them that does not depend on their order.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Tally {
    pub rows: u64,
    pub checksum: u64,
}

impl Tally {
    pub fn add(&mut self, row: &Row) {
        // Both sides are tallied in the same process, so the hasher's keys agree.
        let mut hasher = DefaultHasher::new();
        row.hash(&mut hasher);
        self.rows += 1;
        self.checksum = self.checksum.wrapping_add(hasher.finish());
    }
}
