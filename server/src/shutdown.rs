//! Shutdown as a broadcast signal: every task holds a [`Shutdown`] and stops when it fires.

use tokio::sync::watch;

/// Fires the shutdown signal; dropping it fires it too, so a panicking owner still stops
/// everything below it.
#[derive(Debug)]
pub struct Trigger(watch::Sender<bool>);

/// A receiver of the shutdown signal; cheap to clone into every task.
#[derive(Debug, Clone)]
pub struct Shutdown(watch::Receiver<bool>);

/// A connected trigger and listener pair.
pub fn channel() -> (Trigger, Shutdown) {
    let (tx, rx) = watch::channel(false);
    (Trigger(tx), Shutdown(rx))
}

impl Trigger {
    pub fn fire(&self) {
        self.0.send_replace(true);
    }

    pub fn subscribe(&self) -> Shutdown {
        Shutdown(self.0.subscribe())
    }
}

impl Drop for Trigger {
    fn drop(&mut self) {
        self.fire();
    }
}

impl Shutdown {
    pub fn is_shutdown(&self) -> bool {
        *self.0.borrow()
    }

    /// Completes once the signal has fired (at once if it already has).
    pub async fn recv(&mut self) {
        // An error means the trigger is gone, which also means shut down.
        let _ = self.0.wait_for(|fired| *fired).await;
    }
}
