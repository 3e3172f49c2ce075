//! Ended sessions across the nodes: the accounts' [`Cuts`] hand this node's endings out,
//! this carries them on `bc:accounts` to every node, and each node's endings cut the
//! connections they name here. Redis may lose one; the connections' recheck catches it.

use super::bus::{Bus, BusEvent, names};
use crate::accounts::cuts::{Cuts, Ending};
use crate::ops::shutdown::Shutdown;

/// Endings from the other nodes waiting to be cut here; past that the bus drops them.
const MAILBOX: usize = 1024;

/// Shares `cuts` with the other nodes on `bus` until `shutdown`.
pub(crate) async fn share(cuts: &Cuts, bus: Bus, mut shutdown: Shutdown) {
    let Some(mut ours) = cuts.join_cluster() else {
        tracing::warn!("the accounts joined a cluster twice");
        return;
    };
    let cuts = cuts.clone();
    bus.listen(
        &[names::ACCOUNTS],
        MAILBOX,
        shutdown.clone(),
        move |event| {
            // Our own endings come back too: cutting again is harmless. A lost message
            // (`Resync`) is left to the recheck.
            if let BusEvent::Message { payload, .. } = event {
                match postcard::from_bytes::<Ending>(&payload) {
                    Ok(ending) => {
                        cuts.cut_here(&ending);
                    }
                    Err(err) => tracing::warn!(%err, "undecodable ended session dropped"),
                }
            }
        },
    );
    bus.subscribe(names::ACCOUNTS).await;
    tokio::spawn(async move {
        loop {
            tokio::select! {
                _ = shutdown.recv() => return,
                Some(ending) = ours.recv() => tell(&bus, &ending),
            }
        }
    });
}

/// Publishes this node's `ending` for the others.
fn tell(bus: &Bus, ending: &Ending) {
    match postcard::to_allocvec(ending) {
        Ok(payload) => {
            if let Err(err) = bus.publish(names::ACCOUNTS, payload) {
                // The other nodes' recheck ends them within one interval.
                tracing::warn!(%err, "cannot tell the other nodes of an ended session");
            }
        }
        Err(err) => tracing::warn!(%err, "cannot encode an ended session"),
    }
}
