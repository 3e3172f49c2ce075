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
help-match-view = square numbers, flip board, letter pieces, bell
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
