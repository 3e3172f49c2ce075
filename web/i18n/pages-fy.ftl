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
lobby-rules = Nij yn it Frysk damjen? De regels, mei stellingen om troch te rinnen
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
events-pages = Siden mei ôfrûne toernoaien
events-none-waiting = Der stiet gjin toernoai op it programma.
events-none-playing = Der rint no gjin toernoai.
events-none-finished = Der is noch gjin toernoai ôfrûn.
events-about = De toernoaien fan de klub: Switsersk, rûntetoernoai en arena. Iepenje der ien om de spilers, de yndieling en de stân te sjen, en doch dêr as lid mei: oan in rûntetoernoai oant it begjint, oan in Switsersk toernoai oant de lêste rûne, oan in arena salang't dy rint.
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
event-rejoin = Wer meidwaan
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
event-col-bh-short = BH
event-col-bh1-short = BH-1
event-col-sb-short = SB
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
## The form that creates an event (pages/event-form.js), for organisers.
event-form-title = Nij toernoai
event-form-name = Namme
event-form-kind = Soarte
event-form-kind-arena = Arena
event-form-kind-swiss = Switsersk
event-form-kind-round_robin = Rûntetoernoai
event-form-minutes = Minuten per spiler
event-form-increment = Sekonden taslach per set
event-form-length = Doer fan de arena (minuten)
event-form-rounds = Rûnen
event-form-double = Dûbel rûntetoernoai (elk pear spilet twa kear, mei de kleuren om)
event-form-rated = Mei rating
event-form-start = Begjin (leech: no)
event-form-password = Wachtwurd (net ferplichte: in sletten toernoai)
event-form-min-games = Minimum oantal partijen mei rating
event-form-rating-min = Leechste rating
event-form-rating-max = Heechste rating
event-form-create = Toernoai oanmeitsje
event-form-created = It toernoai is oanmakke.
event-form-error-name = Jou in namme fan 1 oant { $max } tekens.
event-form-error-time = 1 oant { $max } minuten, en 0 oant { $increment } sekonden taslach per set.
event-form-error-length = In arena duorret { $min } oant { $max } minuten.
event-form-error-rounds = In Switsersk toernoai hat 1 oant { $max } rûnen.
event-form-error-start = It begjin leit tusken no en { $days } dagen foarút.
event-form-error-password = In wachtwurd hat { $min } oant { $max } tekens.
event-form-error-min-games = 0 oant { $max } partijen mei rating.
event-form-error-rating = Ratings fan 0 oant { $max }, de leechste net boppe de heechste.
## An arena game's berserk button (render/berserk.js), on the match page.
match-berserk = Berserk
match-berserk-title = Heale betinktiid en gjin ynkremint, foar dyn earste set; in winst fan 14 heale setten of mear jout in punt ekstra
match-berserked = { $name } gie berserk

## The login page after the session ended elsewhere (a close with 4001).
login-session-ended = Dyn oanmelding is einige: do hast dy oeral ôfmeld, dyn wachtwurd is feroare of dyn akkount is sletten. Meld dy opnij oan.

## The account pages (js/pages/account.js) and their forms' answers (js/account.js).
account-login-title = Ynlogge
account-signup-title = Oanmelde
account-create = Account oanmeitsje
account-name = Brûkersnamme
account-password = Wachtwurd
account-password-again = Wachtwurd nochris
account-no-account = Noch gjin account?
account-member-already = Al lid?
account-forgot = Wachtwurd fergetten? In klupbehearder kin it opnij ynstelle.
account-name-hint = 2 oant 20 letters, sifers, _ of -; nimmen oars kin him nimme.
account-password-hint = Op syn minst { $count } tekens; gewoane of maklik te rieden wachtwurden wurde wegere.
account-signup-hint = Gjin e-mail nedich. Gasten kinne sûnder account fierder spylje.
account-logged-in-as = Do bist ynlogd as { $name }.
account-title = Dyn account
account-who-member = Ynlogd as { $name }.
account-who-bot = Ynlogd as { $name } (botaccount).
account-who-admin = Ynlogd as { $name } (klupbehearder).
account-your-profile = Dyn profyl en partijen
account-change-password = Wachtwurd feroarje
account-current-password = Hjoeddeistich wachtwurd
account-new-password = Nij wachtwurd
account-new-password-again = Nij wachtwurd nochris
account-change-logs-out = Feroarjen logt alle oare apparaten út.
account-sessions = Sesjes
account-sessions-before = Oeral útlogge einiget alle oanmeldings fan dyn account, yn browsers en yn
account-sessions-after = ek. Tagongskaaien dy't do op namme makke hast bliuwe oant do se ynlûkst.
account-guest-account = Log yn om dyn account te sjen.
account-guest-tokens = Log yn om dyn tagongskaaien te sjen.
account-tokens-title = Persoanlike tagongskaaien
account-token-about-before = Mei in kaai hannelet in programma út dyn namme; de terminal makket mei
account-token-about-after = in eigen kaai.
account-token-new = Nije kaai
account-token-name = Namme
account-token-scopes = Rjochten
account-token-create = Kaai meitsje
account-token-copy-now = Kopiearje dyn nije kaai no: hy wurdt net wer toand.
account-token-copy = Kaai kopiearje
account-tokens-yours = Dyn kaaien
account-token-created = makke { $created }
account-token-created-used = makke { $created } · brûkt { $used }
account-token-revoke = Ynlûke
account-token-revoke-name = { $name } ynlûke
account-token-none = Gjin kaaien.
account-name-rule = In brûkersnamme is 2 oant 20 letters, sifers, _ of -.
account-password-short = In wachtwurd hat op syn minst { $count } tekens.
account-password-long = In wachtwurd hat op syn heechst { $count } tekens.
account-passwords-differ = De twa wachtwurden ferskille.
account-give-name-password = Jou dyn brûkersnamme en wachtwurd.
account-token-needs-name = Jou de kaai in namme, om him yn de list werom te kennen.
account-token-needs-scope = Kies op syn minst ien rjocht.
account-password-changed = Wachtwurd feroare. Alle oare sesjes fan dyn account binne einige.
account-not-logged-in = Do bist net ynlogd.
account-retry-after = { $text } (besykje it oer { $seconds } s opnij)
## The server's answers to account requests, by their code (PROTOCOL.md §18); a code missing
## here shows the server's English text.
account-error-name_invalid = In brûkersnamme is 2 oant 20 letters, sifers, _ of -.
account-error-name_taken = Dy namme is al nommen: kies in oare.
account-error-name_reserved = Dy namme is reservearre: kies in oare.
account-error-password_too_short = Dat wachtwurd is te koart.
account-error-password_too_long = Dat wachtwurd is te lang.
account-error-password_weak = Dat wachtwurd is te maklik te rieden: kies in langer of minder gewoan wachtwurd.
account-error-bad_request = De server koe dat fersyk net lêze.
account-error-bad_credentials = Unbekende brûkersnamme of ferkeard wachtwurd.
account-error-unauthenticated = Do bist net ynlogd.
account-error-account_closed = Dit account is sletten.
account-error-cross_origin = Wegere: it fersyk kaam fan in oare side.
account-error-forbidden = Dizze oanmelding mei dat net.
account-error-not_found = Net fûn.
account-error-throttled = Te folle mislearre besykjen.
account-error-internal = De server koe dat no net dwaan: besykje it opnij.
account-error-busy = De server is drok: besykje it sa meteen opnij.
account-error-busy-retry = De server is drok: besykje it oer { $seconds } s opnij.

## The match page's sounds and the hidden-tab notice (js/sound.js).
sound-mute = Lûd út
notify-played = { $name } spile { $move }

## Takebacks and premoves on the match page (render/takeback.js, render/premove.js).
takeback-propose = Weromnimme
takeback-propose-title = Freegje dyn tsjinstanner om dyn lêste set werom te nimmen
takeback-accept = Weromnimme tastean
takeback-decline = Weromnimme ôfwize
takeback-offered = { $name } freget om de lêste set werom te nimmen
takeback-sent = Weromnimme frege: wachtsje op { $name }
takeback-declined = dyn fersyk om werom te nimmen is ôfwiisd
premove-set = Foarset { $move }: spile sa gau asto oan set bist
premove-cancel = Foarset annulearje
premove-dropped = foarset { $move } ferfallen: dy set mei no net
premove-dropped-capture = foarset { $move } ferfallen: slaan is ferplicht ({ $squares } moat slaan)
## The rules page (/rules, and `boardcast rules` in the terminal).
rules-page-title = De regels fan it Frysk damjen
rules-intro = Boardcast folget it Offisjele Reglemint foar it Frysk Damjen (2011). By eltse regel heart in stelling: rin de setten troch mei de knoppen by it boerd.
rules-title-board = It boerd en de begjinstelling
rules-text-board = It boerd hat 10 by 10 fjilden; der wurdt spile op de 50 donkere fjilden, nûmere fan 1 oant 50 fan de kant fan swart ôf. Eltse spiler begjint mei 20 houtsjes: swart op 1 oant en mei 20, wyt op 31 oant en mei 50. Wyt begjint, dêrnei binne de spilers om bar oan set.
rules-pos-start = De begjinstelling. Wyt hat 9 setten; hjir spilet wyt 32-28 en swart antwurdet 19-23.
rules-title-men = Hoe't houtsjes geane
rules-text-men = In houtsje giet ien fjild skean foarút nei in leech fjild. Sûnder te slaan giet it nea efterút of rjocht foarút.
rules-pos-man-moves = De houtsjes op 33 en 37 hawwe elk twa setten foarút. 33-39 (efterút) en 33-23 (rjocht foarút) binne gjin houtsjesetten.
rules-title-captures = Slaan yn acht rjochtingen (art. 7, 9–14)
rules-text-captures = Slaan is ferplichte. Houtsjes en wolven slaan yn alle acht rjochtingen: skean, en ek rjocht foarút, efterút en op side, oer in stik fan de tsjinstanner dêrneist nei it lege fjild dêrefter. Rjocht foarút leit de buorman twa rigen heger (33 nei 23); op side is it it folgjende fjild yn deselde rige (33 nei 34). In slach dy't fierder kin, moat fierder, yn eltse rjochting; de sleine stikken geane pas fan it boerd as de set dien is.
rules-pos-compulsory = Nei 32-28 19-23 moat wyt slaan mei 28x19: 33-29 wurdt wegere. Swart kin dan op trije manieren weromslaan, ien derfan rjocht nei ûnderen: 9x29.
rules-pos-eight-directions = It houtsje op 28 kin op side slaan (28x26) of rjocht efterút (28x48); it houtsje op 50 mei net sette salang't der slein wurde kin.
rules-pos-chain = In slach giet fierder fan it fjild dêr't er telâne komt: 33x35 slacht 34, en dan rjocht omheech oer 25 nei 15. Stopje op 35 wurdt wegere.
rules-title-value = De slach mei de measte wearde (art. 11, 12)
rules-text-value = Fan alle slaggen dy't de spiler oan set hat, binne allinne dy mei de heechste wearde tastien. In wolf telt sawat as oardel houtsje: ien wolf is mear wurdich as ien houtsje, twa houtsjes mear as ien wolf. By gelikense wearde moat in wolf dy't slaan kin earst slaan.
rules-pos-king-over-man = It houtsje op 33 kin in wolf slaan (33x22) of in houtsje (33x35): it moat de wolf slaan.
rules-pos-two-men-over-king = Twa houtsjes binne mear wurdich as ien wolf: 33x15 slacht 34 en 25, en 33x22 (de wolf) wurdt wegere.
rules-pos-king-first = De wolf op 5 en it houtsje op 49 kinne beide ien houtsje slaan; de wolf moat slaan. Hy slacht op side, op ôfstân, en mei op 3, 2 of 1 telâne komme.
rules-title-promotion = Wolf wurde (art. 8)
rules-text-promotion = In houtsje dat syn set einiget op de daamline (1 oant en mei 5 foar wyt, 46 oant en mei 50 foar swart) wurdt in wolf. In houtsje dat by in slach allinne oer de daamline giet, bliuwt in houtsje.
rules-pos-crowned = 7-2: it houtsje berikt de daamline en wurdt wolf.
rules-pos-passing-through = 14x25 komt ûnderweis oer 5 en einiget op 25: it houtsje bliuwt in houtsje.
rules-title-kings = Wolven (art. 9)
rules-text-kings = In wolf giet oer lege fjilden safolle fjilden as er wol skean; sûnder te slaan giet er net rjocht. Hy slacht op ôfstân yn alle acht rjochtingen, oer it earste stik dat er tsjinkomt, en mei op eltse lege fjild dêrefter telâne komme.
rules-pos-king-moves = De wolf op 46 mei oeral op syn diagonaal hinne, hjir nei 23; 46-36 (rjocht omheech) wurdt wegere.
rules-pos-king-captures = De wolf slacht 28 op ôfstân en mei op 23, 19, 14, 10 of 5 telâne komme.
rules-title-three-moves = De trije-setteregel foar de wolf (art. 17)
rules-text-three-moves = In spiler mei wolven én houtsjes mei net mear as trije kear efter elkoar mei deselde wolf sette sûnder te slaan. In houtsjeset of in slach lit de telling op 'e nij begjinne. In spiler mei allinne wolven is net oan dizze regel bûn.
rules-pos-frozen = De wite wolf set trije kear (46-37, 37-46, 46-41); no wurdt 41-46 wegere en moat wyt mei it houtsje sette.
rules-title-draws = It ein fan de partij en remise (art. 18, 20, 21)
rules-text-draws = Wa't net sette kin (gjin stikken mear, of allegear fêstsitten), ferliest (art. 20). Twa wolven tsjin ien wolf is remise nei 7 setten elk (art. 18). Ien wolf tsjin ien wolf is daliks remise, útsein as de spiler oan set slaan kin of in slach binnen de folgjende setten net te ûntkommen is (art. 21). Remise troch werhelling bestiet net; spilers kinne remise ôfprate, en Boardcast beslút oer opjaan en tiid.
rules-pos-two-kings-v-one = Twa wolven tsjin ien wolf: der binne 13 heale setten spile, wyt syn 1-7 is de 14e (7 setten elk), en de partij is remise.
rules-pos-king-v-king = De wolf slacht it lêste swarte houtsje; ien wolf tsjin ien wolf en gjin slach yn sicht: daliks remise.
rules-pos-no-move = It ienige wite houtsje op 46 sit fêst en kin net slaan: wyt hat gjin set en ferliest.
rules-start = Begjin
rules-back = Werom
rules-next = Fierder
rules-step = Set { $n } fan { $count }: { $move }
rules-at-start = De stelling foar de earste set
rules-reason-here = Dêrom waard dyn set wegere.

## The account page's game preferences (js/pages/preferences.js).
preferences-title = Spulfoarkarren
preferences-refuse-more-time = Wegerje +15 s fan tsjinstanners yn elke partij
preferences-refuse-more-time-hint = Bewarre by dyn akkount: it jildt op elk apparaat en yn de terminalclient, fan dyn folgjende partij ôf.
preferences-saved = Bewarre.
preferences-not-saved = Net bewarre: besykje it nochris.
## The ladder (/ladder).
ladder-title = Ranglist
ladder-caption = De ranglist, heechste rating earst
ladder-rank = Plak
ladder-player = Spiler
ladder-rating = Rating
ladder-rd = RD
ladder-rd-full = Ratingôfwiking
ladder-games = Partijen
ladder-games-full = Partijen foar de rating
ladder-loading = De ranglist wurdt laden…
ladder-empty = Der stiet noch net ien op de ranglist: dy toant leden mei in fêste rating (RD heechstens 75) dy't de ôfrûne 7 dagen rated spile hawwe.
ladder-about = Ratings binne Glicko-2 oer rated partijen Frysk damjen. Spilers mei in foarlopige rating (toand as 1500?) steane der net op.

## A member's profile (/@/{name}).
profile-chart-empty = Noch gjin rated partijen: de grafyk begjint by de earste.
profile-chart-label = Ratingferrin: { $first } op { $from }, { $last } op { $to }
profile-best-win-game = partij
profile-download = Alle partijen downloade (PDN)
profile-games-caption = Spile partijen fan { $name }, nijste earst
profile-col-date = Datum
profile-col-opponent = Tsjinstanner
profile-col-colour = Kleur
profile-col-result = Útslach
profile-col-time = Betinktiid
profile-col-game = Partij
profile-no-games = Noch gjin spile partijen.
profile-newer = Nijer
profile-older = Âlder
profile-pages = Siden mei partijen
profile-page = side { $page }
profile-rating = Rating
profile-games = Partijen
profile-finished = Spile partijen
profile-history = Ratingferrin
profile-missing = Der is gjin spiler dy't { $name } hjit.
profile-fact-rating = Rating
profile-fact-rd = Ôfwiking (RD)
profile-fact-rated = Rated partijen
profile-fact-best = Bêste oerwinning
profile-fact-member = Lid sûnt
profile-fact-last = Lêst sjoen
profile-fact-games = Partijen spile
profile-fact-won = Wûn · remise · ferlern
profile-outcome-won = wûn
profile-outcome-drawn = remise
profile-outcome-lost = ferlern

## Takeback refusals (PROTOCOL.md §12.1): worded here, out of the match page's own file.
# `other`: a match whose snapshot says neither rated nor event (an older server).
error-not_allowed-takeback_casual_only =
    { $match ->
        [rated] In set weromnimme kin allinnich yn frije partijen, net yn in partij foar de rating.
        [event] In set weromnimme kin allinnich yn frije partijen, net yn in partij fan in klubtoernoai.
       *[other] In set weromnimme kin allinnich yn frije partijen: yn dizze partij net.
    }
error-not_allowed-nothing_to_take_back = Do hast noch gjin set om werom te nimmen.
error-not_allowed-takeback_proposal_stands = Dyn fersyk om werom te nimmen stiet al.
error-not_allowed-opponent_takeback_stands = Dyn tsjinstanner wol in set weromnimme: nim dat earst oan of wiis it ôf.
error-not_allowed-no_takeback_proposal = Dyn tsjinstanner hat net frege om in set werom te nimmen.
error-rate_limited-takeback_too_soon = Weromnimme kin op syn heechst ien kear yn de { $every_s } s: besykje it oer { $retry_after_s } s nochris.

## Refusals worded from their reason (PROTOCOL.md §12.1) beyond the match page's own in
## fy.ftl: the match page fetches this file at the first such refusal.
error-invalid_argument-not_a_minit_square = { $square } is gjin fjild (a1 oant en mei e6).
error-invalid_argument-invalid_field = It fjild { $field } fan dat berjocht is net jildich.
error-not_found-channel_closed = Kanaal { $channel } is sletten.
error-not_found-no_match = Der is gjin partij { $match_id }.
error-not_found-no_open_match = Der is gjin iepen iepenbiere partij { $match_id } (by in besletten partij doch je mei fia de útnoegingskoade).
error-not_found-no_invite_code = Der is gjin partij mei útnoegingskoade { $code }.
error-not_found-no_chat_line = Der is gjin chatrigel { $line } yn partij { $match_id }.
error-not_found-match_stopped = Dizze partij rint net mear.
error-not_found-no_account = Der is gjin account { $name }.
error-not_found-paired_match_gone = De keppele partij { $match_id } is fuort; druk nochris op no spylje.
error-busy-channel_busy = Kanaal { $channel } is drok; besykje it nochris.
error-busy-event_busy = Te folle fragen tagelyk nei toernoai { $event }; besykje it nochris.
error-busy-drawing_ids = Der wurde id's foar enginepartijen lutsen; besykje it sa meteen nochris.
error-busy-taking_over = Dizze server nimt in protte partijen tagelyk oer; besykje it nochris.
error-busy-commands_waiting = Der wachtsje te folle opdrachten foar dizze partij; besykje it nochris.
error-busy-relay_full = Der wachtsje te folle berjochten tusken servers; besykje it nochris.
error-busy-match_moved = Dizze partij is nei in oare server ferhuze wylst do it fregest; stjoer it nochris.
error-busy-too_many_matches = De server hat safolle partijen as er mei; besykje it letter.
error-busy-too_many_finished = De server hat safolle ôfrûne partijen iepen as er mei; besykje it letter.
error-busy-failed_joins = Te folle mislearre besykjen om mei te dwaan op de server; besykje it letter.
error-busy-pool_full = De { $preset }-pool is fol ({ $capacity } wachtsjenden); besykje it sa meteen nochris.
error-busy-play_now_busy = Te folle spilers drukke tagelyk op no spylje; besykje it nochris.
error-not_allowed-no_game_running = Der rint no gjin partij op { $channel }.
error-not_allowed-played_live = { $serial } { $white } tsjin { $black } wurdt live spile op { $channel }: begjin him as dy partij foarby is (sjoch yntusken op { $channel }).
error-not_allowed-no_seat_for_account = Dyn account hat gjin plak yn { $match_id }.
error-not_allowed-myself_other_seat = Allinne de ferbining mei it oare plak fan { $match_id } kin meidwaan om tsjin harsels te spyljen.
error-not_allowed-holds_other_seat = Dizze ferbining hat al it oare plak fan { $match_id }: doch mei as dysels om tsjin dysels te spyljen.
error-not_allowed-chat_full = De chat fan dizze partij is fol ({ $limit } rigels).
error-not_allowed-abort_after_moves = In partij kin allinne ôfbrutsen wurde foardat beide kanten set hawwe.
error-not_allowed-opponent_connected = Dyn tsjinstanner is ferbûn: der falt neat te claimen.
error-not_allowed-grace_running = Dyn tsjinstanner kin noch weromkomme: claim oer { $wait_s } s.
error-not_allowed-grace_paused = Dyn tsjinstanner kin noch weromkomme: claim nei { $wait_s } s fan syn beurt (op dyn beurt stiet de wachttiid stil).
error-not_allowed-rematch_not_over = In revanche kin pas oanbean wurde as de partij foarby is.
error-not_allowed-rematch_exists = De revanche bestiet al: { $match_id }.
error-not_allowed-no_opponent = Der wie gjin tsjinstanner om nochris tsjin te spyljen.
error-not_allowed-rematch_offer_stands = Dyn revanche-oanbod stiet al.
error-not_allowed-own_rematch_offer = Dit revanche-oanbod is fan dy: dyn tsjinstanner moat it oannimme.
error-not_allowed-no_rematch_offer = Dyn tsjinstanner hat gjin revanche oanbean.
error-not_allowed-more_time_untimed = Mear tiid is der allinne by partijen mei betinktiid.
error-not_allowed-more_time_refused = Dyn tsjinstanner nimt gjin ekstra tiid oan.
error-not_allowed-flagged = De tiid is op.
error-not_allowed-berserk_arena_only = Berserk kin allinne yn arenapartijen.
error-not_allowed-berserk_already = Do bist al berserk gien.
error-not_allowed-berserk_after_move = Berserk kin allinne foar dyn earste set.
error-not_allowed-reclaim_needs_login = In plak fan in account weromnimme kin allinne ynlogd: log earst yn (in gast giet fierder mei de plakkaai).
error-not_allowed-admins_only = Allinne in klupbehearder modereart de chat.
error-not_allowed-rated_against_oneself = In rated partij tsjin dysels mei net.
error-illegal_prediction-not_legal =
    { $side ->
        [white] { $move } is gjin jildige set foar wyt foar heale set { $next }.
       *[black] { $move } is gjin jildige set foar swart foar heale set { $next }.
    }
error-storage_unavailable-channel_moving = { $channel } ferhuzet nei in oare server; stjoer de foarsizzing nochris.
error-storage_unavailable-changing_servers = De partij wikselet fan server; besykje it sa meteen nochris.
error-storage_unavailable-match_moved = De partij is nei in oare server ferhuze; stjoer it nochris.
error-storage_unavailable-unreachable = De databank is no net te berikken: der is neat feroare; besykje it sa meteen nochris.
error-storage_unavailable-chat_unreadable = De chat kin no net lêzen wurde; der is neat sein.
error-storage_unavailable-event_unreadable = Toernoai { $event } kin no net lêzen wurde; besykje it sa nochris.
error-storage_unavailable-lease_lost = Dizze server is syn databanklease kwyt; besykje it nochris.
error-shutting_down-shutting_down = De server wurdt ôfsletten.
error-shutting_down-play_now_stopped = No spylje is stoppe.
error-invalid_token-watcher = Do sjochst nei partij { $match_id }: sjoggers kinne neat dwaan.
error-invalid_token-unknown_token = Dy plakkaai is ûnbekend.
error-internal-internal = Der gie wat mis op de server; der is neat feroare.
error-internal-does_not_replay = De bewarre partij lit him net neispylje.
error-internal-no_invite_code = Der koe gjin net brûkte útnoegingskoade lutsen wurde; der is gjin partij makke.
error-internal-storage_failed = Bewarjen mislearre op de server; der is neat feroare.
error-members_only-free_chat = Gasten chatte mei de fêste sinnen; frije tekst is foar ynlogde leden.
error-members_only-rated_play = Rated partijen en no spylje binne foar ynlogde leden; in gast spilet frije partijen.
error-members_only-rated_seek = Dit is in rated partij: log yn om rated te spyljen.
error-chat_too_fast-chat_too_fast = Chatrigels komme mei { $burst } tagelyk, dêrnei ien per { $every_s } s: wachtsje { $wait_s } s.
error-rate_limited-more_time_often = Mear tiid op syn heechst ien kear per { $every_s } s.
error-rate_limited-too_many_messages = Te folle berjochten: de ferbining wurdt sletten.
error-unsupported_version-protocol_version = Dizze server sprekt protokol { $ours }, net { $theirs }.
error-chat_muted-muted = In klupbehearder ({ $by }) hat dy yn alle chats fan dizze server dôve.
error-outside_rating_range-outside_range = Dyn rating { $rating } leit mear as { $range } fan dy fan de makker ({ $creator }).
error-match_full-both_seats_taken = Beide plakken fan dizze partij binne beset.
error-too_large-frame_too_large = Dat berjocht hat { $size } bytes, boppe de grins fan { $limit }.
error-malformed-wrong_frame_type = In { $got }-berjocht op in { $expected }-ferbining.
error-malformed-invalid_utf8 = Dat berjocht is gjin jildige UTF-8.
error-malformed-not_a_message = De server koe dat berjocht net lêze.
error-malformed-unknown_type = De server kin it berjochttype { $type } net.
error-busy-archive_busy = Der rinne te folle argyffragen; besykje it sa meteen nochris.
error-not_found-no_channel = Der is gjin kanaal of argivearre partij { $channel }.
error-not_found-no_event = Der is gjin toernoai { $event }.

## Refused event requests on the events pages (web/js/pages/events.js), by code.
event-error-unauthenticated = Meld dy earst oan.
event-error-not_organiser = Allinnich in behearder of in lid mei organisatorrjocht makket toernoaien oan.
event-error-forbidden = Allinnich in klubbehearder jout it organisatorrjocht.
event-error-not_found = Dit toernoai bestiet net.
event-error-already_joined = Do dochst al mei oan dit toernoai.
event-error-not_joined = Do spilest net mei yn dit toernoai.
event-error-event_finished = It toernoai is ôfrûn.
event-error-event_started = By in round-robin kinsto nei de start net mear ynstappe.
event-error-round_in_progress = De lêste ronde wurdt spile: der kin net ien mear by.
event-error-wrong_password = Ferkeard toernoaiwachtwurd.
event-error-not_eligible = Do meist net meidwaan oan dit toernoai (ratinggrinzen of minimum oantal ratingpartijen).
event-error-busy = It toernoai is drok: besykje it nochris.
event-error-event_moving = It toernoai ferhuzet nei in oare server: besykje it sa nochris.
event-error-internal = De server koe dat net bewarje: besykje it nochris.
event-error-left_for_good = Do hast dy nei de start út dizze round-robin weromlutsen: do kinst net wer meidwaan.
