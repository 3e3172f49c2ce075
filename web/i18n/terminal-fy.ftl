# De eigen wurden fan de terminalclient (help, begjinskerm, formulieren), neist `fy.ftl`.
help-title = toetsen
help-close = elke toets slút
help-more = … noch { $count }: in hegere terminal lit se sjen
help-home-switch = oare list: útdagings, rinnende partijen, kanalen
help-home-select = kieze
help-home-join = útdaging oannimme / partij of kanaal besjen
help-home-predict = foarsizze op it keazen kanaal
help-home-new = nije partij: betinktiid, kleur, iepenbier of privee
help-home-invite = privee partij iepenje mei in útnoegingskoade
help-home-engine = enginepartij begjinne (searje, engines, seeds) en foarsizze
help-home-tv = sjoch nei tv-kanaal 1
help-home-ftv = sjoch nei Fryske tv (de bêst besjoene rinnende partij)
help-home-resume = de bewarre plak wer opnimme
help-home-refresh = fernije
help-home-quit = ophâlde
help-match-type = typ in set; Tab follet oan, Enter spilet
help-match-cursor = de rinnerke ferpleatse
help-match-pick = kies it stik, dan it doelfjild (of klik)
help-match-route = kies de slachrûte (slach markearre)
help-match-clear = ynfier en kar wiskje
help-match-resign = opjaan (freget befêstiging)
help-match-abort = ôfbrekke, allinne foar beider earste set
help-match-draw = remise oanbiede of oannimme / wegerje
help-match-rematch = revanche oanbiede of oannimme / wegerje
help-match-claim = winst / remise easkje: tsjinstanner fuort
help-match-step = troch de setten blêdzje (End: de partij)
help-match-view = nûmers, boerd draaie, letterstikken, belle
help-match-save = PDN bewarje (--save-pdn MAP, of hjir)
help-match-chat = chat (leden type, gasten kieze); Tab: dimje
help-match-back = werom nei it begjinskerm (plak bliuwt)
help-channel-cursor = de rinnerke ferpleatse
help-channel-pick = kies it fjild fan útgong, dan it fjild fan oankomst (of in klik)
help-channel-guess = typ in foarsizzing foar de kommende set
help-channel-predict = foarsizzen oan of út
help-channel-pieces = stikken as figueren (FULL) of letters (FLAT)
help-channel-leaders = ranglist fan alle foarsizzings, mei dyn eigen plak
help-channel-clear = ynfier en keazen fjild wiskje
help-channel-back = werom nei it begjinskerm (of ophâlde, begûn as `boardcast tv`)
home-hello = Boardcast — hallo, { $name }
home-stored-seat = bewarre plak: { $match } mei { $side } — R giet troch
home-prompt-keys = Enter, Esc annulearret
home-channels = TV en enginepartijen
home-hint-list = Tab/←→ list
home-hint-select = ↑↓ kieze
home-hint-join = Enter meidwaan/sjen
home-hint-predict = p foarsizze
home-hint-new = c nije partij
home-hint-code = i mei koade meidwaan
home-hint-engine = e enginepartij
home-hint-tv = t TV
home-hint-ftv = f Frysk TV
home-hint-resume = R trochgean
home-hint-refresh = r fernije
home-hint-help = ? help
home-hint-quit = q ophâlde
home-form-title = nije partij
home-form-time = tempo
home-form-colour = kleur
home-form-seek = sichtber
home-form-custom = eigen
home-form-public = iepenbier (as iepen útdaging)
home-form-private = privee (allinnich mei koade)
home-form-keys = ↑↓ kieze  ←→ feroarje  Enter meitsje  Esc annulearje
help-match-more-time = tsjinstanner +15 s / berserk (arenapartij)
help-match-takeback = weromnimme freegje of oannimme / wegerje
help-home-play-now = no spylje: in rated partij tsjin in lid mei in rating ticht by dy
home-hint-play-now = n no spylje
home-play-now-keys = ←→ of 1–5 betinktiid  Enter spylje  Esc werom
home-play-now-waiting-keys = Esc hâldt op mei sykjen

## The bell turned off and on while playing (b).
## The bell turned off and on while playing (b; the keys overlay lists it with n f t).
bell-off = belle út (b set him wer oan)
bell-on = belle oan (b set him út)
## `boardcast rules`: below each position's caption.
printed-rules-fen = Stelling (FEN): { $fen }
printed-rules-moves = Setten: { $moves }

## The prediction leaderboard overlay (`L` on the MinitChess screen).
leaderboard-title = ranglist foarsizzers
leaderboard-asking = de server wurdt frege…
leaderboard-empty = noch net ien hat foarsein
leaderboard-you-ranked = do: #{ $rank }  { $entry }
leaderboard-you-beyond = do: { $name } — net yn de top { $top }
leaderboard-you-unranked = do: { $name } — noch net op de list
leaderboard-you = do: { $name }
leaderboard-this-game = dizze partij: { $correct } goed, { $strikes } mis
leaderboard-close = in toets slút
mute-now = { $name } foar dy dimme (/ Tab en it nûmer wer om te sjen)
mute-undone = { $name } wer sjen litten
mute-hidden = rigels fan dimme skriuwers ferburgen: { $count }

## The match screen (client/src/ui/match_view.rs); `side` is `white` or `black`.
tui-free-seat = (frij plak)
tui-you = (do)
tui-gone = fuort
tui-berserk = berserk
tui-viewing = do besjochst { $move }
tui-viewing-start = do besjochst de begjinstân
tui-hint-step = < > stap
tui-hint-end = End werom nei de partij
tui-ftv = Frysk TV: de meast besjoene live partij
tui-match-id = partij { $id }
tui-spectators =
    { $count ->
        [one] { $count } sjogger
       *[other] { $count } sjoggers
    }
tui-invite-code = útnoegingskoade: { $code }
tui-pdn = PDN { $url } (s bewarret)
tui-offer-rematch-key = m biedt revanche oan
tui-waiting-opponent = wachtet op in tsjinstanner
tui-your-move = do bist oan set
tui-opponents-move = dyn tsjinstanner is oan set
tui-to-move =
    { $side ->
        [white] wyt is oan set
       *[black] swart is oan set
    }
tui-must-move-you = do moatst sette binnen { $time }
tui-must-move =
    { $side ->
        [white] wyt moat sette binnen { $time }
       *[black] swart moat sette binnen { $time }
    }
tui-offer-draw-mine = do hast remise oanbean (wachtet)
tui-offer-draw-theirs =
    { $side ->
        [white] wyt biedt remise oan ({ $accept } oannimme, { $decline } wegerje)
       *[black] swart biedt remise oan ({ $accept } oannimme, { $decline } wegerje)
    }
tui-offer-draw-told =
    { $side ->
        [white] wyt biedt remise oan
       *[black] swart biedt remise oan
    }
tui-offer-rematch-mine = do hast revanche oanbean (wachtet)
tui-offer-rematch-theirs =
    { $side ->
        [white] wyt biedt revanche oan ({ $accept } oannimme, { $decline } wegerje)
       *[black] swart biedt revanche oan ({ $accept } oannimme, { $decline } wegerje)
    }
tui-offer-rematch-told =
    { $side ->
        [white] wyt biedt revanche oan
       *[black] swart biedt revanche oan
    }
tui-gone-aborts =
    { $side ->
        [white] wyt is fuort: c brekt de partij ôf
       *[black] swart is fuort: c brekt de partij ôf
    }
tui-gone-claim =
    { $side ->
        [white] wyt is fuort: claim no (c winst, C remise)
       *[black] swart is fuort: claim no (c winst, C remise)
    }
tui-left-claim-in = { $name } is fuort — do kinst claimen oer { $time }
tui-side-gone =
    { $side ->
        [white] wyt is fuort
       *[black] swart is fuort
    }
tui-paused = (stiet stil wylst do oan set bist)
tui-rematch-at = revanche: { $id } (m giet der hinne)
tui-king-count =
    { $side ->
        [white] wite wolf op { $square }: { $count }/3 setten
       *[black] swarte wolf op { $square }: { $count }/3 setten
    }
tui-king-frozen =
    { $side ->
        [white] wite wolf op { $square }: { $count }/3 setten — gjin gewoane set mear
       *[black] swarte wolf op { $square }: { $count }/3 setten — gjin gewoane set mear
    }
tui-more = +{ $count } mear
tui-hint-quit = q stopje
tui-hint-back = q werom
tui-hint-rematch = m revanche
tui-hint-save = s PDN bewarje
tui-hint-moves = < > setten
tui-hint-home = q begjin
tui-move-prompt = set
tui-waiting-for =
    { $side ->
        [white] wachtet oant { $name } (wyt) set
       *[black] wachtet oant { $name } (swart) set
    }
tui-hint-spectator = sjogger
tui-hint-flip = f draaie
tui-hint-numbers = n nûmers
tui-hint-keys = ? toetsen
tui-ftv-waiting = Frysk TV: wachtet op in live partij…
tui-match-waiting = wachtet op de partij…
tui-title-ply = { $id } · heale set { $ply } fan { $count }
tui-legal = jildich ({ $count })
tui-moves = setten
tui-confirm-resign = Dizze partij opjaan? y / n
tui-confirm-abort = Dizze partij ôfbrekke? y / n
tui-takes = slacht
tui-chooser-keys = 1-9 of ↑↓ Enter kiest, Esc annulearret
tui-chooser-title = hokker slach?
tui-you-play =
    { $side ->
        [white] Do spilest wyt. Wachtet op in tsjinstanner…
       *[black] Do spilest swart. Wachtet op in tsjinstanner…
    }
tui-waiting-opponent-long = Wachtet op in tsjinstanner…
tui-waiting-keys = a ôfbrekke · q begjin (it plak bliuwt) · ? toetsen

## The MinitChess TV and prediction screen (client/src/ui/predict_view.rs).
tui-engine-game = enginepartij
tui-piece-set = { $set }-set
tui-serial = Searje { $serial }
tui-engines = Wyt { $white }  Swart { $black }
tui-game-over = Partij foarby: { $result }
tui-move-number =
    { $side ->
        [white] Set { $move }  (wyt oan set, heale set { $ply })
       *[black] Set { $move }  (swart oan set, heale set { $ply })
    }
tui-between-games = tusken partijen
tui-next-ply-in = folgjende heale set oer { $seconds } s
tui-next-game-in = folgjende partij oer { $seconds } s
tui-waiting-next-game = wachtet op de folgjende partij
tui-guess-waiting = dyn foarsizzing foar heale set { $ply }: { $guess } (wachtet)
tui-or = of
tui-guess-from = heale set { $ply }: fan { $from } nei { $to }
tui-guess-pick = heale set { $ply }: kies in begjinfjild of typ b1-c3
tui-verdict-correct = heale set { $ply }: do seist { $guess }, it wie { $actual } — goed
tui-verdict-strike = heale set { $ply }: do seist { $guess }, it wie { $actual } — mis
tui-score = goed { $correct }  mis { $strikes }
tui-standing = { $correct } goed, { $strikes } mis
tui-channel-waiting = wachtet op it kanaal…
tui-guess-prompt = foarsis
tui-hint-predict = p foarsizze
tui-hint-pieces = f FULL/FLAT
tui-hint-leaderboard = L ranglist
tui-prediction = foarsizzing

## The status bar and a screen still waiting (client/src/ui/mod.rs), a board with no room.
tui-link-connecting = ferbine
tui-link-online = online
tui-link-offline = offline, ferbynt opnij
tui-hint-help = ? help
tui-quits = q stoppet
tui-goes-back = q giet werom
tui-not-available = Net beskikber: { $why }
tui-no-answer = De server hat { $seconds } s net antwurde.
tui-too-small = terminal te lyts

## The status line's sentences about the match and the channel (client/src/app/status.rs);
## `who` is a player as named on screen, `side` is `white` or `black`.
note-connected = Ferbûn
note-reconnected = Opnij ferbûn
note-disconnected = Ferbining wei ({ $reason }); nij besykjen oer { $seconds } s
note-seat =
    { $side ->
        [white] Do spilest wyt yn partij { $id }
       *[black] Do spilest swart yn partij { $id }
    }
note-watching-players = Do sjochst nei { $white } (wyt) tsjin { $black } (swart)
note-watching-match = Do sjochst nei partij { $id }
note-joined-game-on = { $name } docht mei: de partij begjint
note-joined-as =
    { $side ->
        [white] { $name } docht mei as wyt
       *[black] { $name } docht mei as swart
    }
note-you-played = Do spilest { $move }
note-opponent-played = Dyn tsjinstanner spile { $move }: do bist oan set
note-played = { $who } spile { $move }
note-game-over = Partij foarby: { $result }
note-game-over-rematch = Partij foarby: { $result } · m biedt revanche oan
note-draw-you-offered = Do hast remise oanbean
note-draw-offered-to-you = Dyn tsjinstanner biedt remise oan: d nimt oan, D wegeret
note-draw-you-declined = Do hast de remise wegere
note-draw-yours-declined = Dyn remise-oanbod is wegere
note-draw-declined-by = { $who } wegere de remise
note-draw-offered-by = { $who } bea remise oan
note-draw-withdrawn = It remise-oanbod is ynlutsen
note-takeback-you-proposed = Do hast foarsteld dyn lêste set werom te nimmen
note-takeback-asked-of-you = Dyn tsjinstanner freget syn lêste set werom te nimmen: u nimt oan, U wegeret
note-takeback-you-declined = Do hast it weromnimmen wegere
note-takeback-yours-declined = Dyn foarstel om werom te nimmen is wegere
note-takeback-done-yours = Weromnommen: do bist wer oan set
note-takeback-done = Weromnommen: { $who } is oan set
note-takeback-declined-by = { $who } wegere it weromnimmen
note-takeback-proposed-by = { $who } stelde foar werom te nimmen
note-takeback-lapsed = It foarstel om werom te nimmen ferfoel mei de set
note-premove-set = Foarset { $move }: spile sa gau as dyn tsjinstanner set hat (Esc annulearret)
note-premove-played = Foarset { $move } spile
note-premove-cancelled = Foarset { $move } annulearre
note-premove-dropped = Foarset { $move } ferfallen: hy is no net jildich
note-rematch-you-offered = Do hast revanche oanbean
note-rematch-offered-to-you = Dyn tsjinstanner biedt revanche oan: m nimt oan, M wegeret
note-rematch-you-declined = Do hast de revanche wegere
note-rematch-yours-declined = Dyn revanche-oanbod is wegere
note-rematch-started = Revanche begûn: partij { $id }
note-rematch-declined-by =
    { $side ->
        [white] wyt wegere in revanche
       *[black] swart wegere in revanche
    }
note-rematch-offered-by =
    { $side ->
        [white] wyt bea in revanche oan
       *[black] swart bea in revanche oan
    }
note-you-left = Dyn plak ferlear de ferbining; it bliuwt foar dy bewarre
note-opponent-left = Dyn tsjinstanner is fuort
note-left = { $who } is fuort
note-you-returned = Do bist werom yn de partij
note-opponent-returned = Dyn tsjinstanner is werom
note-returned = { $who } is werom
note-you-berserk = Do giest berserk: de helte fan dyn tiid, gjin ynkrement
note-opponent-berserk = Dyn tsjinstanner gie berserk
note-berserk = { $who } gie berserk
note-claimable = Dyn tsjinstanner is fuort: c claimt de winst, C remise
note-claimable-aborts = Dyn tsjinstanner is fuort: c brekt de partij ôf
note-ambiguous = { $count } setten passe: kies der ien mei 1-{ $last } of ↑↓ Enter
note-pdn = PDN op { $url } (s bewarret him)
note-pdn-saved = PDN bewarre yn { $path }
note-engine-game = { $channel }: { $white } tsjin { $black }, searje { $serial }
note-ply = Heale set { $ply }: { $move }
note-correct = Goed: { $actual }
note-strike = Mis: do seist { $guess }, it wie { $actual }
note-shutdown = De server stoppet: { $reason }
note-featured = Frysk TV toant partij { $id }
note-featured-none = Frysk TV: noch gjin live partij
## A result in the terminal (the reason after it: the server's English detail, or `reason-*`).
tui-result-wins =
    { $side ->
        [white] wyt wint
       *[black] swart wint
    }
tui-result-aborted = ôfbrutsen
tui-result-draw = remise

## What the terminal client refuses or says by itself, nothing sent (client/src/app).
local-unreachable = kin de server net berikke: { $reason }
local-garbled = in berjocht negearre dat dizze client net lêze kin: { $error }
local-friend-runs = dyn freon typt: { $command }
local-friend-opens = of iepenet: { $link }
local-pdn-not-over = de PDN wurdt bewarre as de partij foarby is
local-no-seat = do spilest gjin partij
local-no-channel = do sjochst net nei in enginepartij
local-no-game = op dit kanaal wurdt gjin partij spile
local-guess-illegal =
    { $side ->
        [white] { $move } is hjir gjin jildige set foar wyt; jildich: { $legal }
        [black] { $move } is hjir gjin jildige set foar swart; jildich: { $legal }
       *[other] { $move } is hjir gjin jildige set; jildich: { $legal }
    }
local-no-stored-seat = gjin bewarre plak om fierder te gean
local-expected = ferwachte { $what }, krige `{ $got }`
local-match-over = de partij is foarby
local-abort-too-late = in partij kin allinne ôfbrutsen wurde foardat beide kanten set hawwe; r jout op
local-wait-for-move =
    { $side ->
        [white] wyt is oan set: wachtsje derop
       *[black] swart is oan set: wachtsje derop
    }
local-not-your-turn = do bist net oan set
local-no-move-from = gjin jildige set begjint op { $square }
local-no-move-from-to = gjin jildige set fan { $from } nei { $to }
local-prediction-off = foarsizzen stiet út: p set it oan
local-not-a-guess = `{ $text }` is gjin set lykas b1-c3
local-cannot-go = { $from } kin net nei { $to }
local-prompt-invite = útnoegingskoade
local-prompt-engine = enginepartij (SEARJE WYT SWART, bgl. CH3SS5 L4 K7)
local-not-a-time-control = `{ $text }` is gjin betinktiid: { $error } (MINUTEN+SEKONDEN, bgl. 7+2)
local-no-code-or-id = gjin iepen partij hat de útnoegingskoade of partij-id { $text }
local-not-a-move = `{ $text }` is gjin set: skriuw fjilden 1-50 mei - of x dertusken, bgl. 32-28 of 28x19
## The `--plain` mode's input lines refused (client/src/app/command.rs).
cmd-expected-reply = ferwachte offer, accept of decline, krige `{ $got }`
cmd-needs = `{ $command }` hat { $what } nedich
cmd-what-move = in set lykas 32-28
cmd-what-code = in útnoegingskoade of partij-id
cmd-what-match = in partij-id
cmd-what-serial = in searje
cmd-what-white = de engine en seed fan wyt, bgl. L4
cmd-what-black = de engine en seed fan swart, bgl. K7
cmd-claim-needs = `claim` hat win of draw nedich
cmd-not-a-preset = `{ $preset }` is gjin tempo foar no spylje: 1+1, 3+2, 5+3, 10+5 of 15+10
cmd-playnow-needs = `playnow` hat in tempo (1+1 … 15+10) of cancel nedich
cmd-predict-needs = `predict` hat in set lykas b1-c3 nedich, of in kanaal
cmd-unknown = ûnbekende opdracht `{ $command }` (besykje help)
## The account commands (client/src/account): a login the server no longer takes, and an
## answer that is not the API's (a proxy's error page), told by its HTTP status.
account-login-invalid = de oanmelding fan { $name } op { $server } is net mear jildich (oeral ôfmeld, ynlutsen, ferrûn of it akkount sletten): boardcast login { $name }
account-http-status = de server antwurde HTTP { $status }, net mei syn API
## What `login`, `logout`, `whoami` and `games` say (client/src/account/mod.rs); the command's
## name (`login:`, `games NAME:`) goes before an error as it was typed.
login-as = ynlogd as { $name } op { $server }
login-as-bot = ynlogd as { $name } (botaccount) op { $server }
login-as-admin = ynlogd as { $name } (klupbehearder) op { $server }
login-password-prompt = Wachtwurd foar { $name } op { $server }:
login-password-unreadable = kin it wachtwurd net lêze: { $error }
login-password-stdin-unreadable = kin it wachtwurd net fan standertynfier lêze: { $error }
login-no-password = gjin wachtwurd jûn (ien rigel op standertynfier)
login-no-config-dir = gjin konfiguraasjemap om de oanmelding yn te bewarjen: jou --config-dir
login-token-fails = de nije tagongskaai wurket net: { $reason }
login-cannot-keep = kin de tagongskaai net bewarje yn { $file }: { $error }
logout-done = { $name } útlogd op { $server }
logout-here-only = { $name } útlogd op dizze kompjûter; de server ken syn tagongskaai noch ({ $reason }): lûk him yn op { $server }/account/tokens
logout-no-token-id = dizze kompjûter hat it nûmer fan de kaai net bewarre
logout-cannot-update = kin { $file } net bywurkje: { $error }
logout-not-logged-in = net ynlogd op { $server }
whoami-not-logged-in = net ynlogd op { $server } (boardcast --server { $server } login NAMME)
## One line of `boardcast games NAME`: `m12 2026-11-26 white v Wytze (guest) won 2-0 5+3`
## (the colour, the guest tag, the outcome and `untimed` are the web's words).
games-line = { $id } { $date } { $colour } tsjin { $opponent } { $outcome } { $result } { $time }
games-date = { $day }-{ $month }-{ $year }
games-none = { $name } hat noch gjin spile partijen
games-saved = partijen fan { $name } bewarre yn { $file } ({ $bytes } bytes)
## A request to the server's API that got no answer of the API's (client/src/account/api.rs).
api-cannot-reach = kin { $url } net berikke: { $error }
api-connection-refused = kin { $url } net berikke: dêr antwurdet neat (draait de server?)
api-no-answer-in-time = { $url }: de server antwurde net op tiid
api-not-the-apis = it antwurd fan de server is net dat fan syn API: { $error }
api-reading-answer = by it lêzen fan it antwurd: { $error }
api-cannot-write = kin { $file } net skriuwe: { $error }
api-bad-address = ûnjildich adres { $url }: { $error }
api-bad-token = de bewarre tagongskaai is gjin jildige tekst
cannot-start = kin net begjinne: { $error }

## `boardcast events`: after the finished events when older ones follow on the next page
## (`command` is the command that shows it), and when the server left out some upcoming or
## running events (more than it lists).
cli-events-older = âlder: { $command }
cli-events-more-current = Der komme mear toernoaien oan of der rinne mear as de server sjen lit.
