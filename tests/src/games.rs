//! The reference games (`games/frisian/tests/data/games.jsonl`, the `frisian` crate's fixture,
//! checked there against the shared copy): complete Frisian games from the start
//! position, with the FEN after every ply and the final status. Moves in notation become wire
//! routes with the `frisian` crate.

use std::path::PathBuf;
use std::sync::OnceLock;

use boardcast_protocol::{EndReason, MatchResult, Side};
use serde::Deserialize;

/// Where the reference games are, unless `BOARDCAST_GAMES` says otherwise.
pub fn games_path() -> PathBuf {
    match std::env::var_os("BOARDCAST_GAMES") {
        Some(path) => PathBuf::from(path),
        None => default_games_path(),
    }
}

/// The repository's own copy of the reference games (the `frisian` crate's fixture).
pub fn default_games_path() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../games/frisian/tests/data/games.jsonl")
}

#[derive(Debug, Deserialize)]
struct RawGame {
    id: String,
    start_fen: String,
    moves: Vec<String>,
    fens: Vec<String>,
    status: RawStatus,
}

#[derive(Debug, Deserialize)]
struct RawStatus {
    result: String,
    reason: Option<String>,
}

/// One reference game, ready to be played over the wire.
#[derive(Debug, Clone)]
pub struct RefGame {
    pub id: String,
    pub start_fen: String,
    /// Moves in notation, as in the file.
    pub moves: Vec<String>,
    /// The route of every move: origin and every landing square.
    pub routes: Vec<Vec<u8>>,
    /// The FEN after every ply.
    pub fens: Vec<String>,
    /// The winner, `None` for a draw.
    pub winner: Option<Side>,
    /// The reason in words (`white has no legal move`, `king v king (art. 21)`).
    pub reason: String,
}

impl RefGame {
    /// The side that plays ply `ply` (the games start with White to move).
    pub fn mover(&self, ply: usize) -> Side {
        if ply.is_multiple_of(2) {
            Side::White
        } else {
            Side::Black
        }
    }

    /// Checks a match result against this game's status.
    pub fn check_result(&self, result: &MatchResult) -> Result<(), String> {
        let reason_ok = match self.winner {
            Some(_) => result.reason == EndReason::NoLegalMove,
            None => result.reason == EndReason::DrawByRule,
        };
        if result.winner != self.winner || !reason_ok || result.detail != self.reason {
            return Err(format!(
                "game {}: expected winner {:?} ({}), server says {:?}",
                self.id, self.winner, self.reason, result
            ));
        }
        Ok(())
    }
}

/// Every reference game, loaded once per test process.
pub fn reference_games() -> &'static [RefGame] {
    static GAMES: OnceLock<Vec<RefGame>> = OnceLock::new();
    GAMES.get_or_init(load_games)
}

/// Loads every reference game and converts its moves to routes.
pub fn load_games() -> Vec<RefGame> {
    let path = games_path();
    let text = std::fs::read_to_string(&path)
        .unwrap_or_else(|err| panic!("cannot read {}: {err}", path.display()));
    text.lines()
        .filter(|line| !line.trim().is_empty())
        .map(|line| {
            let raw: RawGame = serde_json::from_str(line).expect("a game record");
            convert(raw)
        })
        .collect()
}

fn convert(raw: RawGame) -> RefGame {
    let mut position = frisian::Position::from_fen(&raw.start_fen)
        .unwrap_or_else(|err| panic!("game {}: bad start FEN: {err}", raw.id));
    let mut routes = Vec::with_capacity(raw.moves.len());
    for (ply, notation) in raw.moves.iter().enumerate() {
        let mv = position
            .parse_move(notation)
            .unwrap_or_else(|err| panic!("game {} ply {ply}: {notation}: {err}", raw.id));
        routes.push(mv.route().iter().map(|square| square.number()).collect());
        position = position
            .play(mv)
            .unwrap_or_else(|err| panic!("game {} ply {ply}: {notation}: {err}", raw.id));
        assert_eq!(
            position.fen(),
            raw.fens[ply],
            "game {} ply {ply}: the frisian crate disagrees with the reference FEN",
            raw.id
        );
    }
    let winner = match raw.status.result.as_str() {
        "white" => Some(Side::White),
        "black" => Some(Side::Black),
        "draw" => None,
        other => panic!("game {}: unknown result {other:?}", raw.id),
    };
    RefGame {
        id: raw.id,
        start_fen: raw.start_fen,
        moves: raw.moves,
        routes,
        fens: raw.fens,
        winner,
        reason: raw.status.reason.unwrap_or_default(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_default_games_are_the_copy_inside_the_repository() {
        let workspace = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
            .join("..")
            .canonicalize()
            .expect("the workspace");
        let path = default_games_path()
            .canonicalize()
            .expect("the reference games exist in the repository");
        assert!(path.starts_with(&workspace), "{}", path.display());
    }
}
