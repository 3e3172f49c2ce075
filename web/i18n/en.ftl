# Boardcast, English, for both clients (the terminal's own words: terminal-en.ftl).
# Every key is in nl.ftl and fy.ftl too (client/src/i18n.rs tests it).

## Refusals, by the server's error code (PROTOCOL.md). The server's English text stays for
## programs and logs; the clients show these.

error-malformed = The server could not read that message.
error-invalid_argument = A value in that message is out of range.
error-too_large = That message is too large.
error-unsupported_version = This client's protocol version is not supported.
error-not_found = No such match, channel, game or seat.
error-invalid_token = That seat is not yours.
error-not_your_turn = It is not your turn.
error-illegal_move = That move is not legal here.
error-game_over = The game is over.
error-match_full = Both seats are taken.
error-not_allowed = That is not allowed now.
error-prediction_closed = Predictions for that ply are closed.
error-rate_limited = Too many messages: slow down.
error-busy = The server is busy; try again later.
error-shutting_down = The server is shutting down.
error-internal = Something failed on the server; nothing was changed.
error-unsupported = The server does not offer that yet.
error-stale_id = That command was already answered.
error-illegal_prediction = That is not a legal move for the side to move.
error-address_limit = Your address is at a limit; try again later.
error-storage_unavailable = The server's database is unreachable; try again later.
error-members_only = Rated play is for signed-in members.
error-chat_muted = An admin has muted you in the chat.
error-chat_too_fast = Chat lines too fast: wait a few seconds.
error-outside_rating_range = Your rating is outside this seek's range.
error-not_your_turn-side_to_move =
    { $side ->
        [white] It is not your turn: White is to move.
       *[black] It is not your turn: Black is to move.
    }
error-invalid_argument-not_a_square = { $number } is not a square (1 to 50).
error-illegal_move-route_too_short = A move needs a square to start from and one to end on.
error-illegal_move-no_piece = There is no piece on { $square }.
error-illegal_move-not_your_piece = The piece on { $square } is not yours.
error-illegal_move-occupied = Square { $square } is occupied.
error-illegal_move-not_on_line = { $to } is not on a line with { $from }.
error-illegal_move-not_a_man_move = A man moves one square diagonally forward: { $from }-{ $to } is not a man's move.
error-illegal_move-not_a_king_move = A king moves only diagonally when it does not capture: { $from }-{ $to } is not a king's move.
error-illegal_move-blocked = The way from { $from } to { $to } is blocked on { $at }.
error-illegal_move-capture_compulsory = Capturing is compulsory (for example { $example }).
error-illegal_move-nothing_captured = { $from }x{ $to } captures no piece.
error-illegal_move-own_piece = You cannot jump your own piece on { $square }.
error-illegal_move-already_captured = The piece on { $square } is already captured in this move and cannot be jumped again.
error-illegal_move-two_pieces = { $from }x{ $to } would jump two pieces at once.
error-illegal_move-man_too_far = A man captures only a piece next to it: { $from }x{ $to } is too long.
error-illegal_move-must_continue = The capture must go on from { $square }.
error-illegal_move-lower_value = A capture of higher value exists: { $example } takes { $best }, this one takes { $taken }. A king counts as 1.5 men.
error-illegal_move-king_precedence = At equal value the king captures first (for example { $example }).
error-illegal_move-king_frozen = The king on { $square } has moved three times in a row: move another piece.
error-illegal_move-not_legal = That move is not legal here.
error-game_over-game_over = The match is over.
error-game_over-time_ran_out = Your time ran out.
error-not_allowed-not_started = The match has not started: waiting for an opponent.
error-not_allowed-draw_offer_stands = Your draw offer already stands.
error-not_allowed-no_draw_offer = Your opponent has not offered a draw.
error-stale_id-not_above_last = Command { $id } is not above { $last_id }, the last one carried out for your seat.
error-prediction_closed-already_revealed = Ply { $ply } is already revealed; the coming ply is { $next }.
error-prediction_closed-not_coming = Ply { $ply } is not the coming one; the coming ply is { $next }.
error-address_limit-per_minute = Your address is at its limit of { $limit } a minute; try again in { $retry_after_s } s.
error-address_limit-waiting = Your address already has { $limit } matches waiting for an opponent: play or abort one first.
error-busy-engine_games =
    { $count ->
        [one] { $count } engine game is running; try again later.
       *[other] { $count } engine games are running; try again later.
    }
taken-kings =
    { $count ->
        [one] { $count } king
       *[other] { $count } kings
    }
taken-men =
    { $count ->
        [one] { $count } man
       *[other] { $count } men
    }
taken-both = { $kings } and { $men }

## The web client.

web-language = Language
web-nav-lobby = Lobby
web-nav-tv = TV
web-nav-events = Events
web-nav-ladder = Ladder

## Words both pages share: sides, pieces, presence, counts.

side-white = white
side-black = black
side-white-title = White
side-black-title = Black
piece-wm = white man
piece-wk = white king
piece-bm = black man
piece-bk = black king
player-guest = (guest)
player-bot = an engine plays this seat
presence-connected = online
presence-connected-title = connected
presence-gone = gone
presence-free = seat free
conn-connecting = connecting…
conn-online = online
conn-offline = offline — reconnecting…
tc-untimed = untimed
list-or = { $first } or { $last }

## The header's account corner and pages without a place.

who-login = Log in
who-signup = Sign up
who-menu = Account menu of { $name }
who-profile = Profile and games
who-account = Account and password
who-logout = Log out
who-logout-all = Log out everywhere
who-tokens = Access tokens
missing-title = Nothing here
missing-text = This address shows no page.
missing-lobby = Go to the lobby
page-loading = Loading…
page-load-failed = This page could not be loaded; reload to try again.
invite-title = You are invited to a Frisian draughts match
invite-name = Your name, as your opponent and the game record show it
invite-take = Take the seat
invite-taking = Taking the seat…
invite-page-title = Invited to a match

ftv-live = the most-watched live match, then the next when it ends
ftv-ended = this match has ended; the next live match follows when one is played
ftv-none = No public match is being played yet; TV starts with the first.

## The lobby and its forms.

lobby-ftv = Frisian TV

## The match page.

match-heading = Frisian draughts match
match-loading = Loading the match…
match-connecting = Connecting…
match-clock = clock
match-clock-of = { $side }'s clock
match-invite = Invite a friend:
match-copy-link = Copy link
match-choose-route = Choose the capture route
match-move = Move
match-move-placeholder = 32-28 or 19x30
match-play = Play
match-moves = Moves
match-step = Step through the moves
match-first = First position
match-prev = Previous move
match-next = Next move
match-last = Current position
match-abort = Abort
match-offer-draw = Offer draw
match-accept-draw = Accept draw
match-decline-draw = Decline draw
match-resign = Resign
match-confirm-resign = Yes, resign
match-cancel = Cancel
match-claim-win = Claim the win
match-claim-draw = Call it a draw
match-rematch = Rematch
match-accept-rematch = Accept rematch
match-decline-rematch = Decline rematch
match-to-rematch = Go to the rematch
match-download-pdn = Download PDN
match-tools = Board tools
match-flip = Flip board
match-numbers = Square numbers
match-copy-fen = Copy FEN
match-actions = Game actions
match-watching = watching:
match-waiting-for = waiting for { $side }…
match-you = (you)
match-first-move-you = You must move within { $left }
match-first-move = { $side } must move within { $left }
match-left-claim-in = { $side } left — you may claim in { $seconds }
match-gone-claim = { $side } is gone: claim the win or call it a draw
match-left-claim-in-paused = { $side } left — you may claim in { $seconds } (paused while it is your move)
match-signal = connection: { $ms } ms
match-signal-title = connection: { $ms } ms round trip
match-takes = takes { $squares }
chat-open = Chat ({ $count })
chat-preset-good_luck = Good luck
chat-preset-have_fun = Have fun
chat-preset-good_game = Good game
chat-preset-well_played = Well played
chat-preset-thank_you = Thank you
board-name = Frisian draughts board
board-label = Frisian draughts board, { $side } to move
board-label-past = Frisian draughts board, { $side } to move (after ply { $ply })
board-square = square { $n }
board-move-here = move here
status-past = Showing the position after ply { $ply } — press End to return
status-waiting-you = You play { $side }. Waiting for an opponent…
status-waiting = Waiting for a second player…
status-over = Game over
status-you-play = You play { $side }.
status-first-move-due = Make your first move soon, or the match is aborted.
status-your-turn = Your turn.
status-their-turn = Waiting for your opponent.
status-to-move = { $side } to move
title-your-turn = Your turn
title-their-turn = Waiting for opponent
offer-draw-sent = Draw offer sent
offer-draw = { $side } offers a draw
offer-rematch-agreed = Rematch agreed
offer-rematch-sent = Rematch offered
offer-rematch = { $side } offers a rematch
result-aborted = Aborted
result-no-result = no result
result-victorious = { $side } is victorious
result-draw = Draw
result-rating = { $side } { $rating }
reason-no_legal_move = no legal move left
reason-resignation = resignation
reason-time_forfeit = time ran out
reason-draw_by_rule = draw by rule
reason-draw_by_agreement = draw by agreement
reason-aborted = game aborted
reason-abandoned = opponent left (win claimed)
reason-draw_claimed = opponent left (draw claimed)

## Notices under the board and the name field.

notice-why = Why?
notice-not-sent = not connected: this was not sent; try again once online
notice-play-now-members = Play now pairs members: log in or sign up to play rated.
notice-sent-when-online = connecting… this is sent once the server answers
notice-give-name = give your name: 1 to 32 characters
notice-custom-time = custom time: give minutes and increment (not both 0)
notice-must-capture = { $squares } must capture
notice-no-legal-move = { $square } has no legal move
notice-not-a-move = "{ $text }" is not a move: write it as 32-28 or 19x30
notice-only-players = only the players can move
notice-choose-route = several captures go there: choose the route
notice-copied = copied: { $value }
notice-copy-this = copy this: { $value }
notice-server = server: { $reason }
notice-draw-declined = your draw offer was declined
notice-draw-lapsed = your draw offer lapsed: your opponent moved instead
notice-rematch-declined = your rematch offer was declined
notice-name-refused = name not accepted: { $reason }
name-empty = a name needs at least one visible character
name-too-long = a name has at most 32 characters; this one has { $count }
name-control = a name cannot hold control characters such as tabs or line breaks

## The MinitChess TV page (chess words: MinitChess is chess on a 5×6 board).

minit-piece-wK = white king
minit-piece-wQ = white queen
minit-piece-wR = white rook
minit-piece-wB = white bishop
minit-piece-wN = white knight
minit-piece-wP = white pawn
minit-piece-bK = black king
minit-piece-bQ = black queen
minit-piece-bR = black rook
minit-piece-bB = black bishop
minit-piece-bN = black knight
minit-piece-bP = black pawn

## Club events: `/events`, `/e/{id}` and `boardcast events` / `boardcast event ID` (issue 33).

event-kind-round_robin = Round-robin
event-status-waiting = Not started

## More time (issue 32)
match-more-time = +15 s
match-refuse-more-time = Refuse +15 s
