"""Custom rules are checked against the table actually seated: the engine, selfplay, the setup."""
import pytest

from tools import selfplay


def test_selfplay_deals_seven_cards_to_four_players_from_32(tmp_path, capsys):
    out = tmp_path / "log.jsonl"
    assert selfplay.main(["--rule", "hand_size=7", "--players", "4", "--games", "2",
                          "--seat-changes", "--out", str(out)]) == 0
    from tools.replay import replay_file
    assert replay_file(str(out))["games"] == 2


def test_selfplay_refuses_a_fifth_hand_of_seven_naming_the_option(capsys):
    with pytest.raises(SystemExit):
        selfplay.main(["--rule", "hand_size=7", "--players", "5"])
    err = capsys.readouterr().err
    assert "hand_size=7" in err and "5 players" in err and "at most 4 players" in err
