"""The main job, ``python -m skstruct``, on both of its data sources."""

from skstruct.__main__ import main


def test_main_job_falls_back_to_synthetic_data(tmp_path, monkeypatch, capsys):
    monkeypatch.setenv("SKSTRUCT_DATA", str(tmp_path))
    monkeypatch.setenv("HOME", str(tmp_path))
    assert main(["--max-iter", "2"]) == 0
    out = capsys.readouterr().out
    assert "Data: synthetic HMM sequences" in out
    assert "Test token accuracy:" in out and "span F1" not in out


def test_main_job_uses_conll2000_when_present(data_home, capsys):
    assert main(["--data-home", str(data_home), "--max-iter", "2"]) == 0
    out = capsys.readouterr().out
    assert "Data: CoNLL-2000 chunking" in out
    f1 = float(out.split("Test span F1 (conlleval):")[1].split()[0])
    assert f1 > 85.0
