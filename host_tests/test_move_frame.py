"""The frame a move is shown in on 240x135 sends what it drew, its parts apart: the seats,
the middle, the status lines and the hand are boxes of their own, not joined over more felt
between them than a window costs (docs/boards.md, the T-Display's redraw)."""
from firmware import boxes, gfx
from host_tests.test_boards import load
from tools.fakes import chipmodels


def frames_of_a_game(name, monkeypatch, moves):
    """The bench's game on `name` (seed 4) from Start until `moves` moves are made: for each
    frame that drew, (moves made after it, pixels drawn, pixels shown)."""
    chipmodels.install_machine(monkeypatch)
    rig = chipmodels.Rig(load(name), seed=4, model=True)
    canvas, display = rig.canvas, rig.display
    marks, shown, out = [], [0], []

    def mark(x, y, w, h, inner=canvas.mark):
        marks.append((x, y, w, h))
        inner(x, y, w, h)

    def show(c, x, y, w, h, inner=display.show):
        shown[0] += w * h
        inner(c, x, y, w, h)

    def frame(inner=rig.frame):
        del marks[:]
        shown[0] = 0
        inner()
        drawn = {(i, j) for x, y, w, h in marks
                 for j in range(max(y, 0), min(y + h, canvas.height))
                 for i in range(max(x, 0), min(x + w, canvas.width))}
        if drawn:
            game = rig.app.game
            out.append((game.n_moves if game else -1, len(drawn), shown[0]))

    canvas.mark, display.show, rig.frame = mark, show, frame
    chipmodels.choose(rig, "New game")
    sc = rig.app.screen
    while sc.rows_of[sc.cursor][0] != "start":
        rig.act(1)
    rig.act(3)
    while rig.app.game.n_moves < moves:
        chipmodels.play_game(rig, 1)
    assert rig.differences() == []
    return out


def test_the_frame_of_a_move_sends_its_parts_apart(monkeypatch):
    """Ida draws 4 (the game's fourth move): the frame redraws ten parts of the table; it
    sends at most two merges' slack more pixels than it drew (a name with its Mau mark, the
    hand with its arrow: test_gfx); it sent 2,304 more when the canvas kept six boxes and
    joined the closest over the felt."""
    frames = frames_of_a_game("tdisplay", monkeypatch, 4)
    moved = [(drawn, shown) for made, drawn, shown in frames if made == 4]
    drawn, shown = moved[0]
    assert drawn <= shown <= drawn + 2 * boxes._SLACK
