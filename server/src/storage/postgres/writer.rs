//! The PostgreSQL writer task: group commit on one connection, pipelined, with reconnects.
//!
//! A group is first sent whole, pipelined (`BEGIN`, every statement, `COMMIT`): one round trip
//! when nothing is refused, which is nearly always. If any statement fails, PostgreSQL aborts
//! the transaction and the `COMMIT` rolls it back, so nothing of the group is stored; the
//! group is then written again one request at a time, each in its own savepoint, so only the
//! refused request fails. Every answer is sent after `COMMIT` returned.
//!
//! The fence of the cluster's epochs is folded into the statements themselves: an event or a
//! finish written under an epoch that is no longer its match's raises in `boardcast_fence`
//! (see `schema.rs`), which checks under a row lock on the match that a take-over's `UPDATE`
//! must wait for, so no write of an old owner lands after a new owner has read the match.
//! That request is answered [`StorageError::Fenced`]; the rest of its group commits.
//!
//! When the connection is lost, every waiting request is answered
//! [`StorageError::Unavailable`], and so is every new one at once, until a reconnect (with
//! backoff from [`MIN_BACKOFF`] to [`MAX_BACKOFF`]) succeeds.
//!
//! A connection lost while a group's `COMMIT` may be on its way leaves the group in doubt:
//! the writer then asks PostgreSQL whether it committed before answering it ([`doubt`]).

use std::future::Future;
use std::pin::Pin;
use std::sync::Arc;
use std::time::Duration;

use futures_util::future::join_all;
use tokio::sync::mpsc;
use tokio_postgres::{Client, Config, NoTls};

use self::doubt::Doubt;
use super::{archive, chat, club, describe, lost, matches};
use crate::storage::queue::{self, MAX_GROUP, Pending, Request};
use crate::storage::{Refused, StorageError, Unavailable, Write};

/// The longest a group may take before the connection is taken for lost.
const GROUP_TIMEOUT: Duration = Duration::from_secs(10);
/// The first wait before reconnecting, doubled after every failed attempt…
const MIN_BACKOFF: Duration = Duration::from_millis(100);
/// …up to this.
const MAX_BACKOFF: Duration = Duration::from_secs(5);

/// The writer's connection with its prepared statements.
pub(super) struct Link {
    client: Client,
    create_match: tokio_postgres::Statement,
    append_event: tokio_postgres::Statement,
    finish: tokio_postgres::Statement,
    heartbeat: tokio_postgres::Statement,
    rating: tokio_postgres::Statement,
    archive: archive::Statements,
    club: club::Statements,
    chat: chat::Statements,
    /// `SELECT txid_current()`, prepared so that it goes out in its place in a pipeline.
    txid: tokio_postgres::Statement,
}

impl Link {
    /// Prepares the writer's statements on `client` (the tables must exist).
    pub(super) async fn prepare(client: Client) -> Result<Link, StorageError> {
        let (
            create_match,
            append_event,
            finish,
            heartbeat,
            rating,
            started,
            finished,
            score,
            txid,
            club_create,
            club_record,
            club_finish,
            chat_line,
            chat_delete,
            club_organiser,
        ) = tokio::try_join!(
            client.prepare(matches::CREATE_MATCH),
            client.prepare(matches::APPEND_EVENT),
            client.prepare(matches::FINISH),
            client.prepare(matches::HEARTBEAT),
            client.prepare(matches::RATING),
            client.prepare(archive::GAME_STARTED),
            client.prepare(archive::GAME_FINISHED),
            client.prepare(archive::SCORE),
            client.prepare("SELECT txid_current()"),
            client.prepare(club::CREATE),
            client.prepare(club::RECORD),
            client.prepare(club::FINISH),
            client.prepare(chat::LINE),
            client.prepare(chat::DELETE),
            client.prepare(club::ORGANISER),
        )?;
        Ok(Link {
            client,
            create_match,
            append_event,
            finish,
            heartbeat,
            rating,
            archive: archive::Statements {
                started,
                finished,
                score,
            },
            club: club::Statements {
                create: club_create,
                record: club_record,
                finish: club_finish,
                organiser: club_organiser,
            },
            chat: chat::Statements {
                line: chat_line,
                delete: chat_delete,
            },
            txid,
        })
    }

    /// Asks the transaction's id for `doubt`; sent at once, in its place in a pipeline.
    fn txid<'a>(&'a self, doubt: &'a Doubt) -> Step<'a> {
        use futures_util::FutureExt;
        let asked = self.client.query_one(&self.txid, &[]);
        async move {
            doubt.txid(asked.await?.get(0));
            Ok(0)
        }
        .boxed()
    }

    /// The pipelined statements that apply `writes`.
    fn apply<'a>(&'a self, writes: &'a [Write]) -> impl Iterator<Item = Step<'a>> {
        use futures_util::FutureExt;
        writes.iter().map(move |write| self.write(write).boxed())
    }

    /// The statement that applies `write`.
    async fn write(&self, write: &Write) -> Result<u64, tokio_postgres::Error> {
        let client = &self.client;
        match write {
            Write::CreateMatch {
                id,
                invite,
                created_ms,
                setup,
                owner,
            } => {
                let (invite, owner) = (invite.as_deref(), owner.as_ref());
                let statement = &self.create_match;
                matches::create_match(client, statement, id, invite, *created_ms, setup, owner)
                    .await
            }
            Write::Event {
                match_id,
                v,
                at_ms,
                body,
                epoch,
            } => {
                let statement = &self.append_event;
                matches::append_event(client, statement, match_id, *v, *at_ms, body, *epoch).await
            }
            Write::Finish {
                match_id,
                result,
                pdn,
                epoch,
            } => matches::finish(client, &self.finish, match_id, result, pdn, *epoch).await,
            Write::Rating(change) => matches::rating(client, &self.rating, change).await,
            Write::Channel(write) => archive::apply(client, &self.archive, write).await,
            Write::ClubEvent(write) => club::apply(client, &self.club, write).await,
            Write::Chat(write) => chat::apply(client, &self.chat, write).await,
            Write::Heartbeat { at_ms } => matches::heartbeat(client, &self.heartbeat, *at_ms).await,
        }
    }
}

/// Opens a connection whose commits wait for the WAL flush (`synchronous_commit` on, whatever
/// the server's default), its I/O driven by a task of its own.
pub(super) async fn connect_client(config: &Config) -> Result<Client, StorageError> {
    Ok(open_client(config).await?)
}

/// [`connect_client`] with PostgreSQL's own error, for a caller that explains it
/// ([`super::setup`]).
pub(super) async fn open_client(config: &Config) -> Result<Client, tokio_postgres::Error> {
    let (client, connection) = config.connect(NoTls).await?;
    tokio::spawn(async move {
        if let Err(err) = connection.await {
            tracing::warn!(err = %describe(&err), "PostgreSQL connection ended");
        }
    });
    client.batch_execute("SET synchronous_commit TO on").await?;
    Ok(client)
}

/// Starts the writer task on `link`; returns its queue.
pub(super) fn start(config: Config, link: Link) -> mpsc::Sender<Request> {
    let (tx, rx) = queue::channel();
    tokio::spawn(writer_loop(config, link, rx));
    tx
}

type Reconnect = Pin<Box<dyn Future<Output = Result<Link, StorageError>> + Send>>;

/// Waits `delay`, then connects and prepares.
fn reconnect_after(config: Config, delay: Duration) -> Reconnect {
    Box::pin(async move {
        tokio::time::sleep(delay).await;
        Link::prepare(connect_client(&config).await?).await
    })
}

async fn writer_loop(config: Config, link: Link, mut rx: mpsc::Receiver<Request>) {
    let mut link = Some(link);
    let mut reconnect: Option<Reconnect> = None;
    let mut backoff = MIN_BACKOFF;
    let mut group: Vec<Pending> = Vec::with_capacity(MAX_GROUP);
    let mut closing = None;
    while closing.is_none() {
        let first = match reconnect.as_mut() {
            Some(attempt) => tokio::select! {
                request = rx.recv() => request,
                connected = attempt => {
                    reconnect = None;
                    match connected {
                        Ok(new) => {
                            tracing::info!("PostgreSQL is back: storage writes resume");
                            link = Some(new);
                            backoff = MIN_BACKOFF;
                        }
                        Err(err) => {
                            tracing::warn!(%err, retry_in = ?backoff, "PostgreSQL still unavailable");
                            reconnect = Some(reconnect_after(config.clone(), backoff));
                            backoff = (backoff * 2).min(MAX_BACKOFF);
                        }
                    }
                    continue;
                }
            },
            None => rx.recv().await,
        };
        let Some(first) = first else { break };
        closing = queue::gather(first, &mut rx, &mut group, &mut Vec::new());
        if link.as_ref().is_some_and(|link| link.client.is_closed()) {
            link = None;
        }
        let doubt = Doubt::default();
        let outcomes = match &link {
            Some(live) => {
                let started = std::time::Instant::now();
                let written =
                    tokio::time::timeout(GROUP_TIMEOUT, write_group(live, &group, &doubt))
                        .await
                        .unwrap_or_else(|_| Err(Unavailable::NoAnswer));
                crate::ops::telemetry::committed(group.len(), started.elapsed());
                written
            }
            None => Err(Unavailable::Reconnecting),
        };
        let outcomes = match outcomes {
            Ok(outcomes) => outcomes,
            Err(why) => {
                if link.take().is_some() {
                    tracing::error!(%why, "PostgreSQL connection lost; reconnecting");
                }
                let resolved = match doubt.in_doubt() {
                    Some((txid, if_committed)) => resolve(&config, txid, if_committed).await,
                    None => None,
                };
                match resolved {
                    Some((new, outcomes)) => {
                        link = Some(new);
                        outcomes
                    }
                    None => {
                        if reconnect.is_none() {
                            reconnect = Some(reconnect_after(config.clone(), Duration::ZERO));
                            backoff = MIN_BACKOFF;
                        }
                        (0..group.len())
                            .map(|_| Err(StorageError::Unavailable(why.clone())))
                            .collect()
                    }
                }
            }
        };
        for (pending, outcome) in group.drain(..).zip(outcomes) {
            let _ = pending.done.send(outcome);
        }
    }
    drop(link);
    tracing::debug!("PostgreSQL storage writer stopped");
    if let Some(done) = closing {
        let _ = done.send(());
    }
}

/// Learns whether the group of transaction `txid`, in doubt, was stored: its answers
/// `if_committed` if so, unavailable if not, with the new connection to go on with; `None`
/// if PostgreSQL could not tell in time.
async fn resolve(
    config: &Config,
    txid: i64,
    if_committed: Vec<Result<(), StorageError>>,
) -> Option<(Link, Vec<Result<(), StorageError>>)> {
    let (client, committed) = doubt::resolve(|| connect_client(config), txid).await?;
    tracing::warn!(
        txid,
        committed,
        "learned the fate of a group whose connection was lost"
    );
    let link = Link::prepare(client).await.ok()?;
    let outcomes = if committed {
        if_committed
    } else {
        (0..if_committed.len())
            .map(|_| Err(StorageError::Unavailable(Unavailable::NotStored)))
            .collect()
    };
    Some((link, outcomes))
}

/// Writes a group in one transaction; returns each request's outcome, or why the connection
/// is to be taken for lost (then `doubt` tells whether the group may have been stored).
async fn write_group(
    link: &Link,
    group: &[Pending],
    doubt: &Doubt,
) -> Result<Vec<Result<(), StorageError>>, Unavailable> {
    if group.is_empty() {
        return Ok(Vec::new());
    }
    let client = &link.client;
    // The fast path: the whole group in one pipeline.
    doubt.begin();
    let mut pipeline = vec![begin(client), link.txid(doubt)];
    pipeline.extend(group.iter().flat_map(|request| link.apply(&request.writes)));
    pipeline.push(commit(client));
    doubt.commit_sent(group.iter().map(|_| Ok(())).collect());
    let results = join_all(pipeline).await;
    let Some(err) = results.into_iter().find_map(Result::err) else {
        return Ok(doubt.settle());
    };
    if lost(&err) {
        return Err(Unavailable::Lost(Arc::new(err)));
    }
    // Refused, so the pipeline's transaction was rolled back: nothing of it is in doubt.
    doubt.begin();
    // Something was refused and nothing was stored: once more, one savepoint per request.
    let step = |result: Result<(), tokio_postgres::Error>| match result {
        Err(err) if lost(&err) => Err(Unavailable::Lost(Arc::new(err))),
        other => Ok(other),
    };
    // The pipeline's COMMIT has already rolled the aborted transaction back; this makes sure.
    let _ = step(client.batch_execute("ROLLBACK").await)?;
    step(client.batch_execute("BEGIN").await)?.map_err(lost_anyway)?;
    step(link.txid(doubt).await.map(|_| ()))?.map_err(lost_anyway)?;
    let mut outcomes = Vec::with_capacity(group.len());
    for request in group {
        let mut statements = vec![savepoint(client)];
        statements.extend(link.apply(&request.writes));
        // Statement `i` applies write `i - 1`: the savepoint comes first.
        let refused = join_all(statements)
            .await
            .into_iter()
            .enumerate()
            .find_map(|(i, result)| result.err().map(|err| (i.checked_sub(1), err)));
        let outcome = match refused {
            None => step(client.batch_execute("RELEASE SAVEPOINT request").await)?
                .map_err(|err| refusal(err, None)),
            Some((_, err)) if lost(&err) => return Err(Unavailable::Lost(Arc::new(err))),
            Some((write, err)) => {
                step(client.batch_execute("ROLLBACK TO SAVEPOINT request").await)?
                    .map_err(lost_anyway)?;
                Err(refusal(err, write.and_then(|i| request.writes.get(i))))
            }
        };
        outcomes.push(outcome);
    }
    doubt.commit_sent(outcomes);
    let committed = step(client.batch_execute("COMMIT").await)?;
    let outcomes = doubt.settle();
    match committed {
        Ok(()) => Ok(outcomes),
        Err(err) => {
            tracing::error!(err = %describe(&err), "storage commit failed");
            let err = Arc::new(err);
            Ok(group
                .iter()
                .map(|_| Err(StorageError::Refused(Refused::Postgres(err.clone()))))
                .collect())
        }
    }
}

/// What a request is answered when `err` refused it at `write`: [`StorageError::Fenced`] when
/// the fence refused that write's epoch, [`StorageError::Refused`] otherwise.
fn refusal(err: tokio_postgres::Error, write: Option<&Write>) -> StorageError {
    let fenced = err
        .code()
        .is_some_and(|code| code.code() == matches::FENCED);
    match write.and_then(Write::fence) {
        Some((match_id, epoch)) if fenced => {
            tracing::warn!(match_id, epoch, "a write of an older owner was fenced");
            StorageError::Fenced {
                match_id: match_id.to_owned(),
                epoch,
            }
        }
        _ => {
            tracing::error!(err = %describe(&err), "storage write refused");
            StorageError::Refused(Refused::Postgres(Arc::new(err)))
        }
    }
}

/// A statement of the retry that failed: the connection is taken for lost, since the group
/// cannot go on without it.
fn lost_anyway(err: tokio_postgres::Error) -> Unavailable {
    Unavailable::Lost(Arc::new(err))
}

type Step<'a> = futures_util::future::BoxFuture<'a, Result<u64, tokio_postgres::Error>>;

fn begin(client: &Client) -> Step<'_> {
    simple(client, "BEGIN")
}

fn commit(client: &Client) -> Step<'_> {
    simple(client, "COMMIT")
}

fn savepoint(client: &Client) -> Step<'_> {
    simple(client, "SAVEPOINT request")
}

fn simple<'a>(client: &'a Client, sql: &'static str) -> Step<'a> {
    use futures_util::FutureExt;
    async move { client.batch_execute(sql).await.map(|()| 0) }.boxed()
}

mod doubt;
#[cfg(test)]
mod tests;
