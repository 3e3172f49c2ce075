//! Rated play on the wire before accounts: every connection is a guest, and a guest can never
//! play rated (issue 31, "Hostile"). Refused with `members_only`, nothing created.

mod common;

use boardcast_protocol::*;
use common::{TestServer, temp_db};

#[tokio::test]
async fn a_guest_is_refused_a_rated_match_and_play_now_and_nothing_is_created() {
    let (dir, db) = temp_db();
    let server = TestServer::start_with(boardcast_server::Config::for_tests(db)).await;
    let mut guest = server.client("Guest").await;
    let id = guest
        .send(ClientMessage::CreateMatch(CreateMatch {
            time_control: Some(PoolPreset::FivePlusThree.time_control()),
            color: ColorChoice::Random,
            public: true,
            rated: true,
            rating_range: Some(200),
        }))
        .await;
    assert_eq!(guest.expect_error(id).await.code, ErrorCode::MembersOnly);

    let id = guest
        .send(ClientMessage::PlayNow(PlayNow {
            preset: PoolPreset::ThreePlusTwo,
        }))
        .await;
    assert_eq!(guest.expect_error(id).await.code, ErrorCode::MembersOnly);
    let id = guest.send(ClientMessage::CancelPlayNow).await;
    guest.expect_ack(id).await;

    // No seek was opened by the refused rated create.
    guest.send(ClientMessage::ListLobby).await;
    let lobby = guest
        .recv_until(|msg| match msg {
            ServerMessage::Lobby(lobby) => Some(lobby.clone()),
            _ => None,
        })
        .await;
    assert!(lobby.seeks.is_empty(), "{:?}", lobby.seeks);
    // A casual match is still open to the guest.
    guest.create(None, ColorChoice::White, true).await;
    server.stop().await;
    drop(dir);
}
