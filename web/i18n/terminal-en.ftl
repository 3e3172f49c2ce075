# The terminal client's own words (its help, home screen and forms), beside `en.ftl`, whose
# words both clients show: the terminal reads both files as one catalogue; the web page never
# fetches this one, so the match page does not carry them.
help-title = keys
help-close = any key closes
help-more = … { $count } more: a taller terminal shows them
help-home-switch = switch list: seeks, live matches, channels
help-home-select = select
help-home-join = join the seek / watch the match or channel
help-home-predict = predict the selected channel
help-home-new = new match: time control, colour, public or private
help-home-invite = join a private match by invite code
help-home-engine = start an engine game (serial, engines, seeds) and predict it
help-home-tv = watch TV channel 1
help-home-ftv = watch Frisian TV (the most-watched live match)
help-home-resume = resume the stored seat
help-home-refresh = refresh
help-home-quit = quit
help-match-type = type a move; Tab completes, Enter plays
help-match-cursor = move the cursor
help-match-pick = pick a piece, then its square (or a click)
help-match-route = choose the capture route (captures marked)
help-match-clear = clear the input and the selection
help-match-resign = resign (asks to confirm)
help-match-abort = abort, only before both sides have moved
help-match-draw = offer or accept a draw / decline
help-match-rematch = offer or accept a rematch / decline
help-match-claim = claim win / draw when the opponent is gone
help-match-step = step through the moves (End: the game)
help-match-view = numbers, flip board, letter pieces, bell
help-match-save = save the PDN (--save-pdn DIR, or here)
help-match-chat = chat (members type, guests pick); Tab: mute
help-match-back = back to the home screen (the seat is kept)
help-channel-cursor = move the cursor
help-channel-pick = pick the from square, then the to square (or a click)
help-channel-guess = type a guess for the coming ply
help-channel-predict = prediction on or off
help-channel-pieces = FULL (figurines) or FLAT (letters) pieces
help-channel-leaders = all-time prediction leaderboard, with your own place
help-channel-clear = clear the input and the picked square
help-channel-back = back to the home screen (or quit, started as `boardcast tv`)
home-hello = Boardcast — hello, { $name }
home-stored-seat = stored seat: { $match } as { $side } — R resumes it
home-prompt-keys = Enter, Esc cancels
home-channels = TV and engine games
home-hint-list = Tab/←→ list
home-hint-select = ↑↓ select
home-hint-join = Enter join/watch
home-hint-predict = p predict
home-hint-new = c new match
home-hint-code = i join by code
home-hint-engine = e engine game
home-hint-tv = t TV
home-hint-ftv = f Frisian TV
home-hint-resume = R resume
home-hint-refresh = r refresh
home-hint-help = ? help
home-hint-quit = q quit
home-form-title = new match
home-form-time = time
home-form-colour = colour
home-form-seek = seek
home-form-custom = custom
home-form-public = public (listed as an open seek)
home-form-private = private (invite code only)
home-form-keys = ↑↓ choose  ←→ change  Enter create  Esc cancel
help-match-more-time = opponent +15 s / berserk (arena game)
help-match-takeback = propose or accept a takeback / decline
help-home-play-now = play now: a rated game against a member of close rating
home-hint-play-now = n play now
home-play-now-keys = ←→ or 1–5 time control  Enter play  Esc back
home-play-now-waiting-keys = Esc stops looking

## The bell turned off and on while playing (b).
## The bell turned off and on while playing (b; the keys overlay lists it with n f t).
bell-off = bell off (b turns it on again)
bell-on = bell on (b turns it off)
## `boardcast rules`: below each position's caption.
printed-rules-fen = Position (FEN): { $fen }
printed-rules-moves = Moves: { $moves }

## The prediction leaderboard overlay (`L` on the MinitChess screen).
leaderboard-title = prediction leaderboard
leaderboard-asking = asking the server…
leaderboard-empty = nobody has predicted yet
leaderboard-you-ranked = you: #{ $rank }  { $entry }
leaderboard-you-beyond = you: { $name } — not in the top { $top }
leaderboard-you-unranked = you: { $name } — not ranked yet
leaderboard-you = you: { $name }
leaderboard-this-game = this game: { $correct } correct, { $strikes } strikes
leaderboard-close = any key closes
mute-now = { $name } muted for you (/ Tab and the number again to hear them)
mute-undone = { $name } heard again
mute-hidden = lines of muted authors hidden: { $count }

## The match screen (client/src/ui/match_view.rs); `side` is `white` or `black`.
tui-free-seat = (free seat)
tui-you = (you)
tui-gone = gone
tui-berserk = berserk
tui-viewing = viewing { $move }
tui-viewing-start = viewing the start
tui-hint-step = < > step
tui-hint-end = End back to the game
tui-ftv = Frisian TV: the most-watched live match
tui-match-id = match { $id }
tui-spectators =
    { $count ->
        [one] { $count } spectator
       *[other] { $count } spectators
    }
tui-invite-code = invite code: { $code }
tui-pdn = PDN { $url } (s saves)
tui-offer-rematch-key = m offers a rematch
tui-waiting-opponent = waiting for an opponent
tui-your-move = your move
tui-opponents-move = your opponent's move
tui-to-move = { $side } to move
tui-must-move-you = you must move within { $time }
tui-must-move = { $side } must move within { $time }
tui-offer-draw-mine = you offered a draw (waiting)
tui-offer-draw-theirs = { $side } offers a draw ({ $accept } accept, { $decline } decline)
tui-offer-draw-told = { $side } offers a draw
tui-offer-rematch-mine = you offered a rematch (waiting)
tui-offer-rematch-theirs = { $side } offers a rematch ({ $accept } accept, { $decline } decline)
tui-offer-rematch-told = { $side } offers a rematch
tui-gone-aborts = { $side } is gone: c aborts the match
tui-gone-claim = { $side } is gone: claim now (c win, C draw)
tui-left-claim-in = { $name } left — you may claim in { $time }
tui-side-gone = { $side } is gone
tui-paused = (paused while it is your move)
tui-rematch-at = rematch: { $id } (m to go there)
tui-king-count = { $side } king on { $square }: { $count }/3 moves
tui-king-frozen = { $side } king on { $square }: { $count }/3 moves — no more simple moves
tui-more = +{ $count } more
tui-hint-quit = q quit
tui-hint-back = q back
tui-hint-rematch = m rematch
tui-hint-save = s save PDN
tui-hint-moves = < > moves
tui-hint-home = q home
tui-move-prompt = move
tui-waiting-for = waiting for { $name } ({ $side }) to move
tui-hint-spectator = spectator
tui-hint-flip = f flip
tui-hint-numbers = n numbers
tui-hint-keys = ? keys
tui-ftv-waiting = Frisian TV: waiting for a live match…
tui-match-waiting = waiting for the match…
tui-title-ply = { $id } · ply { $ply } of { $count }
tui-legal = legal ({ $count })
tui-moves = moves
tui-confirm-resign = Resign this game? y / n
tui-confirm-abort = Abort this game? y / n
tui-takes = takes
tui-chooser-keys = 1-9 or ↑↓ Enter picks, Esc cancels
tui-chooser-title = which capture?
tui-you-play = You play { $side }. Waiting for an opponent…
tui-waiting-opponent-long = Waiting for an opponent…
tui-waiting-keys = a abort · q home (the seat is kept) · ? keys

## The MinitChess TV and prediction screen (client/src/ui/predict_view.rs).
tui-engine-game = engine game
tui-piece-set = { $set } set
tui-serial = Serial { $serial }
tui-engines = White { $white }  Black { $black }
tui-game-over = Game over: { $result }
tui-move-number =
    { $side ->
        [white] Move { $move }  (White to play, ply { $ply })
       *[black] Move { $move }  (Black to play, ply { $ply })
    }
tui-between-games = between games
tui-next-ply-in = next ply in { $seconds }s
tui-next-game-in = next game in { $seconds }s
tui-waiting-next-game = waiting for the next game
tui-guess-waiting = your guess for ply { $ply }: { $guess } (waiting)
tui-or = or
tui-guess-from = guess ply { $ply }: from { $from } to { $to }
tui-guess-pick = guess ply { $ply }: pick a from square or type b1-c3
tui-verdict-correct = ply { $ply }: you said { $guess }, it was { $actual } — correct
tui-verdict-strike = ply { $ply }: you said { $guess }, it was { $actual } — strike
tui-score = score { $correct }  strikes { $strikes }
tui-standing = { $correct } correct, { $strikes } strikes
tui-channel-waiting = waiting for the channel…
tui-guess-prompt = guess
tui-hint-predict = p predict
tui-hint-pieces = f FULL/FLAT
tui-hint-leaderboard = L leaderboard
tui-prediction = prediction

## The status bar and a screen still waiting (client/src/ui/mod.rs), a board with no room.
tui-link-connecting = connecting
tui-link-online = online
tui-link-offline = offline, reconnecting
tui-hint-help = ? help
tui-quits = q quits
tui-goes-back = q goes back
tui-not-available = Not available: { $why }
tui-no-answer = The server has not answered for { $seconds }s.
tui-too-small = terminal too small

## The status line's sentences about the match and the channel (client/src/app/status.rs);
## `who` is a player as named on screen, `side` is `white` or `black`.
note-connected = Connected
note-reconnected = Reconnected
note-disconnected = Connection lost ({ $reason }); trying again in { $seconds }s
note-seat = You play { $side } in match { $id }
note-watching-players = Watching { $white } (white) against { $black } (black)
note-watching-match = Watching match { $id }
note-joined-game-on = { $name } joined: the game is on
note-joined-as = { $name } joined as { $side }
note-you-played = You played { $move }
note-opponent-played = Your opponent played { $move }: your move
note-played = { $who } played { $move }
note-game-over = Game over: { $result }
note-game-over-rematch = Game over: { $result } · m offers a rematch
note-draw-you-offered = You offered a draw
note-draw-offered-to-you = Your opponent offers a draw: d accepts, D declines
note-draw-you-declined = You declined the draw
note-draw-yours-declined = Your draw offer was declined
note-draw-declined-by = { $who } declined the draw
note-draw-offered-by = { $who } offered a draw
note-draw-withdrawn = The draw offer was withdrawn
note-takeback-you-proposed = You proposed to take back your last move
note-takeback-asked-of-you = Your opponent asks to take back their last move: u accepts, U declines
note-takeback-you-declined = You declined the takeback
note-takeback-yours-declined = Your takeback proposal was declined
note-takeback-done-yours = Taken back: your move again
note-takeback-done = Taken back: { $who } to move
note-takeback-declined-by = { $who } declined a takeback
note-takeback-proposed-by = { $who } offered a takeback
note-takeback-lapsed = The takeback proposal lapsed with the move
note-premove-set = Premove { $move }: played when your opponent has moved (Esc cancels)
note-premove-played = Premove { $move } played
note-premove-cancelled = Premove { $move } cancelled
note-premove-dropped = Premove { $move } dropped: it is not legal now
note-rematch-you-offered = You offered a rematch
note-rematch-offered-to-you = Your opponent offers a rematch: m accepts, M declines
note-rematch-you-declined = You declined the rematch
note-rematch-yours-declined = Your rematch offer was declined
note-rematch-started = Rematch started: match { $id }
note-rematch-declined-by = { $side } declined a rematch
note-rematch-offered-by = { $side } offered a rematch
note-you-left = Your seat lost its connection; it is kept for you
note-opponent-left = Your opponent has left
note-left = { $who } has left
note-you-returned = You are back in the game
note-opponent-returned = Your opponent is back
note-returned = { $who } is back
note-you-berserk = You went berserk: half your time, no increment
note-opponent-berserk = Your opponent went berserk
note-berserk = { $who } went berserk
note-claimable = Your opponent is gone: c claims the win, C a draw
note-claimable-aborts = Your opponent is gone: c aborts the match
note-ambiguous = { $count } moves fit: pick one with 1-{ $last } or ↑↓ Enter
note-pdn = PDN at { $url } (s saves it)
note-pdn-saved = PDN saved to { $path }
note-engine-game = { $channel }: { $white } against { $black }, serial { $serial }
note-ply = Ply { $ply }: { $move }
note-correct = Correct: { $actual }
note-strike = Strike: you said { $guess }, it was { $actual }
note-shutdown = The server is stopping: { $reason }
note-featured = Frisian TV shows match { $id }
note-featured-none = Frisian TV: no live match yet
## A result in the terminal (the reason after it: the server's English detail, or `reason-*`).
tui-result-wins = { $side } wins
tui-result-aborted = aborted
tui-result-draw = draw

## What the terminal client refuses or says by itself, nothing sent (client/src/app).
local-unreachable = cannot reach the server: { $reason }
local-garbled = ignored a message this client cannot read: { $error }
local-friend-runs = your friend runs: { $command }
local-friend-opens = or opens: { $link }
local-pdn-not-over = the PDN is saved once the match is over
local-no-seat = you are not playing a match
local-no-channel = you are not watching an engine game
local-no-game = no game is being played on this channel
local-guess-illegal =
    { $side ->
        [white] { $move } is not a legal move for white here; legal: { $legal }
        [black] { $move } is not a legal move for black here; legal: { $legal }
       *[other] { $move } is not a legal move here; legal: { $legal }
    }
local-no-stored-seat = no stored seat to resume
local-expected = expected { $what }, got `{ $got }`
local-match-over = the match is over
local-abort-too-late = a match can be aborted only before both sides have moved; r resigns
local-wait-for-move = it is { $side }'s move: wait for it
local-not-your-turn = it is not your turn to move
local-no-move-from = no legal move starts on { $square }
local-no-move-from-to = no legal move from { $from } to { $to }
local-prediction-off = prediction is off: p turns it on
local-not-a-guess = `{ $text }` is not a move like b1-c3
local-cannot-go = { $from } cannot go to { $to }
local-prompt-invite = invite code
local-prompt-engine = engine game (SERIAL WHITE BLACK, e.g. CH3SS5 L4 K7)
local-not-a-time-control = `{ $text }` is not a time control: { $error } (MINUTES+SECONDS, e.g. 7+2)
local-no-code-or-id = no open match has the invite code or match id { $text }
local-not-a-move = `{ $text }` is not a move: write squares 1-50 joined by - or x, e.g. 32-28 or 28x19
## The `--plain` mode's input lines refused (client/src/app/command.rs).
cmd-expected-reply = expected offer, accept or decline, got `{ $got }`
cmd-needs = `{ $command }` needs { $what }
cmd-what-move = a move such as 32-28
cmd-what-code = an invite code or match id
cmd-what-match = a match id
cmd-what-serial = a serial
cmd-what-white = white's engine and seed, e.g. L4
cmd-what-black = black's engine and seed, e.g. K7
cmd-claim-needs = `claim` needs win or draw
cmd-not-a-preset = `{ $preset }` is not a play-now preset: 1+1, 3+2, 5+3, 10+5 or 15+10
cmd-playnow-needs = `playnow` needs a preset (1+1 … 15+10) or cancel
cmd-predict-needs = `predict` needs a move such as b1-c3, or a channel
cmd-unknown = unknown command `{ $command }` (try help)
## The account commands (client/src/account): a login the server no longer takes, and an
## answer that is not the API's (a proxy's error page), told by its HTTP status.
account-login-invalid = the login of { $name } on { $server } is no longer valid (logged out everywhere, revoked, expired or the account closed): boardcast login { $name }
account-http-status = the server answered HTTP { $status }, not with its API
## What `login`, `logout`, `whoami` and `games` say (client/src/account/mod.rs); the command's
## name (`login:`, `games NAME:`) goes before an error as it was typed.
login-as = logged in as { $name } on { $server }
login-as-bot = logged in as { $name } (bot account) on { $server }
login-as-admin = logged in as { $name } (admin) on { $server }
login-password-prompt = Password for { $name } on { $server }:
login-password-unreadable = cannot read the password: { $error }
login-password-stdin-unreadable = cannot read the password from standard input: { $error }
login-no-password = no password given (one line on standard input)
login-no-config-dir = no config directory to keep the login in: pass --config-dir
login-token-fails = the new token does not work: { $reason }
login-cannot-keep = cannot keep the token in { $file }: { $error }
logout-done = logged out { $name } on { $server }
logout-here-only = logged out { $name } on this computer; the server still holds its token ({ $reason }): revoke it on { $server }/account/tokens
logout-no-token-id = this computer kept no token id
logout-cannot-update = cannot update { $file }: { $error }
logout-not-logged-in = not logged in on { $server }
whoami-not-logged-in = not logged in on { $server } (boardcast --server { $server } login NAME)
## One line of `boardcast games NAME`: `m12 2026-11-26 white v Wytze (guest) won 2-0 5+3`
## (the colour, the guest tag, the outcome and `untimed` are the web's words).
games-line = { $id } { $date } { $colour } v { $opponent } { $outcome } { $result } { $time }
games-date = { $year }-{ $month }-{ $day }
games-none = { $name } has no finished games
games-saved = saved { $name }'s games to { $file } ({ $bytes } bytes)
## A request to the server's API that got no answer of the API's (client/src/account/api.rs).
api-cannot-reach = cannot reach { $url }: { $error }
api-connection-refused = cannot reach { $url }: nothing answers there (is the server running?)
api-no-answer-in-time = { $url }: the server did not answer in time
api-not-the-apis = the server's answer is not the API's: { $error }
api-reading-answer = reading the answer: { $error }
api-cannot-write = cannot write { $file }: { $error }
api-bad-address = bad address { $url }: { $error }
api-bad-token = the stored token is not valid text
cannot-start = cannot start: { $error }

## `boardcast events`: after the finished events when older ones follow on the next page
## (`command` is the command that shows it), and when the server left out some upcoming or
## running events (more than it lists).
cli-events-older = older: { $command }
cli-events-more-current = More events are coming up or running than the server lists.
