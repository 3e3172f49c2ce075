# Boardcast, Frysk. Terms from the Frisian rules as the Dambûn Frysk Spul writes them: see
# GLOSSARY.md, which also lists what a native speaker should review (all of this file is a
# non-native draft).

## Refusals, by the server's error code.

error-malformed = De server koe dat berjocht net lêze.
error-invalid_argument = In wearde yn dat berjocht falt bûten it berik.
error-too_large = Dat berjocht is te grut.
error-unsupported_version = De protokolferzje fan dizze client wurdt net stipe.
error-not_found = Dy partij, dat kanaal of dat plak bestiet net.
error-invalid_token = Dat plak is net fan dy.
error-not_your_turn = Do bist net oan set.
error-illegal_move = Dy set is hjir net neffens de regels.
error-game_over = De partij is út.
error-match_full = Beide plakken binne beset.
error-not_allowed = Dat mei no net.
error-prediction_closed = Foarsizzen foar dy set is sletten.
error-rate_limited = Tefolle berjochten: doch wat rêstiger.
error-busy = De server hat it drok; besykje it letter nochris.
error-shutting_down = De server giet ticht.
error-internal = Der gie wat mis op de server; der is neat feroare.
error-unsupported = De server biedt dat noch net oan.
error-stale_id = Dy opdracht is al beäntwurde.
error-illegal_prediction = Dat is gjin set neffens de regels foar de kant dy't oan set is.
error-address_limit = Dyn adres sit oan in limyt; besykje it letter nochris.
error-storage_unavailable = De databank fan de server is net te berikken; besykje it letter nochris.
error-members_only = Rated spyljen is foar oanmelde leden.
error-chat_muted = In behearder hat dy yn de chat stil makke.
error-chat_too_fast = Te fluch yn de chat: wachtsje in pear sekonden.
error-outside_rating_range = Dyn rating falt bûten it berik fan dizze útdaging.
# De reden fan in wegering binnen har koade, út de `args` fan de server (PROTOCOL.md §12.1).
error-not_your_turn-side_to_move =
    { $side ->
        [white] Do bist net oan set: wyt is oan set.
       *[black] Do bist net oan set: swart is oan set.
    }
error-invalid_argument-not_a_square = { $number } is gjin fjild (1 oant en mei 50).
error-illegal_move-route_too_short = In set hat in begjinfjild en in einfjild nedich.
error-illegal_move-no_piece = Der stiet gjin stik op { $square }.
error-illegal_move-not_your_piece = It stik op { $square } is net fan dy.
error-illegal_move-occupied = Fjild { $square } is beset.
error-illegal_move-not_on_line = { $to } leit net op ien line mei { $from }.
error-illegal_move-not_a_man_move = In houtsje giet ien fjild skean foarút: { $from }-{ $to } is gjin houtsjeset.
error-illegal_move-not_a_king_move = In wolf giet sûnder te slaan allinnich skean: { $from }-{ $to } is gjin wolfset.
error-illegal_move-blocked = De wei fan { $from } nei { $to } is fersperre op { $at }.
error-illegal_move-capture_compulsory = Slaan is ferplichte (bygelyks { $example }).
error-illegal_move-nothing_captured = { $from }x{ $to } slacht gjin stik.
error-illegal_move-own_piece = Do kinst net oer dyn eigen stik op { $square } springe.
error-illegal_move-already_captured = It stik op { $square } is yn dizze slach al slein en kin net nochris nommen wurde.
error-illegal_move-two_pieces = { $from }x{ $to } soe oer twa stikken tagelyk springe.
error-illegal_move-man_too_far = In houtsje slacht allinnich in stik dat dêrneist stiet: { $from }x{ $to } is te lang.
error-illegal_move-must_continue = De slach moat fierder gean fan { $square } ôf.
error-illegal_move-lower_value = Der is in slach fan hegere wearde: { $example } slacht { $best }, dizze slacht { $taken }. In wolf telt as oardel houtsje.
error-illegal_move-king_precedence = By gelikense wearde slacht de wolf earst (bygelyks { $example }).
error-illegal_move-king_frozen = De wolf op { $square } hat trije kear efterinoar set: set in oar stik.
error-illegal_move-not_legal = Dy set is hjir net neffens de regels.
error-game_over-game_over = De partij is út.
error-game_over-time_ran_out = Dyn tiid is om.
error-not_allowed-not_started = De partij is noch net begûn: wachtsje op in tsjinstanner.
error-not_allowed-draw_offer_stands = Dyn remise-oanbod stiet al.
error-not_allowed-no_draw_offer = Dyn tsjinstanner hat gjin remise oanbean.
error-stale_id-not_above_last = Opdracht { $id } leit net boppe { $last_id }, de lêste dy't foar dyn plak útfierd is.
error-prediction_closed-already_revealed = Heale set { $ply } is al bekend; de folgjende is { $next }.
error-prediction_closed-not_coming = Heale set { $ply } is net de folgjende; de folgjende is { $next }.
error-address_limit-per_minute = Dyn adres sit oan de limyt fan { $limit } yn 'e minút; besykje it oer { $retry_after_s } s nochris.
error-address_limit-waiting = Dyn adres hat al { $limit } partijen dy't op in tsjinstanner wachtsje: spylje of stopje der earst ien.
error-busy-engine_games =
    { $count ->
        [one] Der rint { $count } enginepartij; besykje it letter nochris.
       *[other] Der rinne { $count } enginepartijen; besykje it letter nochris.
    }
# Wat in slach nimt, yn in wegering: "2 houtsjes", "1 wolf en 1 houtsje".
taken-kings =
    { $count ->
        [one] { $count } wolf
       *[other] { $count } wolven
    }
taken-men =
    { $count ->
        [one] { $count } houtsje
       *[other] { $count } houtsjes
    }
taken-both = { $kings } en { $men }

## The web client.

web-language = Taal
web-nav-lobby = Lobby
web-nav-tv = TV

## Words both pages share: sides, pieces, presence, counts.

side-white = wyt
side-black = swart
side-white-title = Wyt
side-black-title = Swart
piece-wm = wyt houtsje
piece-wk = wite wolf
piece-bm = swart houtsje
piece-bk = swarte wolf
player-guest = (gast)
player-bot = in engine spilet dit plak
presence-connected = online
presence-connected-title = ferbûn
presence-gone = fuort
presence-free = plak frij
conn-connecting = ferbine…
conn-online = online
conn-offline = offline — op 'e nij ferbine…
tc-untimed = sûnder klok
list-or = { $first } of { $last }
count-plies =
    { $count ->
        [one] { $count } heale set
       *[other] { $count } heale setten
    }
count-watching = { $count } sjoggers

## The header's account corner and pages without a place.

who-login = Ynlogge
who-signup = Oanmelde
who-menu = Accountmenu fan { $name }
who-profile = Profyl en partijen
who-account = Account en wachtwurd
who-logout = Útlogge
who-logout-all = Oeral útlogge
who-tokens = Tagongskaaien
missing-title = Hjir is neat
missing-text = Dit adres toant gjin side.
missing-lobby = Nei de lobby
page-loading = Laden…
page-load-failed = Dizze side koe net laden wurde; laad opnij om it nochris te besykjen.
invite-title = Do bist útnoege foar in partij Frysk damjen
invite-name = Dyn namme, sa't dyn tsjinstanner en it partijferslach him sjen litte
invite-take = Nim it plak yn
invite-taking = It plak wurdt ynnommen…
invite-page-title = Útnoege foar in partij

ftv-live = de meast besjoene rinnende partij, dêrnei de folgjende as dy foarby is
ftv-ended = dizze partij is foarby; de folgjende rinnende partij folget sa gau't der ien spile wurdt
ftv-none = Der wurdt noch gjin iepenbiere partij spile; TV begjint mei de earste.

## The lobby and its forms.

lobby-heading = Lobby: Frysk damjen en MinitChess TV
lobby-title = Frysk damjen en MinitChess TV
lobby-anonymous = anonym
lobby-loading = De lobby wurdt laden…
lobby-unreachable = De server is net te berikken; wy besykje it op 'e nij…
lobby-your-name = Dyn namme
lobby-seeks = Iepen útdagings
lobby-live = Rinnende partijen
lobby-ftv = Frysk TV
lobby-ftv-what = de meast besjoene rinnende partij
lobby-minit-tv = MinitChess TV
lobby-players = Spilers yn 'e lobby
lobby-join = Meidwaan
# New with the ratings UI, formed from Dutch usage (rated, frij): review.
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

## The match page.

match-heading = Partij Frysk damjen
match-loading = De partij wurdt laden…
match-connecting = Ferbine…
match-clock = klok
match-clock-of = klok fan { $side }
match-invite = Noegje in freon út:
match-copy-link = Keppeling kopiearje
match-choose-route = Kies de slachrûte
match-move = Set
match-move-placeholder = 32-28 of 19x30
match-play = Spylje
match-moves = Setten
match-step = Troch de setten blêdzje
match-first = Begjinstân
match-prev = Foarige set
match-next = Folgjende set
match-last = Hjoeddeistige stân
match-abort = Ofbrekke
match-offer-draw = Remise oanbiede
match-accept-draw = Remise oannimme
match-decline-draw = Remise ôfwize
match-resign = Opjaan
match-confirm-resign = Ja, opjaan
match-cancel = Annulearje
match-claim-win = Winst opeaskje
match-claim-draw = Remise ferklearje
match-rematch = Revanche
match-accept-rematch = Revanche oannimme
match-decline-rematch = Revanche ôfwize
match-to-rematch = Nei de revanche
match-download-pdn = PDN downloade
match-tools = Boerdark
match-flip = Boerd omdraaie
match-numbers = Fjildnûmers
match-copy-fen = FEN kopiearje
match-actions = Partijaksjes
match-watching = sjoggers:
match-waiting-for = wachtsje op { $side }…
match-you = (do)
match-first-move-you = Do moatst sette binnen { $left }
match-first-move = { $side } moat sette binnen { $left }
match-left-claim-in = { $side } is fuort: do kinst de partij opeaskje oer { $seconds }
match-gone-claim = { $side } is fuort: easkje de winst op of ferklearje remise
# New with the ratings UI, formed from Dutch usage (rated, frij): review.
match-left-claim-in-paused = { $side } is fuort: do kinst de partij opeaskje oer { $seconds } (stil wylst do oan set bist)
match-signal = ferbining: { $ms } ms
match-signal-title = ferbining: { $ms } ms hinne en werom
match-takes = slacht { $squares }
chat-players = Chat fan de spilers
chat-spectators = Chat fan de taskôgers
chat-say = Sis
chat-send = Ferstjoer
chat-placeholder = Sis wat (op syn heechst 140 tekens)
chat-presets = Sinnen
chat-preset-hello = Hoi
chat-preset-good_luck = Súkses
chat-preset-have_fun = In protte wille
chat-preset-good_game = Goede partij
chat-preset-well_played = Goed spile
chat-preset-thank_you = Tankewol
chat-mute = { $name } foar my dimje
chat-unmute = { $name } wer sjen litte
chat-muted = Foar dy dimme:
board-name = Frysk damboerd
board-label = Frysk damboerd, { $side } oan set
board-label-past = Frysk damboerd, { $side } oan set (nei heale set { $ply })
board-square = fjild { $n }
board-move-here = set hjirhinne
status-past = Stân nei heale set { $ply } — druk op End om werom te gean
status-waiting-you = Do spilest mei { $side }. Wachtsje op in tsjinstanner…
status-waiting = Wachtsje op in twadde spiler…
status-over = Partij foarby
status-you-play = Do spilest mei { $side }.
status-first-move-due = Doch gau dyn earste set, oars wurdt de partij ôfbrutsen.
status-your-turn = Do bist oan set.
status-their-turn = Wachtsje op dyn tsjinstanner.
status-to-move = { $side } is oan set
title-your-turn = Do bist oan set
title-their-turn = Wachtsje op tsjinstanner
offer-draw-sent = Remise-oanbod ferstjoerd
offer-draw = { $side } biedt remise oan
offer-rematch-agreed = Revanche ôfpraat
offer-rematch-sent = Revanche oanbean
offer-rematch = { $side } biedt in revanche oan
result-aborted = Ofbrutsen
result-no-result = gjin útslach
result-victorious = { $side } wint
result-draw = Remise
result-rating = { $side } { $rating }
reason-no_legal_move = gjin jildige set mear
reason-resignation = opjefte
reason-time_forfeit = tiid om
reason-draw_by_rule = remise neffens it reglemint
reason-draw_by_agreement = remise yn oerlis
reason-aborted = partij ôfbrutsen
reason-abandoned = tsjinstanner fuortgien (winst opeaske)
reason-draw_claimed = tsjinstanner fuortgien (remise ferklearre)

## Notices under the board and the name field.

notice-not-sent = gjin ferbining: dit is net ferstjoerd; besykje it op 'e nij ast online bist
# New with the ratings UI, formed from Dutch usage (rated, frij): review.
notice-play-now-members = No spylje keppelet leden: meld dy oan of skriuw dy yn om rated te spyljen.
notice-sent-when-online = ferbine… dit wurdt ferstjoerd sa gau't de server antwurdet
notice-give-name = jou dyn namme: 1 oant 32 tekens
notice-custom-time = eigen tempo: jou minuten en taslach (net beide 0)
notice-must-capture = { $squares } moat slaan
notice-no-legal-move = { $square } hat gjin jildige set
notice-not-a-move = "{ $text }" is gjin set: skriuw him as 32-28 of 19x30
notice-only-players = allinnich de spilers kinne sette
notice-choose-route = mear slaggen komme dêr út: kies de rûte
notice-copied = kopiearre: { $value }
notice-copy-this = kopiearje dit: { $value }
notice-server = server: { $reason }
notice-draw-declined = dyn remise-oanbod is ôfwiisd
notice-draw-lapsed = dyn remise-oanbod is ferfallen: dyn tsjinstanner die in set
notice-rematch-declined = dyn revanche-oanbod is ôfwiisd
notice-name-refused = namme net oannommen: { $reason }
name-empty = in namme hat op syn minst ien sichtber teken nedich
name-too-long = in namme hat op syn heechst 32 tekens; dizze hat der { $count }
name-control = in namme mei gjin stjoertekens befetsje, lykas tabs of rigeleinen

## The MinitChess TV page (skaakwurden: MinitChess is skaken op in boerd fan 5×6).

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
minit-piece-wK = wite kening
minit-piece-wQ = wite keninginne
minit-piece-wR = wite toer
minit-piece-wB = wite loper
minit-piece-wN = wyt hynder
minit-piece-wP = wite pion
minit-piece-bK = swarte kening
minit-piece-bQ = swarte keninginne
minit-piece-bR = swarte toer
minit-piece-bB = swarte loper
minit-piece-bN = swart hynder
minit-piece-bP = swarte pion

## Club events: `/events`, `/e/{id}` and `boardcast events` / `boardcast event ID` (issue 33).

events-title = Toernoaien
events-waiting = Aanstens
events-playing = Dwaande
events-finished = Ofrûn
events-none = Gjin.
event-kind-swiss = Switsersk, { $rounds } rûnen
event-kind-round_robin = Rûntetoernoai
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
event-status-waiting = Noch net begûn
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
