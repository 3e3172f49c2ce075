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
lobby-rules = Nieuw in het Fries dammen? De spelregels, met stellingen om door te lopen
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
events-pages = Pagina's met afgelopen toernooien
events-none-waiting = Er staat geen toernooi gepland.
events-none-playing = Er loopt nu geen toernooi.
events-none-finished = Er is nog geen toernooi afgelopen.
events-about = De toernooien van de club: Zwitsers, rondetoernooi en arena. Open er een om de spelers, de indeling en de stand te zien, en doe daar als lid mee: aan een rondetoernooi tot het begint, aan een Zwitsers toernooi tot de laatste ronde, aan een arena zolang die loopt.
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
event-rejoin = Opnieuw meedoen
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
event-col-bh-short = BH
event-col-bh1-short = BH-1
event-col-sb-short = SB
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
## The form that creates an event (pages/event-form.js), for organisers.
event-form-title = Nieuw toernooi
event-form-name = Naam
event-form-kind = Soort
event-form-kind-arena = Arena
event-form-kind-swiss = Zwitsers
event-form-kind-round_robin = Rondetoernooi
event-form-minutes = Minuten per speler
event-form-increment = Seconden erbij per zet
event-form-length = Duur van de arena (minuten)
event-form-rounds = Ronden
event-form-double = Dubbel rondetoernooi (elk paar speelt twee keer, met omgekeerde kleuren)
event-form-rated = Met rating
event-form-start = Begin (leeg: nu)
event-form-password = Wachtwoord (niet verplicht: een besloten toernooi)
event-form-min-games = Minimaal aantal partijen met rating
event-form-rating-min = Laagste rating
event-form-rating-max = Hoogste rating
event-form-create = Toernooi aanmaken
event-form-created = Het toernooi is aangemaakt.
event-form-error-name = Geef een naam van 1 tot { $max } tekens.
event-form-error-time = 1 tot { $max } minuten, en 0 tot { $increment } seconden erbij per zet.
event-form-error-length = Een arena duurt { $min } tot { $max } minuten.
event-form-error-rounds = Een Zwitsers toernooi heeft 1 tot { $max } ronden.
event-form-error-start = Het begin ligt tussen nu en { $days } dagen vooruit.
event-form-error-password = Een wachtwoord heeft { $min } tot { $max } tekens.
event-form-error-min-games = 0 tot { $max } partijen met rating.
event-form-error-rating = Ratings van 0 tot { $max }, de laagste niet boven de hoogste.
## An arena game's berserk button (render/berserk.js), on the match page.
match-berserk = Berserk
match-berserk-title = Halve bedenktijd en geen increment, vóór je eerste zet; een winst van 14 halve zetten of meer levert een punt extra op
match-berserked = { $name } ging berserk

## The login page after the session ended elsewhere (a close with 4001).
login-session-ended = Je aanmelding is beëindigd: je hebt je overal afgemeld, je wachtwoord is gewijzigd of je account is gesloten. Meld je opnieuw aan.

## The account pages (js/pages/account.js) and their forms' answers (js/account.js).
account-login-title = Inloggen
account-signup-title = Aanmelden
account-create = Account aanmaken
account-name = Gebruikersnaam
account-password = Wachtwoord
account-password-again = Wachtwoord nogmaals
account-no-account = Nog geen account?
account-member-already = Al lid?
account-forgot = Wachtwoord vergeten? Een clubbeheerder kan het opnieuw instellen.
account-name-hint = 2 tot 20 letters, cijfers, _ of -; niemand anders kan hem nemen.
account-password-hint = Minstens { $count } tekens; veelgebruikte of makkelijk te raden wachtwoorden worden geweigerd.
account-signup-hint = Geen e-mail nodig. Gasten kunnen zonder account blijven spelen.
account-logged-in-as = Je bent ingelogd als { $name }.
account-title = Je account
account-who-member = Ingelogd als { $name }.
account-who-bot = Ingelogd als { $name } (botaccount).
account-who-admin = Ingelogd als { $name } (clubbeheerder).
account-your-profile = Je profiel en partijen
account-change-password = Wachtwoord wijzigen
account-current-password = Huidig wachtwoord
account-new-password = Nieuw wachtwoord
account-new-password-again = Nieuw wachtwoord nogmaals
account-change-logs-out = Wijzigen logt elk ander apparaat uit.
account-sessions = Sessies
account-sessions-before = Overal uitloggen beëindigt elke aanmelding van je account, in browsers en in
account-sessions-after = ook. Toegangssleutels die je op naam hebt gemaakt blijven tot je ze intrekt.
account-guest-account = Log in om je account te zien.
account-guest-tokens = Log in om je toegangssleutels te zien.
account-tokens-title = Persoonlijke toegangssleutels
account-token-about-before = Met een sleutel handelt een programma namens jou; de terminal maakt met
account-token-about-after = een eigen sleutel.
account-token-new = Nieuwe sleutel
account-token-name = Naam
account-token-scopes = Rechten
account-token-create = Sleutel maken
account-token-copy-now = Kopieer je nieuwe sleutel nu: hij wordt niet opnieuw getoond.
account-token-copy = Sleutel kopiëren
account-tokens-yours = Je sleutels
account-token-created = gemaakt { $created }
account-token-created-used = gemaakt { $created } · gebruikt { $used }
account-token-revoke = Intrekken
account-token-revoke-name = { $name } intrekken
account-token-none = Geen sleutels.
account-name-rule = Een gebruikersnaam is 2 tot 20 letters, cijfers, _ of -.
account-password-short = Een wachtwoord heeft minstens { $count } tekens.
account-password-long = Een wachtwoord heeft hoogstens { $count } tekens.
account-passwords-differ = De twee wachtwoorden verschillen.
account-give-name-password = Geef je gebruikersnaam en wachtwoord.
account-token-needs-name = Geef de sleutel een naam, om hem in de lijst terug te kennen.
account-token-needs-scope = Kies minstens één recht.
account-password-changed = Wachtwoord gewijzigd. Elke andere sessie van je account is beëindigd.
account-not-logged-in = Je bent niet ingelogd.
account-retry-after = { $text } (probeer het over { $seconds } s opnieuw)
## The server's answers to account requests, by their code (PROTOCOL.md §18); a code missing
## here shows the server's English text.
account-error-name_invalid = Een gebruikersnaam is 2 tot 20 letters, cijfers, _ of -.
account-error-name_taken = Die naam is al bezet: kies een andere.
account-error-name_reserved = Die naam is gereserveerd: kies een andere.
account-error-password_too_short = Dat wachtwoord is te kort.
account-error-password_too_long = Dat wachtwoord is te lang.
account-error-password_weak = Dat wachtwoord is te makkelijk te raden: kies een langer of minder gewoon wachtwoord.
account-error-bad_request = De server kon dat verzoek niet lezen.
account-error-bad_credentials = Onbekende gebruikersnaam of verkeerd wachtwoord.
account-error-unauthenticated = Je bent niet ingelogd.
account-error-account_closed = Dit account is gesloten.
account-error-cross_origin = Geweigerd: het verzoek kwam van een andere site.
account-error-forbidden = Deze aanmelding mag dat niet.
account-error-not_found = Niet gevonden.
account-error-throttled = Te veel mislukte pogingen.
account-error-internal = De server kon dat nu niet doen: probeer het opnieuw.
account-error-busy = De server is druk: probeer het zo opnieuw.
account-error-busy-retry = De server is druk: probeer het over { $seconds } s opnieuw.

## The match page's sounds and the hidden-tab notice (js/sound.js).
sound-mute = Geluid uit
notify-played = { $name } speelde { $move }

## Takebacks and premoves on the match page (render/takeback.js, render/premove.js).
takeback-propose = Terugnemen
takeback-propose-title = Vraag je tegenstander om je laatste zet terug te nemen
takeback-accept = Terugnemen toestaan
takeback-decline = Terugnemen weigeren
takeback-offered = { $name } vraagt om de laatste zet terug te nemen
takeback-sent = Terugnemen gevraagd: wachten op { $name }
takeback-declined = je verzoek om terug te nemen is geweigerd
premove-set = Voorzet { $move }: gespeeld zodra je aan zet bent
premove-cancel = Voorzet annuleren
premove-dropped = voorzet { $move } vervallen: die zet is nu niet toegestaan
premove-dropped-capture = voorzet { $move } vervallen: slaan is verplicht ({ $squares } moet slaan)
## The rules page (/rules, and `boardcast rules` in the terminal).
rules-page-title = De spelregels van het Fries dammen
rules-intro = Boardcast volgt het Officieel Reglement voor het Fries Dammen (2011). Bij elke regel hoort een stelling: loop de zetten door met de knoppen bij het bord.
rules-title-board = Het bord en de beginstelling
rules-text-board = Het bord heeft 10 bij 10 velden; er wordt gespeeld op de 50 donkere velden, genummerd van 1 tot 50 vanaf de kant van zwart. Elke speler begint met 20 schijven: zwart op 1 tot en met 20, wit op 31 tot en met 50. Wit begint, daarna zijn de spelers om beurten aan zet.
rules-pos-start = De beginstelling. Wit heeft 9 zetten; hier speelt wit 32-28 en zwart antwoordt 19-23.
rules-title-men = Hoe schijven gaan
rules-text-men = Een schijf gaat één veld schuin vooruit naar een leeg veld. Zonder te slaan gaat hij nooit achteruit of recht vooruit.
rules-pos-man-moves = De schijven op 33 en 37 hebben elk twee zetten vooruit. 33-39 (achteruit) en 33-23 (recht vooruit) zijn geen schijfzetten.
rules-title-captures = Slaan in acht richtingen (art. 7, 9–14)
rules-text-captures = Slaan is verplicht. Schijven en dammen slaan in alle acht richtingen: schuin, en ook recht vooruit, achteruit en opzij, over een stuk van de tegenstander ernaast naar het lege veld erachter. Recht vooruit ligt de buur twee rijen hoger (33 naar 23); opzij is het het volgende veld in dezelfde rij (33 naar 34). Een slag die verder kan, moet verder, in elke richting; de geslagen stukken gaan pas van het bord als de zet af is.
rules-pos-compulsory = Na 32-28 19-23 moet wit slaan met 28x19: 33-29 wordt geweigerd. Zwart kan dan op drie manieren terugslaan, een ervan recht omlaag: 9x29.
rules-pos-eight-directions = De schijf op 28 kan opzij slaan (28x26) of recht achteruit (28x48); de schijf op 50 mag niet zetten zolang er geslagen kan worden.
rules-pos-chain = Een slag gaat verder vanaf het veld waar hij landt: 33x35 slaat 34, en dan recht omhoog over 25 naar 15. Stoppen op 35 wordt geweigerd.
rules-title-value = De meerslag: de waardevolste slag (art. 11, 12)
rules-text-value = Van alle slagen die de speler aan zet heeft, zijn alleen die met de hoogste waarde toegestaan. Een dam telt ongeveer als anderhalve schijf: één dam is meer waard dan één schijf, twee schijven meer dan één dam. Bij gelijke waarde moet een dam die kan slaan eerst slaan.
rules-pos-king-over-man = De schijf op 33 kan een dam slaan (33x22) of een schijf (33x35): hij moet de dam slaan.
rules-pos-two-men-over-king = Twee schijven zijn meer waard dan één dam: 33x15 slaat 34 en 25, en 33x22 (de dam) wordt geweigerd.
rules-pos-king-first = De dam op 5 en de schijf op 49 kunnen allebei één schijf slaan; de dam moet slaan. Hij slaat opzij, op afstand, en mag op 3, 2 of 1 landen.
rules-title-promotion = Dam halen (art. 8)
rules-text-promotion = Een schijf die zijn zet eindigt op de overkant (1 tot en met 5 voor wit, 46 tot en met 50 voor zwart) wordt een dam. Een schijf die tijdens een slag alleen over de overkant gaat, blijft een schijf.
rules-pos-crowned = 7-2: de schijf bereikt de overkant en wordt dam.
rules-pos-passing-through = 14x25 komt onderweg over 5 en eindigt op 25: de schijf blijft een schijf.
rules-title-kings = Dammen (art. 9)
rules-text-kings = Een dam gaat over lege velden een willekeurig aantal velden schuin; zonder te slaan gaat hij niet recht. Hij slaat op afstand in alle acht richtingen, over het eerste stuk dat hij tegenkomt, en mag op elk leeg veld erachter landen.
rules-pos-king-moves = De dam op 46 mag overal op zijn diagonaal heen, hier naar 23; 46-36 (recht omhoog) wordt geweigerd.
rules-pos-king-captures = De dam slaat 28 op afstand en mag op 23, 19, 14, 10 of 5 landen.
rules-title-three-moves = De drie-zettenregel voor de dam (art. 17)
rules-text-three-moves = Een speler met dammen én schijven mag niet meer dan drie keer achter elkaar met dezelfde dam zetten zonder te slaan. Een schijfzet of een slag laat de telling opnieuw beginnen. Een speler met alleen dammen is niet aan deze regel gebonden.
rules-pos-frozen = De witte dam zet drie keer (46-37, 37-46, 46-41); nu wordt 41-46 geweigerd en moet wit met de schijf zetten.
rules-title-draws = Het einde van de partij en remise (art. 18, 20, 21)
rules-text-draws = Wie niet kan zetten (geen stukken meer, of alle ingesloten), verliest (art. 20). Twee dammen tegen één dam is remise na 7 zetten elk (art. 18). Eén dam tegen één dam is meteen remise, tenzij de speler aan zet kan slaan of een slag binnen de volgende zetten niet te vermijden is (art. 21). Remise door herhaling bestaat niet; spelers kunnen remise afspreken, en Boardcast beslist over opgeven en tijd.
rules-pos-two-kings-v-one = Twee dammen tegen één dam: er zijn 13 halve zetten gespeeld, wits 1-7 is de 14e (7 zetten elk), en de partij is remise.
rules-pos-king-v-king = De dam slaat de laatste zwarte schijf; één dam tegen één dam en geen slag in zicht: meteen remise.
rules-pos-no-move = De enige witte schijf op 46 zit vast en kan niet slaan: wit heeft geen zet en verliest.
rules-start = Begin
rules-back = Terug
rules-next = Verder
rules-step = Zet { $n } van { $count }: { $move }
rules-at-start = De stelling voor de eerste zet
rules-reason-here = Daarom werd je zet geweigerd.

## The account page's game preferences (js/pages/preferences.js).
preferences-title = Spelvoorkeuren
preferences-refuse-more-time = Weiger +15 s van tegenstanders in elke partij
preferences-refuse-more-time-hint = Bewaard bij je account: het geldt op elk apparaat en in de terminalclient, vanaf je volgende partij.
preferences-saved = Opgeslagen.
preferences-not-saved = Niet opgeslagen: probeer het opnieuw.
## The ladder (/ladder).
ladder-title = Ranglijst
ladder-caption = De ranglijst, hoogste rating eerst
ladder-rank = Plaats
ladder-player = Speler
ladder-rating = Rating
ladder-rd = RD
ladder-rd-full = Ratingafwijking
ladder-games = Partijen
ladder-games-full = Partijen voor de rating
ladder-loading = De ranglijst wordt geladen…
ladder-empty = Er staat nog niemand op de ranglijst: die toont leden met een vaste rating (RD hoogstens 75) die de afgelopen 7 dagen rated hebben gespeeld.
ladder-about = Ratings zijn Glicko-2 over rated partijen Fries dammen. Spelers met een voorlopige rating (getoond als 1500?) staan er niet op.

## A member's profile (/@/{name}).
profile-chart-empty = Nog geen rated partijen: de grafiek begint bij de eerste.
profile-chart-label = Ratingverloop: { $first } op { $from }, { $last } op { $to }
profile-best-win-game = partij
profile-download = Alle partijen downloaden (PDN)
profile-games-caption = Gespeelde partijen van { $name }, nieuwste eerst
profile-col-date = Datum
profile-col-opponent = Tegenstander
profile-col-colour = Kleur
profile-col-result = Uitslag
profile-col-time = Bedenktijd
profile-col-game = Partij
profile-no-games = Nog geen gespeelde partijen.
profile-newer = Nieuwer
profile-older = Ouder
profile-pages = Pagina's met partijen
profile-page = pagina { $page }
profile-rating = Rating
profile-games = Partijen
profile-finished = Gespeelde partijen
profile-history = Ratingverloop
profile-missing = Er is geen speler die { $name } heet.
profile-fact-rating = Rating
profile-fact-rd = Afwijking (RD)
profile-fact-rated = Rated partijen
profile-fact-best = Beste overwinning
profile-fact-member = Lid sinds
profile-fact-last = Laatst gezien
profile-fact-games = Partijen gespeeld
profile-fact-won = Gewonnen · remise · verloren
profile-outcome-won = gewonnen
profile-outcome-drawn = remise
profile-outcome-lost = verloren

## Takeback refusals (PROTOCOL.md §12.1): worded here, out of the match page's own file.
# `other`: a match whose snapshot says neither rated nor event (an older server).
error-not_allowed-takeback_casual_only =
    { $match ->
        [rated] Zetten terugnemen kan alleen in vrije partijen, niet in een partij voor de rating.
        [event] Zetten terugnemen kan alleen in vrije partijen, niet in een partij van een clubtoernooi.
       *[other] Zetten terugnemen kan alleen in vrije partijen: in deze partij niet.
    }
error-not_allowed-nothing_to_take_back = Je hebt nog geen zet om terug te nemen.
error-not_allowed-takeback_proposal_stands = Je verzoek om terug te nemen staat al.
error-not_allowed-opponent_takeback_stands = Je tegenstander wil een zet terugnemen: neem dat eerst aan of wijs het af.
error-not_allowed-no_takeback_proposal = Je tegenstander heeft niet gevraagd een zet terug te nemen.
error-rate_limited-takeback_too_soon = Terugnemen kan hooguit eens per { $every_s } s: probeer het over { $retry_after_s } s opnieuw.

## Refusals worded from their reason (PROTOCOL.md §12.1) beyond the match page's own in
## nl.ftl: the match page fetches this file at the first such refusal.
error-invalid_argument-not_a_minit_square = { $square } is geen veld (a1 tot en met e6).
error-invalid_argument-invalid_field = Het veld { $field } van dat bericht is niet geldig.
error-not_found-channel_closed = Kanaal { $channel } is gesloten.
error-not_found-no_match = Er is geen partij { $match_id }.
error-not_found-no_open_match = Er is geen open openbare partij { $match_id } (een besloten partij speel je mee via de uitnodigingscode).
error-not_found-no_invite_code = Er is geen partij met uitnodigingscode { $code }.
error-not_found-no_chat_line = Er is geen chatregel { $line } in partij { $match_id }.
error-not_found-match_stopped = Deze partij loopt niet meer.
error-not_found-no_account = Er is geen account { $name }.
error-not_found-paired_match_gone = De gekoppelde partij { $match_id } is weg; druk opnieuw op nu spelen.
error-busy-channel_busy = Kanaal { $channel } is druk; probeer het opnieuw.
error-busy-event_busy = Te veel vragen tegelijk naar toernooi { $event }; probeer het opnieuw.
error-busy-drawing_ids = Er worden id's voor enginepartijen getrokken; probeer het zo opnieuw.
error-busy-taking_over = Deze server neemt veel partijen tegelijk over; probeer het opnieuw.
error-busy-commands_waiting = Er wachten te veel opdrachten voor deze partij; probeer het opnieuw.
error-busy-relay_full = Er wachten te veel berichten tussen servers; probeer het opnieuw.
error-busy-match_moved = Deze partij is naar een andere server verhuisd terwijl je het vroeg; stuur het opnieuw.
error-busy-too_many_matches = De server heeft zoveel partijen als hij mag; probeer het later.
error-busy-too_many_finished = De server heeft zoveel afgelopen partijen open als hij mag; probeer het later.
error-busy-failed_joins = Te veel mislukte pogingen om mee te spelen op de server; probeer het later.
error-busy-pool_full = De { $preset }-pool is vol ({ $capacity } wachtenden); probeer het zo opnieuw.
error-busy-play_now_busy = Te veel spelers drukken tegelijk op nu spelen; probeer het opnieuw.
error-not_allowed-no_game_running = Er loopt nu geen partij op { $channel }.
error-not_allowed-played_live = { $serial } { $white } tegen { $black } wordt live gespeeld op { $channel }: start hem als die partij voorbij is (kijk intussen op { $channel }).
error-not_allowed-no_seat_for_account = Je account heeft geen plaats in { $match_id }.
error-not_allowed-myself_other_seat = Alleen de verbinding met de andere plaats van { $match_id } kan meedoen om tegen zichzelf te spelen.
error-not_allowed-holds_other_seat = Deze verbinding heeft al de andere plaats van { $match_id }: speel als jezelf mee om tegen jezelf te spelen.
error-not_allowed-chat_full = De chat van deze partij is vol ({ $limit } regels).
error-not_allowed-abort_after_moves = Een partij kan alleen worden afgebroken voordat beide kanten hebben gezet.
error-not_allowed-opponent_connected = Je tegenstander is verbonden: er valt niets te claimen.
error-not_allowed-grace_running = Je tegenstander kan nog terugkomen: claim over { $wait_s } s.
error-not_allowed-grace_paused = Je tegenstander kan nog terugkomen: claim na { $wait_s } s van zijn beurt (op jouw beurt staat de wachttijd stil).
error-not_allowed-rematch_not_over = Een revanche kan pas worden aangeboden als de partij voorbij is.
error-not_allowed-rematch_exists = De revanche bestaat al: { $match_id }.
error-not_allowed-no_opponent = Er was geen tegenstander om opnieuw tegen te spelen.
error-not_allowed-rematch_offer_stands = Je revancheaanbod staat al.
error-not_allowed-own_rematch_offer = Dit revancheaanbod is van jou: je tegenstander moet het aannemen.
error-not_allowed-no_rematch_offer = Je tegenstander heeft geen revanche aangeboden.
error-not_allowed-more_time_untimed = Meer tijd is er alleen bij partijen met bedenktijd.
error-not_allowed-more_time_refused = Je tegenstander neemt geen extra tijd aan.
error-not_allowed-flagged = De tijd is op.
error-not_allowed-berserk_arena_only = Berserk kan alleen in arenapartijen.
error-not_allowed-berserk_already = Je bent al berserk gegaan.
error-not_allowed-berserk_after_move = Berserk kan alleen voor je eerste zet.
error-not_allowed-reclaim_needs_login = Een plaats van een account terugnemen kan alleen ingelogd: log eerst in (een gast gaat verder met de plaatssleutel).
error-not_allowed-admins_only = Alleen een clubbeheerder modereert de chat.
error-not_allowed-rated_against_oneself = Een rated partij tegen jezelf mag niet.
error-illegal_prediction-not_legal =
    { $side ->
        [white] { $move } is geen geldige zet voor wit vóór halve zet { $next }.
       *[black] { $move } is geen geldige zet voor zwart vóór halve zet { $next }.
    }
error-storage_unavailable-channel_moving = { $channel } verhuist naar een andere server; stuur de voorspelling opnieuw.
error-storage_unavailable-changing_servers = De partij wisselt van server; probeer het zo opnieuw.
error-storage_unavailable-match_moved = De partij is naar een andere server verhuisd; stuur het opnieuw.
error-storage_unavailable-unreachable = De database is nu niet bereikbaar: er is niets veranderd; probeer het zo opnieuw.
error-storage_unavailable-chat_unreadable = De chat kan nu niet worden gelezen; er is niets gezegd.
error-storage_unavailable-event_unreadable = Toernooi { $event } kan nu niet worden gelezen; probeer het zo opnieuw.
error-storage_unavailable-lease_lost = Deze server is zijn databaselease kwijt; probeer het opnieuw.
error-shutting_down-shutting_down = De server wordt afgesloten.
error-shutting_down-play_now_stopped = Nu spelen is gestopt.
error-invalid_token-watcher = Je kijkt naar partij { $match_id }: kijkers kunnen niets doen.
error-invalid_token-unknown_token = Die plaatssleutel is onbekend.
error-internal-internal = Er ging iets mis op de server; er is niets veranderd.
error-internal-does_not_replay = De opgeslagen partij laat zich niet naspelen.
error-internal-no_invite_code = Er kon geen ongebruikte uitnodigingscode worden getrokken; er is geen partij gemaakt.
error-internal-storage_failed = Opslaan mislukte op de server; er is niets veranderd.
error-members_only-free_chat = Gasten chatten met de vaste zinnen; vrije tekst is voor ingelogde leden.
error-members_only-rated_play = Rated partijen en nu spelen zijn voor ingelogde leden; een gast speelt vrije partijen.
error-members_only-rated_seek = Dit is een rated partij: log in om rated te spelen.
error-chat_too_fast-chat_too_fast = Chatregels komen met { $burst } tegelijk, daarna één per { $every_s } s: wacht { $wait_s } s.
error-rate_limited-more_time_often = Meer tijd hoogstens eens per { $every_s } s.
error-rate_limited-too_many_messages = Te veel berichten: de verbinding wordt gesloten.
error-unsupported_version-protocol_version = Deze server spreekt protocol { $ours }, niet { $theirs }.
error-chat_muted-muted = Een clubbeheerder ({ $by }) heeft je in elke chat van deze server gedempt.
error-outside_rating_range-outside_range = Je rating { $rating } ligt meer dan { $range } van die van de maker ({ $creator }).
error-match_full-both_seats_taken = Beide plaatsen van deze partij zijn bezet.
error-too_large-frame_too_large = Dat bericht heeft { $size } bytes, boven de grens van { $limit }.
error-malformed-wrong_frame_type = Een { $got }-bericht op een { $expected }-verbinding.
error-malformed-invalid_utf8 = Dat bericht is geen geldige UTF-8.
error-malformed-not_a_message = De server kon dat bericht niet lezen.
error-malformed-unknown_type = De server kent het berichttype { $type } niet.
error-busy-archive_busy = Er lopen te veel archiefopvragingen; probeer het zo opnieuw.
error-not_found-no_channel = Er is geen kanaal of gearchiveerde partij { $channel }.
error-not_found-no_event = Er is geen toernooi { $event }.

## Refused event requests on the events pages (web/js/pages/events.js), by code.
event-error-unauthenticated = Log eerst in.
event-error-not_organiser = Alleen een beheerder of een lid met organisatorrecht maakt toernooien aan.
event-error-forbidden = Alleen een clubbeheerder geeft het organisatorrecht.
event-error-not_found = Dit toernooi bestaat niet.
event-error-already_joined = Je doet al mee aan dit toernooi.
event-error-not_joined = Je speelt niet mee in dit toernooi.
event-error-event_finished = Het toernooi is afgelopen.
event-error-event_started = Bij een round-robin kun je na de start niet meer instappen.
event-error-round_in_progress = De laatste ronde wordt gespeeld: er kan niemand meer bij.
event-error-wrong_password = Verkeerd toernooiwachtwoord.
event-error-not_eligible = Je mag niet meedoen aan dit toernooi (ratinggrenzen of minimum aantal ratingpartijen).
event-error-busy = Het toernooi is druk: probeer het opnieuw.
event-error-event_moving = Het toernooi verhuist naar een andere server: probeer het zo opnieuw.
event-error-internal = De server kon dat niet opslaan: probeer het opnieuw.
event-error-left_for_good = Je hebt je na de start uit deze round-robin teruggetrokken: je kunt niet opnieuw meedoen.
