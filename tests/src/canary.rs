//! A canary match: a match played beside a hostile test to prove it was untouched, and that the
//! server still serves new connections.

use std::net::SocketAddr;
use std::path::Path;

use boardcast_protocol::{Encoding, MatchEvent, MatchPhase};

use crate::TestServer;
use crate::client::{Client, ClientError, ConnectOptions, Pair, Result};
use crate::games::{RefGame, reference_games};

/// Starts `program` quietly with `args` and a canary match (the first reference game) on it.
pub async fn start_with_canary(program: &Path, args: &[&str]) -> (TestServer, Canary) {
    let mut all = vec!["--log", "error"];
    all.extend_from_slice(args);
    let server = TestServer::start(program, &all);
    let canary = Canary::start(server.addr(), Encoding::Json, reference_games()[0].clone())
        .await
        .expect("the canary match starts");
    (server, canary)
}

/// A match between two clients with a watcher, following a reference game.
pub struct Canary {
    pub pair: Pair,
    pub watcher: Client,
    game: RefGame,
    /// Plies played (and acknowledged) so far.
    pub plies: usize,
    addr: SocketAddr,
    encoding: Encoding,
    options: ConnectOptions,
}

impl Canary {
    /// Seats two players, lets a third connection watch, and plays the first two plies.
    pub async fn start(addr: SocketAddr, encoding: Encoding, game: RefGame) -> Result<Canary> {
        Self::start_with(addr, ConnectOptions::encoding(encoding), encoding, game).await
    }

    /// [`Canary::start`] with every connection (the canary's and the checks') made with
    /// `options` (e.g. over TLS).
    pub async fn start_with(
        addr: SocketAddr,
        options: ConnectOptions,
        encoding: Encoding,
        game: RefGame,
    ) -> Result<Canary> {
        let pair = Pair::start_with(addr, encoding, &options, &options).await?;
        let mut watcher = Client::connect_with(addr, encoding, &options).await?;
        watcher.watch_match(pair.match_id()).await?;
        let mut canary = Canary {
            pair,
            watcher,
            game,
            plies: 0,
            addr,
            encoding,
            options,
        };
        canary.advance().await?;
        canary.advance().await?;
        Ok(canary)
    }

    /// Plays the next ply of the reference game and checks the watcher sees it.
    pub async fn advance(&mut self) -> Result<()> {
        let ply = self.plies;
        let route = self.game.routes[ply].clone();
        self.pair.play(ply, &route).await?;
        let match_id = self.pair.match_id().to_owned();
        let event = self.watcher.next_match_event(&match_id).await?;
        match event.event {
            MatchEvent::Moved(moved)
                if moved.played.ply as usize == ply && moved.played.route == route => {}
            other => {
                return Err(ClientError::Unexpected(format!(
                    "canary watcher expected ply {ply} {route:?}, got {other:?}"
                )));
            }
        }
        self.plies += 1;
        Ok(())
    }

    /// Pings on all three connections (keeps them from idling out under a short idle
    /// timeout) without changing the match.
    pub async fn keep_alive(&mut self) -> Result<()> {
        self.pair.white.ping().await?;
        self.pair.black.ping().await?;
        self.watcher.ping().await
    }

    /// The server still works and the canary match is exactly as it was: a new connection
    /// gets a pong, the canary plays on, and a fresh snapshot holds exactly its moves.
    pub async fn check(&mut self) -> Result<()> {
        let mut fresh = Client::connect_with(self.addr, self.encoding, &self.options).await?;
        fresh.ping().await?;
        self.advance().await?;
        let snapshot = fresh.watch_match(self.pair.match_id()).await?;
        let routes: Vec<Vec<u8>> = snapshot.moves.iter().map(|m| m.route.clone()).collect();
        if snapshot.phase != MatchPhase::Playing
            || routes.as_slice() != &self.game.routes[..self.plies]
            || snapshot.fen != self.game.fens[self.plies - 1]
        {
            return Err(ClientError::Unexpected(format!(
                "canary match changed: expected {} plies, snapshot {snapshot:?}",
                self.plies
            )));
        }
        fresh.close().await;
        Ok(())
    }
}

/// The slow-read defence, seen from a client that reads nothing: `stream` (the raw socket of a
/// connection the server keeps sending to) is left unread for `stall` while `canary`'s
/// connections stay alive; then what the server had queued is drained. Fails unless the server
/// closed it within `drain`, buffered under 1 MiB for it, and (when its close frame got through)
/// closed it with 1008; then checks that the canary match was untouched. `what` names the client
/// in the messages ("a TLS client").
pub async fn assert_a_client_reading_nothing_is_dropped<S>(
    mut stream: S,
    canary: &mut Canary,
    stall: std::time::Duration,
    drain: std::time::Duration,
    what: &str,
) where
    S: tokio::io::AsyncRead + Unpin,
{
    let started = std::time::Instant::now();
    while started.elapsed() < stall {
        tokio::time::sleep(std::time::Duration::from_millis(500)).await;
        canary.keep_alive().await.expect("canary connections");
    }
    let (data, ended) = drain_until_closed(&mut stream, drain).await;
    assert!(
        ended,
        "the server kept {what} that read nothing for {stall:?} ({} bytes were waiting)",
        data.len()
    );
    assert!(
        data.len() < 1024 * 1024,
        "{} bytes were buffered for {what} that reads nothing",
        data.len()
    );
    if let Some(code) = last_close_code(&data) {
        assert_eq!(
            code,
            boardcast_protocol::limits::close::POLICY,
            "close code"
        );
    }
    canary.keep_alive().await.expect("canary connections");
    canary.check().await.expect("canary");
}

/// Reads what `stream` still holds until the server ends it or `within` passes: the bytes, and
/// whether it ended.
pub async fn drain_until_closed<S>(stream: &mut S, within: std::time::Duration) -> (Vec<u8>, bool)
where
    S: tokio::io::AsyncRead + Unpin,
{
    use tokio::io::AsyncReadExt;
    let mut data = Vec::new();
    let ended = tokio::time::timeout(within, async {
        let mut buf = vec![0u8; 64 * 1024];
        loop {
            match stream.read(&mut buf).await {
                Ok(0) | Err(_) => break,
                Ok(n) => data.extend_from_slice(&buf[..n]),
            }
        }
    })
    .await;
    (data, ended.is_ok())
}

/// The code of the last WebSocket close frame in raw server-to-client bytes, if one got through.
pub fn last_close_code(data: &[u8]) -> Option<u16> {
    let at = data
        .windows(2)
        .rposition(|w| w[0] == 0x88 && (w[1] & 0x7f) >= 2)?;
    Some(u16::from_be_bytes([*data.get(at + 2)?, *data.get(at + 3)?]))
}
