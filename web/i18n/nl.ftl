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
help-home-invite = privépartij openen met uitnodigingscode
help-home-engine = computerpartij starten (serie, engines, seeds) en voorspellen
help-home-tv = kijk naar tv-kanaal 1
help-home-ftv = kijk naar Friese tv (de best bekeken lopende partij)
help-home-resume = hervat de bewaarde plaats
help-home-refresh = vernieuwen
help-home-quit = stoppen
help-match-type = typ een zet; Tab vult aan, Enter speelt
help-match-cursor = cursor verplaatsen
help-match-pick = kies het stuk, dan het veld van aankomst
help-match-route = kies de slagroute (slag gemarkeerd)
help-match-clear = invoer en keuze wissen
help-match-resign = opgeven (vraagt bevestiging)
help-match-abort = afbreken, alleen voor beider eerste zet
help-match-draw = remise aanbieden of aannemen / weigeren
help-match-rematch = revanche aanbieden of aannemen / weigeren
help-match-claim = winst / remise opeisen: tegenstander weg
help-match-step = door de zetten bladeren (End: de partij)
help-match-view = veldnummers, bord draaien, letterstukken
help-match-save = PDN van de partij bewaren (--save-pdn MAP, of hier)
help-match-back = terug naar het beginscherm (de plaats blijft bewaard)
help-channel-cursor = cursor verplaatsen
help-channel-pick = kies het veld van vertrek, dan het veld van aankomst
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
error-outside_rating_range = Je rating valt buiten het bereik van deze uitdaging.

## The web client.

web-language = Taal
web-nav-lobby = Lobby
web-nav-tv = Tv
