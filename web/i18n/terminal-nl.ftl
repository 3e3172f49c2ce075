# De eigen woorden van de terminalclient (hulp, beginscherm, formulieren), naast `nl.ftl`.
help-title = toetsen
help-close = elke toets sluit
help-more = … nog { $count }: een hogere terminal toont ze
help-home-switch = andere lijst: uitdagingen, lopende partijen, kanalen
help-home-select = kiezen
help-home-join = uitdaging aannemen / partij of kanaal bekijken
help-home-predict = voorspel het gekozen kanaal
help-home-new = nieuwe partij: bedenktijd, kleur, openbaar of privé
help-home-invite = privépartij openen met uitnodigingscode
help-home-engine = enginepartij starten (serie, engines, seeds) en voorspellen
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
help-match-view = nummers, bord draaien, letterstukken, bel
help-match-save = PDN bewaren (--save-pdn MAP, of hier)
help-match-chat = chat (leden typen, gasten kiezen); Tab: dempen
help-match-back = terug naar het beginscherm (plaats blijft)
help-channel-cursor = cursor verplaatsen
help-channel-pick = kies het veld van vertrek, dan het veld van aankomst (of een klik)
help-channel-guess = typ een voorspelling voor de komende zet
help-channel-predict = voorspellen aan of uit
help-channel-pieces = stukken als figuren (FULL) of letters (FLAT)
help-channel-leaders = ranglijst van alle voorspellingen, met je eigen plaats
help-channel-clear = invoer en gekozen veld wissen
help-channel-back = terug naar het beginscherm (of stoppen, gestart als `boardcast tv`)
home-hello = Boardcast — hallo, { $name }
home-stored-seat = bewaarde plaats: { $match } met { $side } — R hervat hem
home-prompt-keys = Enter, Esc annuleert
home-channels = TV en enginepartijen
home-hint-list = Tab/←→ lijst
home-hint-select = ↑↓ kiezen
home-hint-join = Enter meedoen/kijken
home-hint-predict = p voorspellen
home-hint-new = c nieuwe partij
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
help-match-more-time = tegenstander +15 s / berserk (arenapartij)
help-match-takeback = terugnemen vragen of aannemen / weigeren
help-home-play-now = nu spelen: een rated partij tegen een lid met een rating dicht bij de jouwe
home-hint-play-now = n nu spelen
home-play-now-keys = ←→ of 1–5 bedenktijd  Enter spelen  Esc terug
home-play-now-waiting-keys = Esc stopt met zoeken

## The bell turned off and on while playing (b).
## The bell turned off and on while playing (b; the keys overlay lists it with n f t).
bell-off = bel uit (b zet hem weer aan)
bell-on = bel aan (b zet hem uit)
## `boardcast rules`: below each position's caption.
printed-rules-fen = Stelling (FEN): { $fen }
printed-rules-moves = Zetten: { $moves }

## The prediction leaderboard overlay (`L` on the MinitChess screen).
leaderboard-title = ranglijst voorspellers
leaderboard-asking = de server wordt gevraagd…
leaderboard-empty = nog niemand heeft voorspeld
leaderboard-you-ranked = jij: #{ $rank }  { $entry }
leaderboard-you-beyond = jij: { $name } — niet in de top { $top }
leaderboard-you-unranked = jij: { $name } — nog niet op de lijst
leaderboard-you = jij: { $name }
leaderboard-this-game = deze partij: { $correct } goed, { $strikes } fout
leaderboard-close = een toets sluit
mute-now = { $name } gedempt voor jou (/ Tab en het nummer weer om te tonen)
mute-undone = { $name } weer getoond
mute-hidden = regels van gedempte schrijvers verborgen: { $count }

## The match screen (client/src/ui/match_view.rs); `side` is `white` or `black`.
tui-free-seat = (vrije plaats)
tui-you = (jij)
tui-gone = weg
tui-berserk = berserk
tui-viewing = je bekijkt { $move }
tui-viewing-start = je bekijkt de beginstand
tui-hint-step = < > stap
tui-hint-end = End terug naar de partij
tui-ftv = Fries TV: de best bekeken live partij
tui-match-id = partij { $id }
tui-spectators =
    { $count ->
        [one] { $count } kijker
       *[other] { $count } kijkers
    }
tui-invite-code = uitnodigingscode: { $code }
tui-pdn = PDN { $url } (s bewaart)
tui-offer-rematch-key = m biedt revanche aan
tui-waiting-opponent = wacht op een tegenstander
tui-your-move = jij bent aan zet
tui-opponents-move = je tegenstander is aan zet
tui-to-move =
    { $side ->
        [white] wit is aan zet
       *[black] zwart is aan zet
    }
tui-must-move-you = je moet zetten binnen { $time }
tui-must-move =
    { $side ->
        [white] wit moet zetten binnen { $time }
       *[black] zwart moet zetten binnen { $time }
    }
tui-offer-draw-mine = je bood remise aan (wacht)
tui-offer-draw-theirs =
    { $side ->
        [white] wit biedt remise aan ({ $accept } aannemen, { $decline } weigeren)
       *[black] zwart biedt remise aan ({ $accept } aannemen, { $decline } weigeren)
    }
tui-offer-draw-told =
    { $side ->
        [white] wit biedt remise aan
       *[black] zwart biedt remise aan
    }
tui-offer-rematch-mine = je bood revanche aan (wacht)
tui-offer-rematch-theirs =
    { $side ->
        [white] wit biedt revanche aan ({ $accept } aannemen, { $decline } weigeren)
       *[black] zwart biedt revanche aan ({ $accept } aannemen, { $decline } weigeren)
    }
tui-offer-rematch-told =
    { $side ->
        [white] wit biedt revanche aan
       *[black] zwart biedt revanche aan
    }
tui-gone-aborts =
    { $side ->
        [white] wit is weg: c breekt de partij af
       *[black] zwart is weg: c breekt de partij af
    }
tui-gone-claim =
    { $side ->
        [white] wit is weg: claim nu (c winst, C remise)
       *[black] zwart is weg: claim nu (c winst, C remise)
    }
tui-left-claim-in = { $name } is weg — je kunt claimen over { $time }
tui-side-gone =
    { $side ->
        [white] wit is weg
       *[black] zwart is weg
    }
tui-paused = (staat stil terwijl jij aan zet bent)
tui-rematch-at = revanche: { $id } (m gaat erheen)
tui-king-count =
    { $side ->
        [white] witte dam op { $square }: { $count }/3 zetten
       *[black] zwarte dam op { $square }: { $count }/3 zetten
    }
tui-king-frozen =
    { $side ->
        [white] witte dam op { $square }: { $count }/3 zetten — geen gewone zet meer
       *[black] zwarte dam op { $square }: { $count }/3 zetten — geen gewone zet meer
    }
tui-more = +{ $count } meer
tui-hint-quit = q stoppen
tui-hint-back = q terug
tui-hint-rematch = m revanche
tui-hint-save = s PDN bewaren
tui-hint-moves = < > zetten
tui-hint-home = q start
tui-move-prompt = zet
tui-waiting-for =
    { $side ->
        [white] wacht tot { $name } (wit) zet
       *[black] wacht tot { $name } (zwart) zet
    }
tui-hint-spectator = kijker
tui-hint-flip = f draaien
tui-hint-numbers = n nummers
tui-hint-keys = ? toetsen
tui-ftv-waiting = Fries TV: wacht op een live partij…
tui-match-waiting = wacht op de partij…
tui-title-ply = { $id } · halve zet { $ply } van { $count }
tui-legal = geldig ({ $count })
tui-moves = zetten
tui-confirm-resign = Deze partij opgeven? y / n
tui-confirm-abort = Deze partij afbreken? y / n
tui-takes = slaat
tui-chooser-keys = 1-9 of ↑↓ Enter kiest, Esc annuleert
tui-chooser-title = welke slag?
tui-you-play =
    { $side ->
        [white] Je speelt wit. Wacht op een tegenstander…
       *[black] Je speelt zwart. Wacht op een tegenstander…
    }
tui-waiting-opponent-long = Wacht op een tegenstander…
tui-waiting-keys = a afbreken · q start (de plaats blijft) · ? toetsen

## The MinitChess TV and prediction screen (client/src/ui/predict_view.rs).
tui-engine-game = enginepartij
tui-piece-set = { $set }-set
tui-serial = Serie { $serial }
tui-engines = Wit { $white }  Zwart { $black }
tui-game-over = Partij voorbij: { $result }
tui-move-number =
    { $side ->
        [white] Zet { $move }  (wit aan zet, halve zet { $ply })
       *[black] Zet { $move }  (zwart aan zet, halve zet { $ply })
    }
tui-between-games = tussen partijen
tui-next-ply-in = volgende halve zet over { $seconds } s
tui-next-game-in = volgende partij over { $seconds } s
tui-waiting-next-game = wacht op de volgende partij
tui-guess-waiting = je voorspelling voor halve zet { $ply }: { $guess } (wacht)
tui-or = of
tui-guess-from = halve zet { $ply }: van { $from } naar { $to }
tui-guess-pick = halve zet { $ply }: kies een beginveld of typ b1-c3
tui-verdict-correct = halve zet { $ply }: jij zei { $guess }, het was { $actual } — goed
tui-verdict-strike = halve zet { $ply }: jij zei { $guess }, het was { $actual } — fout
tui-score = goed { $correct }  fout { $strikes }
tui-standing = { $correct } goed, { $strikes } fout
tui-channel-waiting = wacht op het kanaal…
tui-guess-prompt = voorspel
tui-hint-predict = p voorspellen
tui-hint-pieces = f FULL/FLAT
tui-hint-leaderboard = L ranglijst
tui-prediction = voorspelling

## The status bar and a screen still waiting (client/src/ui/mod.rs), a board with no room.
tui-link-connecting = verbinden
tui-link-online = online
tui-link-offline = offline, verbindt opnieuw
tui-hint-help = ? hulp
tui-quits = q stopt
tui-goes-back = q gaat terug
tui-not-available = Niet beschikbaar: { $why }
tui-no-answer = De server heeft { $seconds } s niet geantwoord.
tui-too-small = terminal te klein

## The status line's sentences about the match and the channel (client/src/app/status.rs);
## `who` is a player as named on screen, `side` is `white` or `black`.
note-connected = Verbonden
note-reconnected = Opnieuw verbonden
note-disconnected = Verbinding verbroken ({ $reason }); nieuwe poging over { $seconds } s
note-seat =
    { $side ->
        [white] Je speelt wit in partij { $id }
       *[black] Je speelt zwart in partij { $id }
    }
note-watching-players = Je kijkt naar { $white } (wit) tegen { $black } (zwart)
note-watching-match = Je kijkt naar partij { $id }
note-joined-game-on = { $name } doet mee: de partij begint
note-joined-as =
    { $side ->
        [white] { $name } doet mee als wit
       *[black] { $name } doet mee als zwart
    }
note-you-played = Je speelde { $move }
note-opponent-played = Je tegenstander speelde { $move }: jij bent aan zet
note-played = { $who } speelde { $move }
note-game-over = Partij voorbij: { $result }
note-game-over-rematch = Partij voorbij: { $result } · m biedt revanche aan
note-draw-you-offered = Je bood remise aan
note-draw-offered-to-you = Je tegenstander biedt remise aan: d neemt aan, D weigert
note-draw-you-declined = Je weigerde de remise
note-draw-yours-declined = Je remiseaanbod is geweigerd
note-draw-declined-by = { $who } weigerde de remise
note-draw-offered-by = { $who } bood remise aan
note-draw-withdrawn = Het remiseaanbod is ingetrokken
note-takeback-you-proposed = Je stelde voor je laatste zet terug te nemen
note-takeback-asked-of-you = Je tegenstander vraagt zijn laatste zet terug te nemen: u neemt aan, U weigert
note-takeback-you-declined = Je weigerde het terugnemen
note-takeback-yours-declined = Je voorstel om terug te nemen is geweigerd
note-takeback-done-yours = Teruggenomen: jij bent weer aan zet
note-takeback-done = Teruggenomen: { $who } is aan zet
note-takeback-declined-by = { $who } weigerde het terugnemen
note-takeback-proposed-by = { $who } stelde voor terug te nemen
note-takeback-lapsed = Het voorstel om terug te nemen verviel met de zet
note-premove-set = Voorzet { $move }: gespeeld zodra je tegenstander heeft gezet (Esc annuleert)
note-premove-played = Voorzet { $move } gespeeld
note-premove-cancelled = Voorzet { $move } geannuleerd
note-premove-dropped = Voorzet { $move } vervallen: hij is nu niet geldig
note-rematch-you-offered = Je bood revanche aan
note-rematch-offered-to-you = Je tegenstander biedt revanche aan: m neemt aan, M weigert
note-rematch-you-declined = Je weigerde de revanche
note-rematch-yours-declined = Je revancheaanbod is geweigerd
note-rematch-started = Revanche begonnen: partij { $id }
note-rematch-declined-by =
    { $side ->
        [white] wit weigerde een revanche
       *[black] zwart weigerde een revanche
    }
note-rematch-offered-by =
    { $side ->
        [white] wit bood een revanche aan
       *[black] zwart bood een revanche aan
    }
note-you-left = Je plaats verloor de verbinding; hij blijft voor je bewaard
note-opponent-left = Je tegenstander is weg
note-left = { $who } is weg
note-you-returned = Je bent terug in de partij
note-opponent-returned = Je tegenstander is terug
note-returned = { $who } is terug
note-you-berserk = Je ging berserk: de helft van je tijd, geen increment
note-opponent-berserk = Je tegenstander ging berserk
note-berserk = { $who } ging berserk
note-claimable = Je tegenstander is weg: c claimt de winst, C remise
note-claimable-aborts = Je tegenstander is weg: c breekt de partij af
note-ambiguous = { $count } zetten passen: kies er een met 1-{ $last } of ↑↓ Enter
note-pdn = PDN op { $url } (s bewaart hem)
note-pdn-saved = PDN bewaard in { $path }
note-engine-game = { $channel }: { $white } tegen { $black }, serie { $serial }
note-ply = Halve zet { $ply }: { $move }
note-correct = Goed: { $actual }
note-strike = Fout: jij zei { $guess }, het was { $actual }
note-shutdown = De server stopt: { $reason }
note-featured = Fries TV toont partij { $id }
note-featured-none = Fries TV: nog geen live partij
## A result in the terminal (the reason after it: the server's English detail, or `reason-*`).
tui-result-wins =
    { $side ->
        [white] wit wint
       *[black] zwart wint
    }
tui-result-aborted = afgebroken
tui-result-draw = remise

## What the terminal client refuses or says by itself, nothing sent (client/src/app).
local-unreachable = kan de server niet bereiken: { $reason }
local-garbled = een bericht genegeerd dat deze client niet kan lezen: { $error }
local-friend-runs = je vriend typt: { $command }
local-friend-opens = of opent: { $link }
local-pdn-not-over = de PDN wordt bewaard als de partij voorbij is
local-no-seat = je speelt geen partij
local-no-channel = je kijkt niet naar een enginepartij
local-no-game = op dit kanaal wordt geen partij gespeeld
local-guess-illegal =
    { $side ->
        [white] { $move } is hier geen geldige zet voor wit; geldig: { $legal }
        [black] { $move } is hier geen geldige zet voor zwart; geldig: { $legal }
       *[other] { $move } is hier geen geldige zet; geldig: { $legal }
    }
local-no-stored-seat = geen bewaarde plaats om te hervatten
local-expected = verwacht { $what }, kreeg `{ $got }`
local-match-over = de partij is voorbij
local-abort-too-late = een partij kan alleen worden afgebroken voordat beide kanten hebben gezet; r geeft op
local-wait-for-move =
    { $side ->
        [white] wit is aan zet: wacht erop
       *[black] zwart is aan zet: wacht erop
    }
local-not-your-turn = je bent niet aan zet
local-no-move-from = geen geldige zet begint op { $square }
local-no-move-from-to = geen geldige zet van { $from } naar { $to }
local-prediction-off = voorspellen staat uit: p zet het aan
local-not-a-guess = `{ $text }` is geen zet zoals b1-c3
local-cannot-go = { $from } kan niet naar { $to }
local-prompt-invite = uitnodigingscode
local-prompt-engine = enginepartij (SERIE WIT ZWART, bijv. CH3SS5 L4 K7)
local-not-a-time-control = `{ $text }` is geen bedenktijd: { $error } (MINUTEN+SECONDEN, bijv. 7+2)
local-no-code-or-id = geen open partij heeft de uitnodigingscode of partij-id { $text }
local-not-a-move = `{ $text }` is geen zet: schrijf velden 1-50 met - of x ertussen, bijv. 32-28 of 28x19
## The `--plain` mode's input lines refused (client/src/app/command.rs).
cmd-expected-reply = verwacht offer, accept of decline, kreeg `{ $got }`
cmd-needs = `{ $command }` heeft { $what } nodig
cmd-what-move = een zet zoals 32-28
cmd-what-code = een uitnodigingscode of partij-id
cmd-what-match = een partij-id
cmd-what-serial = een serie
cmd-what-white = de engine en seed van wit, bijv. L4
cmd-what-black = de engine en seed van zwart, bijv. K7
cmd-claim-needs = `claim` heeft win of draw nodig
cmd-not-a-preset = `{ $preset }` is geen tempo voor nu spelen: 1+1, 3+2, 5+3, 10+5 of 15+10
cmd-playnow-needs = `playnow` heeft een tempo (1+1 … 15+10) of cancel nodig
cmd-predict-needs = `predict` heeft een zet zoals b1-c3 nodig, of een kanaal
cmd-unknown = onbekende opdracht `{ $command }` (probeer help)
## The account commands (client/src/account): a login the server no longer takes, and an
## answer that is not the API's (a proxy's error page), told by its HTTP status.
account-login-invalid = de aanmelding van { $name } op { $server } is niet meer geldig (overal afgemeld, ingetrokken, verlopen of het account gesloten): boardcast login { $name }
account-http-status = de server antwoordde HTTP { $status }, niet met zijn API
## What `login`, `logout`, `whoami` and `games` say (client/src/account/mod.rs); the command's
## name (`login:`, `games NAME:`) goes before an error as it was typed.
login-as = ingelogd als { $name } op { $server }
login-as-bot = ingelogd als { $name } (botaccount) op { $server }
login-as-admin = ingelogd als { $name } (clubbeheerder) op { $server }
login-password-prompt = Wachtwoord voor { $name } op { $server }:
login-password-unreadable = kan het wachtwoord niet lezen: { $error }
login-password-stdin-unreadable = kan het wachtwoord niet van standaardinvoer lezen: { $error }
login-no-password = geen wachtwoord gegeven (één regel op standaardinvoer)
login-no-config-dir = geen configuratiemap om de aanmelding in te bewaren: geef --config-dir
login-token-fails = de nieuwe toegangssleutel werkt niet: { $reason }
login-cannot-keep = kan de toegangssleutel niet bewaren in { $file }: { $error }
logout-done = { $name } uitgelogd op { $server }
logout-here-only = { $name } uitgelogd op deze computer; de server kent zijn toegangssleutel nog ({ $reason }): trek hem in op { $server }/account/tokens
logout-no-token-id = deze computer heeft het nummer van de sleutel niet bewaard
logout-cannot-update = kan { $file } niet bijwerken: { $error }
logout-not-logged-in = niet ingelogd op { $server }
whoami-not-logged-in = niet ingelogd op { $server } (boardcast --server { $server } login NAAM)
## One line of `boardcast games NAME`: `m12 2026-11-26 white v Wytze (guest) won 2-0 5+3`
## (the colour, the guest tag, the outcome and `untimed` are the web's words).
games-line = { $id } { $date } { $colour } tegen { $opponent } { $outcome } { $result } { $time }
games-date = { $day }-{ $month }-{ $year }
games-none = { $name } heeft nog geen gespeelde partijen
games-saved = partijen van { $name } bewaard in { $file } ({ $bytes } bytes)
## A request to the server's API that got no answer of the API's (client/src/account/api.rs).
api-cannot-reach = kan { $url } niet bereiken: { $error }
api-connection-refused = kan { $url } niet bereiken: daar antwoordt niets (draait de server?)
api-no-answer-in-time = { $url }: de server antwoordde niet op tijd
api-not-the-apis = het antwoord van de server is niet dat van zijn API: { $error }
api-reading-answer = bij het lezen van het antwoord: { $error }
api-cannot-write = kan { $file } niet schrijven: { $error }
api-bad-address = ongeldig adres { $url }: { $error }
api-bad-token = de bewaarde toegangssleutel is geen geldige tekst
cannot-start = kan niet starten: { $error }

## `boardcast events`: after the finished events when older ones follow on the next page
## (`command` is the command that shows it), and when the server left out some upcoming or
## running events (more than it lists).
cli-events-older = ouder: { $command }
cli-events-more-current = Er komen meer toernooien aan of lopen er meer dan de server toont.
