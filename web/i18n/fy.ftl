# Boardcast, Frysk. Terms from the Frisian rules as the Dambûn Frysk Spul writes them: see
# GLOSSARY.md, which also lists what a native speaker should review (all of this file is a
# non-native draft).


## The terminal client's help overlay (`?`).

help-title = toetsen
help-close = elke toets slút
help-more = … noch { $count }: in hegere terminal lit se sjen
help-home-switch = oare list: útdagings, rinnende partijen, kanalen
help-home-select = kieze
help-home-join = útdaging oannimme / partij of kanaal besjen
help-home-predict = foarsizze op it keazen kanaal
help-home-new = nije partij: betinktiid, kleur, iepenbier of privee
help-home-invite = privee partij iepenje mei in útnoegingskoade
help-home-engine = kompjûterpartij begjinne (searje, engines, seeds) en foarsizze
help-home-tv = sjoch nei tv-kanaal 1
help-home-ftv = sjoch nei Fryske tv (de bêst besjoene rinnende partij)
help-home-resume = de bewarre plak wer opnimme
help-home-refresh = fernije
help-home-quit = ophâlde
help-match-type = typ in set; Tab follet oan, Enter spilet
help-match-cursor = de rinnerke ferpleatse
help-match-pick = kies it stik, dan it fjild fan oankomst
help-match-route = kies de slachrûte (slach markearre)
help-match-clear = ynfier en kar wiskje
help-match-resign = opjaan (freget befêstiging)
help-match-abort = ôfbrekke, allinne foar beider earste set
help-match-draw = remise oanbiede of oannimme / wegerje
help-match-rematch = revanche oanbiede of oannimme / wegerje
help-match-claim = winst / remise easkje: tsjinstanner fuort
help-match-step = troch de setten blêdzje (End: de partij)
help-match-view = fjildnûmers, boerd draaie, letterstikken
help-match-save = PDN fan de partij bewarje (--save-pdn MAP, of hjir)
help-match-back = werom nei it begjinskerm (it plak bliuwt bewarre)
help-channel-cursor = de rinnerke ferpleatse
help-channel-pick = kies it fjild fan útgong, dan it fjild fan oankomst
help-channel-guess = typ in foarsizzing foar de kommende set
help-channel-predict = foarsizzen oan of út
help-channel-pieces = stikken as figueren (FULL) of letters (FLAT)
help-channel-leaders = ranglist fan alle foarsizzings, mei dyn eigen plak
help-channel-clear = ynfier en keazen fjild wiskje
help-channel-back = werom nei it begjinskerm (of ophâlde, begûn as `boardcast tv`)

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
error-outside_rating_range = Dyn rating falt bûten it berik fan dizze útdaging.

## The web client.

web-language = Taal
web-nav-lobby = Lobby
web-nav-tv = Tv
