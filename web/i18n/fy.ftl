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
web-nav-events = Toernoaien
web-nav-ladder = Ranglist

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

lobby-ftv = Frysk TV
# New with the ratings UI, formed from Dutch usage (rated, frij): review.

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
chat-open = Petear ({ $count })
chat-preset-good_luck = Súkses
chat-preset-have_fun = In protte wille
chat-preset-good_game = Goede partij
chat-preset-well_played = Goed spile
chat-preset-thank_you = Tankewol
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

notice-why = Wêrom?
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

event-kind-round_robin = Rûntetoernoai
event-status-waiting = Noch net begûn

## More time (issue 32)
match-more-time = +15 s
match-refuse-more-time = Gjin +15 s
