# Boardcast, Nederlands: the words only pages loaded on their own use (see pages-en.ftl).

count-plies =
    { $count ->
        [one] { $count } halve zet
       *[other] { $count } halve zetten
    }
count-watching = { $count } kijkers
lobby-heading = Lobby: Fries dammen en MinitChess TV
lobby-title = Fries dammen en MinitChess TV
lobby-anonymous = anoniem
lobby-loading = De lobby wordt geladen…
lobby-unreachable = De server is niet bereikbaar; we proberen het opnieuw…
lobby-your-name = Je naam
lobby-seeks = Open uitdagingen
lobby-live = Lopende partijen
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
chat-players = Chat van de spelers
chat-spectators = Chat van de toeschouwers
chat-say = Zeg
chat-send = Verstuur
chat-placeholder = Zeg iets (hooguit 140 tekens)
chat-presets = Zinnen
chat-preset-hello = Hallo
chat-mute = { $name } voor mij dempen
chat-unmute = { $name } weer tonen
chat-muted = Voor jou gedempt:
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
events-title = Toernooien
events-waiting = Binnenkort
events-playing = Bezig
events-finished = Afgelopen
events-none = Geen.
event-kind-swiss = Zwitsers, { $rounds } ronden
event-kind-double = Dubbel rondetoernooi
event-kind-arena = Arena, { $minutes } minuten
event-rated = met rating
event-casual = zonder rating
event-players =
    { $count ->
        [one] { $count } speler
       *[other] { $count } spelers
    }
event-starts-in = Begint over { $time }
event-ends-in = Eindigt over { $time }
event-status-playing = Wordt gespeeld
event-status-finished = Afgelopen
event-join = Meedoen
event-withdraw = Terugtrekken
event-password = Wachtwoord van het toernooi
event-login-to-join = Log in om mee te doen
event-standings = Stand
event-final = Eindstand
event-col-player = Speler
event-col-rating = Rating
event-col-points = Punten
event-col-sheet = Partijen
event-col-bh = Buchholz
event-col-bh1 = Buchholz -1
event-col-sb = Sonneborn-Berger
event-on-fire = In vorm: de volgende partij telt dubbel
event-withdrawn = teruggetrokken
event-rounds = Ronden
event-round = Ronde { $round }
event-wave = Golf { $round }
event-bye = Vrij: { $name }
event-watch = kijken
event-your-game = Je partij tegen { $name } staat klaar.
event-play = Spelen
event-missing = Dit toernooi bestaat niet.
event-trf = De indeling als FIDE TRF

## The login page after the session ended elsewhere (a close with 4001).
login-session-ended = Je aanmelding is beëindigd: je hebt je overal afgemeld, je wachtwoord is gewijzigd of je account is gesloten. Meld je opnieuw aan.

## The match page's sounds and the hidden-tab notice (js/sound.js).
sound-mute = Geluid uit
notify-played = { $name } speelde { $move }
