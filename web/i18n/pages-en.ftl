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
events-none = None.
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

## The login page after the session ended elsewhere (a close with 4001).
login-session-ended = Your login has ended: you logged out everywhere, your password was changed or your account was closed. Log in again.

## The match page's sounds and the hidden-tab notice (js/sound.js).
sound-mute = Mute sounds
notify-played = { $name } played { $move }
