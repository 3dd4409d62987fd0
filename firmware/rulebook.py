"""The rules in play as short sentences: the in-game Rules pages (docs/rules.md says the
same sentences, a test keeps them together).

Each sentence wraps to at most three rows of 16 characters, so that even a 72x40 page
holds it whole (firmware.screens.PagesScreen breaks pages between sentences). Loaded
only to make the Rules pages (firmware.app's `make`), and let go of at once.
"""

from engine.compat import forget


def made(app):
    """The Rules pages of the match in play (App.make); they keep the words, not this code."""
    forget("firmware.rulebook")
    app.pages("rules", "Rules", rules_lines(app.game.rules))


def rules_lines(rules):
    """The rules of `rules` (an engine.rules.Rules), one sentence a line, in the order of play."""
    from engine.rules import ACE_DRAW4, ACE_PLAY_AGAIN, MAU_CHALLENGE, MAU_AUTO, MATCH_ELIMINATION
    from engine.rules import STANDARD_POINTS
    out = ["Lay all your cards first to win.",
           "%d cards each, from %d cards." % (rules.hand_size, rules.deck_size()),
           "The first card up is never an action card." if rules.first_card
           else "The first card up has no effect.",
           "Lay a card of the top card's suit or rank.",
           "Cannot or will not lay? Draw a card."]
    out.append("A drawn card that fits may be laid at once." if rules.play_drawn
               else "After drawing, your turn ends.")
    if rules.must_play_if_able:
        out.append("If a card fits, you must lay it.")
    out.append("7: the next player draws 2 as their turn.")
    if rules.stack_sevens:
        out.append("A 7 on a 7 adds 2 and passes it on.")
    if rules.eight_skips:
        out.append("8: the next player misses a turn.")
    if rules.nine_reverses:
        out.append("9: the play turns round.")
    out.append("Jack: lay it on any card, wish a suit." if rules.jack_on_jack
               else "Jack: on any card but a Jack; wish a suit.")
    out.append("The wish holds until that suit or a Jack.")
    if rules.no_finish_on_jack:
        out.append("Your last card may not be a Jack.")
    if rules.ace == ACE_DRAW4:
        out.append("Ace: the next player draws 4 as their turn.")
        out.append("An Ace on an Ace adds 4 and passes it on.")
    elif rules.ace == ACE_PLAY_AGAIN:
        out.append("Ace: lay one more card, or draw one.")
    out.append("Say Mau as you lay your second last card.")
    if rules.mau_penalty == MAU_CHALLENGE:
        out.append("Forgot? Others may catch you: draw 2.")
    elif rules.mau_penalty == MAU_AUTO:
        out.append("Forgot? You draw 2 at once.")
    else:
        out.append("Forgetting Mau costs nothing.")
    out.append("A last 7 still makes the next draw 2." if rules.last_seven
               else "Your last card ends the round.")
    out.append("Pile empty? The laid cards are shuffled.")
    out.append("Cards left in hand count against you.")
    if bytes(rules.points) == STANDARD_POINTS:
        out.append("Jack and Ace 11, Queen and King 10.")
        out.append("Other cards count their number.")
    else:
        out.append("Cards count as set for this game.")
    if rules.match == MATCH_ELIMINATION:
        out.append("Over %d points you are out." % rules.limit)
        out.append("The last player in wins.")
    elif rules.rounds > 1:
        out.append("After %d rounds, fewest points win." % rules.rounds)
    return out
