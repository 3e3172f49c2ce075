# Boardcast, English. The one catalogue of both clients: the terminal client compiles it in
# (fluent-bundle), the web client fetches it from /assets/{version}/i18n/en.ftl.
# Every key here is in nl.ftl and fy.ftl too (client/src/i18n.rs tests it).


## The terminal client's help overlay (`?`). The keys themselves are not translated.

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
help-match-pick = pick the piece, then its destination
help-match-route = choose the capture route (captures marked)
help-match-clear = clear the input and the selection
help-match-resign = resign (asks to confirm)
help-match-abort = abort, only before both sides have moved
help-match-draw = offer or accept a draw / decline
help-match-rematch = offer or accept a rematch / decline
help-match-claim = claim win / draw when the opponent is gone
help-match-step = step through the moves (End: the game)
help-match-view = square numbers, flip board, letter pieces
help-match-save = save the finished match's PDN (--save-pdn DIR, or here)
help-match-back = back to the home screen (the seat is kept)
help-channel-cursor = move the cursor
help-channel-pick = pick the from square, then the to square
help-channel-guess = type a guess for the coming ply
help-channel-predict = prediction on or off
help-channel-pieces = FULL (figurines) or FLAT (letters) pieces
help-channel-leaders = all-time prediction leaderboard, with your own place
help-channel-clear = clear the input and the picked square
help-channel-back = back to the home screen (or quit, started as `boardcast tv`)

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
error-outside_rating_range = Your rating is outside this seek's range.

## The web client.

web-language = Language
web-nav-lobby = Lobby
web-nav-tv = TV
