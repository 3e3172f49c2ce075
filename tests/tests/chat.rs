//! Match chat end to end on the real server binary (issue 32, PROTOCOL.md §19): the players'
//! and the spectators' rooms never read each other, lines are replayed to whoever comes (back)
//! — after a restart too — and hostile chat (floods, 10 KB lines, control characters, a guest
//! typing, a muted member) reaches nobody.

use std::io::Write;
use std::path::Path;
use std::process::{Command, Stdio};
use std::time::Duration;

use boardcast_protocol::{
    Chat, ChatDelete, ChatLine, ChatMute, ChatPreset, ChatRoom, ChatSay, ClientMessage,
    ColorChoice, Encoding, ErrorCode, Reclaim, ServerMessage,
};
use boardcast_tests::TestServer;
use boardcast_tests::client::{Client, ClientError, ConnectOptions};

fn server_program() -> &'static Path {
    Path::new(env!("CARGO_BIN_EXE_boardcast-server-e2e"))
}

const PASSWORD: &str = "Tulpen-in-Dokkum-1921";

/// `boardcast-server --db DB admin ARGS` with `stdin`; its standard output.
fn admin(server: &TestServer, args: &[&str], stdin: &str) -> String {
    let mut child = Command::new(server_program())
        .args(["--db", server.db().to_str().unwrap(), "admin"])
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    child
        .stdin
        .take()
        .unwrap()
        .write_all(stdin.as_bytes())
        .unwrap();
    let out = child.wait_with_output().unwrap();
    assert!(
        out.status.success(),
        "admin {args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8_lossy(&out.stdout).trim().to_owned()
}

/// A member `name` (an admin with `admin`) and a token to connect as them.
fn member(server: &TestServer, name: &str, admin_role: bool) -> String {
    let mut args = vec!["create-user", name];
    if admin_role {
        args.push("--admin");
    }
    admin(server, &args, &format!("{PASSWORD}\n"));
    admin(server, &["create-token", name, "--scope", "play"], "")
}

async fn connect_as(server: &TestServer, token: &str) -> Client {
    let options =
        ConnectOptions::encoding(Encoding::Json).header("Authorization", format!("Bearer {token}"));
    Client::connect_with(server.addr(), Encoding::Json, &options)
        .await
        .expect("connect as a member")
}

async fn guest(server: &TestServer, name: &str) -> Client {
    let mut client = Client::connect(server.addr(), Encoding::Json)
        .await
        .expect("connect");
    client.hello(name).await.expect("hello");
    client
}

async fn say(client: &mut Client, match_id: &str, say: ChatSay) -> Result<(), ErrorCode> {
    let id = client
        .send(ClientMessage::Chat(Chat {
            match_id: match_id.into(),
            say,
        }))
        .await
        .expect("send");
    match client.expect_ack(id).await {
        Ok(_) => Ok(()),
        Err(ClientError::Refused(reply)) => Err(reply.code),
        Err(err) => panic!("chat: {err}"),
    }
}

fn text(line: &str) -> ChatSay {
    ChatSay::Text(line.into())
}

async fn next_line(client: &mut Client) -> ChatLine {
    client
        .wait_for("a chat line", |message| match message {
            ServerMessage::ChatLine(line) => Some(line.clone()),
            _ => None,
        })
        .await
        .expect("a chat line")
}

/// The chat lines `client` has been sent so far: a ping's pong comes after everything sent
/// to it before, so whatever is not here by then never came.
async fn lines_so_far(client: &mut Client) -> Vec<ChatLine> {
    client.ping().await.expect("ping");
    let mut lines = Vec::new();
    while let Ok(message) = client.recv(Duration::from_millis(1)).await {
        if let ServerMessage::ChatLine(line) = message {
            lines.push(line);
        }
    }
    lines
}

async fn history(client: &mut Client) -> (ChatRoom, Vec<String>) {
    client
        .wait_for("a chat history", |message| match message {
            ServerMessage::ChatHistory(history) => Some((
                history.room,
                history.lines.iter().map(|line| said(&line.say)).collect(),
            )),
            _ => None,
        })
        .await
        .expect("a chat history")
}

fn said(say: &ChatSay) -> String {
    match say {
        ChatSay::Text(text) => text.clone(),
        ChatSay::Preset(preset) => preset.text().to_owned(),
    }
}

#[tokio::test(flavor = "multi_thread")]
async fn players_and_spectators_chat_apart_and_each_room_is_replayed_to_who_comes_back() {
    let mut server = TestServer::start(server_program(), &["--log", "error"]);
    let anne_token = member(&server, "anne", false);
    let wytze_token = member(&server, "wytze", false);

    let mut anne = connect_as(&server, &anne_token).await;
    let seat = anne
        .create_match(ColorChoice::White, true, None)
        .await
        .expect("create");
    let match_id = seat.match_id.clone();
    let mut bob = guest(&server, "Bob").await;
    bob.join_match(&match_id).await.expect("join");
    let mut wytze = connect_as(&server, &wytze_token).await;
    wytze.watch_match(&match_id).await.expect("watch");
    let mut carla = guest(&server, "Carla").await;
    carla.watch_match(&match_id).await.expect("watch");

    // A player speaks to the players only: trimmed, numbered, with a member's name.
    say(&mut anne, &match_id, text("  good luck!  "))
        .await
        .unwrap();
    let line = next_line(&mut bob).await;
    assert_eq!(
        (
            line.room,
            line.author.as_str(),
            line.member,
            said(&line.say)
        ),
        (ChatRoom::Players, "anne", true, "good luck!".to_owned())
    );
    assert_eq!(
        next_line(&mut anne).await,
        line,
        "the author sees their own line"
    );
    // A guest picks a preset; free text is for members.
    assert_eq!(
        say(&mut bob, &match_id, text("hi")).await,
        Err(ErrorCode::MembersOnly)
    );
    say(&mut bob, &match_id, ChatSay::Preset(ChatPreset::HaveFun))
        .await
        .unwrap();
    // A spectator speaks to the spectators only.
    say(&mut wytze, &match_id, text("white is better"))
        .await
        .unwrap();
    say(&mut carla, &match_id, ChatSay::Preset(ChatPreset::Hello))
        .await
        .unwrap();

    let rooms = |lines: Vec<ChatLine>| -> Vec<(ChatRoom, String)> {
        lines
            .into_iter()
            .map(|line| (line.room, said(&line.say)))
            .collect()
    };
    let players = vec![(ChatRoom::Players, "Have fun".to_owned())];
    assert_eq!(rooms(lines_so_far(&mut anne).await), players);
    assert_eq!(rooms(lines_so_far(&mut bob).await), players);
    let spectators = vec![
        (ChatRoom::Spectators, "white is better".to_owned()),
        (ChatRoom::Spectators, "Hello".to_owned()),
    ];
    assert_eq!(rooms(lines_so_far(&mut wytze).await), spectators);
    assert_eq!(rooms(lines_so_far(&mut carla).await), spectators);

    // Whoever comes gets their own room's lines, and only those.
    let mut late = guest(&server, "Dirk").await;
    late.watch_match(&match_id).await.expect("watch");
    assert_eq!(
        history(&mut late).await,
        (
            ChatRoom::Spectators,
            vec!["white is better".to_owned(), "Hello".to_owned()]
        )
    );

    // After a restart, the player taking the seat back gets the players' room.
    drop((anne, bob, wytze, carla, late));
    server.process.terminate(Duration::from_secs(10)).unwrap();
    server.restart(server_program());
    let mut anne = connect_as(&server, &anne_token).await;
    let id = anne
        .send(ClientMessage::Reclaim(Reclaim {
            match_id: match_id.clone(),
            since_v: None,
        }))
        .await
        .unwrap();
    anne.expect_reply(id).await.expect("the seat back");
    assert_eq!(
        history(&mut anne).await,
        (
            ChatRoom::Players,
            vec!["good luck!".to_owned(), "Have fun".to_owned()]
        )
    );
}

#[tokio::test(flavor = "multi_thread")]
async fn floods_huge_lines_control_characters_and_muted_members_reach_nobody() {
    let server = TestServer::start(server_program(), &["--log", "error"]);
    let anne_token = member(&server, "anne", false);
    let mallory_token = member(&server, "mallory", false);
    let admin_token = member(&server, "admin1", true);

    let mut anne = connect_as(&server, &anne_token).await;
    let seat = anne
        .create_match(ColorChoice::White, true, None)
        .await
        .expect("create");
    let match_id = seat.match_id.clone();
    let mut mallory = connect_as(&server, &mallory_token).await;
    mallory.join_match(&match_id).await.expect("join");
    let mut watcher = guest(&server, "Carla").await;
    watcher.watch_match(&match_id).await.expect("watch");

    // A flood: a burst goes through, the rest is refused, and the connection stays open.
    let mut said_lines = 0;
    let mut too_fast = 0;
    let flooding = std::time::Instant::now();
    for n in 0..30 {
        match say(&mut mallory, &match_id, text(&format!("spam {n}"))).await {
            Ok(()) => said_lines += 1,
            Err(ErrorCode::ChatTooFast) => too_fast += 1,
            Err(code) => panic!("flood line {n}: {code:?}"),
        }
    }
    // 5 at once, then one per 2 s of the flood (however slow this machine is).
    let allowed = 5 + (flooding.elapsed().as_secs_f64() / 2.0).ceil() as usize;
    assert!(
        (5..=allowed).contains(&said_lines),
        "{said_lines} lines of a flood went through, {allowed} allowed"
    );
    assert_eq!(said_lines + too_fast, 30);
    let flood = lines_so_far(&mut anne).await;
    assert_eq!(
        flood.len(),
        said_lines,
        "the opponent saw only the lines that went through"
    );
    assert_eq!(lines_so_far(&mut mallory).await.len(), said_lines);
    assert!(
        lines_so_far(&mut watcher).await.is_empty(),
        "the players' lines stay theirs"
    );

    // Over 140 characters, or with a control character or a direction override: refused as
    // an invalid argument, and nobody sees it.
    let long = "x".repeat(141);
    for hostile in [
        long.as_str(),
        "fine\nanne resigned",
        "\u{1b}[2Jcleared",
        "a\u{202e}b",
    ] {
        assert_eq!(
            say(&mut anne, &match_id, text(hostile)).await,
            Err(ErrorCode::InvalidArgument),
            "{hostile:?}"
        );
    }
    assert!(lines_so_far(&mut mallory).await.is_empty());

    // A non-admin cannot moderate.
    let id = anne
        .send(ClientMessage::ChatMute(ChatMute {
            name: "mallory".into(),
            muted: true,
        }))
        .await
        .unwrap();
    assert_eq!(
        anne.expect_error(id, ErrorCode::NotAllowed)
            .await
            .unwrap()
            .code,
        ErrorCode::NotAllowed
    );

    // An admin deletes a line and mutes mallory server-wide: her lines are refused and never
    // reach anybody.
    let mut admin = connect_as(&server, &admin_token).await;
    admin.watch_match(&match_id).await.expect("watch");
    let id = admin
        .send(ClientMessage::ChatDelete(ChatDelete {
            match_id: match_id.clone(),
            line: flood[0].line,
        }))
        .await
        .unwrap();
    admin.expect_ack(id).await.expect("deleted");
    let deleted = anne
        .wait_for("chat_deleted", |message| match message {
            ServerMessage::ChatDeleted(deleted) => Some(deleted.line),
            _ => None,
        })
        .await
        .unwrap();
    assert_eq!(deleted, flood[0].line);
    let id = admin
        .send(ClientMessage::ChatMute(ChatMute {
            name: "mallory".into(),
            muted: true,
        }))
        .await
        .unwrap();
    admin.expect_ack(id).await.expect("muted");
    assert_eq!(
        say(
            &mut mallory,
            &match_id,
            ChatSay::Preset(ChatPreset::GoodGame)
        )
        .await,
        Err(ErrorCode::ChatMuted)
    );
    assert!(lines_so_far(&mut anne).await.is_empty());
    assert!(lines_so_far(&mut watcher).await.is_empty());
    // The deleted line is not replayed.
    let mut again = guest(&server, "Dirk").await;
    again.resume(&seat.token, None).await.expect("resume");
    let (room, replayed) = history(&mut again).await;
    assert_eq!(room, ChatRoom::Players);
    assert_eq!(replayed.len(), said_lines - 1);
    assert!(!replayed.contains(&said(&flood[0].say)));

    // A 10 KB line is over the message limit: refused `too_large` before it is parsed, and
    // nothing is said; the connection stays usable.
    let huge = ClientMessage::Chat(Chat {
        match_id: match_id.clone(),
        say: text(&"y".repeat(10 * 1024)),
    });
    anne.send(huge).await.unwrap();
    anne.expect_frame_error(ErrorCode::TooLarge)
        .await
        .expect("too_large");
    anne.ping().await.expect("still usable");
    assert!(lines_so_far(&mut watcher).await.is_empty());
    assert!(lines_so_far(&mut mallory).await.is_empty());
}
