/**
 * The match page: board, both players with presence and clocks, the move list, the move
 * box, offers and the result. Built once per match page, then updated from the state.
 * @module render/match
 */

import { h, text, attr, cls, show, list, botTag, linkTo, linkSlot, pageHeading } from './dom.js';
import { mountBoard } from './board.js';
import { clockView } from './clock.js';
import { parseFen, replay, piecesFen } from '../fen.js';
import { resultText, resultKind, ratingChangesText, timeControlText, seconds, playerText, sideTitle, sideWord } from '../format.js';
import { t, withPageWords } from '../i18n.js';
import * as actions from '../actions.js';
import { opposite } from '../state.js';
import { graceLeft } from '../receive.js';
import { profilePath } from '../account.js';

/** Presence in words too, not by the dot's colour alone (`presence-*`). */
const presenceText = (presence) => (presence === 'empty' ? '' : t(`presence-${presence}`));

function playerRow(slot) {
  const dot = h('span', { class: 'presence-dot', 'aria-hidden': 'true' });
  const tag = botTag();
  // A long name gives way (ellipsis, whole in its title; on a phone it wraps); the colour
  // and presence never do.
  const name = h('span', { class: 'name' });
  // A guest is marked, so nobody passes for the member of the same name; a member's name
  // links to their profile.
  const guest = h('span', { class: 'guest', hidden: true }, t('player-guest'));
  const you = h('span', { class: 'guest' });
  const colour = h('span', { class: 'colour' });
  const state = h('span', { class: 'presence-text' });
  // Connection quality: four bars, filled by the round trip (ours from our pings, the
  // opponent's as the server counted it for their last move).
  const signal = h('span', { class: 'signal', role: 'img', 'data-bars': '0', hidden: true },
    h('i'), h('i'), h('i'), h('i'));
  const presence = h('span', { class: 'player', 'data-presence': 'white', 'data-state': 'empty' }, dot, tag, name, guest, you, colour, state, signal);
  const clock = h('time', { class: 'clock', 'data-clock': 'white', role: 'timer', 'aria-live': 'off', 'aria-label': t('match-clock') });
  return { row: h('div', { class: `player-row ${slot}` }, presence, clock), presence, tag, name, guest, you, colour, state, signal, clock, shown: '' };
}

const button = (action, label, extra = {}) =>
  h('button', { type: 'button', 'data-action': action, ...extra }, label);

export function mountMatch(root) {
  const board = mountBoard();
  const boardBox = h('div', { class: 'board-box' }, board.svg);
  const top = playerRow('upper');
  const bottom = playerRow('lower');
  const status = h('p', { id: 'status', class: 'status', role: 'status', 'aria-live': 'polite' });
  // Read by screen readers when it appears, not every second as it counts down.
  const firstMove = h('p', { id: 'first-move', class: 'first-move', role: 'timer', 'aria-live': 'off' });
  const inviteLink = h('a', { id: 'invite-link' });
  const inviteSlot = linkSlot();
  const invite = h('div', { id: 'invite', class: 'invite' },
    h('span', {}, `${t('match-invite')} `), inviteSlot, ' ', button('copy-invite', t('match-copy-link')));
  const result = h('div', { id: 'result', class: 'result', role: 'status', hidden: true });
  // A rated game's new ratings, under its result.
  const ratings = h('p', { id: 'result-ratings', class: 'result-ratings', hidden: true });
  const chooser = h('div', { id: 'chooser', class: 'chooser', role: 'group', 'aria-label': t('match-choose-route') });
  const input = h('input', {
    id: 'move-input', name: 'move', autocomplete: 'off', spellcheck: 'false', inputmode: 'text',
    placeholder: t('match-move-placeholder'), 'aria-describedby': 'notice',
  });
  const moveForm = h('form', { id: 'move-form', class: 'move-form' },
    h('label', { for: 'move-input' }, t('match-move')), input, h('button', { type: 'submit' }, t('match-play')));
  const notice = h('p', { id: 'notice', class: 'notice', role: 'alert' });
  const why = h('a', { id: 'why' }, t('notice-why'));
  const moves = h('ol', { id: 'moves', class: 'moves', 'aria-label': t('match-moves') });
  const nav = h('div', { class: 'moves-nav', role: 'group', 'aria-label': t('match-step') },
    button('first', '«', { 'aria-label': t('match-first'), title: `${t('match-first')} (Home)` }),
    button('prev', '‹', { 'aria-label': t('match-prev'), title: `${t('match-prev')} (←)` }),
    button('next', '›', { 'aria-label': t('match-next'), title: `${t('match-next')} (→)` }),
    button('last', '»', { 'aria-label': t('match-last'), title: `${t('match-last')} (End)` }));
  const claim = h('p', { id: 'claim', class: 'claim' });
  const acts = {
    abort: button('abort', t('match-abort')),
    offerDraw: button('offer-draw', t('match-offer-draw')),
    accept: button('accept-draw', t('match-accept-draw')),
    decline: button('decline-draw', t('match-decline-draw')),
    resign: button('resign', t('match-resign')),
    moreTime: button('more-time', t('match-more-time')),
    confirm: button('confirm', t('match-confirm-resign'), { class: 'danger' }),
    cancel: button('cancel', t('match-cancel')),
    claimWin: button('claim-win', t('match-claim-win')),
    claimDraw: button('claim-draw', t('match-claim-draw')),
    rematch: button('rematch', t('match-rematch')),
    acceptRematch: button('accept-rematch', t('match-accept-rematch')),
    declineRematch: button('decline-rematch', t('match-decline-rematch')),
  };
  const toRematch = h('a', { class: 'button' }, t('match-to-rematch'));
  const rematchSlot = linkSlot();
  const offer = h('p', { class: 'offer', role: 'status' });
  const spectators = h('span', { id: 'spectators' }, '0');
  const tc = h('span', { class: 'tc' });
  const pdn = h('a', { 'data-action': 'download-pdn', class: 'button', download: '' }, t('match-download-pdn'));
  const pdnSlot = linkSlot();
  const tools = h('div', { class: 'tools', role: 'group', 'aria-label': t('match-tools') },
    button('flip', t('match-flip'), { title: `${t('match-flip')} (f)` }),
    button('numbers', t('match-numbers'), { 'aria-pressed': 'false' }),
    button('copy-fen', t('match-copy-fen')), pdnSlot,
    button('no-more-time', t('match-refuse-more-time'), { 'aria-pressed': 'false' }));
  // The chat (render/chat.js) loads when the reader opens it, so the match page's first
  // download (its 160 KB budget) does not carry it; until then the button counts the lines.
  const chatPanel = h('section', { id: 'chat', class: 'chat', hidden: true });
  const chatOpen = h('button', { type: 'button', id: 'chat-open', hidden: true });
  let chat = null;
  let chatLoading = false;
  /** Parts some seats need, loaded on first use (berserk, takebacks, premoves). */
  const parts = {};
  chatOpen.addEventListener('click', () => {
    if (chatLoading || chat) return;
    chatLoading = true;
    chatOpen.disabled = true;
    withPageWords(import('./chat.js')).then((module) => { chat = module.mountChat(chatPanel); }, (error) => {
      console.error('page module failed to load:', error);
      chat = () => {};
    }).finally(() => { chatLoading = false; });
  });
  const side = h('aside', { class: 'side' },
    status, firstMove, invite, result, ratings, offer, h('div', { class: 'actions', role: 'group', 'aria-label': t('match-actions') },
      ...Object.values(acts), rematchSlot), claim, chooser, moveForm, notice, why, nav, moves,
    h('p', { class: 'meta' }, tc, ` · ${t('match-watching')} `, spectators), tools, chatOpen, chatPanel);
  root.replaceChildren(h('section', { class: 'match-page' }, pageHeading(t('match-heading')),
    h('div', { class: 'board-col' }, top.row, boardBox, bottom.row), side));

  /** The list and shown ply the move list was last scrolled for. */
  let scrolledFor = '';

  return function update(state, now) {
    const m = state.match;
    const seat = state.seat;
    const mine = seat ? seat.side : null;
    const flipped = (mine === 'black') !== state.ui.flip;
    const elapsed = now - state.matchAt;
    text(notice, state.notice.text);
    attr(notice, 'data-code', state.notice.code || null);
    // A refused move links to the rule that explains it (pages/rules.js).
    const rule = state.notice.code === 'illegal_move' && state.notice.reason;
    show(why, rule);
    attr(why, 'href', `/rules#${rule || ''}`);
    if (!m) {
      text(status, t(state.conn === 'online' ? 'match-loading' : 'match-connecting'));
      board.update(emptyBoard(flipped));
      for (const el of [firstMove, invite, result, ratings, claim, chooser, moveForm, ...Object.values(acts)]) show(el, false);
      linkTo(inviteSlot, inviteLink, null);
      linkTo(rematchSlot, toRematch, null);
      linkTo(pdnSlot, pdn, null);
      return false;
    }
    // Players: the viewer's side at the bottom.
    const bottomSide = flipped ? 'black' : 'white';
    for (const [row, side] of [[bottom, bottomSide], [top, opposite(bottomSide)]]) {
      const p = m[side];
      const presence = !p ? 'empty' : p.connected ? 'connected' : 'gone';
      attr(row.presence, 'data-presence', side);
      attr(row.presence, 'data-state', presence);
      attr(row.presence, 'title', t(!p ? 'presence-free' : p.connected ? 'presence-connected-title' : 'presence-gone'));
      show(row.tag, Boolean(p && p.bot));
      const shown = p ? `${p.account ? 'member' : 'guest'}:${p.name}` : `empty:${side}`;
      if (row.shown !== shown) {
        row.shown = shown;
        if (p && p.account) row.name.replaceChildren(h('a', { href: profilePath(p.name) }, p.name));
        else text(row.name, p ? p.name : t('match-waiting-for', { side: sideWord(side) }));
      }
      show(row.guest, Boolean(p && !p.account));
      text(row.you, p && side === mine ? t('match-you') : '');
      attr(row.name, 'title', p ? p.name : null);
      text(row.colour, p ? `· ${sideWord(side)}` : '');
      text(row.state, presenceText(presence));
      const lag = side === mine ? state.lag.rtt : m.lag[side];
      show(row.signal, Boolean(p) && lag !== null);
      if (lag !== null) {
        attr(row.signal, 'data-bars', String(signalBars(lag)));
        attr(row.signal, 'aria-label', t('match-signal', { ms: Math.round(lag) }));
        attr(row.signal, 'title', t('match-signal-title', { ms: Math.round(lag) }));
      }
      const c = clockView(m, side, elapsed);
      attr(row.clock, 'data-clock', side);
      attr(row.clock, 'aria-label', t('match-clock-of', { side: sideWord(side) }));
      show(row.clock, Boolean(m.time_control));
      text(row.clock, c.text);
      cls(row.clock, 'running', c.running);
      cls(row.clock, 'low', c.low);
      cls(row.row, 'to-move', m.phase === 'playing' && m.turn === side);
    }
    // The position shown: the live one, or a past one while stepping through the list.
    const shownPly = state.ui.viewPly === null ? m.moves.length : state.ui.viewPly;
    const live = shownPly === m.moves.length;
    const pieces = live ? parseFen(m.fen).pieces : replay(m.start_fen, m.moves.slice(0, shownPly));
    const turn = live ? m.turn : shownPly === 0 ? parseFen(m.start_fen).turn : opposite(m.moves[shownPly - 1].side);
    const fen = state.fens[shownPly] || (shownPly === 0 ? m.start_fen : piecesFen(turn, pieces));
    const lastMove = shownPly > 0 ? m.moves[shownPly - 1] : null;
    const preview = state.ui.preview
      ? m.legal_moves.find((lm) => lm.route.join('x') === state.ui.preview.join('x'))
      : null;
    const counters = live
      ? ['white', 'black'].map((s) => m.king_counters[s]).filter(Boolean)
      : [];
    board.update({
      fen, pieces, flipped, numbers: state.ui.numbers, turn, v: m.v,
      dests: actions.destinations(state),
      selected: state.ui.hops,
      last: lastMove ? lastMove.route : [],
      captured: preview ? preview.captures : [],
      counters,
      movable: state.ui.hops.length ? new Set() : actions.movable(state),
      drag: state.ui.drag,
    });
    attr(board.svg, 'aria-label', t(live ? 'board-label' : 'board-label-past', { side: sideWord(turn), ply: shownPly }));
    // A player's board keeps touches for dragging; a watcher's scrolls the page.
    cls(boardBox, 'seated', Boolean(seat) && m.phase === 'playing');
    // Status line.
    text(status, statusText(m, mine, live, shownPly));
    // The first-move countdown: the server aborts the match when it reaches 0.
    const owed = m.phase === 'playing' && m.firstMove;
    const firstMoveLeft = owed ? Math.max(0, m.firstMove.ms - (now - m.firstMove.at)) : 0;
    show(firstMove, Boolean(owed));
    if (owed) {
      const left = minutesSeconds(seconds(firstMoveLeft));
      text(firstMove, m.turn === mine ? t('match-first-move-you', { left }) : t('match-first-move', { side: sideTitle(m.turn), left }));
      attr(firstMove, 'data-side', m.turn);
    }
    // Invite link while a seat is free.
    const free = m.phase === 'waiting' && seat;
    show(invite, Boolean(free));
    const inviteUrl = free ? `${location.origin}/i/${seat.invite_code}` : null;
    linkTo(inviteSlot, inviteLink, inviteUrl);
    if (inviteUrl) text(inviteLink, inviteUrl);
    // Result.
    show(result, Boolean(m.result));
    if (m.result) {
      attr(result, 'data-result', resultKind(m.result));
      text(result, resultText(m.result));
    }
    const newRatings = ratingChangesText(m.result);
    show(ratings, Boolean(newRatings));
    text(ratings, newRatings);
    // Offers and actions.
    const playing = m.phase === 'playing';
    const finished = m.phase === 'finished';
    const confirming = state.ui.confirm === 'resign';
    show(acts.abort, seat && !finished && m.moves.length < 2);
    show(acts.offerDraw, seat && playing && !m.draw_offer);
    show(acts.accept, seat && playing && m.draw_offer === opposite(mine));
    show(acts.decline, seat && playing && m.draw_offer === opposite(mine));
    show(acts.resign, seat && playing && !confirming);
    show(acts.moreTime, seat && playing && m.time_control && !m.refuses[opposite(mine)]);
    show(acts.confirm, seat && playing && confirming);
    show(acts.cancel, seat && playing && confirming);
    show(acts.rematch, seat && finished && !m.rematch && !m.rematch_offer);
    show(acts.acceptRematch, seat && finished && !m.rematch && m.rematch_offer === opposite(mine));
    show(acts.declineRematch, seat && finished && !m.rematch && m.rematch_offer === opposite(mine));
    linkTo(rematchSlot, toRematch, m.rematch ? `/m/${m.rematch}` : null);
    text(offer, offerText(m, mine));
    // Claiming when the opponent is gone, with its countdown.
    const gone = seat && playing ? m.absent.find((a) => a.side === opposite(mine)) : null;
    let ticking = Boolean(m.clock && m.clock.running && playing) || firstMoveLeft > 0;
    show(claim, Boolean(gone));
    const claimLeft = gone ? graceLeft(m, gone, now) : 0;
    // The grace stands still on our own turn (PROTOCOL.md §10).
    const paused = Boolean(gone) && m.turn !== gone.side;
    show(acts.claimWin, Boolean(gone));
    show(acts.claimDraw, Boolean(gone));
    attr(acts.claimWin, 'disabled', Boolean(gone) && claimLeft > 0);
    attr(acts.claimDraw, 'disabled', Boolean(gone) && claimLeft > 0);
    if (gone) {
      const who = m[gone.side] ? m[gone.side].name : sideTitle(gone.side);
      text(claim, claimLeft > 0
        ? t(paused ? 'match-left-claim-in-paused' : 'match-left-claim-in', { side: who, seconds: minutesSeconds(seconds(claimLeft)) })
        : t('match-gone-claim', { side: who }));
      attr(claim, 'data-paused', String(paused));
      ticking = ticking || (claimLeft > 0 && !paused);
    }
    // The route chooser.
    list(chooser, JSON.stringify(state.ui.choices), state.ui.choices, (route) => {
      const lm = m.legal_moves.find((x) => x.route.join('x') === route.join('x'));
      const taken = lm ? ` (${t('match-takes', { squares: lm.captures.join(', ') })})` : '';
      return h('button', { type: 'button', 'data-route': route.join('x') }, `${route.join('x')}${taken}`);
    });
    show(chooser, state.ui.choices.length > 0);
    // Move box.
    show(moveForm, Boolean(seat) && playing);
    // Move list.
    list(moves, `${m.match_id}:${m.moves.length}`, m.moves, (mv, i) =>
      h('li', { class: mv.side },
        h('button', { type: 'button', 'data-ply': i + 1, 'aria-label': `${Math.floor(mv.ply / 2) + 1}${mv.side === 'white' ? '.' : '…'} ${mv.notation}` }, mv.notation)));
    for (const li of moves.children) {
      const b = li.firstChild;
      cls(b, 'current', Number(b.dataset.ply) === shownPly);
    }
    const listed = `${m.match_id}:${m.moves.length}:${shownPly}`;
    if (listed !== scrolledFor) {
      keepInView(moves, moves.querySelector('.current'));
      scrolledFor = listed;
    }
    cls(nav, 'browsing', !live);
    text(tc, timeControlText(m.time_control));
    text(spectators, String(state.watchers));
    linkTo(pdnSlot, pdn, finished ? `/games/${m.match_id}.pdn` : null);
    attr(tools.querySelector('[data-action=numbers]'), 'aria-pressed', String(state.ui.numbers));
    const refuse = tools.querySelector('[data-action=no-more-time]');
    show(refuse, Boolean(seat && m.time_control));
    attr(refuse, 'aria-pressed', String(state.noMoreTime));
    document.title = titleText(m, mine);
    show(chatOpen, !chat);
    text(chatOpen, t('chat-open', { count: state.chat.lines.length }));
    show(chatPanel, Boolean(chatPanel.firstChild));
    if (chat) chat(state);
    for (const part of [m.berserk && 'berserk', m.takebacks && 'takeback', 'premove']) {
      if (seat && part) (parts[part] ||= withPageWords(import(`./${part}.js`))).then((p) => p.update(state, side));
    }
    return ticking || chatLoading;
  };
}

/**
 * Scrolls the move list (only the list, never the page) so that `current` is visible: the
 * game's last move as it is played, or the move stepped to. Without a current move (the
 * start position) the list goes back to its top.
 */
function keepInView(list, current) {
  if (!current) {
    list.scrollTop = 0;
    return;
  }
  const box = list.getBoundingClientRect();
  const item = current.getBoundingClientRect();
  if (item.top < box.top) list.scrollTop -= box.top - item.top;
  else if (item.bottom > box.bottom) list.scrollTop += item.bottom - box.bottom;
}

function emptyBoard(flipped) {
  return {
    fen: '', pieces: {}, flipped, numbers: false, turn: 'white', v: 0, dests: new Set(),
    selected: [], last: [], captured: [], counters: [], movable: new Set(), drag: null,
  };
}

/** Signal bars for a round trip, on the terminal's colour steps (150 and 400 ms). */
function signalBars(ms) {
  return ms < 150 ? 4 : ms < 300 ? 3 : ms < 400 ? 2 : 1;
}

/** Whole seconds as `m:ss` (`0:23`). */
function minutesSeconds(s) {
  return `${Math.floor(s / 60)}:${String(s % 60).padStart(2, '0')}`;
}

function statusText(m, mine, live, shownPly) {
  if (!live) return t('status-past', { ply: shownPly });
  const side = mine ? sideWord(mine) : '';
  if (m.phase === 'waiting') return mine ? t('status-waiting-you', { side }) : t('status-waiting');
  if (m.phase === 'finished') return t('status-over');
  if (mine) {
    const first = m.moves.length === 0 ? ` ${t('status-you-play', { side })}` : '';
    // Each side's first move is due promptly, or the server aborts the match.
    const due = m.moves.length < 2 && m.turn === mine ? ` ${t('status-first-move-due')}` : '';
    return m.turn === mine ? `${t('status-your-turn')}${first}${due}` : `${t('status-their-turn')}${first}`;
  }
  return t('status-to-move', { side: sideTitle(m.turn) });
}

function offerText(m, mine) {
  if (m.phase === 'playing' && m.draw_offer) {
    if (m.draw_offer === mine) return t('offer-draw-sent');
    return t('offer-draw', { side: sideTitle(m.draw_offer) });
  }
  if (m.phase === 'finished' && m.rematch) return t('offer-rematch-agreed');
  if (m.phase === 'finished' && m.rematch_offer) {
    return m.rematch_offer === mine ? t('offer-rematch-sent') : t('offer-rematch', { side: sideTitle(m.rematch_offer) });
  }
  return '';
}

function titleText(m, mine) {
  if (m.phase === 'finished') return `${t('status-over')} – Boardcast`;
  if (m.phase === 'playing' && mine) return `${t(m.turn === mine ? 'title-your-turn' : 'title-their-turn')} – Boardcast`;
  const names = `${m.white ? playerText(m.white) : '?'} v ${m.black ? playerText(m.black) : '?'}`;
  return `${names} – Boardcast`;
}
