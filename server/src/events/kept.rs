//! The events a node shows without running their director, as it last read them from
//! storage: `GET /api/events`, `GET /api/events/{id}`, the TRF and a refused request's
//! look-up read each event whole once, and then only the records stored after the version
//! kept (a finished event nothing more). Reading every event whole at every request cost a
//! node that does not run a 500-player Swiss its few thousand records per look.
//!
//! At most [`KEPT`] events are kept, the least recently shown dropped first: one shown again
//! after that is read whole again. Each event has its own lock, held while it is read, so
//! that requests for it at the same time make one read, not one each.

use std::num::NonZeroUsize;
use std::sync::{Arc, Mutex};

use lru::LruCache;

use futures_util::future::BoxFuture;

use super::error::EventError;
use super::record::EventSetup;
use super::state::EventState;
use super::view::EventView;
use crate::storage::{StoredEvent, now_ms};

/// Records read back from storage at most at once (a query asks for no more, and the next
/// batch is asked for when one comes back full).
pub(super) const READ_AT_ONCE: u32 = 256;

/// Events kept at most.
pub(super) const KEPT: NonZeroUsize = NonZeroUsize::new(256).expect("not zero");

/// One kept event: `None` until read whole.
type Slot = Arc<tokio::sync::Mutex<Option<Read>>>;

/// An event as read back, and its view, made again only when the event changed.
struct Read {
    state: EventState,
    shown: Arc<EventView>,
}

/// The events read back on this node.
pub(super) struct Kept {
    events: Mutex<LruCache<String, Slot>>,
}

impl Kept {
    pub(super) fn new() -> Kept {
        Kept {
            events: Mutex::new(LruCache::new(KEPT)),
        }
    }

    fn events(&self) -> std::sync::MutexGuard<'_, LruCache<String, Slot>> {
        self.events.lock().unwrap_or_else(|p| p.into_inner())
    }

    /// Event `id` as stored now, brought up to date from `stored`, and what `with` takes of
    /// it and its view.
    pub(super) async fn read<T>(
        &self,
        id: &str,
        stored: &impl StoredEvents,
        with: impl FnOnce(&EventState, &Arc<EventView>) -> T,
    ) -> Result<T, EventError> {
        self.read_as(id, stored, Fresh::Now, with).await
    }

    /// Event `id`'s set-up: as kept, else read whole (and kept as any event read is). A
    /// set-up never changes, so nothing newer is read for it: a member's join on a node that
    /// does not run the event costs no read once the event is kept. Bounded with the rest
    /// ([`KEPT`]); a set-up kept apart grew with every event a node ever saw.
    pub(super) async fn setup(
        &self,
        id: &str,
        stored: &impl StoredEvents,
    ) -> Result<EventSetup, EventError> {
        self.read_as(id, stored, Fresh::AsKept, |state, _| state.setup.clone())
            .await
    }

    /// Keeps event `state`, finished, as its director left it with its last view `shown`:
    /// the director has gone, and what it showed is answered from here (dropped in its turn
    /// as any kept event, then read back from storage).
    pub(super) fn keep(&self, state: EventState, shown: Arc<EventView>) {
        let id = state.id.clone();
        let read = Some(Read { state, shown });
        self.events()
            .put(id, Arc::new(tokio::sync::Mutex::new(read)));
    }

    /// Whether event `id` is kept, finished, as its last read or its director left it (no
    /// read of storage; one being read just now counts as not kept).
    pub(super) fn finished(&self, id: &str) -> bool {
        let Some(slot) = self.events().peek(id).cloned() else {
            return false;
        };
        slot.try_lock()
            .is_ok_and(|read| read.as_ref().is_some_and(|read| read.state.finished))
    }

    /// How many events are kept (at most [`KEPT`]).
    #[cfg(test)]
    pub(super) fn len(&self) -> usize {
        self.events().len()
    }

    async fn read_as<T>(
        &self,
        id: &str,
        stored: &impl StoredEvents,
        fresh: Fresh,
        with: impl FnOnce(&EventState, &Arc<EventView>) -> T,
    ) -> Result<T, EventError> {
        let slot = self
            .events()
            .get_or_insert(id.to_owned(), Slot::default)
            .clone();
        let mut slot = slot.lock().await;
        match slot.as_mut() {
            None => match stored.whole(id).await {
                Ok(state) => {
                    let shown = Arc::new(EventView::of(&state, now_ms()));
                    *slot = Some(Read { state, shown });
                }
                Err(err) => {
                    if matches!(err, EventError::NotFound(_)) {
                        // No such event: nothing to keep a place for.
                        self.events().pop(id);
                    }
                    return Err(err);
                }
            },
            Some(read) if read.state.finished || fresh == Fresh::AsKept => {}
            Some(read) => catch_up(&mut read.state, id, stored).await?,
        }
        let read = slot.as_mut().expect("read above");
        let now = now_ms();
        // A waiting event is shown playing once its start has passed, records or not.
        let started = read.shown.status == "waiting" && now >= read.state.setup.starts_at_ms;
        if read.shown.v != read.state.v || started {
            read.shown = Arc::new(EventView::of(&read.state, now));
        }
        Ok(with(&read.state, &read.shown))
    }
}

/// Whether a read brings a kept event up to date first.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Fresh {
    /// Its records stored since it was kept are read and applied.
    Now,
    /// As kept: for what never changes (its set-up).
    AsKept,
}

/// Where an event followed from storage is read: the events' storage (in a test, records
/// laid out by hand).
pub(super) trait StoredEvents: Sync {
    /// The event whole, replayed from its first record.
    fn whole<'a>(&'a self, id: &'a str) -> BoxFuture<'a, Result<EventState, EventError>>;
    /// Its records after version `after`, in order, at most `limit` of them.
    fn newer<'a>(
        &'a self,
        id: &'a str,
        after: u64,
        limit: u32,
    ) -> BoxFuture<'a, Result<Vec<StoredEvent>, EventError>>;
}

/// Applies to `state` the records of event `id` stored after its version, asked for at most
/// [`READ_AT_ONCE`] at a time, until a read comes back short of that.
pub(super) async fn catch_up(
    state: &mut EventState,
    id: &str,
    stored: &impl StoredEvents,
) -> Result<(), EventError> {
    loop {
        let newer = stored.newer(id, state.v, READ_AT_ONCE).await?;
        state.catch_up(&newer).map_err(|err| {
            tracing::error!(event = id, %err, "cannot follow an event's records");
            EventError::Storage
        })?;
        if newer.len() < READ_AT_ONCE as usize {
            return Ok(());
        }
    }
}
