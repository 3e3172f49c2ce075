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

/// Tracks the tasks that must finish before storage closes (connections, matches): each holds
/// a [`TaskGuard`]; [`AllDone::wait`] completes when every guard is dropped.
#[derive(Debug, Clone)]
pub struct Tasks(std::sync::Arc<std::sync::Mutex<Option<tokio::sync::mpsc::Sender<()>>>>);

/// Held by a running task; dropping it reports the task done.
#[derive(Debug)]
pub struct TaskGuard(#[allow(dead_code)] tokio::sync::mpsc::Sender<()>);

/// Waits for every [`TaskGuard`].
#[derive(Debug)]
pub struct AllDone(tokio::sync::mpsc::Receiver<()>);

/// A task tracker and the waiter for it.
pub fn tasks() -> (Tasks, AllDone) {
    let (tx, rx) = tokio::sync::mpsc::channel(1);
    (
        Tasks(std::sync::Arc::new(std::sync::Mutex::new(Some(tx)))),
        AllDone(rx),
    )
}

impl Tasks {
    /// A guard for a new task, or `None` once shutdown has begun waiting.
    pub fn guard(&self) -> Option<TaskGuard> {
        let sender = self.0.lock().ok()?.clone()?;
        Some(TaskGuard(sender))
    }
}

impl AllDone {
    /// Refuses new guards and waits until every guard is dropped.
    pub async fn wait(mut self, tasks: &Tasks) {
        if let Ok(mut sender) = tasks.0.lock() {
            sender.take();
        }
        // `None` once every sender (guard) is gone; nothing is ever sent.
        let _ = self.0.recv().await;
    }
}
