//! Real headless browsers for the browser tests, driven over WebDriver through `fantoccini`:
//! Chromium (Debian's `chromium` and `chromium-driver`) and Firefox (Debian's `firefox-esr` and
//! `geckodriver`, a crates.io package), so that a club member on either meets no surprise. The
//! [`Engine`] is a parameter; the suite runs once per engine.
//!
//! [`Driver::start_or_skip_in`] starts the engine's driver in its own process group (one
//! `chromedriver` for all of a test's browsers; one `geckodriver` per browser, since a
//! geckodriver holds one session). Every [`Browser`] is a WebDriver session of its own, that is
//! a separate browser process with a fresh temporary profile, so two players never share
//! cookies or storage. Dropping the driver kills every group (the drivers and every browser
//! they started), also when a test panics.
//!
//! What WebDriver itself cannot do (a viewport of a phone's size, a script before the page's
//! own, the dark colour scheme) goes through Chromium's DevTools, and for Firefox through
//! WebDriver BiDi (the session's `webSocketUrl`) and geckodriver's privileged context.
//!
//! Without the browser a developer's `cargo test` prints a "skipped: install …" line and
//! passes; with `CI` set it fails, so CI can never go green without running them.

use std::net::{SocketAddr, TcpStream};
use std::os::unix::process::CommandExt;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::sync::Mutex;
use std::time::{Duration, Instant};

use fantoccini::wd::WebDriverCompatibleCommand;
use fantoccini::{Client, ClientBuilder, Locator};
use futures_util::{SinkExt, StreamExt};
use hyper_util::client::legacy::connect::HttpConnector;
use serde_json::{Value, json};
use tokio_tungstenite::tungstenite::Message;

/// How long a test waits for a page condition by default: generous, for a loaded machine.
pub const PATIENCE: Duration = Duration::from_secs(30);

/// How often a wait looks at the page again.
const POLL: Duration = Duration::from_millis(40);

/// A browser the suite runs in.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Engine {
    Chromium,
    Firefox,
}

impl Engine {
    /// The line a developer without this browser sees (and the fix).
    pub fn skip_line(self) -> &'static str {
        match self {
            Engine::Chromium => {
                "skipped: install chromium (apt-get install -y chromium chromium-driver)"
            }
            Engine::Firefox => {
                "skipped: install firefox-esr and geckodriver (apt-get install -y firefox-esr; \
                 cargo install geckodriver --locked)"
            }
        }
    }
}

/// Firefox's preferences: silent on this closed network (geckodriver already turns off
/// updates and telemetry), no first-run pages, and scrollbars over the page as on a phone
/// (Chromium's screenshots hide them too).
fn firefox_prefs() -> Value {
    json!({
        "ui.useOverlayScrollbars": 1,
        "network.captive-portal-service.enabled": false,
        "network.connectivity-service.enabled": false,
        "network.dns.disablePrefetch": true,
        "network.prefetch-next": false,
        "browser.safebrowsing.update.enabled": false,
        "browser.safebrowsing.downloads.remote.enabled": false,
        "browser.shell.checkDefaultBrowser": false,
        "browser.startup.homepage_override.mstone": "ignore",
        "extensions.getAddons.cache.enabled": false,
        "media.autoplay.default": 5,
    })
}

/// The preference that overrides the colour scheme pages see: 0 dark, 1 light, 2 the system's.
const FIREFOX_SCHEME_PREF: &str = "layout.css.prefers-color-scheme.content-override";

/// Chromium's flags: headless as root, and silent on this closed network (without the
/// background-networking flags Chromium keeps trying to reach the internet).
const CHROMIUM_FLAGS: &[&str] = &[
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--no-default-browser-check",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--disable-extensions",
    "--disable-default-apps",
    "--disable-features=Translate,OptimizationHints,MediaRouter",
    "--disable-dev-shm-usage",
    "--hide-scrollbars",
    "--mute-audio",
];

/// Where the browser and its driver are.
#[derive(Debug, Clone)]
pub struct Install {
    pub engine: Engine,
    pub browser: PathBuf,
    pub driver: PathBuf,
}

impl Install {
    /// Finds the engine's browser and driver, or says what is missing. `BOARDCAST_CHROMIUM`
    /// and `BOARDCAST_CHROMEDRIVER`, or `BOARDCAST_FIREFOX` and `BOARDCAST_GECKODRIVER`,
    /// override the search; geckodriver is also looked for where `cargo install` puts it.
    pub fn find(engine: Engine) -> Result<Install, String> {
        let (browser, driver) = match engine {
            Engine::Chromium => (
                find_program("BOARDCAST_CHROMIUM", &["chromium", "chromium-browser"], false)
                    .ok_or("no chromium on PATH")?,
                find_program("BOARDCAST_CHROMEDRIVER", &["chromedriver"], false)
                    .ok_or("no chromedriver on PATH (Debian package chromium-driver)")?,
            ),
            Engine::Firefox => (
                find_program("BOARDCAST_FIREFOX", &["firefox-esr", "firefox"], false)
                    .ok_or("no firefox-esr on PATH")?,
                find_program("BOARDCAST_GECKODRIVER", &["geckodriver"], true).ok_or(
                    "no geckodriver on PATH or in ~/.cargo/bin (cargo install geckodriver --locked)",
                )?,
            ),
        };
        Ok(Install {
            engine,
            browser,
            driver,
        })
    }
}

/// The first of `names` on `PATH` (or the file `env` names); with `cargo_bin`, also in
/// `$CARGO_HOME/bin` or `~/.cargo/bin`, where `cargo install` puts programs.
fn find_program(env: &str, names: &[&str], cargo_bin: bool) -> Option<PathBuf> {
    if let Some(path) = std::env::var_os(env) {
        return Some(PathBuf::from(path)).filter(|path| path.is_file());
    }
    let mut dirs: Vec<PathBuf> = std::env::var_os("PATH")
        .map(|path| std::env::split_paths(&path).collect())
        .unwrap_or_default();
    if cargo_bin {
        let cargo_home = std::env::var_os("CARGO_HOME")
            .map(PathBuf::from)
            .or_else(|| std::env::var_os("HOME").map(|home| PathBuf::from(home).join(".cargo")));
        dirs.extend(cargo_home.map(|home| home.join("bin")));
    }
    dirs.iter()
        .flat_map(|dir| names.iter().map(move |name| dir.join(name)))
        .find(|candidate| candidate.is_file())
}

/// Whether this run is CI's (`CI` set to anything but `false` or `0`).
pub fn in_ci() -> bool {
    std::env::var("CI").is_ok_and(|value| !value.is_empty() && value != "false" && value != "0")
}

/// One at a time: each browser test starts two or three browsers, which is all two cores
/// can take.
static ONE_AT_A_TIME: tokio::sync::Mutex<()> = tokio::sync::Mutex::const_new(());

/// The running WebDriver servers of a test (and every browser they started), killed on drop.
pub struct Driver {
    install: Install,
    /// Chromium's one chromedriver for all browsers (`None` for Firefox).
    chromedriver: Option<String>,
    /// Every driver process started, each the leader of its own process group.
    children: Mutex<Vec<Child>>,
    /// `TMPDIR` of the drivers and their browsers (Chromium leaves singleton directories
    /// there when it is killed, geckodriver its profiles); removed after the groups are gone.
    tmp: tempfile::TempDir,
    _turn: tokio::sync::MutexGuard<'static, ()>,
}

impl Driver {
    /// Starts `engine`'s driver, or returns `None` after printing the engine's
    /// [`Engine::skip_line`] when its browser is not installed on a developer's machine. In
    /// CI a missing browser fails the test.
    pub async fn start_or_skip_in(engine: Engine, test: &str) -> Option<Driver> {
        let install = match Install::find(engine) {
            Ok(install) => install,
            Err(missing) if in_ci() => {
                panic!("{test}: the browser tests must run in CI but cannot: {missing}")
            }
            Err(missing) => {
                // Straight to stderr, past the test harness's capture, so that a passing
                // `cargo test` still shows it.
                use std::io::Write;
                let skip = engine.skip_line();
                let _ = writeln!(std::io::stderr(), "{test}: {skip} ({missing})");
                return None;
            }
        };
        let turn = ONE_AT_A_TIME.lock().await;
        Some(Driver::start(install, turn).unwrap_or_else(|err| panic!("{test}: {err}")))
    }

    fn start(
        install: Install,
        turn: tokio::sync::MutexGuard<'static, ()>,
    ) -> std::io::Result<Driver> {
        let mut driver = Driver {
            install,
            chromedriver: None,
            children: Mutex::new(Vec::new()),
            tmp: tempfile::tempdir()?,
            _turn: turn,
        };
        if driver.install.engine == Engine::Chromium {
            let addr = crate::free_addr();
            driver.spawn(
                &[
                    format!("--port={}", addr.port()),
                    "--allowed-ips=127.0.0.1".to_owned(),
                ],
                addr,
            )?;
            driver.chromedriver = Some(format!("http://{addr}"));
        }
        Ok(driver)
    }

    /// Starts the driver program with `args`, listening on `addr`, in its own process group
    /// (so that drop can end it with every browser it started).
    fn spawn(&self, args: &[String], addr: SocketAddr) -> std::io::Result<()> {
        let mut child = Command::new(&self.install.driver)
            .env("TMPDIR", self.tmp.path())
            .args(args)
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .process_group(0)
            .spawn()?;
        let listening = wait_listening(&mut child, addr, &self.install.driver.to_string_lossy());
        self.children.lock().expect("the driver list").push(child);
        listening
    }

    /// Opens a new browser (its own process, its own empty profile) with a `width`×`height`
    /// viewport, pointed at `server`.
    pub async fn browser(&self, server: SocketAddr, width: u32, height: u32) -> Browser {
        let profile = tempfile::tempdir_in(self.tmp.path()).expect("a temporary profile directory");
        let (url, capabilities) = match self.install.engine {
            Engine::Chromium => {
                let mut args: Vec<String> = CHROMIUM_FLAGS
                    .iter()
                    .map(|flag| (*flag).to_owned())
                    .collect();
                args.push(format!("--user-data-dir={}", profile.path().display()));
                args.push(format!("--window-size={width},{height}"));
                let capabilities = json!({
                    "browserName": "chrome",
                    "goog:chromeOptions": {
                        "binary": self.install.browser,
                        "args": args,
                    },
                });
                let url = self.chromedriver.clone().expect("chromedriver runs");
                (url, capabilities)
            }
            Engine::Firefox => {
                // A geckodriver holds one session: one for each browser, with its own BiDi
                // port. Privileged access lets `prefer_dark` set the colour scheme.
                let (addr, bidi) = (crate::free_addr(), crate::free_addr());
                self.spawn(
                    &[
                        "--host=127.0.0.1".to_owned(),
                        format!("--port={}", addr.port()),
                        format!("--websocket-port={}", bidi.port()),
                        format!("--profile-root={}", profile.path().display()),
                        "--allow-system-access".to_owned(),
                    ],
                    addr,
                )
                .unwrap_or_else(|err| panic!("geckodriver did not start: {err}"));
                let capabilities = json!({
                    "browserName": "firefox",
                    "webSocketUrl": true,
                    "moz:firefoxOptions": {
                        "binary": self.install.browser,
                        "args": ["-headless", format!("--width={width}"), format!("--height={height}")],
                        "prefs": firefox_prefs(),
                    },
                });
                (format!("http://{addr}"), capabilities)
            }
        };
        let Value::Object(capabilities) = capabilities else {
            unreachable!("capabilities are an object")
        };
        let engine = self.install.engine;
        let client = ClientBuilder::new(HttpConnector::new())
            .capabilities(capabilities)
            .connect(&url)
            .await
            .unwrap_or_else(|err| panic!("the driver could not start {engine:?}: {err}"));
        let bidi = match engine {
            Engine::Chromium => None,
            Engine::Firefox => Some(tokio::sync::Mutex::new(Bidi::connect(&client).await)),
        };
        let browser = Browser {
            client,
            engine,
            bidi,
            base: format!("http://{server}"),
            _profile: profile,
        };
        browser.set_viewport(width, height).await;
        browser
    }
}

impl Drop for Driver {
    fn drop(&mut self) {
        let children = self.children.get_mut().unwrap_or_else(|p| p.into_inner());
        for child in children.iter_mut() {
            // Each group is a driver's own (process_group(0) above): it and its browsers.
            let group = child.id() as libc::pid_t;
            // SAFETY: kill(2) with a negative pid signals the process group we created.
            unsafe {
                libc::kill(-group, libc::SIGKILL);
            }
        }
        for child in children.iter_mut() {
            let _ = child.wait();
        }
    }
}

/// A WebDriver BiDi connection to one Firefox session (its `webSocketUrl`): commands in,
/// their results out; events are not subscribed to.
struct Bidi {
    socket: tokio_tungstenite::WebSocketStream<
        tokio_tungstenite::MaybeTlsStream<tokio::net::TcpStream>,
    >,
    next_id: u64,
    /// The session's one top-level browsing context (its window).
    context: String,
}

impl Bidi {
    async fn connect(client: &Client) -> Bidi {
        let url = client
            .capabilities()
            .and_then(|caps| caps.get("webSocketUrl"))
            .and_then(Value::as_str)
            .expect("geckodriver gives the session a webSocketUrl")
            .to_owned();
        let (socket, _) = tokio_tungstenite::connect_async(url.as_str())
            .await
            .unwrap_or_else(|err| panic!("WebDriver BiDi at {url}: {err}"));
        let mut bidi = Bidi {
            socket,
            next_id: 0,
            context: String::new(),
        };
        let tree = bidi
            .command("browsingContext.getTree", json!({ "maxDepth": 0 }))
            .await;
        bidi.context = tree["contexts"][0]["context"]
            .as_str()
            .expect("a browsing context")
            .to_owned();
        bidi
    }

    /// Sends `method` with `params` and returns its result; panics with the error.
    async fn command(&mut self, method: &str, params: Value) -> Value {
        self.next_id += 1;
        let id = self.next_id;
        let command = json!({ "id": id, "method": method, "params": params });
        self.socket
            .send(Message::text(command.to_string()))
            .await
            .unwrap_or_else(|err| panic!("BiDi {method}: {err}"));
        while let Some(message) = self.socket.next().await {
            let message = message.unwrap_or_else(|err| panic!("BiDi {method}: {err}"));
            let Message::Text(text) = message else {
                continue;
            };
            let reply: Value = serde_json::from_str(&text).expect("BiDi sends JSON");
            if reply["id"] != json!(id) {
                continue;
            }
            if reply["type"] == "success" {
                return reply["result"].clone();
            }
            panic!("BiDi {method}: {reply}");
        }
        panic!("BiDi {method}: the connection closed")
    }
}

/// Waits until `addr` accepts connections, or the child exits, or 20 s pass.
fn wait_listening(child: &mut Child, addr: SocketAddr, what: &str) -> std::io::Result<()> {
    let deadline = Instant::now() + Duration::from_secs(20);
    while TcpStream::connect(addr).is_err() {
        if let Some(status) = child.try_wait()? {
            return Err(std::io::Error::other(format!(
                "{what} exited before listening: {status}"
            )));
        }
        if Instant::now() > deadline {
            return Err(std::io::Error::other(format!(
                "{what} did not start listening"
            )));
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    Ok(())
}

/// One browser (a WebDriver session: its own browser process and profile) looking at the
/// server.
pub struct Browser {
    pub client: Client,
    pub engine: Engine,
    /// Firefox's BiDi connection, for what Chromium does through DevTools.
    bidi: Option<tokio::sync::Mutex<Bidi>>,
    /// `http://HOST:PORT` of the server under test.
    pub base: String,
    _profile: tempfile::TempDir,
}

impl Browser {
    /// Navigates to `path` on the server (or to a full URL) and waits for the load event.
    pub async fn goto(&self, path: &str) {
        let url = if path.starts_with("http") {
            path.to_owned()
        } else {
            format!("{}{path}", self.base)
        };
        self.client
            .goto(&url)
            .await
            .unwrap_or_else(|err| panic!("navigating to {url}: {err}"));
    }

    /// The current URL.
    pub async fn url(&self) -> String {
        self.client
            .current_url()
            .await
            .map(|url| url.to_string())
            .expect("the current URL")
    }

    /// Runs `script` (a function body; `arguments[i]` are `args`) in the page.
    pub async fn js(&self, script: &str, args: Vec<Value>) -> Value {
        self.client
            .execute(script, args)
            .await
            .unwrap_or_else(|err| panic!("script failed: {err}\n{script}"))
    }

    /// Waits until `script` returns something other than `null`, `false`, `""` or `0`, and
    /// returns it; panics naming `what` after `patience`.
    pub async fn wait_for_value(
        &self,
        what: &str,
        script: &str,
        args: Vec<Value>,
        patience: Duration,
    ) -> Value {
        let deadline = Instant::now() + patience;
        loop {
            // A script that fails (an element not drawn yet) counts as "not yet".
            let value = match self.client.execute(script, args.clone()).await {
                Ok(value) if truthy(&value) => return value,
                Ok(value) => value,
                Err(err) => Value::String(format!("script error: {err}")),
            };
            if Instant::now() > deadline {
                let url = self.url().await;
                // What the page looked like, for whoever reads the failure.
                let dir = screenshot_dir(self.engine).join("failures");
                let slug: String = what
                    .chars()
                    .map(|c| if c.is_ascii_alphanumeric() { c } else { '-' })
                    .take(80)
                    .collect();
                let shot = dir.join(format!("{slug}.png"));
                let saved = match self.client.screenshot().await {
                    Ok(png) => std::fs::create_dir_all(&dir)
                        .and_then(|()| std::fs::write(&shot, png))
                        .map(|()| format!("; the page is in {}", shot.display()))
                        .unwrap_or_default(),
                    Err(_) => String::new(),
                };
                panic!(
                    "gave up after {patience:?} waiting for {what} on {url} (last: {value}){saved}"
                );
            }
            tokio::time::sleep(POLL).await;
        }
    }

    /// Waits until `script` is truthy, with the default patience.
    pub async fn wait_until(&self, what: &str, script: &str, args: Vec<Value>) -> Value {
        self.wait_for_value(what, script, args, PATIENCE).await
    }

    /// Waits until an element matches `css`.
    pub async fn wait_for(&self, css: &str) {
        self.wait_until(
            &format!("an element {css}"),
            "return document.querySelector(arguments[0]) !== null;",
            vec![json!(css)],
        )
        .await;
    }

    /// Waits until an element matches `css` and is visible (laid out), so a user could see it.
    pub async fn wait_visible(&self, css: &str) {
        self.wait_until(
            &format!("a visible {css}"),
            "const e = document.querySelector(arguments[0]);
             return e !== null && e.getClientRects().length > 0
                 && getComputedStyle(e).visibility !== 'hidden';",
            vec![json!(css)],
        )
        .await;
    }

    /// Clicks the element matching `css` the way a user does (WebDriver element click: scrolled
    /// into view, refused if something covers it), waiting for it to appear first.
    pub async fn click(&self, css: &str) {
        self.wait_visible(css).await;
        let deadline = Instant::now() + PATIENCE;
        loop {
            match self.try_click(css).await {
                Ok(()) => return,
                // Re-rendered under us or briefly covered: look again.
                Err(_) if Instant::now() < deadline => tokio::time::sleep(POLL).await,
                Err(err) => panic!("clicking {css}: {err}"),
            }
        }
    }

    async fn try_click(&self, css: &str) -> Result<(), String> {
        let element = self
            .client
            .find(Locator::Css(css))
            .await
            .map_err(|err| err.to_string())?;
        match element.click().await {
            Ok(()) => Ok(()),
            // Firefox's WebDriver clicks only what `elementsFromPoint` lists at the element's
            // middle, and for SVG that is the shape drawn, never the group around it (a
            // board square `<g data-square>`): click such a group where it is drawn, with the
            // mouse, once nothing but its own shapes is there.
            Err(err) if self.engine == Engine::Firefox && err.is_element_not_interactable() => self
                .click_svg_group(element)
                .await
                .map_err(|why| format!("{err}; {why}")),
            Err(err) => Err(err.to_string()),
        }
    }

    /// Clicks the SVG group `element` in its middle with the mouse, after scrolling it into
    /// view and checking that what is drawn there is the group itself or one of its shapes.
    async fn click_svg_group(&self, element: fantoccini::elements::Element) -> Result<(), String> {
        use fantoccini::actions::{InputSource, MOUSE_BUTTON_LEFT, MouseActions, PointerAction};
        let arg = serde_json::to_value(&element).map_err(|err| err.to_string())?;
        let hit = self
            .js(
                "const e = arguments[0];
                 if (!(e instanceof SVGGraphicsElement)) return 'not an SVG group';
                 e.scrollIntoView({ block: 'center', inline: 'center' });
                 const r = e.getBoundingClientRect();
                 const at = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
                 return at !== null && (at === e || e.contains(at))
                     ? 'ok' : 'covered by ' + (at === null ? 'nothing' : at.outerHTML.slice(0, 80));",
                vec![arg],
            )
            .await;
        if hit != "ok" {
            return Err(hit.as_str().unwrap_or("?").to_owned());
        }
        let click = MouseActions::new("mouse".to_owned())
            .then(PointerAction::MoveToElement {
                element,
                duration: None,
                x: 0.0,
                y: 0.0,
            })
            .then(PointerAction::Down {
                button: MOUSE_BUTTON_LEFT,
            })
            .then(PointerAction::Up {
                button: MOUSE_BUTTON_LEFT,
            });
        let done = self.client.perform_actions(click).await;
        let _ = self.client.release_actions().await;
        done.map_err(|err| err.to_string())
    }

    /// Drags the element matching `from` onto the element matching `to` with the mouse
    /// (pointer down, a move in steps, pointer up), as a person drags a piece.
    pub async fn drag(&self, from: &str, to: &str) {
        use fantoccini::actions::{InputSource, MOUSE_BUTTON_LEFT, MouseActions, PointerAction};
        self.wait_visible(from).await;
        self.wait_visible(to).await;
        let find = |css: &str| {
            let css = css.to_owned();
            async move {
                self.client
                    .find(Locator::Css(&css))
                    .await
                    .unwrap_or_else(|err| panic!("finding {css}: {err}"))
            }
        };
        let (source, target) = (find(from).await, find(to).await);
        let gesture = MouseActions::new("mouse".to_owned())
            .then(PointerAction::MoveToElement {
                element: source,
                duration: None,
                x: 0.0,
                y: 0.0,
            })
            .then(PointerAction::Down {
                button: MOUSE_BUTTON_LEFT,
            })
            .then(PointerAction::MoveToElement {
                element: target,
                duration: Some(Duration::from_millis(250)),
                x: 0.0,
                y: 0.0,
            })
            .then(PointerAction::Up {
                button: MOUSE_BUTTON_LEFT,
            });
        self.client
            .perform_actions(gesture)
            .await
            .unwrap_or_else(|err| panic!("dragging {from} to {to}: {err}"));
        let _ = self.client.release_actions().await;
    }

    /// Presses and releases `key` on the keyboard, wherever the focus is.
    pub async fn press(&self, key: char) {
        use fantoccini::actions::{InputSource, KeyAction, KeyActions};
        let stroke = KeyActions::new("keyboard".to_owned())
            .then(KeyAction::Down { value: key })
            .then(KeyAction::Up { value: key });
        self.client
            .perform_actions(stroke)
            .await
            .unwrap_or_else(|err| panic!("pressing {key:?}: {err}"));
    }

    /// Types `text` into the element matching `css` (after clearing it).
    pub async fn type_into(&self, css: &str, text: &str) {
        self.wait_visible(css).await;
        let deadline = Instant::now() + PATIENCE;
        loop {
            match self.try_type_into(css, text).await {
                Ok(()) => return,
                // Re-rendered under us, or not reachable yet (Firefox, while a resized window
                // lays out again): look again, as `click` does. Each try clears first.
                Err(_) if Instant::now() < deadline => tokio::time::sleep(POLL).await,
                Err(err) => panic!("typing into {css}: {err}"),
            }
        }
    }

    async fn try_type_into(&self, css: &str, text: &str) -> Result<(), String> {
        let element = self
            .client
            .find(Locator::Css(css))
            .await
            .map_err(|err| err.to_string())?;
        element.clear().await.map_err(|err| err.to_string())?;
        element.send_keys(text).await.map_err(|err| err.to_string())
    }

    /// An attribute of the first element matching `css`, `None` if there is no such element
    /// or attribute.
    pub async fn attr(&self, css: &str, name: &str) -> Option<String> {
        let value = self
            .js(
                "const e = document.querySelector(arguments[0]);
                 return e === null ? null : e.getAttribute(arguments[1]);",
                vec![json!(css), json!(name)],
            )
            .await;
        value.as_str().map(str::to_owned)
    }

    /// The visible text of the first element matching `css` (empty if none).
    pub async fn text(&self, css: &str) -> String {
        let value = self
            .js(
                "const e = document.querySelector(arguments[0]);
                 return e === null ? '' : e.innerText;",
                vec![json!(css)],
            )
            .await;
        value.as_str().unwrap_or_default().trim().to_owned()
    }

    /// Waits until the visible text of the first element matching `css` is `expected`. A page
    /// draws on its next animation frame, and often from more than one answer (a profile's
    /// facts and its chart come from two requests), so a check read at once after a click or
    /// after another element appeared can see the page between the two; this reads it until
    /// it settles, and panics with what it last saw.
    pub async fn wait_text(&self, css: &str, expected: &str) {
        let deadline = Instant::now() + PATIENCE;
        loop {
            let seen = self.text(css).await;
            if seen == expected {
                return;
            }
            if Instant::now() > deadline {
                panic!(
                    "gave up after {PATIENCE:?} waiting for {css} to read {expected:?}: it reads {seen:?}"
                );
            }
            tokio::time::sleep(POLL).await;
        }
    }

    /// Waits until attribute `name` of the first element matching `css` is `expected` (see
    /// [`Browser::wait_text`] for why a check waits), and panics with what it last saw.
    pub async fn wait_attr(&self, css: &str, name: &str, expected: &str) {
        let deadline = Instant::now() + PATIENCE;
        loop {
            let seen = self.attr(css, name).await;
            if seen.as_deref() == Some(expected) {
                return;
            }
            if Instant::now() > deadline {
                panic!(
                    "gave up after {PATIENCE:?} waiting for {name} of {css} to be {expected:?}: it is {seen:?}"
                );
            }
            tokio::time::sleep(POLL).await;
        }
    }

    /// Every element matching `css`: the value of attribute `name` on each.
    pub async fn attrs(&self, css: &str, name: &str) -> Vec<String> {
        let value = self
            .js(
                "return Array.from(document.querySelectorAll(arguments[0]),
                                   e => e.getAttribute(arguments[1]));",
                vec![json!(css), json!(name)],
            )
            .await;
        value
            .as_array()
            .map(|values| {
                values
                    .iter()
                    .filter_map(|v| v.as_str().map(str::to_owned))
                    .collect()
            })
            .unwrap_or_default()
    }

    /// Sends a DevTools command to this browser (through chromedriver); Chromium only.
    pub async fn cdp(&self, command: &str, params: Value) -> Value {
        assert_eq!(
            self.engine,
            Engine::Chromium,
            "DevTools {command} is Chromium's"
        );
        self.client
            .issue_cmd(Cdp {
                command: command.to_owned(),
                params,
            })
            .await
            .unwrap_or_else(|err| panic!("DevTools {command}: {err}"))
    }

    /// A WebDriver BiDi command (Firefox) on this browser's window.
    async fn bidi(&self, method: &str, params: impl FnOnce(&str) -> Value) -> Value {
        let mut bidi = self
            .bidi
            .as_ref()
            .expect("a BiDi connection (Firefox)")
            .lock()
            .await;
        let params = params(&bidi.context);
        bidi.command(method, params).await
    }

    /// Sets the page's viewport (CSS pixels), as a phone or a desktop window would have it
    /// (Firefox keeps its windows at least 500 pixels wide: the viewport is set inside).
    pub async fn set_viewport(&self, width: u32, height: u32) {
        match self.engine {
            Engine::Chromium => {
                self.cdp(
                    "Emulation.setDeviceMetricsOverride",
                    json!({
                        "width": width,
                        "height": height,
                        "deviceScaleFactor": 1,
                        "mobile": width < 600,
                    }),
                )
                .await;
            }
            Engine::Firefox => {
                self.bidi("browsingContext.setViewport", |context| {
                    json!({
                        "context": context,
                        "viewport": { "width": width, "height": height },
                        "devicePixelRatio": 1,
                    })
                })
                .await;
            }
        }
    }

    /// Runs `source` in every page before the page's own scripts (for measurements).
    pub async fn on_new_document(&self, source: &str) {
        match self.engine {
            Engine::Chromium => {
                self.cdp(
                    "Page.addScriptToEvaluateOnNewDocument",
                    json!({ "source": source }),
                )
                .await;
            }
            Engine::Firefox => {
                self.bidi(
                    "script.addPreloadScript",
                    |_| json!({ "functionDeclaration": format!("() => {{\n{source}\n}}") }),
                )
                .await;
            }
        }
    }

    /// Makes the pages prefer the dark colour scheme, as a system set to dark does.
    pub async fn prefer_dark(&self) {
        match self.engine {
            Engine::Chromium => {
                self.cdp(
                    "Emulation.setEmulatedMedia",
                    json!({ "features": [{ "name": "prefers-color-scheme", "value": "dark" }] }),
                )
                .await;
            }
            Engine::Firefox => {
                // A preference of the browser itself: set from geckodriver's privileged
                // (chrome) context, then back to the page's.
                let context = |name: &str| MozContext(name.to_owned());
                self.client
                    .issue_cmd(context("chrome"))
                    .await
                    .expect("the privileged context");
                self.js(
                    "Services.prefs.setIntPref(arguments[0], 0);",
                    vec![json!(FIREFOX_SCHEME_PREF)],
                )
                .await;
                self.client
                    .issue_cmd(context("content"))
                    .await
                    .expect("back to the page's context");
            }
        }
    }

    /// Writes a PNG of the viewport to `path` (creating its directory).
    pub async fn screenshot(&self, path: &Path) {
        let png = self.client.screenshot().await.expect("a screenshot");
        if let Some(dir) = path.parent() {
            std::fs::create_dir_all(dir).expect("the screenshot directory");
        }
        std::fs::write(path, png).expect("writing the screenshot");
    }

    /// Ends the session (and its browser).
    pub async fn close(self) {
        if let Some(bidi) = self.bidi {
            let _ = bidi.into_inner().socket.close(None).await;
        }
        let _ = self.client.close().await;
    }
}

/// Whether a script's result counts as "yes".
fn truthy(value: &Value) -> bool {
    match value {
        Value::Null => false,
        Value::Bool(yes) => *yes,
        Value::Number(n) => n.as_f64() != Some(0.0),
        Value::String(s) => !s.is_empty(),
        Value::Array(_) | Value::Object(_) => true,
    }
}

/// chromedriver's DevTools pass-through: `POST /session/{id}/goog/cdp/execute`.
#[derive(Debug)]
struct Cdp {
    command: String,
    params: Value,
}

impl WebDriverCompatibleCommand for Cdp {
    fn endpoint(
        &self,
        base_url: &url::Url,
        session_id: Option<&str>,
    ) -> Result<url::Url, url::ParseError> {
        let session = session_id.unwrap_or_default();
        base_url.join(&format!("session/{session}/goog/cdp/execute"))
    }

    fn method_and_body(&self, _request_url: &url::Url) -> (http::Method, Option<String>) {
        let body = json!({ "cmd": self.command, "params": self.params });
        (http::Method::POST, Some(body.to_string()))
    }
}

/// geckodriver's switch between the page's context and the browser's own privileged one:
/// `POST /session/{id}/moz/context`.
#[derive(Debug)]
struct MozContext(String);

impl WebDriverCompatibleCommand for MozContext {
    fn endpoint(
        &self,
        base_url: &url::Url,
        session_id: Option<&str>,
    ) -> Result<url::Url, url::ParseError> {
        let session = session_id.unwrap_or_default();
        base_url.join(&format!("session/{session}/moz/context"))
    }

    fn method_and_body(&self, _request_url: &url::Url) -> (http::Method, Option<String>) {
        let body = json!({ "context": self.0 });
        (http::Method::POST, Some(body.to_string()))
    }
}

/// Where an engine's screenshots go: `target/screenshots/` for Chromium, and
/// `target/screenshots/firefox/` for Firefox (or under `CARGO_TARGET_DIR`).
pub fn screenshot_dir(engine: Engine) -> PathBuf {
    let target = std::env::var_os("CARGO_TARGET_DIR")
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../target"));
    match engine {
        Engine::Chromium => target.join("screenshots"),
        Engine::Firefox => target.join("screenshots").join("firefox"),
    }
}

/// A web site on another origin (`http://127.0.0.2:PORT`): serves one HTML page for every
/// request, as an attacker's page would be. Stops when dropped.
pub struct ForeignSite {
    pub url: String,
    task: tokio::task::JoinHandle<()>,
}

impl ForeignSite {
    /// Serves `html` on a free port of 127.0.0.2 (a loopback address, but another host than
    /// the server's 127.0.0.1).
    pub async fn serve(html: String) -> ForeignSite {
        use tokio::io::{AsyncReadExt, AsyncWriteExt};
        let listener = tokio::net::TcpListener::bind("127.0.0.2:0")
            .await
            .expect("bind 127.0.0.2");
        let addr = listener.local_addr().expect("local address");
        let task = tokio::spawn(async move {
            while let Ok((mut stream, _)) = listener.accept().await {
                let html = html.clone();
                tokio::spawn(async move {
                    let mut head = Vec::new();
                    let mut buf = [0u8; 1024];
                    while !head.windows(4).any(|w| w == b"\r\n\r\n") && head.len() < 16 * 1024 {
                        match stream.read(&mut buf).await {
                            Ok(0) | Err(_) => return,
                            Ok(n) => head.extend_from_slice(&buf[..n]),
                        }
                    }
                    let response = format!(
                        "HTTP/1.1 200 OK\r\nContent-Type: text/html; charset=utf-8\r\n\
                         Content-Length: {}\r\nConnection: close\r\n\r\n{html}",
                        html.len()
                    );
                    let _ = stream.write_all(response.as_bytes()).await;
                    let _ = stream.shutdown().await;
                });
            }
        });
        ForeignSite {
            url: format!("http://{addr}/"),
            task,
        }
    }
}

impl Drop for ForeignSite {
    fn drop(&mut self) {
        self.task.abort();
    }
}
