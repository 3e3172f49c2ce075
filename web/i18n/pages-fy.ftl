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
error-not_allowed-takeback_casual_only =
    { $match ->
        [rated] In set weromnimme kin allinnich yn frije partijen, net yn in partij foar de rating.
       *[event] In set weromnimme kin allinnich yn frije partijen, net yn in partij fan in klubtoernoai.
    }
error-not_allowed-nothing_to_take_back = Do hast noch gjin set om werom te nimmen.
error-not_allowed-takeback_proposal_stands = Dyn fersyk om werom te nimmen stiet al.
error-not_allowed-opponent_takeback_stands = Dyn tsjinstanner wol in set weromnimme: nim dat earst oan of wiis it ôf.
error-not_allowed-no_takeback_proposal = Dyn tsjinstanner hat net frege om in set werom te nimmen.
error-rate_limited-takeback_too_soon = Weromnimme kin op syn heechst ien kear yn de { $every_s } s: besykje it oer { $retry_after_s } s nochris.
