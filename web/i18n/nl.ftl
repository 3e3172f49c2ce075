# Boardcast, Nederlands. Draughts terms as the KNDB and the clubs use them: see GLOSSARY.md.


## The terminal client's help overlay (`?`).

help-title = toetsen
help-close = elke toets sluit
help-more = … nog { $count }: een hogere terminal toont ze
help-home-switch = andere lijst: uitdagingen, lopende partijen, kanalen
help-home-select = kiezen
help-home-join = uitdaging aannemen / partij of kanaal bekijken
help-home-predict = voorspel het gekozen kanaal
help-home-new = nieuwe partij: bedenktijd, kleur, openbaar of privé
help-home-play-now = nu spelen: een rated partij tegen een lid met een rating dicht bij de jouwe
help-home-invite = privépartij openen met uitnodigingscode
help-home-engine = computerpartij starten (serie, engines, seeds) en voorspellen
help-home-tv = kijk naar tv-kanaal 1
help-home-ftv = kijk naar Friese tv (de best bekeken lopende partij)
help-home-resume = hervat de bewaarde plaats
help-home-refresh = vernieuwen
help-home-quit = stoppen
help-match-type = typ een zet; Tab vult aan, Enter speelt
help-match-cursor = cursor verplaatsen
help-match-pick = kies het stuk, dan het doelveld (of klik)
help-match-route = kies de slagroute (slag gemarkeerd)
help-match-clear = invoer en keuze wissen
help-match-resign = opgeven (vraagt bevestiging)
help-match-abort = afbreken, alleen voor beider eerste zet
help-match-draw = remise aanbieden of aannemen / weigeren
help-match-rematch = revanche aanbieden of aannemen / weigeren
help-match-claim = winst / remise opeisen: tegenstander weg
help-match-step = door de zetten bladeren (End: de partij)
help-match-view = veldnummers, bord draaien, letterstukken
help-match-save = PDN bewaren (--save-pdn MAP, of hier)
help-match-chat = chat: typ een regel (leden) of kies een zin
help-match-back = terug naar het beginscherm (de plaats blijft bewaard)
help-channel-cursor = cursor verplaatsen
help-channel-pick = kies het veld van vertrek, dan het veld van aankomst (of een klik)
help-channel-guess = typ een voorspelling voor de komende zet
help-channel-predict = voorspellen aan of uit
help-channel-pieces = stukken als figuren (FULL) of letters (FLAT)
help-channel-leaders = ranglijst van alle voorspellingen, met je eigen plaats
help-channel-clear = invoer en gekozen veld wissen
help-channel-back = terug naar het beginscherm (of stoppen, gestart als `boardcast tv`)

## Refusals, by the server's error code.

error-malformed = De server kon dat bericht niet lezen.
error-invalid_argument = Een waarde in dat bericht valt buiten het bereik.
error-too_large = Dat bericht is te groot.
error-unsupported_version = De protocolversie van deze client wordt niet ondersteund.
error-not_found = Die partij, dat kanaal, die computerpartij of plaats bestaat niet.
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

## The web client.

web-language = Taal
web-nav-lobby = Lobby
web-nav-tv = Tv

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
count-plies =
    { $count ->
        [one] { $count } halve zet
       *[other] { $count } halve zetten
    }
count-watching = { $count } kijkers

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

lobby-heading = Lobby: Fries dammen en MinitChess TV
lobby-title = Fries dammen en MinitChess TV
lobby-anonymous = anoniem
lobby-loading = De lobby wordt geladen…
lobby-unreachable = De server is niet bereikbaar; we proberen het opnieuw…
lobby-your-name = Je naam
lobby-seeks = Open uitdagingen
lobby-live = Lopende partijen
lobby-ftv = Fries TV
lobby-ftv-what = de best bekeken lopende partij
lobby-minit-tv = MinitChess TV
lobby-players = Spelers in de lobby
lobby-join = Meedoen
lobby-seek-rated = rated
lobby-seek-rated-range = rated ±{ $range }
lobby-seek-casual = vrij
play-now-title = Nu spelen
play-now-cancel = Annuleren
play-now-hint = Een rated partij tegen een lid met een rating dicht bij de jouwe, binnen seconden gevonden.
play-now-members-only = Nu spelen koppelt leden voor rated partijen:
play-now-looking = Tegenstander zoeken voor { $preset }…
form-game = Partij
form-casual = vrij
form-rated-members = rated (leden)
form-opponent-rating = Rating tegenstander
form-range-open = open voor iedereen
lobby-no-seeks = Geen open uitdagingen: maak er een.
lobby-no-live = Er wordt geen openbare partij gespeeld.
lobby-between-games = tussen twee partijen
lobby-nobody = Niemand zoekt of speelt op dit moment.
form-new-match = Nieuwe partij
form-time-control = Bedenktijd
form-blitz = snel
form-custom = eigen tempo…
form-minutes = Minuten
form-increment = Toeslag (s)
form-colour = Je kleur
form-random = willekeurig
form-private = Privé (alleen via de uitnodigingslink)
form-create = Partij maken
form-hint = Fries dammen: stukken slaan ook recht vooruit en opzij.
form-engine-title = Bekijk een enginepartij
form-serial = Serienummer
form-white-engine = Engine met wit
form-black-engine = Engine met zwart
form-pace = Seconden per halve zet
form-reveal = Tonen vanaf halve zet
form-start = Starten

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
chat-players = Chat van de spelers
chat-spectators = Chat van de toeschouwers
chat-say = Zeg
chat-send = Verstuur
chat-placeholder = Zeg iets (hooguit 140 tekens)
chat-presets = Zinnen
chat-preset-hello = Hallo
chat-preset-good_luck = Veel succes
chat-preset-have_fun = Veel plezier
chat-preset-good_game = Goede partij
chat-preset-well_played = Goed gespeeld
chat-preset-thank_you = Dank je
chat-mute = { $name } voor mij dempen
chat-unmute = { $name } weer tonen
chat-muted = Voor jou gedempt:
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

minit-board = MinitChess-bord
minit-ply = Halve zet
minit-revealed = Getoonde zetten
minit-hint = Voorspel de komende zet: klik op een stuk, dan op zijn veld.
minit-this-game = Deze partij
minit-leaderboard = Ranglijst
minit-predict-here = voorspel deze zet
minit-loading = Laden…
minit-headline = Wit { $white } tegen zwart { $black } · serienummer { $serial } · partij { $game }
minit-reveal-in = zet { $move } ({ $side }) getoond over { $seconds } s
minit-next-game = volgende partij over { $seconds } s
minit-wins = { $side } wint
minit-your-score = Je score deze partij: { $correct } goed, { $strikes }
minit-score = { $correct } goed, { $strikes }
minit-strikes =
    { $count ->
        [one] { $count } fout
       *[other] { $count } fouten
    }
minit-in-games =
    { $count ->
        [one] in { $count } partij
       *[other] in { $count } partijen
    }
minit-no-predictions = Nog geen voorspellingen.
minit-no-standings = De stand verschijnt als de partij afgelopen is.
minit-guess-waiting = Je gok voor halve zet { $ply }: { $guess }
minit-guess-right = Goed! { $actual }
minit-guess-wrong = Fout: jij zei { $guess }, het was { $actual }
minit-no-game = Nu valt er geen partij te voorspellen
minit-guess = Raad halve zet { $ply }: klik op een stuk, dan waar het heen gaat
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

## The terminal client's home screen.

home-hello = Boardcast — hallo, { $name }
home-stored-seat = bewaarde plaats: { $match } met { $side } — R hervat hem
home-prompt-keys = Enter, Esc annuleert
home-channels = TV en enginepartijen
home-hint-list = Tab/←→ lijst
home-hint-select = ↑↓ kiezen
home-hint-join = Enter meedoen/kijken
home-hint-predict = p voorspellen
home-hint-new = c nieuwe partij
home-hint-play-now = n nu spelen
home-hint-code = i met code meedoen
home-hint-engine = e enginepartij
home-hint-tv = t TV
home-hint-ftv = f Fries TV
home-hint-resume = R hervatten
home-hint-refresh = r verversen
home-hint-help = ? hulp
home-hint-quit = q stoppen
home-form-title = nieuwe partij
home-form-time = tempo
home-form-colour = kleur
home-form-seek = zichtbaar
home-form-custom = eigen
home-form-public = openbaar (als open uitdaging)
home-form-private = privé (alleen met code)
home-form-keys = ↑↓ kiezen  ←→ wijzigen  Enter maken  Esc annuleren
home-play-now-keys = ←→ of 1–5 bedenktijd  Enter spelen  Esc terug
home-play-now-waiting-keys = Esc stopt met zoeken
