"""VM proof of the wire: two to four MicroPython VMs, each running firmware/link.py and
its real transport, joined by the fake wire (tools/fakes/wire.py) that the orchestrator
holds (tools/vm/mesh.py). Seeded message streams arrive complete, in order, exactly once,
through drops, corruption, duplicates, delays, reordering and an unplug mid-frame."""
import pytest

from tools.vm import mesh_streams

N = 12                  # messages each way on each link


@pytest.mark.parametrize("model", ["cable", "thumby", "espnow"])
def test_streams_arrive_whole_in_order_once_through_faults_and_an_unplug(model):
    steps, reports, log, cut = mesh_streams.run(model, seed=3, n=N)
    print(model, steps, "steps;", log)
    assert cut, "the unplug came while a frame was on its way"
    for fault in ("dropped", "corrupted", "duplicated", "delayed", "reordered"):
        assert log[fault], fault
    assert reports == mesh_streams.expected(model, N)


def test_the_command_says_every_stream_arrived_as_sent(capsys):
    assert mesh_streams.main(["--model", "thumby", "--messages", "4", "--clean"]) == 0
    out = capsys.readouterr().out
    assert "unplugged mid-frame: yes" in out
    assert out.count("as sent") == 2 and "NOT" not in out
