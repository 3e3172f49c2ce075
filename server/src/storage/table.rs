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

/// A [`Table`]: its name, how many of its first columns are its key, and each column with
/// its [`Kind`].
macro_rules! table {
    ($name:ident, key $key:literal: $($column:ident $kind:ident),+) => {
        Table {
            name: stringify!($name),
            columns: &[$((stringify!($column), Kind::$kind)),+],
            key: $key,
        }
    };
}

/// Every table, parents first.
pub(super) const TABLES: &[Table] = &[
    table!(matches, key 1: id Text, invite Text, created_ms Int, setup Text, finished Bool,
        result Text, pdn Text),
    table!(events, key 2: match_id Text, v Int, at_ms Int, body Text),
    table!(engine_games, key 1: id Int, channel Text, serial Text, white Text, black Text,
        start_board Text, start_ply Int, moves Text, winner Text, reason Text, finished_ms Int),
    table!(server_runs, key 1: run Int, started_ms Int),
    table!(leaderboard, key 1: identity Text, name Text, games Int, correct Int, strikes Int),
    // Accounts (issue 30); their seats are not copied as a table: the events' trigger
    // fills them on the PostgreSQL side as the events arrive.
    table!(accounts, key 1: id Int, name Text, name_key Text, password Text, bot Bool, admin Bool,
        closed Bool, created_ms Int, last_seen_ms Int),
    table!(sessions, key 1: hash Text, account_id Int, created_ms Int, used_ms Int),
    table!(tokens, key 1: id Int, hash Text, account_id Int, name Text, scopes Text,
        created_ms Int, used_ms Int, login Bool),
    table!(resets, key 1: hash Text, account_id Int, expires_ms Int),
    // Rating changes (issue 31), after the accounts they belong to.
    table!(rating_changes, key 2: match_id Text, account_id Int, games_before Int, at_ms Int,
        rating_before Real, rating Real, deviation Real, volatility Real),
    table!(club_events, key 1: id Text, created_ms Int, setup Text, finished Bool),
    table!(club_event_log, key 2: event_id Text, v Int, at_ms Int, body Text, round Int,
        match_id Text),
    // Match chat (issue 32), after the accounts its mutes refer to.
    table!(chat_lines, key 2: match_id Text, line Int, room Text, author Text, account_id Int,
        preset Text, text Text, at_ms Int, deleted_by Text, deleted_ms Int),
    table!(chat_mutes, key 1: account_id Int, muted_by Text, muted_ms Int),
    table!(account_preferences, key 1: account_id Int, refuse_more_time Bool),
    table!(club_organisers, key 1: account_id Int),
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
