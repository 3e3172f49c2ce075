//! A bare postcard WebSocket client for the examples, which drive the real server in process
//! as fast as they can (no per-message timeouts, panics on any surprise).

use boardcast_protocol::*;
use futures_util::{SinkExt, StreamExt};
use tokio_tungstenite::tungstenite::Message;
use tokio_tungstenite::tungstenite::client::IntoClientRequest;
use tokio_tungstenite::tungstenite::http::HeaderValue;

pub type Ws =
    tokio_tungstenite::WebSocketStream<tokio_tungstenite::MaybeTlsStream<tokio::net::TcpStream>>;

pub async fn connect(addr: std::net::SocketAddr) -> Ws {
    let mut request = format!("ws://{addr}/ws").into_client_request().unwrap();
    request.headers_mut().insert(
        "Sec-WebSocket-Protocol",
        HeaderValue::from_static("boardcast.v1.postcard"),
    );
    tokio_tungstenite::connect_async(request).await.unwrap().0
}

pub async fn send(ws: &mut Ws, id: u64, msg: ClientMessage) {
    let Frame::Binary(bytes) = Encoding::Postcard.encode(&ClientEnvelope { id, msg }) else {
        unreachable!("postcard is binary")
    };
    ws.send(Message::binary(bytes)).await.unwrap();
}

/// Reads until `pick` accepts a message.
pub async fn until<T>(ws: &mut Ws, mut pick: impl FnMut(ServerMessage) -> Option<T>) -> T {
    loop {
        let frame = ws.next().await.unwrap().unwrap();
        if let Message::Binary(bytes) = frame {
            let message = Encoding::Postcard
                .decode_server(FrameRef::Binary(&bytes))
                .unwrap();
            if let Some(found) = pick(message) {
                return found;
            }
        }
    }
}
