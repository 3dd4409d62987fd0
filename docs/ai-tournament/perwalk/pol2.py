import os
from engine import ai as _ai
globals().update({k: getattr(_ai, k) for k in dir(_ai) if k.startswith('_') and not k.startswith('__')})
W7 = int(os.environ.get('W7', '10'))
W8 = int(os.environ.get('W8', '16'))
V7 = int(os.environ.get('V7', '0'))
def policy(s, p, flags, suits):
    """The playout policy, straight from table bytes `s` for seat p (every player uses
    it): catch a forgotten Mau; stack on a pending draw, else draw it; play the drawn
    card if it fits; else the fitting card of the suit held most (7s and 8s first while
    the hand is big or the next player is short of cards), a Jack only when nothing
    else fits, wishing the suit held most; else draw, or pass. Says Mau. The move is
    always one legal_moves would list (host_tests/test_ai.py checks it)."""
    debtor = s[_S_DEBTOR]
    if debtor != _NOBODY and debtor != p:
        return _CATCH | debtor
    lo = s[_S_BOUNDS + p]
    hi = s[_S_BOUNDS + p + 1]
    size = hi - lo
    mau = _MAU if size == 2 else 0
    if s[_S_PENDING]:
        r = s[_S_PEND_RANK]
        if r != _SEVEN or flags & _F_STACK7:
            for i in range(lo, hi):
                if s[i] & 15 == r:
                    return s[i] | mau
        return _DRAW
    players = s[_S_PLAYERS]
    discard = s[_S_BOUNDS + players]
    t = s[discard]
    jack_ok = (flags & _F_JOJ or t & 15 != _JACK) and not (size == 1 and flags & _F_NOFINJ)
    w = s[_S_WISH]
    if w != _NO_WISH:
        suit = w
        rank = 0
    else:
        suit = t >> 4
        rank = t & 15
    drawn = _NO_WISH
    if s[_S_PHASE] == _DRAWN:
        drawn = s[_S_DRAWN]
        if drawn & 15 == _JACK:
            if not jack_ok:
                return _PASS
        elif drawn >> 4 != suit and drawn & 15 != rank:
            return _PASS
        if drawn & 15 != _JACK or size == 1:
            return drawn | mau
    for k in range(4):
        suits[k] = 0
    for i in range(lo, hi):
        c = s[i]
        if c & 15 != _JACK:
            suits[c >> 4] += 1
    if drawn != _NO_WISH:
        return drawn | _wish_of(suits) << 6 | mau
    q = (p + s[_S_DIR]) % players
    few = s[_S_BOUNDS + q + 1] - s[_S_BOUNDS + q] <= 2
    best = -1
    best_score = -1000
    jack = -1
    for i in range(lo, hi):
        c = s[i]
        r = c & 15
        if r == _JACK:
            if jack_ok:
                jack = c
        elif c >> 4 == suit or r == rank:
            sc = suits[c >> 4] << 2
            if r == _EIGHT and players == 2:
                # heads-up, an 8 comes back to me: good with a card to follow it
                f = suits[c >> 4] - 1
                for j in range(lo, hi):
                    if s[j] & 15 == _EIGHT and s[j] != c:
                        f += 1
                sc += W8 if f > 0 else -W8
            elif r == _SEVEN and (size > 3 or few or V7):
                sc += W7
            elif r == _EIGHT and (size > 3 or few):
                sc += 10
            if sc > best_score:
                best_score = sc
                best = c
    if best >= 0:
        return best | mau
    if jack >= 0:
        if size == 1:
            return jack
        return jack | _wish_of(suits) << 6 | mau
    if s[_S_BOUNDS] > _S_CARDS or s[_S_END] - discard > 1:
        return _DRAW
    return _PASS


