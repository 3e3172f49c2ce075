# Boardcast, Frysk: the words only pages loaded on their own use (see pages-en.ftl).

count-plies =
    { $count ->
        [one] { $count } heale set
       *[other] { $count } heale setten
    }
count-watching = { $count } sjoggers
lobby-heading = Lobby: Frysk damjen en MinitChess TV
lobby-title = Frysk damjen en MinitChess TV
lobby-anonymous = anonym
lobby-loading = De lobby wurdt laden…
lobby-unreachable = De server is net te berikken; wy besykje it op 'e nij…
lobby-your-name = Dyn namme
lobby-seeks = Iepen útdagings
lobby-live = Rinnende partijen
lobby-ftv-what = de meast besjoene rinnende partij
lobby-minit-tv = MinitChess TV
lobby-players = Spilers yn 'e lobby
lobby-join = Meidwaan
lobby-seek-rated = rated
lobby-seek-rated-range = rated ±{ $range }
lobby-seek-casual = frij
play-now-title = No spylje
play-now-cancel = Ofbrekke
play-now-hint = In rated partij tsjin in lid mei in rating ticht by dy, yn sekonden fûn.
play-now-members-only = No spylje keppelet leden foar rated partijen:
play-now-looking = Tsjinstanner sykje foar { $preset }…
form-game = Partij
form-casual = frij
form-rated-members = rated (leden)
form-opponent-rating = Rating tsjinstanner
form-range-open = iepen foar elkenien
lobby-no-seeks = Gjin iepen útdagings: meitsje der ien.
lobby-no-live = Der wurdt gjin iepenbiere partij spile.
lobby-between-games = tusken twa partijen
lobby-nobody = Nimmen siket of spilet op dit stuit.
form-new-match = Nije partij
form-time-control = Betinktiid
form-blitz = fluch
form-custom = eigen tempo…
form-minutes = Minuten
form-increment = Taslach (s)
form-colour = Dyn kleur
form-random = samar
form-private = Privee (allinnich fia de útnoegingskeppeling)
form-create = Partij meitsje
form-hint = Frysk damjen: stikken slaan ek rjocht foarút en op side.
form-engine-title = Besjoch in enginepartij
form-serial = Searjenûmer
form-white-engine = Engine mei wyt
form-black-engine = Engine mei swart
form-pace = Sekonden per heale set
form-reveal = Sjen litte fan heale set
form-start = Begjinne
chat-players = Chat fan de spilers
chat-spectators = Chat fan de taskôgers
chat-say = Sis
chat-send = Ferstjoer
chat-placeholder = Sis wat (op syn heechst 140 tekens)
chat-presets = Sinnen
chat-preset-hello = Hoi
chat-mute = { $name } foar my dimje
chat-unmute = { $name } wer sjen litte
chat-muted = Foar dy dimme:
minit-board = MinitChess-boerd
minit-ply = Heale set
minit-revealed = Toande setten
minit-hint = Foarsis de kommende set: klik op in stik, dan op syn fjild.
minit-this-game = Dizze partij
minit-leaderboard = Ranglist
minit-predict-here = foarsis dizze set
minit-loading = Laden…
minit-headline = Wyt { $white } tsjin swart { $black } · searjenûmer { $serial } · partij { $game }
minit-reveal-in = set { $move } ({ $side }) toand oer { $seconds } s
minit-next-game = folgjende partij oer { $seconds } s
minit-wins = { $side } wint
minit-your-score = Dyn skoare dizze partij: { $correct } goed, { $strikes }
minit-score = { $correct } goed, { $strikes }
minit-strikes =
    { $count ->
        [one] { $count } flater
       *[other] { $count } flaters
    }
minit-in-games =
    { $count ->
        [one] yn { $count } partij
       *[other] yn { $count } partijen
    }
minit-no-predictions = Noch gjin foarsizzings.
minit-no-standings = De stân ferskynt as de partij foarby is.
minit-guess-waiting = Dyn gok foar heale set { $ply }: { $guess }
minit-guess-right = Goed! { $actual }
minit-guess-wrong = Mis: do seidest { $guess }, it wie { $actual }
minit-no-game = No is der gjin partij om te foarsizzen
minit-guess = Rie heale set { $ply }: klik op in stik, dan wêr't it hinne giet
events-title = Toernoaien
events-waiting = Aanstens
events-playing = Dwaande
events-finished = Ofrûn
events-none = Gjin.
event-kind-swiss = Switsersk, { $rounds } rûnen
event-kind-double = Dûbel rûntetoernoai
event-kind-arena = Arena, { $minutes } minuten
event-rated = mei rating
event-casual = sûnder rating
event-players =
    { $count ->
        [one] { $count } spiler
       *[other] { $count } spilers
    }
event-starts-in = Begjint oer { $time }
event-ends-in = Einiget oer { $time }
event-status-playing = Wurdt spile
event-status-finished = Ofrûn
event-join = Meidwaan
event-withdraw = Weromlûke
event-password = Wachtwurd fan it toernoai
event-login-to-join = Meld dy oan om mei te dwaan
event-standings = Stân
event-final = Einstân
event-col-player = Spiler
event-col-rating = Rating
event-col-points = Punten
event-col-sheet = Partijen
event-col-bh = Buchholz
event-col-bh1 = Buchholz -1
event-col-sb = Sonneborn-Berger
event-on-fire = Yn foarm: de folgjende partij telt dûbel
event-withdrawn = weromlutsen
event-rounds = Rûnen
event-round = Rûne { $round }
event-wave = Weach { $round }
event-bye = Frij: { $name }
event-watch = sjen
event-your-game = Dyn partij tsjin { $name } stiet klear.
event-play = Spylje
event-missing = Dit toernoai bestiet net.
event-trf = De yndieling as FIDE TRF

## The login page after the session ended elsewhere (a close with 4001).
login-session-ended = Dyn oanmelding is einige: do hast dy oeral ôfmeld, dyn wachtwurd is feroare of dyn akkount is sletten. Meld dy opnij oan.

## The match page's sounds and the hidden-tab notice (js/sound.js).
sound-mute = Lûd út
notify-played = { $name } spile { $move }
