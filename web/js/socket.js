/**
 * The only WebSocket code: one connection speaking `boardcast.v1.json`, reopened with
 * backoff (0.25 s doubling to 10 s) whenever it drops. Its only outputs are the four events
 * `connected`, `message`, `garbled` and `disconnected`; it knows nothing of the page.
 * @module socket
 */

const SUBPROTOCOL = 'boardcast.v1.json';
const FIRST_DELAY_MS = 250;
const MAX_DELAY_MS = 10000;

/**
 * @typedef {{type: 'connected'}|{type: 'message', msg: any}|{type: 'garbled', text: string}|
 *   {type: 'disconnected', code: number, reason: string}} SocketEvent
 */

/**
 * Opens `url` and keeps it open.
 * @param {string} url
 * @param {(event: SocketEvent) => void} emit
 */
export function connect(url, emit) {
  let ws = null;
  let delay = FIRST_DELAY_MS;
  let timer = 0;
  let closed = false;

  function open() {
    timer = 0;
    try {
      ws = new WebSocket(url, SUBPROTOCOL);
    } catch (err) {
      emit({ type: 'disconnected', code: 0, reason: String(err) });
      later(delay);
      return;
    }
    ws.onopen = () => {
      delay = FIRST_DELAY_MS;
      emit({ type: 'connected' });
    };
    ws.onmessage = (event) => {
      let msg;
      try {
        msg = JSON.parse(event.data);
      } catch {
        emit({ type: 'garbled', text: String(event.data).slice(0, 200) });
        return;
      }
      emit({ type: 'message', msg });
    };
    ws.onclose = (event) => {
      ws = null;
      emit({ type: 'disconnected', code: event.code, reason: event.reason });
      if (!closed) later(delay);
      delay = Math.min(MAX_DELAY_MS, delay * 2);
    };
  }

  function later(ms) {
    if (!timer && !closed) timer = setTimeout(open, ms);
  }

  open();
  return {
    /** Sends one envelope; false when not connected (main.js keeps it for later: actions.unsent). */
    send(envelope) {
      if (!ws || ws.readyState !== WebSocket.OPEN) return false;
      ws.send(JSON.stringify(envelope));
      return true;
    },
    /** Reconnects after `ms` (the server's `shutdown` says when). */
    reconnectAfter(ms) {
      delay = Math.max(FIRST_DELAY_MS, Math.min(MAX_DELAY_MS * 6, ms));
    },
    close() {
      closed = true;
      clearTimeout(timer);
      if (ws) ws.close(1000);
    },
  };
}
