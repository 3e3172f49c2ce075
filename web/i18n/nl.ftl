# Boardcast, Nederlands. Draughts terms as the KNDB and the clubs use them: see GLOSSARY.md.

## Refusals, by the server's error code.

error-malformed = De server kon dat bericht niet lezen.
error-invalid_argument = Een waarde in dat bericht valt buiten het bereik.
error-too_large = Dat bericht is te groot.
error-unsupported_version = De protocolversie van deze client wordt niet ondersteund.
error-not_found = Die partij, dat kanaal, die enginepartij of plaats bestaat niet.
error-invalid_token = Die plaats is niet van jou.
error-not_your_turn = Je bent niet aan zet.
error-illegal_move = Die zet is hier niet reglementair.
error-game_over = De partij is afgelopen.
error-match_full = Beide plaatsen zijn bezet.
error-not_allowed = Dat mag nu niet.
error-prediction_closed = Voorspellen voor die zet is gesloten.
error-rate_limited = Te veel berichten: doe rustiger aan.
error-busy = De server is druk; probeer het later opnieuw.
error-shutting_down = De server wordt afgesloten.
error-internal = Er ging iets mis op de server; er is niets veranderd.
error-unsupported = De server biedt dat nog niet aan.
error-stale_id = Die opdracht is al beantwoord.
error-illegal_prediction = Dat is geen reglementaire zet voor de kleur die aan zet is.
error-address_limit = Je adres zit aan een limiet; probeer het later opnieuw.
error-storage_unavailable = De database van de server is onbereikbaar; probeer het later opnieuw.
error-members_only = Rated spelen is voor aangemelde leden.
error-chat_muted = Een beheerder heeft je in de chat gedempt.
error-chat_too_fast = Te snel in de chat: wacht een paar seconden.
error-outside_rating_range = Je rating valt buiten het bereik van deze uitdaging.
# De reden van een weigering binnen haar code, uit de `args` van de server (PROTOCOL.md §12.1).
error-not_your_turn-side_to_move =
    { $side ->
        [white] Je bent niet aan zet: wit is aan zet.
       *[black] Je bent niet aan zet: zwart is aan zet.
    }
error-invalid_argument-not_a_square = { $number } is geen veld (1 tot en met 50).
error-illegal_move-route_too_short = Een zet heeft een beginveld en een eindveld nodig.
error-illegal_move-no_piece = Er staat geen stuk op { $square }.
error-illegal_move-not_your_piece = Het stuk op { $square } is niet van jou.
error-illegal_move-occupied = Veld { $square } is bezet.
error-illegal_move-not_on_line = { $to } ligt niet op één lijn met { $from }.
error-illegal_move-not_a_man_move = Een schijf gaat één veld schuin vooruit: { $from }-{ $to } is geen schijfzet.
error-illegal_move-not_a_king_move = Een dam gaat zonder te slaan alleen schuin: { $from }-{ $to } is geen damzet.
error-illegal_move-blocked = De weg van { $from } naar { $to } is versperd op { $at }.
error-illegal_move-capture_compulsory = Slaan is verplicht (bijvoorbeeld { $example }).
error-illegal_move-nothing_captured = { $from }x{ $to } slaat geen stuk.
error-illegal_move-own_piece = Je kunt niet over je eigen stuk op { $square } springen.
error-illegal_move-already_captured = Het stuk op { $square } is in deze slag al geslagen en kan niet nog eens worden genomen.
error-illegal_move-two_pieces = { $from }x{ $to } zou over twee stukken tegelijk springen.
error-illegal_move-man_too_far = Een schijf slaat alleen een stuk dat ernaast staat: { $from }x{ $to } is te lang.
error-illegal_move-must_continue = De slag moet doorgaan vanaf { $square }.
error-illegal_move-lower_value = Er is een slag van hogere waarde: { $example } slaat { $best }, deze slaat { $taken }. Een dam telt als anderhalve schijf.
error-illegal_move-king_precedence = Bij gelijke waarde slaat de dam eerst (bijvoorbeeld { $example }).
error-illegal_move-king_frozen = De dam op { $square } heeft drie keer achter elkaar gezet: zet een ander stuk.
error-illegal_move-not_legal = Die zet is hier niet reglementair.
error-game_over-game_over = De partij is afgelopen.
error-game_over-time_ran_out = Je tijd is om.
error-not_allowed-not_started = De partij is nog niet begonnen: wachten op een tegenstander.
error-not_allowed-draw_offer_stands = Je remiseaanbod staat al.
error-not_allowed-no_draw_offer = Je tegenstander heeft geen remise aangeboden.
error-stale_id-not_above_last = Opdracht { $id } ligt niet boven { $last_id }, de laatste die voor jouw plaats is uitgevoerd.
error-prediction_closed-already_revealed = Halve zet { $ply } is al bekend; de volgende is { $next }.
error-prediction_closed-not_coming = Halve zet { $ply } is niet de volgende; de volgende is { $next }.
error-address_limit-per_minute = Je adres zit aan de limiet van { $limit } per minuut; probeer het over { $retry_after_s } s opnieuw.
error-address_limit-waiting = Je adres heeft al { $limit } partijen die op een tegenstander wachten: speel of stop er eerst een.
error-busy-engine_games =
    { $count ->
        [one] Er loopt { $count } enginepartij; probeer het later opnieuw.
       *[other] Er lopen { $count } enginepartijen; probeer het later opnieuw.
    }
# Wat een slag neemt, in een weigering: "2 schijven", "1 dam en 1 schijf".
taken-kings =
    { $count ->
        [one] { $count } dam
       *[other] { $count } dammen
    }
taken-men =
    { $count ->
        [one] { $count } schijf
       *[other] { $count } schijven
    }
taken-both = { $kings } en { $men }

## The web client.

web-language = Taal
web-nav-lobby = Lobby
web-nav-tv = TV
web-nav-events = Toernooien
web-nav-ladder = Ranglijst

## Words both pages share: sides, pieces, presence, counts.

side-white = wit
side-black = zwart
side-white-title = Wit
side-black-title = Zwart
piece-wm = witte schijf
piece-wk = witte dam
piece-bm = zwarte schijf
piece-bk = zwarte dam
player-guest = (gast)
player-bot = een engine speelt deze plaats
presence-connected = online
presence-connected-title = verbonden
presence-gone = weg
presence-free = plaats vrij
conn-connecting = verbinden…
conn-online = online
conn-offline = offline — opnieuw verbinden…
tc-untimed = zonder klok
list-or = { $first } of { $last }

## The header's account corner and pages without a place.

who-login = Inloggen
who-signup = Aanmelden
who-menu = Accountmenu van { $name }
who-profile = Profiel en partijen
who-account = Account en wachtwoord
who-logout = Uitloggen
who-logout-all = Overal uitloggen
who-tokens = Toegangssleutels
missing-title = Hier is niets
missing-text = Dit adres toont geen pagina.
missing-lobby = Naar de lobby
page-loading = Laden…
page-load-failed = Deze pagina kon niet geladen worden; herlaad om het opnieuw te proberen.
invite-title = Je bent uitgenodigd voor een partij Fries dammen
invite-name = Je naam, zoals je tegenstander en het partijverslag hem tonen
invite-take = Neem de plaats in
invite-taking = De plaats wordt ingenomen…
invite-page-title = Uitgenodigd voor een partij

ftv-live = de best bekeken lopende partij, daarna de volgende als die afloopt
ftv-ended = deze partij is afgelopen; de volgende lopende partij volgt zodra er een gespeeld wordt
ftv-none = Er wordt nog geen openbare partij gespeeld; TV begint met de eerste.

## The lobby and its forms.

lobby-ftv = Fries TV

## The match page.

match-heading = Partij Fries dammen
match-loading = De partij wordt geladen…
match-connecting = Verbinden…
match-clock = klok
match-clock-of = klok van { $side }
match-invite = Nodig een vriend uit:
match-copy-link = Link kopiëren
match-choose-route = Kies de slagroute
match-move = Zet
match-move-placeholder = 32-28 of 19x30
match-play = Spelen
match-moves = Zetten
match-step = Door de zetten bladeren
match-first = Beginstand
match-prev = Vorige zet
match-next = Volgende zet
match-last = Huidige stand
match-abort = Afbreken
match-offer-draw = Remise aanbieden
match-accept-draw = Remise aannemen
match-decline-draw = Remise weigeren
match-resign = Opgeven
match-confirm-resign = Ja, opgeven
match-cancel = Annuleren
match-claim-win = Winst opeisen
match-claim-draw = Remise verklaren
match-rematch = Revanche
match-accept-rematch = Revanche aannemen
match-decline-rematch = Revanche weigeren
match-to-rematch = Naar de revanche
match-download-pdn = PDN downloaden
match-tools = Bordgereedschap
match-flip = Bord draaien
match-numbers = Veldnummers
match-copy-fen = FEN kopiëren
match-actions = Partijacties
match-watching = kijkers:
match-waiting-for = wachten op { $side }…
match-you = (jij)
match-first-move-you = Je moet zetten binnen { $left }
match-first-move = { $side } moet zetten binnen { $left }
match-left-claim-in = { $side } is weg: je kunt de partij opeisen over { $seconds }
match-gone-claim = { $side } is weg: eis de winst op of verklaar remise
match-left-claim-in-paused = { $side } is weg: je kunt de partij opeisen over { $seconds } (gepauzeerd terwijl jij aan zet bent)
match-signal = verbinding: { $ms } ms
match-signal-title = verbinding: { $ms } ms heen en terug
match-takes = slaat { $squares }
chat-open = Chat ({ $count })
chat-preset-good_luck = Veel succes
chat-preset-have_fun = Veel plezier
chat-preset-good_game = Goede partij
chat-preset-well_played = Goed gespeeld
chat-preset-thank_you = Dank je
board-name = Fries dambord
board-label = Fries dambord, { $side } aan zet
board-label-past = Fries dambord, { $side } aan zet (na halve zet { $ply })
board-square = veld { $n }
board-move-here = zet hierheen
status-past = Stand na halve zet { $ply } — druk op End om terug te gaan
status-waiting-you = Je speelt met { $side }. Wachten op een tegenstander…
status-waiting = Wachten op een tweede speler…
status-over = Partij afgelopen
status-you-play = Je speelt met { $side }.
status-first-move-due = Doe snel je eerste zet, anders wordt de partij afgebroken.
status-your-turn = Je bent aan zet.
status-their-turn = Wachten op je tegenstander.
status-to-move = { $side } is aan zet
title-your-turn = Jij bent aan zet
title-their-turn = Wachten op tegenstander
offer-draw-sent = Remiseaanbod verstuurd
offer-draw = { $side } biedt remise aan
offer-rematch-agreed = Revanche afgesproken
offer-rematch-sent = Revanche aangeboden
offer-rematch = { $side } biedt een revanche aan
result-aborted = Afgebroken
result-no-result = geen uitslag
result-victorious = { $side } wint
result-draw = Remise
result-rating = { $side } { $rating }
reason-no_legal_move = geen geldige zet meer
reason-resignation = opgave
reason-time_forfeit = tijd verstreken
reason-draw_by_rule = remise volgens het reglement
reason-draw_by_agreement = remise in onderling overleg
reason-aborted = partij afgebroken
reason-abandoned = tegenstander vertrokken (winst opgeëist)
reason-draw_claimed = tegenstander vertrokken (remise verklaard)

## Notices under the board and the name field.

notice-why = Waarom?
notice-not-sent = geen verbinding: dit is niet verstuurd; probeer het opnieuw als je online bent
notice-play-now-members = Nu spelen koppelt leden: log in of meld je aan om rated te spelen.
notice-sent-when-online = verbinden… dit wordt verstuurd zodra de server antwoordt
notice-give-name = geef je naam: 1 tot 32 tekens
notice-custom-time = eigen tempo: geef minuten en toeslag (niet allebei 0)
notice-must-capture = { $squares } moet slaan
notice-no-legal-move = { $square } heeft geen geldige zet
notice-not-a-move = "{ $text }" is geen zet: schrijf hem als 32-28 of 19x30
notice-only-players = alleen de spelers kunnen zetten
notice-choose-route = meerdere slagen komen daar uit: kies de route
notice-copied = gekopieerd: { $value }
notice-copy-this = kopieer dit: { $value }
notice-server = server: { $reason }
notice-draw-declined = je remiseaanbod is geweigerd
notice-draw-lapsed = je remiseaanbod is vervallen: je tegenstander deed een zet
notice-rematch-declined = je revancheaanbod is geweigerd
notice-name-refused = naam niet aangenomen: { $reason }
name-empty = een naam heeft minstens één zichtbaar teken nodig
name-too-long = een naam heeft hoogstens 32 tekens; deze heeft er { $count }
name-control = een naam mag geen stuurtekens bevatten, zoals tabs of regeleinden

## The MinitChess TV page (schaaktermen: MinitChess is schaken op een bord van 5×6).

minit-piece-wK = witte koning
minit-piece-wQ = witte dame
minit-piece-wR = witte toren
minit-piece-wB = witte loper
minit-piece-wN = wit paard
minit-piece-wP = witte pion
minit-piece-bK = zwarte koning
minit-piece-bQ = zwarte dame
minit-piece-bR = zwarte toren
minit-piece-bB = zwarte loper
minit-piece-bN = zwart paard
minit-piece-bP = zwarte pion

## Club events: `/events`, `/e/{id}` and `boardcast events` / `boardcast event ID` (issue 33).

event-kind-round_robin = Rondetoernooi
event-status-waiting = Nog niet begonnen

## More time (issue 32)
match-more-time = +15 s
match-refuse-more-time = Geen +15 s
