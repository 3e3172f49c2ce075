//! Real headless Chromium for the browser tests, driven over WebDriver (Debian's `chromium` and
//! `chromium-driver`, through `fantoccini`).
//!
//! [`Driver::start_or_skip`] starts one `chromedriver` in its own process group; every
//! [`Browser`] is a WebDriver session of its own, that is a separate Chromium process with a fresh
//! temporary profile, so two players never share cookies or storage. Dropping the driver kills
//! the whole group (chromedriver and every Chromium it started), also when a test panics.
//!
//! Without Chromium a developer's `cargo test` prints a "skipped: install chromium" line and
//! passes; with `CI` set it fails, so CI can never go green without running them.

use std::net::{SocketAddr, TcpStream};
use std::os::unix::process::CommandExt;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use fantoccini::wd::WebDriverCompatibleCommand;
use fantoccini::{Client, ClientBuilder, Locator};
use hyper_util::client::legacy::connect::HttpConnector;
use serde_json::{Value, json};

/// How long a test waits for a page condition by default: generous, for a loaded machine.
pub const PATIENCE: Duration = Duration::from_secs(30);

/// How often a wait looks at the page again.
const POLL: Duration = Duration::from_millis(40);

/// The line a developer without a browser sees (and the fix).
pub const SKIP_LINE: &str =
    "skipped: install chromium (apt-get install -y chromium chromium-driver)";

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
    pub chromium: PathBuf,
    pub chromedriver: PathBuf,
}

impl Install {
    /// Finds Chromium and chromedriver (`BOARDCAST_CHROMIUM` and `BOARDCAST_CHROMEDRIVER`
    /// override the search), or says what is missing.
    pub fn find() -> Result<Install, String> {
        let chromium = find_program("BOARDCAST_CHROMIUM", &["chromium", "chromium-browser"])
            .ok_or("no chromium on PATH")?;
        let chromedriver = find_program("BOARDCAST_CHROMEDRIVER", &["chromedriver"])
            .ok_or("no chromedriver on PATH (Debian package chromium-driver)")?;
        Ok(Install {
            chromium,
            chromedriver,
        })
    }
}

fn find_program(env: &str, names: &[&str]) -> Option<PathBuf> {
    if let Some(path) = std::env::var_os(env) {
        return Some(PathBuf::from(path)).filter(|path| path.is_file());
    }
    let path = std::env::var_os("PATH")?;
    std::env::split_paths(&path)
        .flat_map(|dir| names.iter().map(move |name| dir.join(name)))
        .find(|candidate| candidate.is_file())
}

/// Whether this run is CI's (`CI` set to anything but `false` or `0`).
pub fn in_ci() -> bool {
    std::env::var("CI").is_ok_and(|value| !value.is_empty() && value != "false" && value != "0")
}

/// One at a time: each browser test starts two or three Chromiums, which is all two cores
/// can take.
static ONE_AT_A_TIME: tokio::sync::Mutex<()> = tokio::sync::Mutex::const_new(());

/// A running chromedriver (and every Chromium it started), killed on drop.
pub struct Driver {
    child: Child,
    url: String,
    install: Install,
    /// `TMPDIR` of chromedriver and its browsers (Chromium leaves singleton directories
    /// there when it is killed); removed after the group is gone.
    tmp: tempfile::TempDir,
    _turn: tokio::sync::MutexGuard<'static, ()>,
}

impl Driver {
    /// Starts chromedriver, or returns `None` after printing [`SKIP_LINE`] when Chromium is not
    /// installed on a developer's machine. In CI a missing browser fails the test.
    pub async fn start_or_skip(test: &str) -> Option<Driver> {
        let install = match Install::find() {
            Ok(install) => install,
            Err(missing) if in_ci() => {
                panic!("{test}: the browser tests must run in CI but cannot: {missing}")
            }
            Err(missing) => {
                // Straight to stderr, past the test harness's capture, so that a passing
                // `cargo test` still shows it.
                use std::io::Write;
                let _ = writeln!(std::io::stderr(), "{test}: {SKIP_LINE} ({missing})");
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
        let addr = crate::free_addr();
        let tmp = tempfile::tempdir()?;
        let child = Command::new(&install.chromedriver)
            .env("TMPDIR", tmp.path())
            .arg(format!("--port={}", addr.port()))
            .arg("--allowed-ips=127.0.0.1")
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            // Its own process group, so that drop can end it with every browser it started.
            .process_group(0)
            .spawn()?;
        let mut driver = Driver {
            child,
            url: format!("http://{addr}"),
            install,
            tmp,
            _turn: turn,
        };
        wait_listening(&mut driver.child, addr, "chromedriver")?;
        Ok(driver)
    }

    /// Opens a new browser (its own Chromium, its own empty profile) with a `width`×`height`
    /// viewport, pointed at `server`.
    pub async fn browser(&self, server: SocketAddr, width: u32, height: u32) -> Browser {
        let profile = tempfile::tempdir_in(self.tmp.path()).expect("a temporary profile directory");
        let mut args: Vec<String> = CHROMIUM_FLAGS
            .iter()
            .map(|flag| (*flag).to_owned())
            .collect();
        args.push(format!("--user-data-dir={}", profile.path().display()));
        args.push(format!("--window-size={width},{height}"));
        let capabilities = json!({
            "browserName": "chrome",
            "goog:chromeOptions": {
                "binary": self.install.chromium,
                "args": args,
            },
        });
        let Value::Object(capabilities) = capabilities else {
            unreachable!("capabilities are an object")
        };
        let client = ClientBuilder::new(HttpConnector::new())
            .capabilities(capabilities)
            .connect(&self.url)
            .await
            .unwrap_or_else(|err| panic!("chromedriver could not start Chromium: {err}"));
        let browser = Browser {
            client,
            base: format!("http://{server}"),
            _profile: profile,
        };
        browser.set_viewport(width, height).await;
        browser
    }
}

impl Drop for Driver {
    fn drop(&mut self) {
        // The group is chromedriver's own (process_group(0) above): it and its browsers.
        let group = self.child.id() as libc::pid_t;
        // SAFETY: kill(2) with a negative pid signals the process group we created.
        unsafe {
            libc::kill(-group, libc::SIGKILL);
        }
        let _ = self.child.wait();
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

/// One browser (a WebDriver session: its own Chromium and profile) looking at the server.
pub struct Browser {
    pub client: Client,
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
                let dir = screenshot_dir().join("failures");
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
            let outcome = match self.client.find(Locator::Css(css)).await {
                Ok(element) => element.click().await,
                Err(err) => Err(err),
            };
            match outcome {
                Ok(()) => return,
                // Re-rendered under us or briefly covered: look again.
                Err(_) if Instant::now() < deadline => tokio::time::sleep(POLL).await,
                Err(err) => panic!("clicking {css}: {err}"),
            }
        }
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
        let element = self
            .client
            .find(Locator::Css(css))
            .await
            .unwrap_or_else(|err| panic!("finding {css}: {err}"));
        element.clear().await.expect("clearing the field");
        element
            .send_keys(text)
            .await
            .unwrap_or_else(|err| panic!("typing into {css}: {err}"));
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

    /// Sends a DevTools command to this browser (through chromedriver).
    pub async fn cdp(&self, command: &str, params: Value) -> Value {
        self.client
            .issue_cmd(Cdp {
                command: command.to_owned(),
                params,
            })
            .await
            .unwrap_or_else(|err| panic!("DevTools {command}: {err}"))
    }

    /// Sets the page's viewport (CSS pixels), as a phone or a desktop window would have it.
    pub async fn set_viewport(&self, width: u32, height: u32) {
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

    /// Runs `source` in every page before the page's own scripts (for measurements).
    pub async fn on_new_document(&self, source: &str) {
        self.cdp(
            "Page.addScriptToEvaluateOnNewDocument",
            json!({ "source": source }),
        )
        .await;
    }

    /// Writes a PNG of the viewport to `path` (creating its directory).
    pub async fn screenshot(&self, path: &Path) {
        let png = self.client.screenshot().await.expect("a screenshot");
        if let Some(dir) = path.parent() {
            std::fs::create_dir_all(dir).expect("the screenshot directory");
        }
        std::fs::write(path, png).expect("writing the screenshot");
    }

    /// Ends the session (and its Chromium).
    pub async fn close(self) {
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

/// Where screenshots go: `target/screenshots/` (or under `CARGO_TARGET_DIR`).
pub fn screenshot_dir() -> PathBuf {
    let target = std::env::var_os("CARGO_TARGET_DIR")
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../target"));
    target.join("screenshots")
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
