//! Passwords: Argon2id hashes (OWASP's 19 MiB, 2 passes, 1 lane) made and checked on a small
//! pool of hashing threads of their own, and the zxcvbn strength check.
//!
//! A hash takes tens of milliseconds of one core: on a runtime worker it would stall every
//! match on that worker, and on tokio's blocking pool a login flood took every core (paced
//! move→ack p99 went from 48 ms to 4–5 s under 200 logins, BENCHMARKS.md). So hashes run on
//! [`max_hashes`] threads of their own that ask the OS for its lowest priority (nice 19, and
//! Linux's `SCHED_IDLE`): whenever play wants a core, the scheduler gives it to play first. Work waits in a bounded
//! queue; a hash asked for while it is full is refused at once ([`HashError::Busy`], which the
//! routes answer 503 with `Retry-After`) instead of queueing without end.
//!
//! Each hashing thread keeps one 19 MiB Argon2 memory block for all its hashes ([`hash_into`])
//! instead of the password-hash API's fresh allocation per hash: mapping and freeing 19 MiB at
//! every login costs page faults and TLB shoot-downs across the whole process, so on the play
//! threads too. The PHC strings written and read are the standard API's, byte for byte.

use std::cell::RefCell;
use std::ops::RangeInclusive;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::mpsc::{Receiver, SyncSender, TrySendError, sync_channel};
use std::sync::{Arc, LazyLock, Mutex};
use std::time::Duration;

use argon2::password_hash::phc::{Output, ParamsString, PasswordHash, Salt};
use argon2::{Algorithm, Argon2, Block, Params, Version};
use boardcast_protocol::account::{ApiErrorCode, PASSWORD_MAX, PASSWORD_MIN};
use rand::Rng;
use tokio::sync::oneshot;

/// At most this many hashes at once: one fewer than the machine's cores, at least one, and
/// never more than two. The cores are for play first: with every core hashing, a flood of 200
/// logins took paced move→ack p99 from 48 ms to 4–5 s on two cores (BENCHMARKS.md).
pub(crate) fn max_hashes() -> usize {
    let cores = std::thread::available_parallelism().map_or(1, usize::from);
    cores.saturating_sub(1).clamp(1, 2)
}

/// Hashes waiting for a hashing thread, per thread. At ~15 hashes a second per core a full
/// queue is about a second of waiting; beyond it a login is refused at once with
/// `Retry-After`, so a flood costs neither memory nor an answer that comes too late to use.
const QUEUE_PER_THREAD: usize = 16;

/// The whole seconds `Retry-After` says after [`HashError::Busy`]: about the time the queue
/// takes to drain, at least.
const BUSY_RETRY_AFTER_S: RangeInclusive<u64> = 1..=3;

/// When to try again after [`HashError::Busy`], chosen at random per answer within
/// [`BUSY_RETRY_AFTER_S`]: the clients one burst got refused together come back spread over
/// three seconds, not all in the same one to be refused together again (a bot fleet that
/// honours `Retry-After` would otherwise keep its step).
pub(crate) fn busy_retry_after() -> Duration {
    Duration::from_secs(rand::rng().random_range(BUSY_RETRY_AFTER_S))
}

/// The nice value of the hashing threads: the lowest a thread can ask for.
const LOWEST_PRIORITY: i32 = 19;

/// OWASP's Argon2id parameters: 19 MiB, 2 iterations, 1 lane.
fn argon2() -> Argon2<'static> {
    let params = Params::new(19 * 1024, 2, 1, None).expect("OWASP's Argon2 parameters are valid");
    Argon2::new(Algorithm::Argon2id, Version::V0x13, params)
}

thread_local! {
    /// This thread's Argon2 memory, kept from one hash to the next (module docs). Empty on
    /// every thread that never hashed.
    static MEMORY: RefCell<Vec<Block>> = const { RefCell::new(Vec::new()) };
}

/// Argon2's output for `password` and `salt` into `out`, computed in this thread's
/// [`MEMORY`]. The memory is wiped afterwards: a finished hash's first blocks are a fast
/// function of the password, so leaving them would let whoever reads the process's memory
/// test guesses without paying Argon2's cost (a wipe of memory already mapped costs far less
/// than mapping it afresh). A stored hash with more memory than the chosen parameters (none
/// today) gets memory of its own for that one hash, so one odd hash cannot make a thread
/// hold more than the chosen parameters need.
fn hash_into(
    argon2: &Argon2<'_>,
    password: &[u8],
    salt: &[u8],
    out: &mut [u8],
) -> Result<(), argon2::Error> {
    let blocks = argon2.params().block_count();
    if blocks > self::argon2().params().block_count() {
        return argon2.hash_password_into(password, salt, out);
    }
    MEMORY.with_borrow_mut(|memory| {
        if memory.len() < blocks {
            memory.resize(blocks, Block::new());
        }
        let memory = &mut memory[..blocks];
        let hashed = argon2.hash_password_into_with_memory(password, salt, out, &mut *memory);
        memory.fill(Block::new());
        hashed
    })
}

/// The PHC string of a new salted Argon2id hash of `password` with the chosen parameters: the
/// same string the password-hash API writes (`$argon2id$v=19$m=19456,t=2,p=1$SALT$HASH`).
fn hash_phc(password: &[u8]) -> Result<String, String> {
    let argon2 = argon2();
    let salt = Salt::generate();
    let mut out = [0; Params::DEFAULT_OUTPUT_LEN];
    hash_into(&argon2, password, &salt, &mut out).map_err(|e| e.to_string())?;
    let phc = PasswordHash {
        algorithm: Algorithm::Argon2id.ident(),
        version: Some(Version::V0x13.into()),
        params: ParamsString::try_from(argon2.params()).map_err(|e| e.to_string())?,
        salt: Some(salt),
        hash: Some(Output::new(&out).map_err(|e| e.to_string())?),
    };
    Ok(phc.to_string())
}

/// Whether `password` matches the PHC string `phc`, with the algorithm, version and
/// parameters the string names (as the password-hash API's verifier does); false for a
/// string that is not an Argon2 hash. The outputs are compared in constant time
/// ([`Output`]'s equality).
fn verify_phc(password: &[u8], phc: &str) -> bool {
    let Ok(hash) = PasswordHash::new(phc) else {
        return false;
    };
    let (Some(salt), Some(expected)) = (&hash.salt, &hash.hash) else {
        return false;
    };
    let Ok(algorithm) = Algorithm::try_from(hash.algorithm.as_str()) else {
        return false;
    };
    let Ok(version) = hash.version.map(Version::try_from).transpose() else {
        return false;
    };
    let Ok(params) = Params::try_from(&hash) else {
        return false;
    };
    let argon2 = Argon2::new(algorithm, version.unwrap_or_default(), params);
    let mut out = [0; Output::MAX_LENGTH];
    let out = &mut out[..expected.len()];
    hash_into(&argon2, password, salt, out).is_ok()
        && Output::new(out).is_ok_and(|computed| computed == *expected)
}

/// A hash of a password nobody has, verified for unknown names so that "no such user" takes
/// as long as "wrong password".
static DUMMY: LazyLock<String> =
    LazyLock::new(|| hash_phc(b"no account has this password").expect("hashing works"));

/// Why a hash was not made.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum HashError {
    /// The queue of the hashing threads is full: try again after [`busy_retry_after`].
    #[error("too many logins at once: try again in a moment")]
    Busy,
    /// Argon2 refused (it does not with these parameters), or the hashing threads are gone.
    #[error("cannot hash the password: {0}")]
    Failed(String),
}

/// A piece of hashing work; it answers on its own channel.
type Job = Box<dyn FnOnce() + Send>;

/// The hashing threads and their bounded queue. Cheap to clone; the threads end when the last
/// clone is dropped.
#[derive(Debug, Clone)]
pub struct Hasher {
    jobs: SyncSender<Job>,
    /// How many jobs are queued and not yet taken by a thread, and the queue's room: a login
    /// that would find the queue full is refused before it reads the database.
    waiting: Arc<AtomicUsize>,
    room: usize,
}

impl Default for Hasher {
    fn default() -> Self {
        Hasher::new(max_hashes(), QUEUE_PER_THREAD * max_hashes())
    }
}

impl Hasher {
    /// `threads` hashing threads at the lowest priority with room for `queue` waiting hashes.
    pub(crate) fn new(threads: usize, queue: usize) -> Hasher {
        let (jobs, waiting) = sync_channel::<Job>(queue);
        let waiting = Arc::new(Mutex::new(waiting));
        for number in 0..threads.max(1) {
            let waiting = Arc::clone(&waiting);
            std::thread::Builder::new()
                .name(format!("hash-{number}"))
                .spawn(move || hashing_thread(&waiting))
                .expect("the OS starts a hashing thread");
        }
        Hasher {
            jobs,
            waiting: Arc::new(AtomicUsize::new(0)),
            room: queue,
        }
    }

    /// [`HashError::Busy`] when the queue is full now, so a caller can refuse before doing
    /// the work that leads to a hash (a login's account lookup). A hash asked for later may
    /// still find it full: [`Hasher::verify`] answers that alike.
    pub(crate) fn refuse_if_full(&self) -> Result<(), HashError> {
        if self.waiting.load(Ordering::Relaxed) >= self.room {
            metrics::counter!("boardcast_account_hash_busy_total").increment(1);
            return Err(HashError::Busy);
        }
        Ok(())
    }

    /// Queues `work` and waits for its answer; [`HashError::Busy`] at once when the queue is
    /// full (the refusal is decided before the first `.await`).
    async fn run<T: Send + 'static>(
        &self,
        work: impl FnOnce() -> T + Send + 'static,
    ) -> Result<T, HashError> {
        let (answer, answered) = oneshot::channel();
        let waiting = Arc::clone(&self.waiting);
        let job: Job = Box::new(move || {
            waiting.fetch_sub(1, Ordering::Relaxed);
            // A caller that gave up (its request was dropped) is not worth a hash.
            if !answer.is_closed() {
                let _ = answer.send(work());
            }
        });
        // Counted before it is queued, so a thread taking it at once never counts below zero.
        self.waiting.fetch_add(1, Ordering::Relaxed);
        match self.jobs.try_send(job) {
            Ok(()) => {}
            Err(TrySendError::Full(_)) => {
                self.waiting.fetch_sub(1, Ordering::Relaxed);
                metrics::counter!("boardcast_account_hash_busy_total").increment(1);
                return Err(HashError::Busy);
            }
            Err(TrySendError::Disconnected(_)) => {
                self.waiting.fetch_sub(1, Ordering::Relaxed);
                return Err(HashError::Failed("the hashing threads are gone".into()));
            }
        }
        answered
            .await
            .map_err(|_| HashError::Failed("a hashing thread stopped".into()))
    }

    /// The PHC string of a new salted Argon2id hash of `password`.
    pub async fn hash(&self, password: String) -> Result<String, HashError> {
        self.run(move || hash_phc(password.as_bytes()).map_err(HashError::Failed))
            .await?
    }

    /// Whether `password` matches the PHC string `hash`; `None` checks against a dummy hash
    /// (always false, in the same time). Busy is answered alike for both, before either is
    /// looked at.
    pub async fn verify(&self, password: String, hash: Option<String>) -> Result<bool, HashError> {
        self.run(move || {
            let known = hash.is_some();
            let hash = hash.unwrap_or_else(|| DUMMY.clone());
            let matches = verify_phc(password.as_bytes(), &hash);
            known && matches
        })
        .await
    }
}

/// One hashing thread: lowest priority, then the queue's work until every [`Hasher`] is gone.
fn hashing_thread(waiting: &Mutex<Receiver<Job>>) {
    lower_priority();
    loop {
        // The lock is held only while taking the next job, never while hashing.
        let job = match waiting.lock() {
            Ok(waiting) => waiting.recv(),
            Err(_) => return,
        };
        match job {
            Ok(job) => job(),
            Err(_) => return,
        }
    }
}

/// Asks the OS to run the calling thread at the lowest priority: nice 19 and, on Linux, the
/// `SCHED_IDLE` policy, whose threads any waking runtime worker preempts at once (a nice-19
/// thread may finish its time slice first, and a slice of Argon2 is milliseconds of play
/// waiting). On Linux both are the thread's own (`who`/`pid` 0 names the calling thread),
/// so the runtime's workers keep theirs. Where it fails, hashing still works, at a higher
/// priority, and says so.
fn lower_priority() {
    // SAFETY: setpriority only reads its integer arguments.
    if unsafe { libc::setpriority(libc::PRIO_PROCESS, 0, LOWEST_PRIORITY) } != 0 {
        tracing::warn!(
            error = %std::io::Error::last_os_error(),
            "cannot lower the hashing thread's priority"
        );
    }
    #[cfg(target_os = "linux")]
    {
        let param = libc::sched_param { sched_priority: 0 };
        // SAFETY: `param` is a valid sched_param that outlives the call.
        if unsafe { libc::sched_setscheduler(0, libc::SCHED_IDLE, &param) } != 0 {
            tracing::warn!(
                error = %std::io::Error::last_os_error(),
                "cannot put the hashing thread on the idle scheduling policy"
            );
        }
    }
}

/// The nice value of the calling thread, and whether it is on `SCHED_IDLE` (tests).
#[cfg(test)]
fn own_priority() -> (i32, bool) {
    // SAFETY: getpriority and sched_getscheduler only read their integer arguments.
    let nice = unsafe { libc::getpriority(libc::PRIO_PROCESS, 0) };
    #[cfg(target_os = "linux")]
    let idle = unsafe { libc::sched_getscheduler(0) } == libc::SCHED_IDLE;
    #[cfg(not(target_os = "linux"))]
    let idle = false;
    (nice, idle)
}

/// Why `password` is not acceptable for account `name`, if it is not: its length, or the
/// strength estimator's verdict (score below 3 of 4) with its warning and suggestions.
pub(crate) fn check(password: &str, name: &str) -> Result<(), (ApiErrorCode, String)> {
    let length = password.chars().count();
    if length < PASSWORD_MIN {
        return Err((
            ApiErrorCode::PasswordTooShort,
            format!("a password has at least {PASSWORD_MIN} characters"),
        ));
    }
    if length > PASSWORD_MAX {
        return Err((
            ApiErrorCode::PasswordTooLong,
            format!("a password has at most {PASSWORD_MAX} characters"),
        ));
    }
    let estimate = zxcvbn::zxcvbn(password, &[name, "boardcast", "draughts"]);
    if u8::from(estimate.score()) >= 3 {
        return Ok(());
    }
    let mut message = String::from("this password is too easy to guess");
    if let Some(feedback) = estimate.feedback() {
        if let Some(warning) = feedback.warning() {
            message.push_str(&format!(": {warning}"));
        }
        for suggestion in feedback.suggestions() {
            message.push_str(&format!(" {suggestion}"));
        }
    }
    Err((ApiErrorCode::PasswordWeak, message))
}

#[cfg(test)]
mod tests {
    use super::*;

    use futures_util::FutureExt;

    /// Busy answers say when to come back, each 1–3 s chosen on its own, so clients refused
    /// together are spread out.
    #[test]
    fn busy_answers_spread_their_retry_after_over_one_to_three_seconds() {
        let said: std::collections::BTreeSet<u64> =
            (0..200).map(|_| busy_retry_after().as_secs()).collect();
        assert_eq!(
            said,
            BUSY_RETRY_AFTER_S.collect(),
            "every second of the range is said"
        );
    }

    #[test]
    fn hashing_leaves_a_core_to_play() {
        let cores = std::thread::available_parallelism().map_or(1, usize::from);
        let max = max_hashes();
        assert!(max >= 1, "at least one hash at a time");
        if cores > 1 {
            assert!(max < cores, "{max} hashes at once on {cores} cores");
        }
    }

    #[test]
    fn lengths_and_common_passwords_are_refused_with_the_reason() {
        assert_eq!(
            check("short", "anne").unwrap_err().0,
            ApiErrorCode::PasswordTooShort
        );
        assert_eq!(
            check(&"x".repeat(129), "anne").unwrap_err().0,
            ApiErrorCode::PasswordTooLong
        );
        let (code, message) = check("password123", "anne").unwrap_err();
        assert_eq!(code, ApiErrorCode::PasswordWeak);
        assert!(
            message.starts_with("this password is too easy to guess"),
            "{message}"
        );
        assert_eq!(
            check("anne12345", "anne").unwrap_err().0,
            ApiErrorCode::PasswordWeak
        );
        assert_eq!(check("correct horse battery staple 1912", "anne"), Ok(()));
    }

    #[tokio::test]
    async fn a_hash_verifies_its_password_only_and_the_dummy_nothing() {
        let hasher = Hasher::default();
        let hash = hasher.hash("Tulpen-in-Dokkum-1921".into()).await.unwrap();
        assert!(
            hash.starts_with("$argon2id$v=19$m=19456,t=2,p=1$"),
            "{hash}"
        );
        assert_eq!(
            hasher
                .verify("Tulpen-in-Dokkum-1921".into(), Some(hash.clone()))
                .await,
            Ok(true)
        );
        assert_eq!(
            hasher
                .verify("tulpen-in-dokkum-1921".into(), Some(hash))
                .await,
            Ok(false)
        );
        assert_eq!(
            hasher
                .verify("no account has this password".into(), None)
                .await,
            Ok(false)
        );
    }

    #[tokio::test]
    async fn hashes_made_here_and_by_the_password_hash_api_verify_each_other() {
        use argon2::{PasswordHasher, PasswordVerifier};

        let hasher = Hasher::default();
        let password = "Tulpen-in-Dokkum-1921";
        let ours = hasher.hash(password.into()).await.unwrap();
        assert!(
            argon2()
                .verify_password(password.as_bytes(), ours.as_str())
                .is_ok()
        );
        assert!(
            argon2()
                .verify_password(b"tulpen-in-dokkum-1921", ours.as_str())
                .is_err()
        );
        // The same fields, in the same order, as the API's own string.
        let standard = argon2()
            .hash_password(password.as_bytes())
            .unwrap()
            .to_string();
        let fields = |phc: &str| phc.rsplitn(3, '$').nth(2).unwrap().to_owned();
        assert_eq!(fields(&ours), fields(&standard));
        assert_eq!(
            hasher.verify(password.into(), Some(standard.clone())).await,
            Ok(true)
        );
        assert_eq!(
            hasher
                .verify("tulpen-in-dokkum-1921".into(), Some(standard))
                .await,
            Ok(false)
        );
        // Hashes stored with other parameters, lighter and heavier than the chosen ones
        // (the heavier one takes memory of its own), still verify by what their string says.
        for (memory, passes) in [(8 * 1024, 1), (20 * 1024, 1)] {
            let params = Params::new(memory, passes, 1, None).unwrap();
            let other = Argon2::new(Algorithm::Argon2id, Version::V0x13, params)
                .hash_password(password.as_bytes())
                .unwrap()
                .to_string();
            assert_eq!(
                hasher.verify(password.into(), Some(other.clone())).await,
                Ok(true)
            );
            assert_eq!(hasher.verify("wrong".into(), Some(other)).await, Ok(false));
        }
        assert_eq!(
            hasher
                .verify(password.into(), Some("not a hash".into()))
                .await,
            Ok(false)
        );
    }

    #[tokio::test]
    async fn a_hashing_thread_keeps_one_memory_block_and_wipes_it_after_each_hash() {
        let hasher = Hasher::new(1, 4);
        let memory = || {
            MEMORY.with_borrow(|memory| {
                let wiped = memory
                    .iter()
                    .all(|block| block.as_ref().iter().all(|&word| word == 0));
                (memory.as_ptr() as usize, memory.len(), wiped)
            })
        };
        hasher.hash("Tulpen-in-Dokkum-1921".into()).await.unwrap();
        let (first, blocks, wiped) = hasher.run(memory).await.unwrap();
        assert_eq!(blocks, argon2().params().block_count());
        assert!(wiped, "the memory is wiped after a hash");
        hasher
            .verify("a wrong password".into(), None)
            .await
            .unwrap();
        let (second, _, wiped) = hasher.run(memory).await.unwrap();
        assert_eq!(first, second, "the second hash used the same memory");
        assert!(wiped);
    }

    #[tokio::test]
    async fn hashes_run_at_the_lowest_priority_off_the_runtime() {
        let hasher = Hasher::new(1, 1);
        let runtime_thread = std::thread::current().id();
        let (priority, thread) = hasher
            .run(|| (own_priority(), std::thread::current().id()))
            .await
            .unwrap();
        assert_eq!(priority, (LOWEST_PRIORITY, cfg!(target_os = "linux")));
        assert_ne!(thread, runtime_thread);
        assert!(
            !own_priority().1,
            "only the hashing threads are idle-policy"
        );
    }

    #[tokio::test]
    async fn a_flood_beyond_the_queue_is_refused_at_once_and_the_queue_still_answers() {
        // One thread, held busy by a job that waits for the test's word, and room for two.
        let hasher = Hasher::new(1, 2);
        let (release, held) = std::sync::mpsc::channel::<()>();
        let (started, running) = oneshot::channel();
        let holding = tokio::spawn({
            let hasher = hasher.clone();
            async move {
                hasher
                    .run(move || {
                        let _ = started.send(());
                        let _ = held.recv();
                    })
                    .await
            }
        });
        running.await.unwrap();
        assert_eq!(
            hasher.refuse_if_full(),
            Ok(()),
            "the job a thread took is not waiting"
        );
        let queued: Vec<_> = (0..2)
            .map(|_| {
                let hasher = hasher.clone();
                tokio::spawn(async move { hasher.verify("a wrong password".into(), None).await })
            })
            .collect();
        tokio::task::yield_now().await;
        // The queue is full: the next ones are refused before they wait for anything, both
        // for a known account and for an unknown name.
        for hash in [None, Some(DUMMY.clone())] {
            let refused = hasher
                .verify("Tulpen-in-Dokkum-1921".into(), hash)
                .now_or_never();
            assert_eq!(refused, Some(Err(HashError::Busy)));
        }
        assert_eq!(
            hasher.hash("Tulpen-in-Dokkum-1921".into()).now_or_never(),
            Some(Err(HashError::Busy))
        );
        // What a login asks before it reads the account: refused alike, and the refusals
        // above left no count behind.
        assert_eq!(hasher.refuse_if_full(), Err(HashError::Busy));
        release.send(()).unwrap();
        holding.await.unwrap().unwrap();
        for waiting in queued {
            assert_eq!(waiting.await.unwrap(), Ok(false));
        }
        assert_eq!(
            hasher.refuse_if_full(),
            Ok(()),
            "a drained queue has room again"
        );
        assert_eq!(hasher.verify("again".into(), None).await, Ok(false));
    }
}
