//! One Hub engine as a child process: started with its command line, initialised (`hub`,
//! `set-param`, `init`), then spoken to line by line. Its output is read by a task into a
//! bounded channel; the last lines are kept to explain a failure.

use std::collections::VecDeque;
use std::process::Stdio;
use std::time::Duration;

use frisian_hub::{EngineId, EngineMessage, Line, ParamDecl, set_param_lines};
use tokio::io::{AsyncBufReadExt, AsyncWriteExt, BufReader};
use tokio::process::{Child, ChildStdin, Command};
use tokio::sync::mpsc;

/// How many of the engine's lines are kept for the log when it fails.
const TAIL: usize = 12;
/// How long an engine may take to answer `hub` and `init`.
const HANDSHAKE: Duration = Duration::from_secs(60);

pub struct Engine {
    child: Child,
    stdin: ChildStdin,
    lines: mpsc::Receiver<String>,
    tail: VecDeque<String>,
    pub id: EngineId,
    pub params: Vec<ParamDecl>,
}

impl Engine {
    /// Starts `command` (split into program and arguments as a POSIX shell splits words, so
    /// a path with spaces can be quoted), runs the initialisation phase and checks `params`
    /// against the engine's declarations.
    pub async fn start(command: &str, params: &[(String, String)]) -> Result<Engine, String> {
        let words = command_words(command)?;
        let (program, args) = words.split_first().ok_or("--hub needs a command")?;
        let mut child = Command::new(program)
            .args(args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .kill_on_drop(true)
            .spawn()
            .map_err(|e| format!("cannot start `{command}`: {e}"))?;
        let stdin = child.stdin.take().ok_or("no stdin")?;
        let stdout = child.stdout.take().ok_or("no stdout")?;
        let (tx, lines) = mpsc::channel(256);
        tokio::spawn(async move {
            let mut reader = BufReader::new(stdout).lines();
            while let Ok(Some(line)) = reader.next_line().await {
                if tx.send(line).await.is_err() {
                    break;
                }
            }
        });
        let mut engine = Engine {
            child,
            stdin,
            lines,
            tail: VecDeque::new(),
            id: EngineId::default(),
            params: Vec::new(),
        };
        engine.send(&Line::new("hub")).await?;
        loop {
            match engine.expect(HANDSHAKE, "wait").await? {
                EngineMessage::Id(id) => engine.id = id,
                EngineMessage::Param(decl) => engine.params.push(decl),
                EngineMessage::Wait => break,
                _ => {}
            }
        }
        for line in set_param_lines(&engine.params, params).map_err(|e| e.to_string())? {
            engine.send(&line).await?;
        }
        engine.send(&Line::new("init")).await?;
        while !matches!(
            engine.expect(HANDSHAKE, "ready").await?,
            EngineMessage::Ready
        ) {}
        Ok(engine)
    }

    async fn expect(&mut self, wait: Duration, what: &str) -> Result<EngineMessage, String> {
        loop {
            let line = tokio::time::timeout(wait, self.next_line())
                .await
                .map_err(|_| format!("no `{what}` within {}s{}", wait.as_secs(), self.tail()))?
                .ok_or_else(|| format!("the engine quit before `{what}`{}", self.tail()))?;
            // Lines that are not Hub lines are logged in the tail and otherwise skipped.
            if let Ok(message) = EngineMessage::parse(&line) {
                return Ok(message);
            }
        }
    }

    /// The next raw line, or `None` once the engine's output is closed (it exited).
    pub async fn next_line(&mut self) -> Option<String> {
        let line = self.lines.recv().await?;
        if self.tail.len() == TAIL {
            self.tail.pop_front();
        }
        self.tail.push_back(line.clone());
        Some(line)
    }

    pub async fn send(&mut self, line: &Line) -> Result<(), String> {
        let text = format!("{line}\n");
        self.stdin
            .write_all(text.as_bytes())
            .await
            .map_err(|e| format!("cannot write to the engine: {e}{}", self.tail()))
    }

    /// The engine's last lines, for a log message.
    pub fn tail(&self) -> String {
        if self.tail.is_empty() {
            return " (the engine printed nothing)".to_string();
        }
        let lines: Vec<&str> = self.tail.iter().map(String::as_str).collect();
        format!("; its last lines: {}", lines.join(" | "))
    }

    /// How the process ended, once its output has closed: a process that closes its output by
    /// exiting is reaped a moment after the last line, so it is given a second to end.
    pub async fn exit_status(&mut self) -> Option<String> {
        tokio::time::timeout(Duration::from_secs(1), self.child.wait())
            .await
            .ok()?
            .ok()
            .map(|s| s.to_string())
    }

    /// Asks the engine to quit, then makes sure it is gone.
    pub async fn stop(mut self) {
        let _ = self.send(&Line::new("quit")).await;
        if tokio::time::timeout(Duration::from_secs(2), self.child.wait())
            .await
            .is_err()
        {
            let _ = self.child.kill().await;
        }
    }
}

/// The program and arguments of `--hub`, split as a POSIX shell splits words: `"./scan hub"`,
/// `"'/opt/my engines/scan' hub"`. An unclosed quote is an error, not a guess.
fn command_words(command: &str) -> Result<Vec<String>, String> {
    shlex::split(command).ok_or_else(|| format!("--hub {command:?}: a quote is not closed"))
}

#[cfg(test)]
mod tests {
    use super::command_words;

    #[test]
    fn the_command_is_split_into_words_and_quotes_keep_spaces() {
        assert_eq!(command_words("./scan hub").unwrap(), ["./scan", "hub"]);
        assert_eq!(
            command_words("'/opt/my engines/scan' hub --threads 1").unwrap(),
            ["/opt/my engines/scan", "hub", "--threads", "1"]
        );
        assert_eq!(
            command_words(r#""C:\engines\scan" hub"#).unwrap(),
            [r"C:\engines\scan", "hub"]
        );
        assert!(command_words("").unwrap().is_empty());
    }

    #[test]
    fn an_unclosed_quote_is_refused_with_the_command() {
        assert_eq!(
            command_words("'/opt/scan hub").unwrap_err(),
            r#"--hub "'/opt/scan hub": a quote is not closed"#
        );
    }
}
