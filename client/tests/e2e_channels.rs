//! End to end with MinitChess channels on the real server: a `--plain` client watches TV
//! channel 1, predicts a coming ply and gets its verdict, then starts an on-demand engine
//! game from a module's serial and engines and follows it.

mod common;

use boardcast_server::{Config, Server};
use clap::Parser;

use common::Plain;

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn plain_client_predicts_on_tv_and_starts_an_engine_game() {
    let dir = tempfile::tempdir().unwrap();
    let mut config = Config::for_tests(dir.path().join("boardcast.db"));
    let flags = Config::parse_from([
        "boardcast-server",
        "--channels",
        "1",
        "--ply-interval",
        "700ms",
        "--game-pause",
        "1s",
    ]);
    config.channels = flags.channels;
    config.ply_interval = flags.ply_interval;
    config.game_pause = flags.game_pause;
    let server = Server::start(config).await.expect("the server starts");
    let url = format!("ws://{}/ws", server.local_addr());
    let data = dir.path().join("d");

    tokio::task::spawn_blocking(move || {
        let data = data.to_str().unwrap();
        let mut dee = Plain::start(&[
            "--server",
            &url,
            "--name",
            "dee",
            "--data-dir",
            data,
            "predict",
            "tv1",
        ]);
        let game = dee.expect_any(&["game tv1 ", "gameover tv1 "]);
        assert!(game.starts_with("game tv1 ") || game.starts_with("gameover tv1 "));
        // Guess a legal move until one lands before its reveal (a reveal may overtake a
        // guess); an illegal one is refused before it is sent.
        dee.send("predict a2-a4");
        let refused = dee.expect("error ");
        assert!(
            refused.starts_with("error illegal_prediction: a2-a4 is not a legal move"),
            "{refused}"
        );
        let mut guess = String::new();
        let verdict = (0..20)
            .find_map(|_| {
                dee.send("legal");
                let legal = dee.expect("legal");
                guess = legal.split(' ').nth(1).unwrap_or("a2-a3").to_owned();
                dee.send(&format!("predict {guess}"));
                let line = dee.expect_any(&["predicted tv1 ", "error "]);
                if line.starts_with("error ") {
                    // Too late for that ply, or between games: try the next one a bit later.
                    std::thread::sleep(std::time::Duration::from_millis(300));
                }
                line.starts_with("predicted").then_some(line)
            })
            .expect("a guess is judged");
        let words: Vec<&str> = verdict.split(' ').collect();
        assert_eq!(words[3], guess, "{verdict}");
        assert!(["correct", "wrong"].contains(&words[4]), "{verdict}");
        assert_eq!(
            (words[5], words[7], words[9]),
            ("actual", "score", "strikes")
        );
        // The reveal that judged the guess was printed as a ply line first.
        let ply = format!("ply tv1 {} {}", words[2], words[6]);
        assert!(dee.seen.contains(&ply), "{ply} in {:#?}", dee.seen);

        dee.send("engine CH3SS5 L4 K7");
        // A TV game starting in the same instant may still be announced; skip it.
        let line = (0..3)
            .map(|_| dee.expect_any(&["game ", "error "]))
            .find(|line| !line.starts_with("game tv1 "))
            .expect("the engine game is announced");
        assert!(line.contains(" CH3SS5 L4 K7 move "), "{line}");
        dee.expect("ply ");
        dee.quit();
    })
    .await
    .unwrap();
    server.shutdown().await.unwrap();
}
