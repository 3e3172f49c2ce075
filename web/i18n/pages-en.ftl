# Boardcast, English: the words only pages loaded on their own use (the lobby and its forms,
# MinitChess TV, the chat, the account pages, the ladder, club events). The web page fetches this
# file with those pages' modules, so the match page never downloads it; the terminal reads it
# with en.ftl and terminal-en.ftl as one catalogue.

count-plies =
    { $count ->
        [one] { $count } ply
       *[other] { $count } plies
    }
count-watching = { $count } watching
lobby-heading = Lobby: Frisian draughts and MinitChess TV
lobby-title = Frisian draughts and MinitChess TV
lobby-anonymous = anonymous
lobby-loading = Loading the lobby…
lobby-unreachable = The server cannot be reached; trying again…
lobby-your-name = Your name
lobby-seeks = Open seeks
lobby-live = Live matches
lobby-ftv-what = the most-watched live match
lobby-rules = New to Frisian draughts? The rules, with positions to step through
lobby-minit-tv = MinitChess TV
lobby-players = Players in the lobby
lobby-join = Join
lobby-seek-rated = rated
lobby-seek-rated-range = rated ±{ $range }
lobby-seek-casual = casual
play-now-title = Play now
play-now-cancel = Cancel
play-now-hint = A rated game against a member of close rating, found for you in seconds.
play-now-members-only = Play now pairs members for rated games:
play-now-looking = Looking for an opponent at { $preset }…
form-game = Game
form-casual = casual
form-rated-members = rated (members)
form-opponent-rating = Opponent rating
form-range-open = open to all
lobby-no-seeks = No open seeks: create one.
lobby-no-live = No public match is being played.
lobby-between-games = between games
lobby-nobody = Nobody is seeking or playing right now.
form-new-match = New match
form-time-control = Time control
form-blitz = blitz
form-custom = custom…
form-minutes = Minutes
form-increment = Increment (s)
form-colour = Your colour
form-random = random
form-private = Private (only through its invite link)
form-create = Create match
form-hint = Frisian draughts: pieces also capture straight ahead and sideways.
form-engine-title = Watch an engine game
form-serial = Serial
form-white-engine = White engine
form-black-engine = Black engine
form-pace = Seconds per ply
form-reveal = Reveal from ply
form-start = Start
chat-players = Players' chat
chat-spectators = Spectators' chat
chat-say = Say
chat-send = Send
chat-placeholder = Say something (140 at most)
chat-presets = Phrases
chat-preset-hello = Hello
chat-mute = Mute { $name } for me
chat-unmute = Unmute { $name }
chat-muted = Muted for you:
minit-board = MinitChess board
minit-ply = Ply
minit-revealed = Revealed moves
minit-hint = Predict the coming move: click a piece, then its square.
minit-this-game = This game
minit-leaderboard = Leaderboard
minit-predict-here = predict this move
minit-loading = Loading…
minit-headline = White { $white } v Black { $black } · serial { $serial } · game { $game }
minit-reveal-in = move { $move } ({ $side }) revealed in { $seconds } s
minit-next-game = next game in { $seconds } s
minit-wins = { $side } wins
minit-your-score = Your score this game: { $correct } right, { $strikes }
minit-score = { $correct } right, { $strikes }
minit-strikes =
    { $count ->
        [one] { $count } strike
       *[other] { $count } strikes
    }
minit-in-games =
    { $count ->
        [one] in { $count } game
       *[other] in { $count } games
    }
minit-no-predictions = No predictions yet.
minit-no-standings = Standings appear when the game ends.
minit-guess-waiting = Your guess for ply { $ply }: { $guess }
minit-guess-right = Right! { $actual }
minit-guess-wrong = Wrong: you said { $guess }, it was { $actual }
minit-no-game = No game to predict right now
minit-guess = Guess ply { $ply }: click a piece, then where it goes
events-title = Events
events-waiting = Upcoming
events-playing = Running
events-finished = Finished
events-pages = Pages of finished events
events-none-waiting = No event is coming up.
events-none-playing = No event is running now.
events-none-finished = No event has finished yet.
events-about = The club's tournaments: Swiss, round-robin and arena. Open one to see its players, pairings and standings, and join it there as a member: a round-robin until it starts, a Swiss until its last round, an arena while it runs.
event-kind-swiss = Swiss, { $rounds } rounds
event-kind-double = Double round-robin
event-kind-arena = Arena, { $minutes } minutes
event-rated = rated
event-casual = casual
event-players =
    { $count ->
        [one] { $count } player
       *[other] { $count } players
    }
event-starts-in = Starts in { $time }
event-ends-in = Ends in { $time }
event-status-playing = Being played
event-status-finished = Finished
event-join = Join
event-rejoin = Join again
event-withdraw = Withdraw
event-password = Event password
event-login-to-join = Log in to join
event-standings = Standings
event-final = Final standings
event-col-player = Player
event-col-rating = Rating
event-col-points = Points
event-col-sheet = Games
event-col-bh = Buchholz
event-col-bh1 = Buchholz cut-1
event-col-sb = Sonneborn-Berger
event-col-bh-short = BH
event-col-bh1-short = BH-1
event-col-sb-short = SB
event-on-fire = On fire: the next game scores double
event-withdrawn = withdrawn
event-rounds = Rounds
event-round = Round { $round }
event-wave = Wave { $round }
event-bye = Bye: { $name }
event-watch = watch
event-your-game = Your game against { $name } is ready.
event-play = Play
event-missing = There is no such event.
event-trf = The pairings as FIDE TRF
## The form that creates an event (pages/event-form.js), for organisers.
event-form-title = New event
event-form-name = Name
event-form-kind = Kind
event-form-kind-arena = Arena
event-form-kind-swiss = Swiss
event-form-kind-round_robin = Round-robin
event-form-minutes = Minutes per player
event-form-increment = Seconds added per move
event-form-length = Length of the arena (minutes)
event-form-rounds = Rounds
event-form-double = Double round-robin (each pair plays twice, colours swapped)
event-form-rated = Rated
event-form-start = Start (empty: now)
event-form-password = Password (optional: a private event)
event-form-min-games = Minimum rated games
event-form-rating-min = Lowest rating
event-form-rating-max = Highest rating
event-form-create = Create the event
event-form-created = The event is created.
event-form-error-name = Give a name of 1 to { $max } characters.
event-form-error-time = 1 to { $max } minutes, and 0 to { $increment } seconds added per move.
event-form-error-length = An arena lasts { $min } to { $max } minutes.
event-form-error-rounds = A Swiss has 1 to { $max } rounds.
event-form-error-start = The start is between now and { $days } days ahead.
event-form-error-password = A password has { $min } to { $max } characters.
event-form-error-min-games = 0 to { $max } rated games.
event-form-error-rating = Ratings from 0 to { $max }, the lowest not above the highest.
## An arena game's berserk button (render/berserk.js), on the match page.
match-berserk = Berserk
match-berserk-title = Half your time and no increment, before your first move; a win of 14 plies or more scores one point more
match-berserked = { $name } went berserk

## The login page after the session ended elsewhere (a close with 4001).
login-session-ended = Your login has ended: you logged out everywhere, your password was changed or your account was closed. Log in again.

## The account pages (js/pages/account.js) and their forms' answers (js/account.js).
account-login-title = Log in
account-signup-title = Sign up
account-create = Create account
account-name = User name
account-password = Password
account-password-again = Password again
account-no-account = No account yet?
account-member-already = Already a member?
account-forgot = Forgot your password? A club admin can reset it.
account-name-hint = 2 to 20 letters, digits, _ or -; nobody else can take it.
account-password-hint = At least { $count } characters; common or easily guessed ones are refused.
account-signup-hint = No e-mail needed. Guests can keep playing without an account.
account-logged-in-as = You are logged in as { $name }.
account-title = Your account
account-who-member = Logged in as { $name }.
account-who-bot = Logged in as { $name } (bot account).
account-who-admin = Logged in as { $name } (club admin).
account-your-profile = Your profile and games
account-change-password = Change password
account-current-password = Current password
account-new-password = New password
account-new-password-again = New password again
account-change-logs-out = Changing it logs out every other device.
account-sessions = Sessions
account-sessions-before = Log out everywhere ends every login of your account, in browsers and in
account-sessions-after = too. Personal access tokens you made by name stay until you revoke them.
account-guest-account = Log in to see your account.
account-guest-tokens = Log in to see your tokens.
account-tokens-title = Personal access tokens
account-token-about-before = A token lets a program act as you; the terminal's
account-token-about-after = makes its own.
account-token-new = New token
account-token-name = Name
account-token-scopes = Scopes
account-token-create = Create token
account-token-copy-now = Copy your new token now: it is not shown again.
account-token-copy = Copy token
account-tokens-yours = Your tokens
account-token-created = created { $created }
account-token-created-used = created { $created } · used { $used }
account-token-revoke = Revoke
account-token-revoke-name = Revoke { $name }
account-token-none = No tokens.
account-name-rule = A user name is 2 to 20 letters, digits, _ or -.
account-password-short = A password has at least { $count } characters.
account-password-long = A password has at most { $count } characters.
account-passwords-differ = The two passwords differ.
account-give-name-password = Give your user name and password.
account-token-needs-name = Give the token a name, to know it again in the list.
account-token-needs-scope = Choose at least one scope.
account-password-changed = Password changed. Every other session of your account has ended.
account-not-logged-in = You are not logged in.
account-retry-after = { $text } (try again in { $seconds } s)
## The server's answers to account requests, by their code (PROTOCOL.md §18); a code missing
## here shows the server's English text.
account-error-name_invalid = A user name is 2 to 20 letters, digits, _ or -.
account-error-name_taken = That name is taken: choose another.
account-error-name_reserved = That name is reserved: choose another.
account-error-password_too_short = That password is too short.
account-error-password_too_long = That password is too long.
account-error-password_weak = That password is too easy to guess: choose a longer or less common one.
account-error-bad_request = The server could not read that request.
account-error-bad_credentials = Unknown user name or wrong password.
account-error-unauthenticated = You are not logged in.
account-error-account_closed = This account is closed.
account-error-cross_origin = Refused: the request came from another site.
account-error-forbidden = This login may not do that.
account-error-not_found = Not found.
account-error-throttled = Too many failed attempts.
account-error-internal = The server could not do that now: try again.
account-error-busy = The server is busy: try again shortly.
account-error-busy-retry = The server is busy: try again in { $seconds } s.

## The match page's sounds and the hidden-tab notice (js/sound.js).
sound-mute = Mute sounds
notify-played = { $name } played { $move }

## Takebacks and premoves on the match page (render/takeback.js, render/premove.js).
takeback-propose = Takeback
takeback-propose-title = Ask your opponent to take back your last move
takeback-accept = Accept takeback
takeback-decline = Decline takeback
takeback-offered = { $name } asks to take back their last move
takeback-sent = Takeback proposed: waiting for { $name }
takeback-declined = your takeback was declined
premove-set = Premove { $move }: played when it is your move
premove-cancel = Cancel premove
premove-dropped = premove { $move } dropped: it is not a legal move now
premove-dropped-capture = premove { $move } dropped: capturing is compulsory ({ $squares } must capture)
## The rules page (/rules, and `boardcast rules` in the terminal): one title and text per
## section of web/rules/positions.json, one caption per position.
rules-page-title = The rules of Frisian draughts
rules-intro = Boardcast follows the Official Rules for Frisian Draughts (2011). Each rule below has a position: step through it with the buttons on the board.
rules-title-board = The board and the start
rules-text-board = The board has 10 by 10 squares; play is on the 50 dark squares, numbered 1 to 50 from Black's side. Each side starts with 20 men: Black on 1 to 20, White on 31 to 50. White moves first, then the players take turns.
rules-pos-start = The start. White has 9 moves; here White plays 32-28 and Black answers 19-23.
rules-title-men = How men move
rules-text-men = A man moves one square diagonally forward onto an empty square. Without capturing it never moves backwards or straight ahead.
rules-pos-man-moves = The men on 33 and 37 each have two moves forward. 33-39 (backwards) and 33-23 (straight ahead) are not man moves.
rules-title-captures = Captures in eight directions (art. 7, 9–14)
rules-text-captures = Capturing is compulsory. Men and kings capture in all eight directions: diagonally, and also straight forwards, backwards and sideways, over an enemy piece next to them onto the empty square behind it. Straight ahead, the neighbour is two rows up (33 to 23); sideways, it is the next square in the same row (33 to 34). A capture that can go on must go on, in any direction; the captured pieces leave the board only when the move is complete.
rules-pos-compulsory = After 32-28 19-23 White must capture 28x19: 33-29 is refused. Black may then recapture three ways, one of them straight down: 9x29.
rules-pos-eight-directions = The man on 28 can capture sideways (28x26) or straight backwards (28x48); the man on 50 may not move while a capture exists.
rules-pos-chain = A capture goes on from where it lands: 33x35 takes 34, then straight up over 25 to 15. Stopping on 35 is refused.
rules-title-value = The most valuable capture (art. 11, 12)
rules-text-value = Of all captures the side to move has, only those that take the most value are legal. A king counts about one and a half men: one king is worth more than one man, two men more than one king. At equal value a king that can capture must capture first.
rules-pos-king-over-man = The man on 33 can take a king (33x22) or a man (33x35): it must take the king.
rules-pos-two-men-over-king = Two men are worth more than one king: 33x15 takes 34 and 25, and 33x22 (the king) is refused.
rules-pos-king-first = Both the king on 5 and the man on 49 can take one man; the king must capture. It takes sideways, from afar, and may land on 3, 2 or 1.
rules-title-promotion = Promotion (art. 8)
rules-text-promotion = A man that ends its move on the far row (1 to 5 for White, 46 to 50 for Black) becomes a king. A man that only passes through the far row during a capture stays a man.
rules-pos-crowned = 7-2: the man reaches the far row and is crowned.
rules-pos-passing-through = 14x25 passes through 5 on its way and ends on 25: the man stays a man.
rules-title-kings = Kings (art. 9)
rules-text-kings = A king moves any distance along a diagonal over empty squares; it makes no straight moves without capturing. It captures from afar in all eight directions, over the first piece it meets, and may land on any empty square behind it.
rules-pos-king-moves = The king on 46 may go anywhere along its diagonal, here to 23; 46-36 (straight up) is refused.
rules-pos-king-captures = The king takes 28 from afar and may land on 23, 19, 14, 10 or 5.
rules-title-three-moves = The king's three-move rule (art. 17)
rules-text-three-moves = A player who has both kings and men may not move the same king more than three times in a row without capturing. A man move or any capture starts the count again. A player with only kings is not bound by this rule.
rules-pos-frozen = White's king moves three times (46-37, 37-46, 46-41); now 41-46 is refused and White must move the man.
rules-title-draws = The end of the game and draws (art. 18, 20, 21)
rules-text-draws = A player who cannot move (no pieces left, or all blocked) loses (art. 20). Two kings against one king is a draw after 7 moves each (art. 18). One king against one king is a draw at once, unless the side to move can capture or a capture is forced within the next moves (art. 21). There is no draw by repetition; players may agree a draw, and Boardcast decides resignation and time.
rules-pos-two-kings-v-one = Two kings against one king: 13 plies have been played, White's 1-7 is the 14th (7 moves each), and the game is drawn.
rules-pos-king-v-king = The king takes Black's last man; one king against one king, and no capture to come: drawn at once.
rules-pos-no-move = White's only man on 46 is blocked and cannot capture: White has no legal move and loses.
rules-start = Start
rules-back = Back
rules-next = Next
rules-step = Move { $n } of { $count }: { $move }
rules-at-start = The position before the first move
rules-reason-here = This is why your move was refused.

## The account page's game preferences (js/pages/preferences.js).
preferences-title = Game preferences
preferences-refuse-more-time = Refuse +15 s from opponents in every game
preferences-refuse-more-time-hint = Kept with your account: it holds on every device and in the terminal client, from your next game on.
preferences-saved = Saved.
preferences-not-saved = Not saved: try again.
## The ladder (/ladder).
ladder-title = Ladder
ladder-caption = The ladder, best rating first
ladder-rank = Rank
ladder-player = Player
ladder-rating = Rating
ladder-rd = RD
ladder-rd-full = Rating deviation
ladder-games = Games
ladder-games-full = Rated games
ladder-loading = Loading the ladder…
ladder-empty = Nobody is on the ladder yet: it lists members with an established rating (RD at most 75) who played rated in the last 7 days.
ladder-about = Ratings are Glicko-2 over rated games of Frisian draughts. Provisional players (a rating shown as 1500?) are not listed.

## A member's profile (/@/{name}).
profile-chart-empty = No rated games yet: the chart starts with the first.
profile-chart-label = Rating history: { $first } on { $from }, { $last } on { $to }
profile-best-win-game = game
profile-download = Download all games (PDN)
profile-games-caption = Finished games of { $name }, newest first
profile-col-date = Date
profile-col-opponent = Opponent
profile-col-colour = Colour
profile-col-result = Result
profile-col-time = Time
profile-col-game = Game
profile-no-games = No finished games yet.
profile-newer = Newer
profile-older = Older
profile-pages = Pages of games
profile-page = page { $page }
profile-rating = Rating
profile-games = Games
profile-finished = Finished games
profile-history = Rating history
profile-missing = No player is called { $name }.
profile-fact-rating = Rating
profile-fact-rd = Deviation (RD)
profile-fact-rated = Rated games
profile-fact-best = Best win
profile-fact-member = Member since
profile-fact-last = Last seen
profile-fact-games = Games played
profile-fact-won = Won · drawn · lost
profile-outcome-won = won
profile-outcome-drawn = drawn
profile-outcome-lost = lost

## Takeback refusals (PROTOCOL.md §12.1): worded here, out of the match page's own file.
# `other`: a match whose snapshot says neither rated nor event (an older server).
error-not_allowed-takeback_casual_only =
    { $match ->
        [rated] Takebacks are for casual games only, not for a rated game.
        [event] Takebacks are for casual games only, not for a club event's game.
       *[other] Takebacks are for casual games only: this game takes none.
    }
error-not_allowed-nothing_to_take_back = You have no move to take back.
error-not_allowed-takeback_proposal_stands = Your takeback proposal already stands.
error-not_allowed-opponent_takeback_stands = Your opponent asks to take back a move: accept or decline first.
error-not_allowed-no_takeback_proposal = Your opponent has not asked to take back a move.
error-rate_limited-takeback_too_soon = A takeback at most once every { $every_s } s: try again in { $retry_after_s } s.

## Refusals worded from their reason (PROTOCOL.md §12.1) beyond the match page's own in
## en.ftl: the match page fetches this file at the first such refusal.
error-invalid_argument-not_a_minit_square = { $square } is not a square (a1 to e6).
error-invalid_argument-invalid_field = The field { $field } of that message is not valid.
error-not_found-channel_closed = Channel { $channel } has closed.
error-not_found-no_match = There is no match { $match_id }.
error-not_found-no_open_match = There is no open public match { $match_id } (a private match is joined by its invite code).
error-not_found-no_invite_code = There is no match with invite code { $code }.
error-not_found-no_chat_line = There is no chat line { $line } in match { $match_id }.
error-not_found-match_stopped = This match is no longer running.
error-not_found-no_account = There is no account { $name }.
error-not_found-paired_match_gone = The paired match { $match_id } is gone; press play now again.
error-busy-channel_busy = Channel { $channel } is busy; try again.
error-busy-event_busy = Too many are asking for event { $event }; try again.
error-busy-drawing_ids = Engine-game ids are being drawn; try again in a moment.
error-busy-taking_over = This server is taking over many matches at once; try again.
error-busy-commands_waiting = This match has too many commands waiting; try again.
error-busy-relay_full = Too many messages are waiting between servers; try again.
error-busy-match_moved = This match moved to another server as you asked; send it again.
error-busy-too_many_matches = The server holds as many matches as it may; try later.
error-busy-too_many_finished = The server has as many finished matches open as it may; try later.
error-busy-failed_joins = Too many failed joins on the server just now; try again later.
error-busy-pool_full = The { $preset } pool is full ({ $capacity } waiting); try again shortly.
error-busy-play_now_busy = Too many players are pressing play now at once; try again.
error-not_allowed-no_game_running = No game is running on { $channel } right now.
error-not_allowed-played_live = { $serial } { $white } against { $black } is being played live on { $channel }: start it once that game has ended (watch { $channel } meanwhile).
error-not_allowed-no_seat_for_account = Your account holds no seat in { $match_id }.
error-not_allowed-myself_other_seat = Only the connection that holds the other seat of { $match_id } can join it to play itself.
error-not_allowed-holds_other_seat = This connection already holds the other seat of { $match_id }: to play yourself, join it as yourself.
error-not_allowed-chat_full = This match's chat is full ({ $limit } lines).
error-not_allowed-abort_after_moves = A match can be aborted only before each side has moved.
error-not_allowed-opponent_connected = Your opponent is connected: there is nothing to claim.
error-not_allowed-grace_running = Your opponent may still come back: claim in { $wait_s } s.
error-not_allowed-grace_paused = Your opponent may still come back: claim in { $wait_s } s of their turn (the grace stands still on yours).
error-not_allowed-rematch_not_over = A rematch can be offered only once the match is over.
error-not_allowed-rematch_exists = The rematch already exists: { $match_id }.
error-not_allowed-no_opponent = There was no opponent to play again.
error-not_allowed-rematch_offer_stands = Your rematch offer already stands.
error-not_allowed-own_rematch_offer = This rematch offer is your own: your opponent has to accept it.
error-not_allowed-no_rematch_offer = Your opponent has not offered a rematch.
error-not_allowed-more_time_untimed = More time is for timed matches only.
error-not_allowed-more_time_refused = Your opponent does not accept more time.
error-not_allowed-flagged = The time has run out.
error-not_allowed-berserk_arena_only = Berserk is for arena games only.
error-not_allowed-berserk_already = You have gone berserk already.
error-not_allowed-berserk_after_move = Berserk only before your first move.
error-not_allowed-reclaim_needs_login = Taking back an account's seat needs a login: log in first (a guest resumes with the seat token).
error-not_allowed-admins_only = Only a club admin moderates the chat.
error-not_allowed-rated_against_oneself = A rated game against yourself is not allowed.
error-illegal_prediction-not_legal =
    { $side ->
        [white] { $move } is not a legal move for White before ply { $next }.
       *[black] { $move } is not a legal move for Black before ply { $next }.
    }
error-storage_unavailable-channel_moving = { $channel } is moving to another server; send the guess again.
error-storage_unavailable-changing_servers = The match is changing servers; try again shortly.
error-storage_unavailable-match_moved = The match moved to another server; send it again.
error-storage_unavailable-unreachable = The database cannot be reached now: nothing changed; try again shortly.
error-storage_unavailable-chat_unreadable = The chat cannot be read now; nothing was said.
error-storage_unavailable-event_unreadable = Event { $event } cannot be read now; try again shortly.
error-storage_unavailable-lease_lost = This server lost its database lease; try again.
error-shutting_down-shutting_down = The server is shutting down.
error-shutting_down-play_now_stopped = Play now has stopped.
error-invalid_token-watcher = You watch match { $match_id }: watchers cannot act.
error-invalid_token-unknown_token = That seat token is unknown.
error-internal-internal = Something failed on the server; nothing was changed.
error-internal-does_not_replay = The stored match does not replay.
error-internal-no_invite_code = No unused invite code could be drawn; no match was created.
error-internal-storage_failed = Storing failed on the server; nothing was changed.
error-members_only-free_chat = Guests chat with the preset phrases; free text is for signed-in members.
error-members_only-rated_play = Rated games and play now are for signed-in members; a guest plays casual matches.
error-members_only-rated_seek = This is a rated match: log in to play rated games.
error-chat_too_fast-chat_too_fast = Chat lines come { $burst } at once, then one every { $every_s } s: wait { $wait_s } s.
error-rate_limited-more_time_often = More time at most once every { $every_s } s.
error-rate_limited-too_many_messages = Too many messages: the connection closes.
error-unsupported_version-protocol_version = This server speaks protocol { $ours }, not { $theirs }.
error-chat_muted-muted = A club admin ({ $by }) has muted you in every chat of this server.
error-outside_rating_range-outside_range = Your rating { $rating } is more than { $range } from the creator's { $creator }.
error-match_full-both_seats_taken = Both seats of this match are taken.
error-too_large-frame_too_large = That message has { $size } bytes, over the limit of { $limit }.
error-malformed-wrong_frame_type = A { $got } message on a { $expected } connection.
error-malformed-invalid_utf8 = That message is not valid UTF-8.
error-malformed-not_a_message = The server could not read that message.
error-malformed-unknown_type = The server does not know the message type { $type }.
error-busy-archive_busy = Too many archive reads are under way; try again shortly.
error-not_found-no_channel = There is no channel or archived game { $channel }.
error-not_found-no_event = There is no event { $event }.

## Refused event requests on the events pages (web/js/pages/events.js), by code.
event-error-unauthenticated = Log in first.
event-error-not_organiser = Only an admin or a member with the organiser right creates events.
event-error-forbidden = Only a club admin grants the organiser right.
event-error-not_found = There is no such event.
event-error-already_joined = You are in this event already.
event-error-not_joined = You are not playing in this event.
event-error-event_finished = The event is over.
event-error-event_started = A round-robin cannot be joined once it has started.
event-error-round_in_progress = The last round is being played: the event takes no more players.
event-error-wrong_password = Wrong event password.
event-error-not_eligible = You may not join this event (its rating range or its minimum of rated games).
event-error-busy = The event is busy: try again.
event-error-event_moving = The event is moving to another server: try again shortly.
event-error-internal = The server could not store that: try again.
event-error-left_for_good = You withdrew from this round-robin after its start: you cannot join it again.
